// Identity hash codes that a seed and a schedule determine. The JVM draws an object's identity
// hash from a per-thread generator, so the iteration order of a HashSet of objects without
// hashCode (and whatever follows from it) differs between a run and its replay. An application
// class that extends Object without declaring hashCode() gets one that asks the agent (the
// object's stable name, docs/architecture.md). Subclasses inherit it; classes that declare
// hashCode, interfaces, and classes that implement Serializable or Externalizable directly
// (whose default serialVersionUID counts public methods) are left alone.
#pragma once

#include <string_view>

#include "classfile/class_file.h"

namespace jsched::rw {

// Adds `public int hashCode() { return <hook_owner>.identityHash(this); }` when the rule above
// allows; returns whether it did.
bool add_stable_hash(cf::ClassFile& c, std::string_view hook_owner);

}  // namespace jsched::rw
