#include "jvmti-agent/site_registry.h"

namespace jsched::agent {

const std::string* SiteRegistry::intern(std::string_view s) {
  return &*strings_.emplace(s).first;
}

void SiteRegistry::set_points(rw::Accesses accesses, const rw::AccessFilter* volatiles) {
  points_ = accesses;
  volatiles_ = volatiles;
}

int32_t SiteRegistry::add(const rw::SiteInfo& s) {
  // Outside the lock: deciding may read class files, which may load classes and add sites.
  bool point = rw::accesses_cover(points_, s.kind);
  if (point && points_ == rw::Accesses::Volatile && rw::is_field_access(s.kind) && volatiles_)
    point = volatiles_->decide(s).kind != rw::AccessDecision::Skip;
  std::unique_lock<std::shared_mutex> g(mu_);
  sites_.push_back(Site{s.kind, intern(s.cls), intern(s.method), intern(s.method_desc), s.bci,
                        intern(s.owner), intern(s.name), intern(s.desc), point});
  return int32_t(sites_.size());
}

const Site* SiteRegistry::get(int32_t id) const {
  std::shared_lock<std::shared_mutex> g(mu_);
  if (id <= 0 || size_t(id) > sites_.size()) return nullptr;
  return &sites_[size_t(id) - 1];
}

size_t SiteRegistry::size() const {
  std::shared_lock<std::shared_mutex> g(mu_);
  return sites_.size();
}

}  // namespace jsched::agent
