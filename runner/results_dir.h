// A results directory: the batch description, runs.jsonl (one line per finished execution,
// appended and flushed as each ends, so a killed batch loses nothing it finished), logs of
// runs that found something, and the reports written at the end.
#pragma once

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "runner/json.h"
#include "runner/run_record.h"

namespace jsched::runner {

class ResultsDir {
 public:
  // Creates the directory (or opens it for resuming) and opens runs.jsonl for appending.
  // Throws std::runtime_error with the reason.
  static ResultsDir create(const std::string& path, const json::Value& batch);
  static ResultsDir resume(const std::string& path);

  ResultsDir(ResultsDir&& o) noexcept;
  ~ResultsDir();

  const std::string& path() const { return path_; }
  const json::Value& batch() const { return batch_; }
  const std::vector<RunRecord>& records() const { return records_; }
  std::set<uint64_t> done_indices() const;

  // Appends and flushes one line (and keeps the record); the run's log moves under logs/.
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
  FILE* runs_ = nullptr;
};

}  // namespace jsched::runner
