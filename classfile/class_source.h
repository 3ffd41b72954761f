// Enumerates the classes under a path: a .class file, a directory (recursively, including the
// jars and jmods inside it), a .jar/.zip, or a .jmod (a 4-byte header followed by a zip).
#pragma once

#include <functional>
#include <string>

#include "classfile/bytes.h"

namespace jsched::cf {

struct ClassVisitor {
  // `origin` names the class for messages: "file.jar!pkg/C.class" or a file path.
  std::function<void(const std::string& origin, Bytes bytes)> on_class;
  // Something under the path could not be read (missing file, corrupt archive entry).
  std::function<void(const std::string& origin, const std::string& message)> on_error;
};

void visit_classes(const std::string& path, const ClassVisitor& v);

}  // namespace jsched::cf
