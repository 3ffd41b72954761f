// The live progress line: rewritten in place on a terminal, a plain line now and then when
// the output goes to a file or a pipe.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace jsched::runner {

class Progress {
 public:
  Progress(uint64_t total, uint64_t already_done);
  // After each finished run.
  void update(uint64_t done, uint64_t findings, size_t partial_orders,
              const std::string& note = "");
  void finish();

 private:
  std::string line(uint64_t done, uint64_t findings, size_t orders) const;
  uint64_t total_, base_;
  bool tty_;
  std::chrono::steady_clock::time_point start_, last_print_;
  uint64_t last_done_ = 0;
  size_t width_ = 0;
};

std::string format_duration(double seconds);

}  // namespace jsched::runner
