// The version of jsched and the git commit it was built from (runner/CMakeLists.txt).
#pragma once

namespace jsched {
extern const char kVersion[];
extern const char kCommit[];
}  // namespace jsched
