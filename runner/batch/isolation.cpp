#include "runner/batch/isolation.h"

#include <filesystem>
#include <stdexcept>

#include "runner/batch/run_checks.h"

namespace jsched::runner {

namespace fs = std::filesystem;

Workdir Workdir::parse(const std::string& text) {
  Workdir w;
  if (text == "shared" || text.empty()) return w;
  if (text == "fresh") {
    w.mode = Fresh;
    return w;
  }
  if (text.rfind("copy:", 0) == 0 && text.size() > 5) {
    std::error_code ec;
    if (!fs::is_directory(text.substr(5), ec))
      throw std::invalid_argument("--workdir: no directory " + text.substr(5) + " to copy");
    w.mode = Copy;
    w.source = fs::absolute(text.substr(5)).lexically_normal().string();
    return w;
  }
  throw std::invalid_argument("--workdir: '" + text + "' is not shared, fresh or copy:DIR");
}

std::string Workdir::text() const {
  return mode == Shared ? "shared" : mode == Fresh ? "fresh" : "copy:" + source;
}

JvmDirs JvmDirs::make(const Workdir& w, const std::string& work, uint64_t index) {
  JvmDirs d;
  const std::string base = fs::absolute(work).string() + "/jvm-" + std::to_string(index);
  d.tmp = base + "/tmp";
  std::error_code ec;
  fs::remove_all(base, ec);  // a resumed batch's leftovers
  fs::create_directories(d.tmp, ec);
  if (ec) throw std::runtime_error("cannot create " + d.tmp + ": " + ec.message());
  if (w.mode == Workdir::Shared) return d;
  d.cwd = base + "/cwd";
  if (w.mode == Workdir::Fresh) {
    fs::create_directories(d.cwd, ec);
  } else {
    fs::copy(w.source, d.cwd, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  }
  if (ec)
    throw std::runtime_error("cannot make the working directory " + d.cwd + ": " + ec.message());
  return d;
}

std::string JvmDirs::base() const {
  return fs::path(tmp).parent_path().string();
}

void JvmDirs::remove() const {
  std::error_code ec;
  fs::remove_all(base(), ec);
}

std::vector<std::string> isolated_command(std::vector<std::string> argv, const JvmDirs& dirs) {
  bool own_tmp = false;
  for (const std::string& a : argv) own_tmp = own_tmp || a.rfind("-Djava.io.tmpdir=", 0) == 0;
  if (!own_tmp) argv.insert(argv.begin() + 2, "-Djava.io.tmpdir=" + dirs.tmp);  // after the agent
  return dirs.cwd.empty() ? argv : with_absolute_paths(std::move(argv));
}

}  // namespace jsched::runner
