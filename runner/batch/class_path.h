// Files on a Java class path: directories, jars, `dir/*` (every jar in dir), "" for ".".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jsched::runner {

// The bytes of `entry` ("a/b/C.class") from the first class path element that has it.
std::optional<std::vector<uint8_t>> read_from_class_path(const std::string& classpath,
                                                         const std::string& entry);

}  // namespace jsched::runner
