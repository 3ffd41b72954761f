#include "jvmti-agent/executions/finding_kinds.h"

#include <cctype>

namespace jsched::agent {

std::string FindingKinds::kind(const std::string& outcome, const std::string& detail) {
  std::string k = outcome + ":";
  const std::string first = detail.substr(0, detail.find('\n'));
  for (size_t i = 0; i < first.size();) {
    if (!std::isdigit(static_cast<unsigned char>(first[i]))) {
      k += first[i++];
      continue;
    }
    size_t end = i;
    while (end < first.size() && std::isdigit(static_cast<unsigned char>(first[end]))) ++end;
    const bool line_number = i > 0 && first[i - 1] == ':';
    k += line_number ? first.substr(i, end - i) : "#";
    i = end;
  }
  return k;
}

std::optional<uint64_t> FindingKinds::first_of(const std::string& kind, uint64_t iteration) {
  std::lock_guard<std::mutex> g(mu_);
  auto [it, fresh] = first_.emplace(kind, iteration);
  if (fresh) return std::nullopt;
  return it->second;
}

bool FindingKinds::seen(const std::string& kind) {
  std::lock_guard<std::mutex> g(mu_);
  return first_.count(kind) > 0;
}

}  // namespace jsched::agent
