#include "jvmti-agent/instrumentation/instrumented_classes.h"

#include <array>
#include <mutex>
#include <string>

namespace jsched::agent {

namespace {

// Immutable: a reference to one reaches nothing another thread could change.
constexpr std::array<std::string_view, 9> kValues = {
    "Ljava/lang/String;", "Ljava/lang/Boolean;",   "Ljava/lang/Byte;",
    "Ljava/lang/Short;",  "Ljava/lang/Character;", "Ljava/lang/Integer;",
    "Ljava/lang/Long;",   "Ljava/lang/Float;",     "Ljava/lang/Double;"};

}  // namespace

void InstrumentedClasses::add(std::string_view name, std::string_view super) {
  std::unique_lock<std::shared_mutex> g(mu_);
  super_.insert_or_assign(std::string(name), std::string(super));
}

bool InstrumentedClasses::covers(std::string_view desc) const {
  for (std::string_view v : kValues)
    if (desc == v) return true;
  if (desc.size() < 3 || desc.front() != 'L' || desc.back() != ';') return false;
  std::string cls(desc.substr(1, desc.size() - 2));
  std::shared_lock<std::shared_mutex> g(mu_);
  // The type itself, then each superclass below Object (a field of type Object holds
  // anything). A chain is short; a cycle cannot be loaded, but the walk is bounded all the same.
  for (int depth = 0; depth < 64; ++depth) {
    auto it = super_.find(cls);
    if (it == super_.end()) return false;
    cls = it->second;
    // java.lang.Enum's own state is its constants' final name and ordinal.
    if (cls == "java/lang/Object" || cls == "java/lang/Enum") return true;
  }
  return false;
}

}  // namespace jsched::agent
