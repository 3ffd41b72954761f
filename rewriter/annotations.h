// Reading annotations on class members (RuntimeVisible/InvisibleAnnotations attributes).
#pragma once

#include <string_view>

#include "classfile/class_file.h"

namespace jsched::rw {

// Whether `m` carries an annotation of type `type_desc` (e.g. "Ljava/lang/Deprecated;").
// Throws cf::ParseError on malformed annotation attributes.
bool has_annotation(const cf::ClassFile& cf, const cf::Member& m, std::string_view type_desc);

}  // namespace jsched::rw
