// HaPSet statements (docs/agent.md "HaPSet coverage"): the scheduling point's site
// and its calling context, named by a hash that is the same in every JVM that runs the same
// code: each of the top `frames`+1 frames of the application (jsched's hooks skipped)
// contributes its method (class, name, descriptor) and bytecode index. The walk ends where the
// execution was entered (jsched's driver of iterations, reflection), so that main's
// statements are the same in an iteration as in a JVM of its own.
#pragma once

#include <jvmti.h>

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace jsched::agent {

class Statements {
 public:
  Statements(jvmtiEnv* jvmti, uint32_t frames) : jvmti_(jvmti), frames_(frames) {}
  // The calling thread's statement (0 when the JVM gives no stack).
  uint64_t current();

 private:
  uint64_t method_hash(jmethodID m);  // kHook: skip the frame; kEntry: stop (mu_ held)

  jvmtiEnv* jvmti_;
  uint32_t frames_;
  std::mutex mu_;
  // Method names cost several JVMTI calls: each method is named once per JVM.
  std::unordered_map<jmethodID, uint64_t> methods_;
};

}  // namespace jsched::agent
