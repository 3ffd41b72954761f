#include "runner/batch/shared_writes.h"

#include <fcntl.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "runner/batch/batch.h"
#include "runner/batch/profile_phase.h"

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

bool under(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}

// Whether fd `fd` of `pid` is open for writing (the flags line of /proc/PID/fdinfo/FD, octal).
bool open_for_writing(pid_t pid, const std::string& fd) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/fdinfo/" + fd);
  std::string key;
  while (in >> key) {
    if (key == "flags:") {
      std::string octal;
      in >> octal;
      const long flags = std::strtol(octal.c_str(), nullptr, 8);
      return (flags & O_ACCMODE) != O_RDONLY;
    }
  }
  return false;
}

}  // namespace

SharedWrites::SharedWrites(std::string root, std::string ignored)
    : root_(fs::absolute(root).lexically_normal().string()),
      ignored_(fs::weakly_canonical(fs::absolute(ignored)).string()),
      start_(fs::file_time_type::clock::now()) {}

void SharedWrites::warn(const std::string& what) {
  std::fprintf(stderr,
               "jsched: warning: %s: parallel executions share the working directory and may "
               "disturb each other (their failures would be jsched's doing, not the program's); "
               "give --workdir fresh (or copy:DIR), or --jobs 1\n",
               what.c_str());
  warned_ = true;
}

void SharedWrites::scan() {
  const auto now = std::chrono::steady_clock::now();
  if (warned_ || now - last_scan_ < std::chrono::seconds(kScanEverySeconds)) return;
  last_scan_ = now;
  std::error_code ec;
  int seen = 0;
  for (auto it = fs::recursive_directory_iterator(
           root_, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator() && ++seen < kMaxScan; it.increment(ec)) {
    if (seen % 256 == 0 && interrupt_requested()) return;
    const std::string path = it->path().string();
    if (path == ignored_ || under(path, ignored_) || it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code fec;
    if (!it->is_regular_file(fec) || it->last_write_time(fec) < start_ || fec) continue;
    warn(path + " was written while runs ran side by side");
    return;
  }
}

void SharedWrites::look(pid_t pid, uint64_t run) {
  if (warned_) return;
  std::error_code ec;
  const std::string dir = "/proc/" + std::to_string(pid) + "/fd";
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::error_code lec;
    const std::string path = fs::read_symlink(e.path(), lec).string();
    if (lec || !under(path, root_) || under(path, ignored_)) continue;
    if (!open_for_writing(pid, e.path().filename().string())) continue;
    auto& who = writers_[path];
    who[pid] = run;
    files_[pid].insert(path);
    if (who.size() < 2) continue;
    auto other = who.begin()->first == pid ? std::next(who.begin()) : who.begin();
    warn(run_label(other->second) + " and " + run_label(run) + " wrote " + path +
         " at the same time");
    return;
  }
}

void SharedWrites::ended(pid_t pid) {
  auto it = files_.find(pid);
  if (it == files_.end()) return;
  for (const std::string& path : it->second) writers_[path].erase(pid);
  files_.erase(it);
}

}  // namespace jsched::runner
