#include "runner/results_dir.h"

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
  if (!f) throw std::runtime_error("cannot write " + p + ": " + std::strerror(errno));
  return f;
}

}  // namespace

ResultsDir::ResultsDir(ResultsDir&& o) noexcept
    : path_(std::move(o.path_)),
      batch_(std::move(o.batch_)),
      records_(std::move(o.records_)),
      runs_(o.runs_) {
  o.runs_ = nullptr;
}

ResultsDir::~ResultsDir() {
  if (runs_) std::fclose(runs_);
}

ResultsDir ResultsDir::create(const std::string& path, const json::Value& batch) {
  if (fs::exists(path + "/runs.jsonl")) {
    throw std::runtime_error(path + " already holds results (use --resume " + path +
                             " to continue it)");
  }
  fs::create_directories(path + "/logs");
  ResultsDir d;
  d.path_ = path;
  d.batch_ = batch;
  std::ofstream(path + "/batch.json") << batch.dump() << "\n";
  d.runs_ = open_append(path + "/runs.jsonl");
  return d;
}

ResultsDir ResultsDir::resume(const std::string& path) {
  ResultsDir d;
  d.path_ = path;
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
  if (!r.log.empty()) {
    std::string dest = path_ + "/logs/run-" + std::to_string(r.index) + ".log";
    std::error_code ec;
    fs::rename(r.log, dest, ec);
    if (!ec) r.log = "logs/run-" + std::to_string(r.index) + ".log";
  }
  std::string line = r.to_json().dump() + "\n";
  // Flushed to the kernel, which keeps it through a kill -9 of this process.
  std::fwrite(line.data(), 1, line.size(), runs_);
  std::fflush(runs_);
  records_.push_back(std::move(r));
}

}  // namespace jsched::runner
