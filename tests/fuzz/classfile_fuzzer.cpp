// libFuzzer target for the class-file reader. Oracle: no crash, no out-of-bounds access (ASan),
// no undefined behaviour (UBSan), and any input the reader fully accepts writes back byte for
// byte.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "classfile/class_file.h"
#include "classfile/code_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace jsched::cf;
  Bytes in(data, size);
  try {
    ClassFile cf = ClassFile::parse(in);
    cf.decode_all_code();
    Buffer out = cf.write();
    if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  } catch (const ParseError&) {
  } catch (const EncodeError&) {
  }
  return 0;
}
