// Array accesses that no other thread can see: the array was allocated by this very call of the
// method and its reference has not left the frame yet (not stored in a field or an array, not
// passed to a method, not returned). No interleaving can put another thread's action between
// two of them that matters, so they need no scheduling point: the loop that fills a buffer it
// just made (a class initializer that unpacks a large table, a parser building a result) then
// runs at the JVM's speed.
#pragma once

#include <vector>

#include "classfile/class_file.h"

namespace jsched::rw {

// By index into code.insns: true at each array load or store whose array is such a fresh one.
// Empty when the method allocates no array or its code cannot be followed (no frames: class
// files before version 50). `code` must have a label before every `new` (label_news).
std::vector<bool> fresh_array_accesses(cf::ClassFile& cf, const cf::Member& m,
                                       const cf::Code& code);

}  // namespace jsched::rw
