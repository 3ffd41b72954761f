#include "classfile/roundtrip.h"

#include <algorithm>

#include "classfile/class_file.h"
#include "classfile/code_codec.h"

namespace jsched::cf {

RoundtripResult roundtrip(Bytes input) {
  try {
    ClassFile cf = ClassFile::parse(input);
    cf.decode_all_code();
    Buffer out = cf.write();
    if (out.size() == input.size() && std::equal(out.begin(), out.end(), input.begin())) {
      return {};
    }
    auto m = std::mismatch(input.begin(), input.end(), out.begin(), out.end());
    size_t at = size_t(m.first - input.begin());
    return {RoundtripResult::Differ, "first difference at byte " + std::to_string(at) + " (input " +
                                         std::to_string(input.size()) + " bytes, output " +
                                         std::to_string(out.size()) + ")"};
  } catch (const ParseError& e) {
    return {RoundtripResult::Error, e.what()};
  } catch (const EncodeError& e) {
    return {RoundtripResult::Error, std::string("encoding: ") + e.what()};
  }
}

}  // namespace jsched::cf
