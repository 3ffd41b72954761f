#include "classfile/zip_reader.h"

#include <zlib.h>

#include <algorithm>

namespace jsched::cf {

namespace {

constexpr uint32_t kEocdSig = 0x06054b50, kZip64LocatorSig = 0x07064b50, kZip64EocdSig = 0x06064b50,
                   kCentralSig = 0x02014b50, kLocalSig = 0x04034b50;

// Little-endian field access with bounds checks against the whole archive.
struct LE {
  Bytes d;
  void need(uint64_t at, uint64_t n, const char* what) const {
    if (at > d.size() || n > d.size() - at) {
      throw ZipError(std::string("truncated zip: ") + what + " at offset " + std::to_string(at));
    }
  }
  uint16_t u2(uint64_t at) const { return uint16_t(d[at] | d[at + 1] << 8); }
  uint32_t u4(uint64_t at) const { return uint32_t(u2(at)) | uint32_t(u2(at + 2)) << 16; }
  uint64_t u8(uint64_t at) const { return uint64_t(u4(at)) | uint64_t(u4(at + 4)) << 32; }
};

}  // namespace

ZipReader::ZipReader(Bytes data) : data_(data) {
  LE le{data};
  if (data.size() < 22) throw ZipError("not a zip archive (too short)");
  uint64_t eocd = UINT64_MAX;
  uint64_t lowest = data.size() >= 22 + 65535 ? data.size() - 22 - 65535 : 0;
  for (uint64_t p = data.size() - 22 + 1; p-- > lowest;) {
    if (le.u4(p) == kEocdSig) {
      eocd = p;
      break;
    }
  }
  if (eocd == UINT64_MAX) throw ZipError("not a zip archive (no end of central directory)");
  uint64_t count = le.u2(eocd + 10);
  uint64_t cd_size = le.u4(eocd + 12);
  uint64_t cd_off = le.u4(eocd + 16);
  if (eocd >= 20 && le.u4(eocd - 20) == kZip64LocatorSig) {
    uint64_t z = le.u8(eocd - 20 + 8);
    le.need(z, 56, "zip64 end of central directory");
    if (le.u4(z) != kZip64EocdSig) throw ZipError("bad zip64 end of central directory");
    count = le.u8(z + 32);
    cd_size = le.u8(z + 40);
    cd_off = le.u8(z + 48);
  }
  le.need(cd_off, cd_size, "central directory");
  if (count > cd_size / 46) throw ZipError("central directory entry count exceeds its size");
  entries_.reserve(count);
  uint64_t p = cd_off;
  for (uint64_t i = 0; i < count; ++i) {
    le.need(p, 46, "central directory entry");
    if (le.u4(p) != kCentralSig) {
      throw ZipError("bad central directory entry " + std::to_string(i) + " at offset " +
                     std::to_string(p));
    }
    Entry e;
    e.flags = le.u2(p + 8);
    e.method = le.u2(p + 10);
    e.crc = le.u4(p + 16);
    e.compressed = le.u4(p + 20);
    e.size = le.u4(p + 24);
    uint16_t nlen = le.u2(p + 28), xlen = le.u2(p + 30), clen = le.u2(p + 32);
    e.local_offset = le.u4(p + 42);
    le.need(p + 46, uint64_t(nlen) + xlen + clen, "central directory entry name");
    e.name.assign(reinterpret_cast<const char*>(data.data() + p + 46), nlen);
    // Zip64 extended information replaces the 32-bit fields that are saturated.
    for (uint64_t x = p + 46 + nlen, xend = x + xlen; x + 4 <= xend;) {
      uint16_t id = le.u2(x), sz = le.u2(x + 2);
      if (x + 4 + sz > xend) break;
      if (id == 0x0001) {
        uint64_t q = x + 4, qend = q + sz;
        if (e.size == 0xffffffff && q + 8 <= qend) e.size = le.u8(q), q += 8;
        if (e.compressed == 0xffffffff && q + 8 <= qend) e.compressed = le.u8(q), q += 8;
        if (e.local_offset == 0xffffffff && q + 8 <= qend) e.local_offset = le.u8(q), q += 8;
      }
      x += 4 + sz;
    }
    entries_.push_back(std::move(e));
    p += 46 + uint64_t(nlen) + xlen + clen;
  }
}

std::vector<uint8_t> ZipReader::read(const Entry& e) const {
  LE le{data_};
  le.need(e.local_offset, 30, ("local header of " + e.name).c_str());
  if (le.u4(e.local_offset) != kLocalSig) throw ZipError("bad local header for " + e.name);
  if (e.flags & 1) throw ZipError(e.name + " is encrypted");
  uint64_t start = e.local_offset + 30 + le.u2(e.local_offset + 26) + le.u2(e.local_offset + 28);
  le.need(start, e.compressed, ("data of " + e.name).c_str());
  if (e.size > (uint64_t(1) << 31)) throw ZipError(e.name + " is larger than 2 GiB");
  // Deflate expands at most 1032:1; a larger claim is corrupt and must not drive allocation.
  if (e.size > e.compressed * 1032 + 1024) {
    throw ZipError(e.name + ": claims " + std::to_string(e.size) + " bytes from " +
                   std::to_string(e.compressed) + " compressed");
  }
  std::vector<uint8_t> out(e.size);
  if (e.method == 0) {
    if (e.compressed != e.size) throw ZipError(e.name + ": stored entry with mismatched sizes");
    std::copy_n(data_.data() + start, e.size, out.data());
  } else if (e.method == 8) {
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw ZipError("zlib initialisation failed");
    z.next_in = const_cast<Bytef*>(data_.data() + start);
    z.avail_in = uInt(e.compressed);
    z.next_out = out.data();
    z.avail_out = uInt(out.size());
    int rc = inflate(&z, Z_FINISH);
    uint64_t produced = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || produced != e.size) {
      throw ZipError(e.name + ": corrupt deflate data");
    }
  } else {
    throw ZipError(e.name + ": unsupported compression method " + std::to_string(e.method));
  }
  if (crc32(0, out.data(), uInt(out.size())) != e.crc) throw ZipError(e.name + ": CRC mismatch");
  return out;
}

}  // namespace jsched::cf
