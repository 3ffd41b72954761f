#include "runner/batch/progress.h"

#include <unistd.h>

#include <cstdio>

namespace jsched::runner {

std::string format_duration(double s) {
  char buf[32];
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  } else if (s < 3600) {
    std::snprintf(buf, sizeof buf, "%dm%02ds", int(s) / 60, int(s) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%dh%02dm", int(s) / 3600, (int(s) / 60) % 60);
  }
  return buf;
}

Progress::Progress(uint64_t total, uint64_t already_done)
    : total_(total),
      base_(already_done),
      tty_(isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {}

std::string Progress::line(uint64_t done, uint64_t findings, size_t orders) const {
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = secs > 0 ? double(done - base_) / secs : 0;
  std::string eta = rate > 0 && done < total_ ? format_duration(double(total_ - done) / rate) : "-";
  char buf[200];
  std::snprintf(buf, sizeof buf, "[%llu/%llu] %.1f runs/s, %llu found, %zu partial orders, ETA %s",
                (unsigned long long)done, (unsigned long long)total_, rate,
                (unsigned long long)findings, orders, eta.c_str());
  return buf;
}

void Progress::update(uint64_t done, uint64_t findings, size_t orders, const std::string& note) {
  auto now = std::chrono::steady_clock::now();
  if (tty_) {
    std::string l = line(done, findings, orders);
    if (!note.empty()) {
      std::fprintf(stderr, "\r%*s\r%s\n", int(width_), "", note.c_str());
      width_ = 0;
    }
    std::fprintf(stderr, "\r%s%*s", l.c_str(), int(width_ > l.size() ? width_ - l.size() : 0), "");
    width_ = l.size();
    std::fflush(stderr);
    return;
  }
  if (!note.empty()) std::fprintf(stderr, "%s\n", note.c_str());
  // Off a terminal: a line every 10% of the batch or every 10 seconds.
  bool step = total_ >= 10 && (done * 10 / total_) != (last_done_ * 10 / total_);
  if (step || now - last_print_ > std::chrono::seconds(10) || done == total_) {
    std::fprintf(stderr, "%s\n", line(done, findings, orders).c_str());
    last_print_ = now;
  }
  last_done_ = done;
}

void Progress::finish() {
  if (tty_ && width_) std::fprintf(stderr, "\n");
}

}  // namespace jsched::runner
