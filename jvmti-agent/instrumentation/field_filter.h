// Which field accesses become scheduling points, from the fields' declarations.
// accesses=volatile: only accesses to volatile fields. accesses=all: every access but reads of
// final fields, which cannot race with a write once the object (or class) is constructed, so
// that a loop reading a final field (a bound, a configuration value) is not a point per turn.
// The rewriter sees a field reference (owner, name), not its declaration, so this filter finds
// the declaring class by reading class files through the loading class's loader (the class
// being rewritten from its own bytes), walking up superclasses, and caches what it read; for
// accesses=all, a JDK class's declarations only from its own bytes or the cache (reading JDK
// class files through Java while JDK classes load can load them circularly).
// A field it cannot resolve counts as volatile and not final: one scheduling point too many is
// harmless, one too few could hide a bug.
#pragma once

#include <jni.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "classfile/bytes.h"
#include "rewriter/config.h"

namespace jsched::agent {

class FieldFilter : public rw::AccessFilter {
 public:
  // For the calling thread, while it lives: the class about to be rewritten and its loader
  // (null: the JDK's); `env` null means Java may not run yet (references to other classes
  // then count as volatile). Scopes nest (reading a class file may load other classes).
  struct Context {
    JNIEnv* env = nullptr;
    jobject loader = nullptr;
    std::string name;
    cf::Bytes bytes;
  };
  class Scope {
   public:
    Scope(JNIEnv* env, jobject loader, std::string_view name, cf::Bytes bytes);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Context saved_;
  };

  // `jdk_too`: JDK classes (instrumented through include=) get their volatile accesses as
  // points too; by default (accesses not given) only application classes do.
  void set_jdk_too(bool v) { jdk_too_ = v; }
  // Volatile (the default) or All; before any class is rewritten.
  void set_accesses(rw::Accesses a) { accesses_ = a; }

  rw::AccessDecision decide(const rw::SiteInfo& site) const override;
  // Whether `owner`.`name` (or the superclass field it names) is final.
  bool is_final(const std::string& owner, const std::string& name) const {
    return kind_of(owner, name) == Kind::Final;
  }
  // Whether accesses to it order (volatile, final, or a field it cannot resolve).
  bool orders(const std::string& owner, const std::string& name) const {
    return kind_of(owner, name) != Kind::Plain;
  }

 private:
  enum class Kind { Plain, Volatile, Final, Unknown };
  struct Declared {
    std::unordered_map<std::string, Kind> fields;  // by name
    std::string super;                             // "" at the top or when unknown
  };
  std::optional<Declared> read(const std::string& owner) const;
  // The field as `owner` or a superclass declares it (Unknown: no class file found).
  Kind kind_of(std::string owner, const std::string& name) const;

  bool jdk_too_ = false;
  rw::Accesses accesses_ = rw::Accesses::Volatile;
  mutable std::mutex mu_;
  // Null: no class file found. Shared, not copied: every field access site of every class
  // asks, and a copy of a class's field table per question was most of a heavy program's
  // rewriting time.
  mutable std::unordered_map<std::string, std::shared_ptr<const Declared>> cache_;
};

}  // namespace jsched::agent
