// `jsched classfile roundtrip PATH...` and `jsched classfile instrument ... PATH...`
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "classfile/class_file.h"
#include "classfile/class_source.h"
#include "classfile/roundtrip.h"
#include "rewriter/class_rewriter.h"
#include "runner/commands/commands.h"

namespace jsched {

namespace {

int roundtrip_paths(const std::vector<std::string>& paths) {
  size_t classes = 0, differ = 0, errors = 0;
  cf::ClassVisitor v;
  v.on_class = [&](const std::string& origin, cf::Bytes bytes) {
    ++classes;
    cf::RoundtripResult r = cf::roundtrip(bytes);
    if (r.kind == cf::RoundtripResult::Differ) {
      ++differ;
      std::printf("differ: %s: %s\n", origin.c_str(), r.message.c_str());
    } else if (r.kind == cf::RoundtripResult::Error) {
      ++errors;
      std::printf("error: %s: %s\n", origin.c_str(), r.message.c_str());
    }
  };
  v.on_error = [&](const std::string& origin, const std::string& message) {
    ++errors;
    std::printf("error: %s: %s\n", origin.c_str(), message.c_str());
  };
  for (const std::string& p : paths) cf::visit_classes(p, v);
  std::printf("roundtrip: %zu classes, %zu differ, %zu errors\n", classes, differ, errors);
  return differ == 0 && errors == 0 ? 0 : 1;
}

// Numbers sites in order and keeps their descriptions for the sites file.
class ListSink : public rw::SiteSink {
 public:
  int32_t add(const rw::SiteInfo& s) override {
    std::lock_guard<std::mutex> g(mu_);
    int32_t id = int32_t(lines_.size()) + 1;
    lines_.push_back(std::to_string(id) + " " + rw::site_kind_name(s.kind) + " " +
                     std::string(s.cls) + " " + std::string(s.method) + std::string(s.method_desc) +
                     " " + std::to_string(s.bci) + " " + std::string(s.owner) + " " +
                     std::string(s.name) + " " + std::string(s.desc));
    return id;
  }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::mutex mu_;
  std::vector<std::string> lines_;
};

const char* kInstrumentUsage =
    "usage: jsched classfile instrument [--hooks CLASS] [--accesses none|volatile|all]\n"
    "                                   [--allocations] [--no-monitors] [--no-calls]\n"
    "                                   --out DIR PATH...\n";

int instrument_paths(const std::vector<std::string>& args) {
  rw::RewriteConfig cfg;
  std::string out;
  std::vector<std::string> paths;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "jsched: error: %s needs a value\n%s", a.c_str(), kInstrumentUsage);
        std::exit(2);
      }
      return args[++i];
    };
    if (a == "--hooks") {
      cfg.hook_owner = value();
      for (char& c : cfg.hook_owner) c = c == '.' ? '/' : c;
    } else if (a == "--accesses") {
      const std::string& v = value();
      if (v == "none")
        cfg.accesses = rw::Accesses::None;
      else if (v == "volatile")
        cfg.accesses = rw::Accesses::Volatile;
      else if (v == "all")
        cfg.accesses = rw::Accesses::All;
      else {
        std::fprintf(stderr, "jsched: error: --accesses must be none, volatile or all, not '%s'\n",
                     v.c_str());
        return 2;
      }
    } else if (a == "--allocations") {
      cfg.allocations = true;
    } else if (a == "--no-monitors") {
      cfg.monitors = false;
    } else if (a == "--no-calls") {
      cfg.calls = false;
    } else if (a == "--out") {
      out = value();
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "jsched: error: unknown option %s\n%s", a.c_str(), kInstrumentUsage);
      return 2;
    } else {
      paths.push_back(a);
    }
  }
  if (out.empty() || paths.empty()) {
    std::fputs(kInstrumentUsage, stderr);
    return 2;
  }
  ListSink sink;
  size_t classes = 0, changed = 0, failed = 0, warnings = 0, errors = 0;
  cf::ClassVisitor v;
  v.on_class = [&](const std::string& origin, cf::Bytes bytes) {
    ++classes;
    rw::RewriteResult r = rw::rewrite_class(bytes, cfg, sink);
    std::string name;
    try {
      name = std::string(cf::ClassFile::parse(bytes).name());
    } catch (const std::exception& e) {
      ++errors;
      std::printf("error: %s: %s\n", origin.c_str(), e.what());
      return;
    }
    if (r.status == rw::RewriteResult::Failed || r.status == rw::RewriteResult::Refused) {
      ++failed;
      std::printf("warning: %s: left unchanged: %s\n", name.c_str(), r.error.c_str());
    }
    for (const std::string& w : r.warnings) {
      ++warnings;
      std::printf("warning: %s: %s\n", name.c_str(), w.c_str());
    }
    changed += r.status == rw::RewriteResult::Changed;
    std::filesystem::path p = std::filesystem::path(out) / (name + ".class");
    std::filesystem::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary);
    cf::Bytes data = r.status == rw::RewriteResult::Changed ? cf::Bytes(r.bytes) : bytes;
    f.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
  };
  v.on_error = [&](const std::string& origin, const std::string& message) {
    ++errors;
    std::printf("error: %s: %s\n", origin.c_str(), message.c_str());
  };
  for (const std::string& p : paths) cf::visit_classes(p, v);
  std::ofstream sites(std::filesystem::path(out) / "jsched-sites.txt");
  for (const std::string& l : sink.lines()) sites << l << "\n";
  std::printf(
      "instrument: %zu classes, %zu changed, %zu unchanged on error, %zu warnings, %zu errors\n",
      classes, changed, failed, warnings, errors);
  return failed == 0 && errors == 0 ? 0 : 1;
}

const char* kRoundtripUsage =
    "usage: jsched classfile roundtrip PATH...\n"
    "\n"
    "Reads every class under each PATH (.class files, directories, jars, jmods), decodes all\n"
    "code and frames, writes each class back and compares byte for byte. Exit status 0 when\n"
    "every class reads and writes back the same, 1 otherwise, 2 usage error.\n";

bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

}  // namespace

int cmd_classfile(const std::vector<std::string>& args) {
  const std::vector<std::string> rest(args.empty() ? args.end() : args.begin() + 1, args.end());
  if (!args.empty() && args[0] == "roundtrip") {
    if (wants_help(rest)) return std::fputs(kRoundtripUsage, stdout), 0;
    if (rest.empty()) return std::fputs(kRoundtripUsage, stderr), 2;
    return roundtrip_paths(rest);
  }
  if (!args.empty() && args[0] == "instrument") {
    if (wants_help(rest)) return std::fputs(kInstrumentUsage, stdout), 0;
    return instrument_paths(rest);
  }
  FILE* out = wants_help(args) ? stdout : stderr;
  std::fputs(
      "usage: jsched classfile roundtrip PATH...\n"
      "       jsched classfile instrument --out DIR PATH...   (jsched classfile instrument "
      "--help)\n",
      out);
  return out == stdout ? 0 : 2;
}

}  // namespace jsched
