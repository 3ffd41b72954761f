#include "jvmti-agent/instrumentation/site_registry.h"

#include "scheduler/core/fingerprint.h"

namespace jsched::agent {

namespace {

uint64_t field_location(const rw::SiteInfo& s) {
  if (!rw::is_field_access(s.kind)) return 0;
  if (s.kind == rw::SiteKind::GetStatic || s.kind == rw::SiteKind::PutStatic)
    return sched::hash_string("static:" + std::string(s.owner) + "." + std::string(s.name));
  return sched::hash_string(std::string(s.name) + std::string(s.desc)) >> 1;
}

}  // namespace

const std::string* SiteRegistry::intern(std::string_view s) {
  return &*strings_.emplace(s).first;
}

void SiteRegistry::set_points(rw::Accesses accesses, const rw::AccessFilter* fields) {
  points_ = accesses;
  fields_ = fields;
}

bool SiteRegistry::point(const rw::SiteInfo& s) const {
  bool point = rw::accesses_cover(points_, s.kind);
  if (!fields_) return point;
  const bool array = s.kind == rw::SiteKind::ArrayLoad || s.kind == rw::SiteKind::ArrayStore;
  if (!rw::is_field_access(s.kind) && !array) return point;
  // A filter that names an access a point (SharedAccesses in race-check runs) makes it one.
  const rw::AccessDecision::Kind d = fields_->decide(s).kind;
  return d == rw::AccessDecision::Point || (point && (array || d != rw::AccessDecision::Skip));
}

int32_t SiteRegistry::add(const rw::SiteInfo& s) {
  // Outside the lock: deciding may read class files, which may load classes and add sites.
  const bool point = this->point(s);
  const bool ordered = rw::is_field_access(s.kind) && ordered_ && ordered_(s);
  // Only a point can stop being one.
  const bool reaches = point && reaches_ && reaches_(s);
  std::lock_guard<std::mutex> g(mu_);
  const size_t i = count_.load(std::memory_order_relaxed);
  if (i >= kMaxSites) return 0;
  Site* chunk = chunks_[i >> kChunkBits].load(std::memory_order_relaxed);
  if (chunk == nullptr) {
    chunk = new Site[kChunk];
    chunks_[i >> kChunkBits].store(chunk, std::memory_order_release);
  }
  chunk[i & (kChunk - 1)] = Site{s.kind, intern(s.cls),   intern(s.method), intern(s.method_desc),
                                 s.bci,  intern(s.owner), intern(s.name),   intern(s.desc),
                                 point,  ordered};
  chunk[i & (kChunk - 1)].location = field_location(s);
  chunk[i & (kChunk - 1)].reaches = reaches;
  count_.store(i + 1, std::memory_order_release);
  return int32_t(i + 1);
}

SiteRegistry::~SiteRegistry() {
  for (auto& c : chunks_) delete[] c.load();
}

}  // namespace jsched::agent
