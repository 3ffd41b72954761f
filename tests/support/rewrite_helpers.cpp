#include "tests/support/rewrite_helpers.h"

#include <filesystem>
#include <sstream>

#include "classfile/class_file.h"
#include "tests/support/test_paths.h"

namespace jsched::test {

namespace fs = std::filesystem;

void write_class(const std::string& out_dir, const std::string& internal_name, cf::Bytes bytes) {
  fs::path p = fs::path(out_dir) / (internal_name + ".class");
  fs::create_directories(p.parent_path());
  write_file(p.string(), bytes.data(), bytes.size());
}

InstrumentStats instrument_dir(const std::string& in_dir, const std::string& out_dir,
                               const rw::RewriteConfig& cfg, rw::SiteSink& sink) {
  InstrumentStats st;
  for (const auto& e : fs::directory_iterator(in_dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".class") continue;
    std::vector<uint8_t> bytes = read_file(e.path().string());
    rw::RewriteResult r = rw::rewrite_class(bytes, cfg, sink);
    std::string name(cf::ClassFile::parse(bytes).name());
    if (r.status == rw::RewriteResult::Changed) {
      ++st.changed;
      write_class(out_dir, name, r.bytes);
    } else {
      const bool failed = r.status == rw::RewriteResult::Failed ||
                          r.status == rw::RewriteResult::Refused;  // the tests count both
      (failed ? st.failed : st.unchanged)++;
      if (failed) st.warnings.push_back(name + ": " + r.error);
      write_class(out_dir, name, bytes);
    }
    for (const std::string& w : r.warnings) st.warnings.push_back(name + ": " + w);
  }
  copy_test_hooks(out_dir);
  return st;
}

void copy_test_hooks(const std::string& out_dir) {
  fs::create_directories(fs::path(out_dir) / "jschedtest");
  fs::copy_file(data_dir() + "/rewriter/jschedtest/Hooks.class",
                fs::path(out_dir) / "jschedtest" / "Hooks.class",
                fs::copy_options::overwrite_existing);
}

ProcessResult run_verified(const std::string& classpath, const std::string& main,
                           const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {java_bin(), "-XX:+UnlockDiagnosticVMOptions",
                                   "-XX:+BytecodeVerificationLocal",
                                   "-XX:+BytecodeVerificationRemote", "-Xshare:auto"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.insert(argv.end(), {"-cp", classpath, main});
  return run(argv);
}

std::map<std::string, long> hook_counts(const std::string& err) {
  std::map<std::string, long> out;
  size_t at = err.find("hooks:");
  if (at == std::string::npos) return out;
  std::istringstream in(err.substr(at + 6, err.find('\n', at) - at - 6));
  std::string item;
  while (in >> item) {
    size_t eq = item.find('=');
    if (eq != std::string::npos) out[item.substr(0, eq)] = std::stol(item.substr(eq + 1));
  }
  return out;
}

}  // namespace jsched::test
