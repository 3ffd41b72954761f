// Read, decode every method's code and frames, write back, and compare with the input.
#pragma once

#include <string>

#include "classfile/bytes.h"

namespace jsched::cf {

struct RoundtripResult {
  enum Kind { Same, Differ, Error } kind = Same;
  std::string message;  // for Differ: where; for Error: the parse/encode error
};

RoundtripResult roundtrip(Bytes input);

}  // namespace jsched::cf
