// A results directory: the batch description, runs.jsonl (one line per finished execution,
// appended and flushed as each ends, so a killed batch loses nothing it finished), logs of
// runs that found something, and the reports written at the end. A batch holds the
// directory's lock (flock on DIR/.lock) while it writes, so two batches never interleave their
// records. Every write is checked: a failure (a full disk) throws WriteError naming the file,
// and what was recorded before stays whole, for --resume.
#pragma once

#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "protocol/json.h"
#include "runner/batch/run_record.h"

namespace jsched::runner {

// The runner could not write its results (disk full, file too large, permissions).
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `text` to `path` through a temporary file renamed into place (never a half-written
// file under the real name); throws WriteError naming `path`.
void write_file(const std::string& path, const std::string& text);

class ResultsDir {
 public:
  // Creates the directory (or opens it for resuming), takes its lock and opens runs.jsonl for
  // appending. Throws std::runtime_error with the reason (another batch holds the lock: its
  // pid).
  static ResultsDir create(const std::string& path, const json::Value& batch);
  static ResultsDir resume(const std::string& path);

  ResultsDir(ResultsDir&& o) noexcept;
  ~ResultsDir();

  const std::string& path() const { return path_; }
  const json::Value& batch() const { return batch_; }
  const std::vector<RunRecord>& records() const { return records_; }
  std::set<uint64_t> done_indices() const;

  // Appends and flushes one line (and keeps the record); the run's log moves under logs/ (a
  // log several records share, one JVM's, moves once). Throws WriteError.
  void add(RunRecord r);
  std::string work_dir() const { return path_ + "/work"; }

  // Reads every record of a runs.jsonl; a torn last line (the process was killed while
  // writing it) is ignored, any other malformed line is an error naming it.
  static std::vector<RunRecord> read_records(const std::string& runs_file, bool truncate_torn_tail);

 private:
  ResultsDir() = default;
  std::string path_;
  json::Value batch_;
  std::vector<RunRecord> records_;
  void lock();  // throws std::runtime_error when another batch holds the directory
  FILE* runs_ = nullptr;
  int lock_fd_ = -1;
};

}  // namespace jsched::runner
