// Copying the members of one class into another: how the hooks get into java.lang.Thread in
// JDK mode (see java-shim/java/lang/JSchedShim.java).
#pragma once

#include "classfile/class_file.h"

namespace jsched::rw {

// Adds the donor's fields and methods (except constructors and static initializers) to
// `host`, translating every constant-pool reference; references to the donor class become
// references to the host. Attributes other than Code (and its frames and line/local tables)
// are dropped. Throws std::runtime_error on constants it cannot translate (method handles,
// dynamic constants).
void transplant(cf::ClassFile& donor, cf::ClassFile& host);

}  // namespace jsched::rw
