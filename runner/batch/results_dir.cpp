#include "runner/batch/results_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot read " + p);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

FILE* open_append(const std::string& p) {
  FILE* f = std::fopen(p.c_str(), "a");
  if (!f) throw WriteError("cannot write " + p + ": " + std::strerror(errno));
  return f;
}

}  // namespace

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) throw WriteError("cannot write " + path + ": " + std::strerror(errno));
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  int err = errno;
  ok = std::fflush(f) == 0 && ok;
  if (ok)
    err = 0;
  else if (!err)
    err = errno;
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    if (!err) err = errno;
    std::remove(tmp.c_str());
    throw WriteError("cannot write " + path + ": " + std::strerror(err ? err : EIO));
  }
}

void ResultsDir::lock() {
  const std::string p = path_ + "/.lock";
  lock_fd_ = open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw std::runtime_error("cannot lock " + path_ + ": " + std::strerror(errno));
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    char buf[32] = {};
    ssize_t n = pread(lock_fd_, buf, sizeof buf - 1, 0);
    std::string holder = n > 0 ? std::string(buf, size_t(n)) : "?";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    close(lock_fd_);
    lock_fd_ = -1;
    throw std::runtime_error(path_ + " is in use by another jsched batch (pid " + holder +
                             "); wait for it to end, or give another --out");
  }
  std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(lock_fd_, 0) != 0 || pwrite(lock_fd_, pid.data(), pid.size(), 0) < 0) {
    // The lock holds without the pid; only the message to a second batch is poorer.
  }
}

ResultsDir::ResultsDir(ResultsDir&& o) noexcept
    : path_(std::move(o.path_)),
      batch_(std::move(o.batch_)),
      records_(std::move(o.records_)),
      runs_(o.runs_),
      lock_fd_(o.lock_fd_) {
  o.runs_ = nullptr;
  o.lock_fd_ = -1;
}

ResultsDir::~ResultsDir() {
  if (runs_) std::fclose(runs_);
  if (lock_fd_ >= 0) close(lock_fd_);  // releases the lock
}

ResultsDir ResultsDir::create(const std::string& path, const json::Value& batch) {
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_directory(path, ec))
    throw std::runtime_error("--out " + path + " is a file, not a directory");
  fs::create_directories(path + "/logs", ec);
  if (ec) throw WriteError("cannot create " + path + "/logs: " + ec.message());
  ResultsDir d;
  d.path_ = path;
  d.batch_ = batch;
  d.lock();
  if (fs::exists(path + "/runs.jsonl")) {  // another batch made it meanwhile
    throw std::runtime_error(path + " already holds results (use --resume " + path +
                             " to continue it)");
  }
  write_file(path + "/batch.json", batch.dump() + "\n");
  d.runs_ = open_append(path + "/runs.jsonl");
  return d;
}

ResultsDir ResultsDir::resume(const std::string& path) {
  if (!fs::is_regular_file(path + "/batch.json"))
    throw std::runtime_error(path + " is not a jsched results directory (no batch.json)");
  ResultsDir d;
  d.path_ = path;
  d.lock();
  try {
    d.batch_ = json::parse(slurp(path + "/batch.json"));
  } catch (const json::ParseError& e) {
    throw std::runtime_error(path + "/batch.json: " + e.what());
  }
  d.records_ = read_records(path + "/runs.jsonl", true);
  fs::create_directories(path + "/logs");
  d.runs_ = open_append(path + "/runs.jsonl");
  return d;
}

std::vector<RunRecord> ResultsDir::read_records(const std::string& file, bool truncate_torn_tail) {
  std::string text = fs::exists(file) ? slurp(file) : "";
  std::vector<RunRecord> out;
  size_t start = 0, line = 0, good_end = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    ++line;
    if (end == std::string::npos) break;  // no newline: torn
    std::string l = text.substr(start, end - start);
    if (!l.empty()) {
      try {
        out.push_back(RunRecord::from_json(json::parse(l)));
      } catch (const std::exception& e) {
        throw std::runtime_error(file + ":" + std::to_string(line) + ": " + e.what());
      }
    }
    start = end + 1;
    good_end = start;
  }
  if (truncate_torn_tail && good_end < text.size()) {
    if (truncate(file.c_str(), off_t(good_end)) != 0)
      throw std::runtime_error("cannot repair " + file);
  }
  return out;
}

std::set<uint64_t> ResultsDir::done_indices() const {
  std::set<uint64_t> s;
  for (const RunRecord& r : records_) s.insert(r.index);
  return s;
}

void ResultsDir::add(RunRecord r) {
  if (!r.log.empty() && fs::path(r.log).is_absolute()) {
    // Executions of one JVM share its log: the first record moves it, the others point to it.
    const std::string name = "logs/" + fs::path(r.log).filename().string();
    std::error_code ec;
    if (fs::exists(r.log, ec)) {
      fs::rename(r.log, path_ + "/" + name, ec);
      if (ec)
        throw WriteError("cannot move " + r.log + " to " + path_ + "/" + name + ": " +
                         ec.message());
    }
    r.log = name;
  }
  std::string line = r.to_json().dump() + "\n";
  // Flushed to the kernel, which keeps it through a kill -9 of this process. A short write (a
  // full disk) is cut back off, so that the file ends with whole lines for --resume.
  const std::string file = path_ + "/runs.jsonl";
  long before = std::ftell(runs_);
  size_t n = std::fwrite(line.data(), 1, line.size(), runs_);
  int err = errno;
  if (n != line.size() || std::fflush(runs_) != 0) {
    if (n == line.size()) err = errno;
    std::clearerr(runs_);
    if (before >= 0 && truncate(file.c_str(), off_t(before)) != 0) {
      // The torn line stays; --resume drops it (read_records).
    }
    std::fclose(runs_);
    runs_ = std::fopen(file.c_str(), "a");
    throw WriteError("cannot write " + file + ": " + std::strerror(err ? err : EIO) +
                     " (the runs recorded so far are kept: continue with --resume " + path_ + ")");
  }
  records_.push_back(std::move(r));
}

}  // namespace jsched::runner
