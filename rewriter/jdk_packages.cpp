#include "rewriter/jdk_packages.h"

#include <algorithm>

namespace jsched::rw {

bool jdk_package(std::string_view n, char separator) {
  for (std::string_view p : kJdkPackages) {
    if (n.size() >= p.size() && std::equal(p.begin(), p.end(), n.begin(), [&](char a, char b) {
          return a == '/' ? b == separator : a == b;
        }))
      return true;
  }
  return false;
}

}  // namespace jsched::rw
