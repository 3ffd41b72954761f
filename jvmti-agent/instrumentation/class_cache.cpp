#include "jvmti-agent/instrumentation/class_cache.h"

#include <algorithm>

namespace jsched::agent {

const cf::Buffer* ClassCache::find(std::string_view name, cf::Bytes input) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = entries_.find(std::string(name));
  if (it == entries_.end()) return nullptr;
  for (const Entry& e : it->second) {
    if (std::equal(e.input.begin(), e.input.end(), input.begin(), input.end())) return &e.output;
  }
  return nullptr;
}

void ClassCache::put(std::string_view name, cf::Bytes input, const cf::Buffer& output) {
  std::lock_guard<std::mutex> g(mu_);
  entries_[std::string(name)].push_back(Entry{cf::Buffer(input.begin(), input.end()), output});
}

}  // namespace jsched::agent
