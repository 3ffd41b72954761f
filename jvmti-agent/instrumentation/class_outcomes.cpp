#include "jvmti-agent/instrumentation/class_outcomes.h"

namespace jsched::agent {

void ClassOutcomes::changed(std::string_view dotted) {
  std::lock_guard<std::mutex> g(mu_);
  changed_.emplace(dotted);
}

void ClassOutcomes::refused(std::string_view dotted, const std::string& why) {
  std::lock_guard<std::mutex> g(mu_);
  changed_.erase(std::string(dotted));  // a class loaded again (another loader) as it was
  if (refused_.size() < kListed) refused_.push_back("class " + std::string(dotted) + ": " + why);
  ++refused_count_;
}

void ClassOutcomes::unreadable(std::string_view dotted, const std::string& why) {
  std::lock_guard<std::mutex> g(mu_);
  if (unreadable_.size() < kListed)
    unreadable_.push_back("class " + std::string(dotted) + ": " + why);
  ++unreadable_count_;
}

bool ClassOutcomes::was_changed(std::string_view dotted) const {
  std::lock_guard<std::mutex> g(mu_);
  return changed_.count(std::string(dotted)) > 0;
}

std::vector<std::string> ClassOutcomes::refused_lines() const {
  std::lock_guard<std::mutex> g(mu_);
  return refused_;
}

uint64_t ClassOutcomes::refused_count() const {
  std::lock_guard<std::mutex> g(mu_);
  return refused_count_;
}

std::vector<std::string> ClassOutcomes::unreadable_lines() const {
  std::lock_guard<std::mutex> g(mu_);
  return unreadable_;
}

uint64_t ClassOutcomes::unreadable_count() const {
  std::lock_guard<std::mutex> g(mu_);
  return unreadable_count_;
}

}  // namespace jsched::agent
