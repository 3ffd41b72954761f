// libFuzzer target for the zip reader (jars and jmods).
#include <cstdint>

#include "classfile/zip_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace jsched::cf;
  try {
    ZipReader z(Bytes(data, size));
    for (const ZipReader::Entry& e : z.entries()) {
      try {
        z.read(e);
      } catch (const ZipError&) {
      }
    }
  } catch (const ZipError&) {
  }
  return 0;
}
