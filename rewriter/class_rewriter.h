// Entry point of the rewriter: one class file in, the instrumented class file out.
#pragma once

#include <string>
#include <vector>

#include "classfile/bytes.h"
#include "rewriter/config.h"
#include "rewriter/sites.h"

namespace jsched::rw {

struct RewriteResult {
  // Failed: the class could not be read or rewritten. Refused: it was, but the rewritten class
  // breaks a rule of the JVM's (rewriter/rewrite_check.h). Both load the original bytes.
  enum Status { Unchanged, Changed, Failed, Refused } status = Unchanged;
  cf::Buffer bytes;                   // Changed: the new class file
  std::string error;                  // Failed, Refused: why the class must load unchanged
  std::vector<std::string> warnings;  // methods left as they were, and why
  // With static_reset: why this class's statics cannot start clean in a later execution.
  std::string not_resettable;
  std::string super_name;  // Unchanged, Changed: the superclass ("" for none)
};

// Never throws: anything that goes wrong turns into Failed or Refused (the caller loads the
// original bytes) or, for a single method, into a warning with that method left untouched.
RewriteResult rewrite_class(cf::Bytes in, const RewriteConfig& cfg, SiteSink& sites);

}  // namespace jsched::rw
