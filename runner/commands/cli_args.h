// Options of a jsched subcommand: `--name value` and `--flag` before an optional `--`, after
// which everything is the program's command line. Accessors consume what they read; done()
// rejects whatever is left, so a typo is an error rather than ignored.
#pragma once

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runner/batch/batch.h"

namespace jsched::runner {

class CliArgs {
 public:
  CliArgs(const std::vector<std::string>& args, const char* usage) : usage_(usage) {
    bool after = false;
    for (const std::string& a : args) {
      if (!after && a == "--") {
        after = true;
        continue;
      }
      (after ? rest_ : opts_).push_back(a);
    }
    if (flag("--help") || flag("-h")) {
      std::fputs(usage_, stdout);
      std::exit(0);
    }
  }

  bool has(const std::string& name) const {
    for (const std::string& o : opts_) {
      if (o == name) return true;
    }
    return false;
  }
  bool flag(const std::string& name) {
    for (size_t i = 0; i < opts_.size(); ++i) {
      if (opts_[i] == name) {
        opts_.erase(opts_.begin() + long(i));
        return true;
      }
    }
    return false;
  }
  std::string value(const std::string& name, const std::string& dflt = "") {
    for (size_t i = 0; i < opts_.size(); ++i) {
      if (opts_[i] != name) continue;
      if (i + 1 >= opts_.size()) die(name + " needs a value");
      std::string v = opts_[i + 1];
      opts_.erase(opts_.begin() + long(i), opts_.begin() + long(i) + 2);
      return v;
    }
    return dflt;
  }
  // All values of a repeatable option.
  std::vector<std::string> values(const std::string& name) {
    std::vector<std::string> out;
    while (has(name)) out.push_back(value(name));
    return out;
  }
  // A whole number in [min, max]; anything else (a sign, a fraction, too many digits) stops
  // with a usage error naming the option and the range.
  uint64_t number(const std::string& name, uint64_t dflt, uint64_t min = 0,
                  uint64_t max = UINT64_MAX) {
    if (!has(name)) return dflt;
    std::string v = value(name);
    errno = 0;
    char* end = nullptr;
    unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    bool ok = !v.empty() && std::isdigit(static_cast<unsigned char>(v[0])) && end && !*end &&
              errno != ERANGE;
    if (!ok || n < min || n > max) {
      die(name + ": '" + clip(v) + "' is not a whole number from " + std::to_string(min) + " to " +
          std::to_string(max));
    }
    return n;
  }
  Shard shard(const std::string& text) {
    try {
      return Shard::parse(text);
    } catch (const std::exception& e) {
      die(e.what());
    }
  }
  const std::vector<std::string>& rest() const { return rest_; }
  // Positional arguments (before `--`) that are not options.
  std::vector<std::string> positional() {
    std::vector<std::string> out, keep;
    for (const std::string& o : opts_) (o.size() > 1 && o[0] == '-' ? keep : out).push_back(o);
    opts_ = keep;
    return out;
  }
  void done() {
    if (!opts_.empty()) die("unknown option or stray argument '" + clip(opts_[0]) + "'");
  }
  // A value quoted in an error line, cut so that the line stays one line.
  static std::string clip(const std::string& v, size_t max = 60) {
    std::string out = v.size() > max ? v.substr(0, max) + "..." : v;
    for (char& c : out)
      if (c == '\n' || c == '\r') c = ' ';
    return out;
  }
  int fail(const std::string& msg) const {
    std::fprintf(stderr, "jsched: error: %s\n", msg.c_str());
    return 2;
  }
  [[noreturn]] void die(const std::string& msg) const {
    fail(msg + " (see --help)");
    std::exit(2);
  }

 private:
  const char* usage_;
  std::vector<std::string> opts_, rest_;
};

}  // namespace jsched::runner
