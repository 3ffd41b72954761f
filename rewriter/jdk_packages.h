// The JDK's own packages, by class name: what the agent leaves to the JDK unless asked, and
// what the rewriter never takes for a program's class.
#pragma once

#include <string_view>

namespace jsched::rw {

inline constexpr std::string_view kJdkPackages[] = {"java/", "javax/", "jdk/", "sun/", "com/sun/"};

// Whether a class name belongs to the JDK by its package: an internal name, or with
// `separator` '.' a dotted one (as stack frames name classes).
bool jdk_package(std::string_view name, char separator = '/');

}  // namespace jsched::rw
