// Reads entries of a zip archive held in memory (jars, and jmods after their 4-byte header),
// including zip64 archives; stored and deflated entries, inflated with zlib.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "classfile/bytes.h"

namespace jsched::cf {

class ZipError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ZipReader {
 public:
  struct Entry {
    std::string name;
    uint16_t method = 0, flags = 0;
    uint32_t crc = 0;
    uint64_t compressed = 0, size = 0, local_offset = 0;
  };

  // Parses the central directory; throws ZipError on malformed archives.
  explicit ZipReader(Bytes data);
  const std::vector<Entry>& entries() const { return entries_; }
  // Inflates one entry and checks its size and CRC; throws ZipError naming the entry.
  std::vector<uint8_t> read(const Entry& e) const;

 private:
  Bytes data_;
  std::vector<Entry> entries_;
};

}  // namespace jsched::cf
