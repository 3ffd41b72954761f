// The agent's record of instrumentation sites, filled by the rewriter from class-loading
// threads and read by the scheduler when it names locations.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
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
  // For field accesses: one that orders rather than races (a volatile, final or unresolved
  // field, a static initializer's access): scheduler/races/race_detector.h.
  bool ordered = false;
  // A read of a final reference field, or of an object from a variable only handed over
  // (shared_accesses.h), under accesses=shared: a point unless the object it reaches is
  // instrumented whole (instrumented_classes.h); `covered` keeps a yes once found.
  bool reaches = false;
  mutable uint8_t covered = 0;
  // For field accesses, where the model keeps the field: a static field's object id, an
  // instance field's slot in its object. Hashed once here, not at every access.
  uint64_t location = 0;
};

// A static field's access (getstatic, putstatic).
inline bool is_static(const Site& s) {
  return s.kind == rw::SiteKind::GetStatic || s.kind == rw::SiteKind::PutStatic;
}
// The instruction as a plan's site lines name it (rw::plan_site).
inline std::string plan_site(const Site& s) {
  return rw::plan_site(*s.cls, *s.method, *s.method_desc, s.bci);
}

class SiteRegistry : public rw::SiteSink {
 public:
  SiteRegistry() = default;
  ~SiteRegistry();
  SiteRegistry(const SiteRegistry&) = delete;
  SiteRegistry& operator=(const SiteRegistry&) = delete;

  // The new site's id; 0 (the no-op call) past kMaxSites.
  int32_t add(const rw::SiteInfo& s) override;
  // Accesses are points only where `accesses` (with `fields` deciding field accesses) would
  // have instrumented them, and wherever `fields` names one a point; until called, every
  // access is one. Call before any class is rewritten.
  void set_points(rw::Accesses accesses, const rw::AccessFilter* fields);
  // Whether an access at `s` is a scheduling point (what add() records as Site::point).
  bool point(const rw::SiteInfo& s) const;
  // What decides Site::ordered for field accesses (unset: none is). Before any class is
  // rewritten.
  void set_ordered(std::function<bool(const rw::SiteInfo&)> f) { ordered_ = std::move(f); }
  // What decides Site::reaches for reads that are points (unset: none
  // does). Before any class is rewritten.
  void set_reaches(std::function<bool(const rw::SiteInfo&)> f) { reaches_ = std::move(f); }
  // Site ids start at 1; id 0 and unknown ids yield nullptr. Every hook asks, so this takes no
  // lock: a site is published (count_) only once it is written, and never moves.
  const Site* get(int32_t id) const {
    if (id <= 0 || size_t(id) > count_.load(std::memory_order_acquire)) return nullptr;
    const size_t i = size_t(id) - 1;
    return &chunks_[i >> kChunkBits].load(std::memory_order_acquire)[i & (kChunk - 1)];
  }
  size_t size() const { return count_.load(std::memory_order_acquire); }

  static constexpr size_t kChunkBits = 12, kChunk = size_t(1) << kChunkBits;
  static constexpr size_t kMaxSites = kChunk << 14;

 private:
  const std::string* intern(std::string_view s);

  std::mutex mu_;                                                // writers
  std::array<std::atomic<Site*>, kMaxSites / kChunk> chunks_{};  // kChunk sites each, by need
  std::atomic<size_t> count_{0};                                 // index = id - 1
  std::unordered_set<std::string> strings_;
  rw::Accesses points_ = rw::Accesses::All;
  const rw::AccessFilter* fields_ = nullptr;
  std::function<bool(const rw::SiteInfo&)> ordered_;
  std::function<bool(const rw::SiteInfo&)> reaches_;
};

}  // namespace jsched::agent
