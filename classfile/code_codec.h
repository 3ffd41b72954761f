// Decoding a Code attribute into the Code model, and encoding the model back into bytes.
#pragma once

#include <stdexcept>
#include <string>

#include "classfile/bytes.h"
#include "classfile/code.h"
#include "classfile/constant_pool.h"

namespace jsched::cf {

// Raised when a (possibly edited) Code model cannot be encoded, e.g. a 16-bit branch whose
// target moved out of range or code longer than 65535 bytes.
class EncodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `data` is the attribute body; `base` its absolute offset in the class file (for errors).
void read_code(Bytes data, size_t base, const ConstantPool& cp, uint16_t major, Code& out);

// Writes the whole attribute: name index, length, body.
void write_code(Writer& w, uint16_t name, const Code& code);

}  // namespace jsched::cf
