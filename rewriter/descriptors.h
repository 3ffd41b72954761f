// Method and field descriptors: argument slots, return kinds, verification types.
#pragma once

#include <string_view>
#include <vector>

#include "classfile/code.h"
#include "classfile/constant_pool.h"

namespace jsched::rw {

// The verification type of a value of field descriptor `desc` (the cp may gain a Class entry).
cf::VType vtype_of(std::string_view desc, cf::ConstantPool& cp);

// Argument descriptors of a method descriptor, e.g. "(ILjava/lang/String;[J)V" -> {"I",
// "Ljava/lang/String;", "[J"}.
std::vector<std::string_view> arg_descs(std::string_view method_desc);
std::string_view return_desc(std::string_view method_desc);

// Number of local-variable / operand-stack slots the arguments take (long/double take two).
int arg_slots(std::string_view method_desc);
inline int desc_slots(std::string_view d) {
  return (d[0] == 'J' || d[0] == 'D') ? 2 : d[0] == 'V' ? 0 : 1;
}

// The load and return instructions for a value of descriptor character `c` (I, J, F, D, L, [,
// V for return).
uint8_t load_op(char c);
uint8_t return_op(char c);

// Internal class name of a reference descriptor: "Ljava/lang/Object;" -> "java/lang/Object",
// "[I" -> "[I" (array classes are named by their descriptor).
std::string_view class_of(std::string_view ref_desc);

}  // namespace jsched::rw
