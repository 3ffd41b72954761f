// Bounds-checked big-endian reading and fast appending writing of class-file bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace jsched::cf {

using Bytes = std::span<const uint8_t>;

// An allocator that leaves bytes uninitialised on resize: output buffers are always
// overwritten, and zero-filling them first showed up in profiles.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(args)...);
  }
};
using Buffer = std::vector<uint8_t, DefaultInitAllocator<uint8_t>>;

// Every malformed-input error carries the absolute byte offset in the class file where reading
// went wrong, so a user (or a fuzzer triage) can look at the exact spot.
class ParseError : public std::runtime_error {
 public:
  ParseError(size_t offset, const std::string& what)
      : std::runtime_error("offset " + std::to_string(offset) + ": " + what), offset_(offset) {}
  size_t offset() const { return offset_; }

 private:
  size_t offset_;
};

// Reads a sub-range of a class file; positions reported in errors are absolute (base + pos).
class Reader {
 public:
  Reader(Bytes data, size_t base = 0) : p_(data.data()), size_(data.size()), base_(base) {}

  size_t pos() const { return pos_; }
  size_t abs() const { return base_ + pos_; }
  size_t remaining() const { return size_ - pos_; }
  bool at_end() const { return pos_ == size_; }

  void need(size_t n, const char* what) const {
    if (n > size_ - pos_) [[unlikely]]
      truncated(n, what);
  }
  uint8_t u1(const char* what) {
    need(1, what);
    return p_[pos_++];
  }
  uint16_t u2(const char* what) {
    need(2, what);
    uint16_t v = uint16_t(p_[pos_] << 8 | p_[pos_ + 1]);
    pos_ += 2;
    return v;
  }
  uint32_t u4(const char* what) {
    need(4, what);
    uint32_t v = uint32_t(p_[pos_]) << 24 | uint32_t(p_[pos_ + 1]) << 16 |
                 uint32_t(p_[pos_ + 2]) << 8 | p_[pos_ + 3];
    pos_ += 4;
    return v;
  }
  Bytes bytes(size_t n, const char* what) {
    need(n, what);
    Bytes b(p_ + pos_, n);
    pos_ += n;
    return b;
  }
  void skip(size_t n, const char* what) {
    need(n, what);
    pos_ += n;
  }
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(abs(), what); }
  [[noreturn, gnu::cold, gnu::noinline]] void truncated(size_t n, const char* what) const {
    throw ParseError(abs(), std::string("truncated ") + what + ": needs " + std::to_string(n) +
                                " bytes, " + std::to_string(size_ - pos_) + " left");
  }
  [[noreturn]] void fail_at(size_t abs_offset, const std::string& what) const {
    throw ParseError(abs_offset, what);
  }

 private:
  const uint8_t* p_;
  size_t size_;
  size_t base_;
  size_t pos_ = 0;
};

// Appends big-endian values into a growable buffer. Writes go straight to memory after one
// capacity check, since the writer's inner loops emit millions of 1- and 2-byte items.
class Writer {
 public:
  explicit Writer(size_t expected = 4096) : buf_(expected) {}
  size_t size() const { return len_; }
  void ensure(size_t n) {
    if (len_ + n > buf_.size()) [[unlikely]]
      grow(n);
  }
  void u1(uint32_t v) {
    ensure(1);
    buf_[len_++] = uint8_t(v);
  }
  void u2(uint32_t v) {
    ensure(2);
    put2(len_, v);
    len_ += 2;
  }
  void u4(uint32_t v) {
    ensure(4);
    put4(len_, v);
    len_ += 4;
  }
  void bytes(Bytes b) {
    if (b.empty()) return;
    ensure(b.size());
    std::memcpy(buf_.data() + len_, b.data(), b.size());
    len_ += b.size();
  }
  void zeros(size_t n) {
    ensure(n);
    std::memset(buf_.data() + len_, 0, n);
    len_ += n;
  }
  // Reserves n bytes and returns where to write them, for loops that emit many small items
  // after one capacity check.
  uint8_t* raw(size_t n) {
    ensure(n);
    uint8_t* p = buf_.data() + len_;
    len_ += n;
    return p;
  }
  void patch_u2(size_t at, uint32_t v) { put2(at, v); }
  void patch_u4(size_t at, uint32_t v) { put4(at, v); }
  Bytes view() const { return Bytes(buf_.data(), len_); }
  Buffer take() {
    buf_.resize(len_);
    len_ = 0;
    return std::move(buf_);
  }

 private:
  [[gnu::noinline]] void grow(size_t n) { buf_.resize(std::max(buf_.size() * 2, len_ + n)); }
  void put2(size_t at, uint32_t v) {
    buf_[at] = uint8_t(v >> 8);
    buf_[at + 1] = uint8_t(v);
  }
  void put4(size_t at, uint32_t v) {
    buf_[at] = uint8_t(v >> 24);
    buf_[at + 1] = uint8_t(v >> 16);
    buf_[at + 2] = uint8_t(v >> 8);
    buf_[at + 3] = uint8_t(v);
  }
  Buffer buf_;
  size_t len_ = 0;
};

}  // namespace jsched::cf
