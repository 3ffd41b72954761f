#include "jvmti-agent/site_registry.h"

namespace jsched::agent {

const std::string* SiteRegistry::intern(std::string_view s) {
  return &*strings_.emplace(s).first;
}

int32_t SiteRegistry::add(const rw::SiteInfo& s) {
  std::unique_lock<std::shared_mutex> g(mu_);
  sites_.push_back(Site{s.kind, intern(s.cls), intern(s.method), intern(s.method_desc), s.bci,
                        intern(s.owner), intern(s.name), intern(s.desc)});
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
