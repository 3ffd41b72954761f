#include "scheduler/tsca/tsca_strategy.h"

namespace jsched::sched {

TscaStrategy::TscaStrategy(uint64_t seed, std::vector<ThreadId> schedule, Namer namer)
    : rng_(seed),
      schedule_(std::move(schedule)),
      used_(schedule_.size(), false),
      namer_(std::move(namer)) {}

TscaStrategy::PerThread& TscaStrategy::per(ThreadId t) {
  if (t >= threads_.size()) threads_.resize(size_t(t) + 1);
  return threads_[t];
}

void TscaStrategy::on_thread_created(ThreadId t, ThreadId parent) {
  PerThread& p = per(t);
  if (parent == kNoThread) {  // main: already running, no decision precedes its first block
    current_ = t;
    open(t);
    return;
  }
  p.after_start = per(parent).open;
}

void TscaStrategy::open(ThreadId t) {
  PerThread& p = per(t);
  if (p.open >= 0) return;
  p.open = int64_t(blocks_.size());
  blocks_.push_back({t, p.resume, ""});
  closed_.push_back(false);
  if (p.last < 0 && p.after_start >= 0) edges_.emplace_back(uint32_t(p.after_start), p.open);
  // The planned entry for this thread is used even when the block came by another route
  // (forced, or a random choice), so the rest of the schedule stays aligned.
  for (size_t k = next_; k < schedule_.size(); ++k) {
    if (!used_[k] && schedule_[k] == t) {
      used_[k] = true;
      break;
    }
  }
  while (next_ < used_.size() && used_[next_]) ++next_;
}

void TscaStrategy::close(ThreadId t, const std::string& end) {
  PerThread& p = per(t);
  p.ending = false;
  if (p.open < 0) return;
  blocks_[size_t(p.open)].end = end;
  closed_[size_t(p.open)] = true;
  p.last = p.open;
  p.open = -1;
  p.resume = end;
}

void TscaStrategy::on_arrive(ThreadId t, const Op& op) {
  PerThread& p = per(t);
  if (p.ending || op.kind == OpKind::Join) close(t, namer_(op.site));
}

void TscaStrategy::on_executed(ThreadId t, const Op& op) {
  switch (op.kind) {
    case OpKind::Exit:
      per(t).ending = true;
      break;
    case OpKind::Wait:
      close(t, namer_(op.site));
      break;
    case OpKind::End:
      close(t, "end");
      break;
    case OpKind::Join: {
      // Only a join that saw the thread end orders the blocks.
      const PerThread& target = per(op.target);
      PerThread& self = per(t);
      if (target.open < 0 && target.resume == "end" && target.last >= 0 && self.open >= 0)
        edges_.emplace_back(uint32_t(target.last), uint32_t(self.open));
      break;
    }
    default:
      break;
  }
}

size_t TscaStrategy::pick(const std::vector<Candidate>& enabled) {
  // Inside a block the running thread goes on; a thread that blocked inside its block
  // finishes it before new blocks start.
  for (size_t i = 0; i < enabled.size(); ++i) {
    if (enabled[i].thread == current_ && per(current_).open >= 0) return i;
  }
  for (size_t i = 0; i < enabled.size(); ++i) {
    if (per(enabled[i].thread).open >= 0) return i;
  }
  for (size_t k = next_; k < schedule_.size(); ++k) {
    if (used_[k]) continue;
    for (size_t i = 0; i < enabled.size(); ++i) {
      if (enabled[i].thread == schedule_[k]) return i;
    }
  }
  return size_t(rng_.below(enabled.size()));
}

size_t TscaStrategy::choose(const std::vector<Candidate>& enabled, uint64_t) {
  size_t i = pick(enabled);
  current_ = enabled[i].thread;
  open(current_);
  return i;
}

void TscaStrategy::forced(const Candidate& only, uint64_t) {
  current_ = only.thread;
  open(current_);
}

BlockTrace TscaStrategy::trace() const {
  BlockTrace out;
  std::vector<int64_t> index(blocks_.size(), -1);
  for (size_t i = 0; i < blocks_.size(); ++i) {
    if (!closed_[i]) continue;
    index[i] = int64_t(out.blocks.size());
    out.blocks.push_back(blocks_[i]);
  }
  for (auto [a, b] : edges_) {
    if (index[a] >= 0 && index[b] >= 0)
      out.edges.emplace_back(uint32_t(index[a]), uint32_t(index[b]));
  }
  return out;
}

size_t TscaStrategy::skipped() const {
  size_t n = 0;
  for (bool u : used_) n += u ? 0 : 1;
  return n;
}

}  // namespace jsched::sched
