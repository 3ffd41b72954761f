// Rewriting throughput over a set of classes (every pass on: monitors, synchronized methods,
// calls, field and array accesses, allocations), one core.
//
//   rewrite_bench [--rounds N] PATH...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "classfile/class_source.h"
#include "rewriter/class_rewriter.h"

using namespace jsched;

namespace {
class CountingSink : public rw::SiteSink {
 public:
  int32_t add(const rw::SiteInfo&) override { return ++n_; }
  int32_t n_ = 0;
};
}  // namespace

int main(int argc, char** argv) {
  int rounds = 5;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
    } else {
      paths.push_back(argv[i]);
    }
  }
  std::vector<std::vector<uint8_t>> classes;
  size_t total = 0;
  cf::ClassVisitor v;
  v.on_class = [&](const std::string&, cf::Bytes b) {
    classes.emplace_back(b.begin(), b.end());
    total += b.size();
  };
  v.on_error = [](const std::string& o, const std::string& m) {
    std::fprintf(stderr, "error: %s: %s\n", o.c_str(), m.c_str());
  };
  for (const auto& p : paths) cf::visit_classes(p, v);
  rw::RewriteConfig cfg;
  cfg.accesses = rw::Accesses::All;
  cfg.allocations = true;
  double best = 0;
  size_t changed = 0, failed = 0, out_bytes = 0;
  for (int r = 0; r < rounds; ++r) {
    CountingSink sink;
    changed = failed = out_bytes = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& c : classes) {
      rw::RewriteResult res = rw::rewrite_class(c, cfg, sink);
      changed += res.status == rw::RewriteResult::Changed;
      failed += res.status == rw::RewriteResult::Failed || res.status == rw::RewriteResult::Refused;
      out_bytes += res.bytes.size();
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, double(total) / 1e6 / s);
    std::fprintf(stderr, "round %d: %.1f MB/s\n", r + 1, double(total) / 1e6 / s);
  }
  std::printf(
      "rewrite: %zu classes (%.1f MB in), %zu rewritten (%.1f MB out), %zu left unchanged on "
      "error, best %.1f MB/s\n",
      classes.size(), double(total) / 1e6, changed, double(out_bytes) / 1e6, failed, best);
  return 0;
}
