#include "scheduler/pct/pct_strategy.h"

#include <algorithm>
#include <stdexcept>

namespace jsched::sched {

PctOptions pct_options(const StrategyArgs& a, bool variable_bounded) {
  PctOptions p;
  p.depth = uint32_t(a.option("depth", 3));
  p.bounded = a.option("bounded", 0) != 0;
  p.vars = uint32_t(a.option("vars", 1));
  p.steps = a.steps;
  if (variable_bounded) {
    if (a.variables.empty()) {
      throw std::invalid_argument(
          "has no variables: the profile runs saw no field or array access in instrumented "
          "classes");
    }
    p.variables = a.variables;
  }
  return p;
}

PctStrategy::PctStrategy(uint64_t seed, const PctOptions& opts) : opts_(opts), rng_(seed) {
  const uint32_t points = opts_.depth > 0 ? opts_.depth - 1 : 0;
  if (opts_.variables.empty()) {
    // d-1 distinct steps uniformly in [1, k].
    uint64_t k = std::max<uint64_t>(opts_.steps ? opts_.steps : 100, points);
    // Distinct steps, labelled 1..d-1 in the order drawn: which one comes first in time is
    // random, as when k_1..k_{d-1} are drawn independently.
    uint32_t i = 1;
    while (step_points_.size() < points) {
      if (step_points_.emplace(1 + rng_.below(k), i).second) ++i;
    }
    return;
  }
  // PCTVB: v variables at random, then d-1 distinct elements of S = {(q, j) : j in [1, k_q]}.
  std::vector<std::pair<uint64_t, uint64_t>> pool = opts_.variables;
  for (uint32_t n = 0; n < opts_.vars && !pool.empty(); ++n) {
    size_t at = size_t(rng_.below(pool.size()));
    chosen_.push_back(pool[at].first);
    tracked_.insert(pool[at].first);
    pool.erase(pool.begin() + long(at));
  }
  uint64_t k = 0;
  for (const auto& [var, kq] : opts_.variables) {
    if (tracked_.count(var)) k += kq;
  }
  std::set<std::pair<uint64_t, uint64_t>> drawn;
  while (k > 0 && drawn.size() < std::min<uint64_t>(points, k)) {
    uint64_t x = rng_.below(k);  // an element of S, enumerated variable by variable
    for (const auto& [var, kq] : opts_.variables) {
      if (!tracked_.count(var)) continue;
      if (x < kq) {
        drawn.insert({var, x + 1});
        break;
      }
      x -= kq;
    }
  }
  // Change points are numbered in the order they were drawn, which is random.
  std::vector<std::pair<uint64_t, uint64_t>> order(drawn.begin(), drawn.end());
  rng_.shuffle(order);
  for (size_t i = 0; i < order.size(); ++i) access_points_[order[i]] = uint32_t(i + 1);
}

double PctStrategy::fresh_priority() {
  // Uniform in (0, 1): above every change-point priority (1..d-1) once offset by d, and
  // distinct with probability 1.
  return double((rng_.next() >> 11) | 1) * 0x1.0p-53;
}

void PctStrategy::on_thread_created(ThreadId t, ThreadId) {
  priority_[t] = (opts_.bounded ? 0.0 : double(opts_.depth)) + fresh_priority();
}

void PctStrategy::yielded(ThreadId t) {
  if (++yields_[t] <= kYieldsBeforeLowering) return;
  lower(t);
}

void PctStrategy::lower(ThreadId t) {
  yields_[t] = 0;
  reads_[t] = 0;
  double lowest = priority_[t];
  for (const auto& [other, p] : priority_) lowest = std::min(lowest, p);
  priority_[t] = lowest - 1;
}

void PctStrategy::on_executed(ThreadId t, const Op& op) {
  if (op.kind == OpKind::Continue) return;
  if (op.kind == OpKind::Yield || op.kind == OpKind::Sleep) yielded(t);
  const bool read = op.kind == OpKind::Read || (op.kind == OpKind::Sync && !op.write);
  if (!read) {
    reads_[t] = 0;
  } else if (++reads_[t] > kSpinReads) {
    lower(t);
  }
  if (!access_points_.empty() && (op.kind == OpKind::Read || op.kind == OpKind::Write) &&
      tracked_.count(op.var)) {
    uint64_t j = ++accesses_[op.var];
    auto it = access_points_.find({op.var, j});
    if (it != access_points_.end()) change_point(t, it->second);
  }
}

void PctStrategy::change_point(ThreadId t, uint32_t i) {
  priority_[t] = opts_.bounded ? fresh_priority() : double(i);
}

std::vector<std::pair<uint64_t, uint32_t>> PctStrategy::change_points_of(uint64_t var) const {
  std::vector<std::pair<uint64_t, uint32_t>> out;
  for (const auto& [key, i] : access_points_) {
    if (key.first == var) out.push_back({key.second, i});
  }
  return out;  // the map orders by (var, j)
}

void PctStrategy::after_step(uint64_t step) {
  if (last_ == kNoThread) return;
  auto it = step_points_.find(step);
  if (it != step_points_.end()) change_point(last_, it->second);
}

void PctStrategy::forced(const Candidate& only, uint64_t step) {
  after_step(step);
  last_ = only.thread;
}

size_t PctStrategy::choose(const std::vector<Candidate>& enabled, uint64_t step) {
  after_step(step);
  raise_starved(enabled, step);
  size_t best = 0;
  for (size_t i = 1; i < enabled.size(); ++i) {
    if (priority_[enabled[i].thread] > priority_[enabled[best].thread]) best = i;
  }
  last_ = enabled[best].thread;
  passed_over_.erase(last_);
  // A waiting thread chosen wakes without a notify (its timeout): it gives way like a yield.
  if (enabled[best].op.kind == OpKind::Wait) yielded(last_);
  return best;
}

bool PctStrategy::raise_starved(const std::vector<Candidate>& enabled, uint64_t step) {
  ThreadId starved = kNoThread;
  uint64_t longest = 0;
  for (const Candidate& c : enabled) {
    auto [it, fresh] = passed_over_.try_emplace(c.thread, step, step);
    auto& [since, seen] = it->second;
    if (!fresh && seen + 1 < step) since = step;  // it was not enabled in between
    seen = step;
    if (step - since >= kStarvedSteps && step - since > longest) {
      starved = c.thread;
      longest = step - since;
    }
  }
  // One rises per kStarvedSteps, the one that waited longest: threads that began to wait
  // together would otherwise rise one after the other, a switch at every step.
  if (starved == kNoThread || (raised_at_ > 0 && step - raised_at_ < kStarvedSteps)) return false;
  raise(starved);
  raised_at_ = step;
  return true;
}

void PctStrategy::raise(ThreadId t) {
  double highest = priority_[t];
  for (const auto& [other, p] : priority_) highest = std::max(highest, p);
  priority_[t] = highest + 1;
}

}  // namespace jsched::sched
