// Helpers for rewriter tests: a recording site sink, instrumenting a directory of classes, and
// running a main class on the real JVM with full bytecode verification.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "rewriter/class_rewriter.h"
#include "rewriter/config.h"
#include "rewriter/sites.h"
#include "tests/support/process.h"

namespace jsched::test {

class RecordingSink : public rw::SiteSink {
 public:
  struct Site {
    rw::SiteKind kind;
    std::string cls, method, method_desc, owner, name, desc;
    uint32_t bci;
  };
  int32_t add(const rw::SiteInfo& s) override {
    std::lock_guard<std::mutex> g(mu_);
    sites.push_back(Site{s.kind, std::string(s.cls), std::string(s.method),
                         std::string(s.method_desc), std::string(s.owner), std::string(s.name),
                         std::string(s.desc), s.bci});
    return int32_t(sites.size());
  }
  std::vector<Site> sites;

 private:
  std::mutex mu_;
};

// Test configuration: hooks go to jschedtest/Hooks (tests/data/java/rewriter/jschedtest).
inline rw::RewriteConfig test_config(bool everything) {
  rw::RewriteConfig c;
  c.hook_owner = "jschedtest/Hooks";
  if (everything) {
    c.accesses = rw::Accesses::All;
    c.allocations = true;
  }
  return c;
}

struct InstrumentStats {
  size_t changed = 0, unchanged = 0, failed = 0;
  std::vector<std::string> warnings;
};

// Instruments every class file directly in `in_dir` (not subdirectories) into `out_dir`, and
// copies the test hooks class next to them.
InstrumentStats instrument_dir(const std::string& in_dir, const std::string& out_dir,
                               const rw::RewriteConfig& cfg, rw::SiteSink& sink);

// Copies jschedtest/Hooks.class (the stand-in shim) into out_dir.
void copy_test_hooks(const std::string& out_dir);

// Writes class bytes as out_dir/<name>.class.
void write_class(const std::string& out_dir, const std::string& internal_name, cf::Bytes bytes);

// Runs `java` with bytecode verification of every class, boot classes included.
ProcessResult run_verified(const std::string& classpath, const std::string& main,
                           const std::vector<std::string>& extra_jvm_args = {});

// Parses the "hooks: name=count ..." line jschedtest.Hooks prints at exit.
std::map<std::string, long> hook_counts(const std::string& stderr_text);

}  // namespace jsched::test
