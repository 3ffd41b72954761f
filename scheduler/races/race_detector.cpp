#include "scheduler/races/race_detector.h"

#include <algorithm>
#include <utility>

namespace jsched::sched {

RaceDetector::Clock& RaceDetector::clock(ThreadId t) {
  if (t >= threads_.size()) threads_.resize(size_t(t) + 1);
  Clock& c = threads_[t];
  if (c.size() <= t) c.resize(size_t(t) + 1, 0);
  // A thread's own time starts at 1: time 0 is what every other thread knows of it at first.
  if (c[t] == 0) c[t] = 1;
  return c;
}

void RaceDetector::join(Clock& into, const Clock& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

bool RaceDetector::ordered_before(const Epoch& e, ThreadId t) const {
  if (e.thread == kNoThread || e.thread == t) return true;
  const Clock& c = threads_[t];
  return e.thread < c.size() && e.time <= c[e.thread];
}

void RaceDetector::returned(ThreadId t) {
  if (t >= in_call_.size() || in_call_[t] == kNoObject) return;
  join(clock(t), *receivers_.find_or_add(std::exchange(in_call_[t], kNoObject)));
}

void RaceDetector::event(ThreadId t, const Op& op) {
  if (op.kind != OpKind::Park && op.kind != OpKind::Unpark && op.kind != OpKind::Yield) returned(t);
  Clock& c = clock(t);
  switch (op.kind) {
    case OpKind::Start: {
      const ThreadId child = op.target;
      if (child == kNoThread) break;
      Clock copy = c;  // clock(child) may move threads_
      join(clock(child), copy);
      tick(t);
      break;
    }
    case OpKind::End:
      if (ended_.size() <= t) ended_.resize(size_t(t) + 1);
      ended_[t] = c;
      break;
    case OpKind::Join:
      if (op.target < ended_.size() && !ended_[op.target].empty()) join(c, ended_[op.target]);
      break;
    case OpKind::Enter:
    case OpKind::Reacquire:
      if (const Clock* m = monitors_.find(op.obj)) join(c, *m);
      break;
    case OpKind::Exit:
    case OpKind::Wait:
      join(*monitors_.find_or_add(op.obj), c);
      tick(t);
      break;
    case OpKind::Unpark:
      if (op.target != kNoThread) {
        if (permits_.size() <= op.target) permits_.resize(size_t(op.target) + 1);
        join(permits_[op.target], c);
        tick(t);
      }
      break;
    case OpKind::Park:
      if (t < permits_.size()) join(c, permits_[t]);
      break;
    case OpKind::Sync: {
      const ObjectId through = op.orders_through != kNoObject ? op.orders_through : op.obj;
      Clock& r = *receivers_.find_or_add(through);
      join(c, r);
      join(r, c);
      tick(t);
      if (in_call_.size() <= t) in_call_.resize(size_t(t) + 1, kNoObject);
      in_call_[t] = through;
      break;
    }
    case OpKind::Read:
    case OpKind::Write:
      access(t, op);
      break;
    default:
      break;
  }
}

void RaceDetector::access(ThreadId t, const Op& op) {
  const Key key{op.obj, op.slot};
  const bool write = op.kind == OpKind::Write;
  if (op.ordered) {  // a volatile (or final, or class-initialization) access orders
    if (write) {
      Clock& c = clock(t);  // before the table: clock() may add a thread, not a location
      join(*volatiles_.find_or_add(key.obj, key.slot, SIZE_MAX), c);
      tick(t);
    } else if (const Clock* v = volatiles_.find(key.obj, key.slot)) {
      join(clock(t), *v);
    }
    return;
  }
  Location* found = location(key);
  if (found == nullptr) return;
  Location& loc = *found;
  if (!ordered_before(loc.write, t)) report(op, loc.write, true, t);
  const Epoch now{t, clock(t)[t], op.site};
  if (write) {
    if (!ordered_before(loc.read, t)) report(op, loc.read, false, t);
    if (loc.more != kNoList) {
      for (const Epoch& r : more_reads_[loc.more]) {
        if (!ordered_before(r, t)) report(op, r, false, t);
      }
    }
    clear_reads(loc);
    loc.write = now;
  } else {
    read(loc, now);
  }
}

void RaceDetector::read(Location& loc, const Epoch& now) {
  if (loc.read.thread == kNoThread || loc.read.thread == now.thread) {
    loc.read = now;
    return;
  }
  if (loc.more == kNoList) {
    if (free_lists_.empty()) {
      loc.more = uint32_t(more_reads_.size());
      more_reads_.emplace_back();
    } else {
      loc.more = free_lists_.back();
      free_lists_.pop_back();
    }
  }
  std::vector<Epoch>& more = more_reads_[loc.more];
  auto mine = std::find_if(more.begin(), more.end(),
                           [&](const Epoch& e) { return e.thread == now.thread; });
  if (mine == more.end())
    more.push_back(now);
  else
    *mine = now;
}

void RaceDetector::clear_reads(Location& loc) {
  loc.read = Epoch{};
  if (loc.more == kNoList) return;
  more_reads_[loc.more].clear();
  free_lists_.push_back(std::exchange(loc.more, kNoList));
}

RaceDetector::Location* RaceDetector::location(const Key& key) {
  Location* loc = locations_.find_or_add(key.obj, key.slot, kMaxLocations);
  if (loc == nullptr) saturated_ = true;
  return loc;
}

void RaceDetector::report(const Op& op, const Epoch& earlier, bool earlier_write, ThreadId t) {
  const bool write = op.kind == OpKind::Write;
  // One race per pair of accesses, whichever came first.
  auto a = std::make_pair(earlier.site, earlier_write), b = std::make_pair(op.site, write);
  if (b < a) std::swap(a, b);
  // (insert, not emplace: a pair seen before, as nearly every one is, allocates nothing)
  if (!seen_.insert(std::make_tuple(a.first, a.second, b.first, b.second)).second) return;
  races_.push_back(Race{op.obj, op.slot, RaceAccess{earlier.thread, earlier.site, earlier_write},
                        RaceAccess{t, op.site, write}});
}

}  // namespace jsched::sched
