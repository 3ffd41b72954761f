// The agent's record of instrumentation sites, filled by the rewriter from class-loading
// threads and read by the scheduler when it names locations.
#pragma once

#include <deque>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "rewriter/config.h"
#include "rewriter/sites.h"

namespace jsched::agent {

struct Site {
  rw::SiteKind kind;
  const std::string* cls;  // interned
  const std::string* method;
  const std::string* method_desc;
  uint32_t bci;
  const std::string* owner;
  const std::string* name;
  const std::string* desc;
  // For field and array accesses: whether one here is a scheduling point. Profile runs
  // instrument every access (they count them all) while only those of the run's `accesses`
  // setting may be points: the profile's step count is PCT's k.
  bool point = true;
};

class SiteRegistry : public rw::SiteSink {
 public:
  int32_t add(const rw::SiteInfo& s) override;
  // Accesses are points only where `accesses` (Volatile: with `volatiles` deciding fields)
  // would have instrumented them; until called, every access is one. Call before any class is
  // rewritten.
  void set_points(rw::Accesses accesses, const rw::AccessFilter* volatiles);
  // Site ids start at 1; id 0 and unknown ids yield nullptr.
  const Site* get(int32_t id) const;
  size_t size() const;

 private:
  const std::string* intern(std::string_view s);

  mutable std::shared_mutex mu_;
  std::deque<Site> sites_;  // stable addresses; index = id - 1
  std::unordered_set<std::string> strings_;
  rw::Accesses points_ = rw::Accesses::All;
  const rw::AccessFilter* volatiles_ = nullptr;
};

}  // namespace jsched::agent
