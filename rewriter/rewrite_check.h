// The safety net behind class rewriting: before rewritten bytes go to the JVM, the parts
// jsched changed are checked against the rules the JVM's class-file parser and verifiers apply
// to them in that class-file version (JVMS 4.4-4.10, and the old inference verifier's rules
// for versions below 50, which have no StackMapTable): which constant-pool kinds each
// instruction may name, which methods an interface may declare, code and frame limits. A class
// that fails is loaded as it was (a lost scheduling point, never a VerifyError the program
// would be blamed for).
#pragma once

#include <string>

#include "classfile/class_file.h"

namespace jsched::rw {

// Checks every method whose code was decoded (rewritten, or added by jsched) and the access
// flags of every method and field. Returns "" when the class passes, else the first rule it
// breaks, naming the method and instruction.
std::string check_rewritten(const cf::ClassFile& cf);

}  // namespace jsched::rw
