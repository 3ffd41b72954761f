#include "rewriter/fresh_arrays.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "classfile/opcodes.h"
#include "rewriter/descriptors.h"
#include "rewriter/frame_state.h"
#include "rewriter/type_simulator.h"

namespace jsched::rw {

namespace {

using cf::Insn;
using cf::is_array_load;
using cf::is_array_store;
using cf::Label;
using cf::VType;
namespace op = cf::op;

// The analysis follows the verifier's types (TypeSimulator::step, the frames at merge points)
// and tags each array reference with where it was allocated: the index of its `newarray`,
// carried in VType::label, which the types of objects do not use (and their equality ignores).
// A tag means: on every path here, this value is an array allocated by this call at that
// instruction, and no array allocated there has left the frame. When any reference with a tag
// leaves (or two paths disagree about a slot, so that an untagged slot might alias a tagged
// one), every slot with that tag loses it.
constexpr Label kUntagged = cf::kNoLabel;

bool tagged(const VType& t) {
  return t.tag == VType::Object && t.label != kUntagged;
}

void untag(std::vector<VType>& slots, const std::unordered_set<Label>& gone) {
  for (VType& t : slots)
    if (tagged(t) && gone.count(t.label)) t.label = kUntagged;
}

void untag(State& s, const std::unordered_set<Label>& gone) {
  if (gone.empty()) return;
  untag(s.locals, gone);
  untag(s.stack, gone);
}

class Analysis {
 public:
  Analysis(cf::ClassFile& cf, const cf::Member& m, const cf::Code& code)
      : cf_(cf), code_(code), sim_(cf, m, code), fresh_(code.insns.size(), false) {
    const cf::CodeAttr* smt = const_cast<cf::Code&>(code).find(cf::CodeAttr::StackMap);
    if (smt != nullptr) {
      std::vector<State> states = expand_frames(*smt, sim_.entry());
      for (size_t k = 0; k < states.size(); ++k) declared_[smt->frames[k].at] = states[k];
    }
    for (size_t i = 0; i < code.insns.size(); ++i)
      if (code.insns[i].is_label()) position_[Label(code.insns[i].v)] = i;
    for (const cf::ExceptionEntry& e : code.exceptions) {
      auto from = position_.find(e.start), to = position_.find(e.end);
      if (from == position_.end() || to == position_.end()) throw std::runtime_error("handler");
      for (size_t i = from->second; i < to->second; ++i) handlers_[i].push_back(e.handler);
    }
  }

  std::vector<bool> run() {
    walk(0, sim_.entry(), false);
    // Each walk starts at a merge point whose state lost a tag (or was first reached): tags
    // only ever go, so this ends; the bound keeps a pathological method cheap.
    size_t budget = 64 * (declared_.size() + 1);
    while (!pending_.empty()) {
      if (budget-- == 0) throw std::runtime_error("too many rounds");
      Label l = pending_.front();
      pending_.pop_front();
      queued_.erase(l);
      walk(position_.at(l), merged_.at(l), true);
    }
    return std::move(fresh_);
  }

 private:
  // From instruction `from` (a merge point's label when `merged`: its state is `cur`).
  void walk(size_t from, State cur, bool merged) {
    Label at = cf::kNoLabel;
    for (size_t i = from; i < code_.insns.size(); ++i) {
      const Insn& in = code_.insns[i];
      if (in.is_label()) {
        const Label l = Label(in.v);
        if ((i != from || !merged) && declared_.count(l)) return merge(l, cur);
        at = l;
        continue;
      }
      const size_t n = cur.stack.size();
      if (is_array_load(in.op) && n >= 2) fresh_[i] = tagged(cur.stack[n - 2]);
      if (is_array_store(in.op) && n >= 3) fresh_[i] = tagged(cur.stack[n - 3]);
      // An exception may come before the instruction or after what it did (a call that took
      // the array and threw): the handler gets the locals of both.
      const auto h = handlers_.find(i);
      if (h != handlers_.end()) {
        for (Label l : h->second) merge(l, State{cur.locals, declared_.at(l).stack});
      }
      const std::unordered_set<Label> gone = leaving(in, cur);
      const Label cast =
          in.op == op::checkcast && tagged(cur.stack.back()) ? cur.stack.back().label : kUntagged;
      sim_.step(in, at, cur);
      if (in.op == op::newarray || in.op == op::anewarray || in.op == op::multianewarray)
        cur.stack.back().label = Label(i);
      if (cast != kUntagged && cur.stack.back().tag == VType::Object) cur.stack.back().label = cast;
      untag(cur, gone);
      if (h != handlers_.end() && !gone.empty()) {
        for (Label l : h->second) merge(l, State{cur.locals, declared_.at(l).stack});
      }
      if (cf::is_branch(in.op)) merge(Label(in.v), cur);
      if (in.op == op::tableswitch || in.op == op::lookupswitch) {
        const cf::Switch& sw = code_.switches[size_t(in.v)];
        merge(sw.dflt, cur);
        for (uint32_t k = 0; k < sw.count; ++k) merge(code_.switch_targets[sw.first + k], cur);
      }
      if (cf::ends_block(in.op)) return;
      at = cf::kNoLabel;
    }
  }

  // The tags of what instruction `in` lets go of (into a field or an array element, to a
  // method, out of the frame), in state `s` before it.
  std::unordered_set<Label> leaving(const Insn& in, const State& s) const {
    std::unordered_set<Label> gone;
    size_t taken = 0;
    if (in.op == op::putfield || in.op == op::putstatic || in.op == op::aastore ||
        in.op == op::areturn || in.op == op::athrow) {
      taken = 1;
    } else if (cf::is_invoke(in.op)) {  // one stack entry per value
      taken = arg_descs(invoked_desc(in)).size() +
              (in.op == op::invokestatic || in.op == op::invokedynamic ? 0 : 1);
    }
    const size_t n = s.stack.size();
    for (size_t k = n - std::min(taken, n); k < n; ++k)
      if (tagged(s.stack[k])) gone.insert(s.stack[k].label);
    return gone;
  }

  std::string invoked_desc(const Insn& in) const {
    if (in.op == op::invokedynamic) return std::string(cf_.cp.desc_of_nat(cf_.cp.at(in.u).b));
    return std::string(cf_.cp.member_ref(in.u).desc);
  }

  // The state at merge point `l`: the frame's types, a slot tagged where every path so far
  // brought it the same tag.
  void merge(Label l, const State& in) {
    auto d = declared_.find(l);
    if (d == declared_.end()) throw std::runtime_error("a branch to a point without a frame");
    const State& decl = d->second;
    auto [it, first] = merged_.try_emplace(l);
    State& m = it->second;
    if (first) {
      m = decl;
      carry(m.locals, in.locals);
      carry(m.stack, in.stack);
      return enqueue(l);
    }
    std::unordered_set<Label> gone;
    differ(m.locals, in.locals, gone);
    differ(m.stack, in.stack, gone);
    if (gone.empty()) return;
    untag(m, gone);
    enqueue(l);
  }

  static void carry(std::vector<VType>& to, const std::vector<VType>& from) {
    for (size_t k = 0; k < to.size(); ++k)
      if (to[k].tag == VType::Object && k < from.size() && tagged(from[k]))
        to[k].label = from[k].label;
  }

  static void differ(const std::vector<VType>& have, const std::vector<VType>& in,
                     std::unordered_set<Label>& gone) {
    for (size_t k = 0; k < have.size(); ++k) {
      if (have[k].tag != VType::Object) continue;  // a dead slot aliases nothing that is used
      const Label other = k < in.size() && tagged(in[k]) ? in[k].label : kUntagged;
      if (have[k].label == other) continue;
      if (have[k].label != kUntagged) gone.insert(have[k].label);
      if (other != kUntagged) gone.insert(other);
    }
  }

  void enqueue(Label l) {
    if (queued_.insert(l).second) pending_.push_back(l);
  }

  cf::ClassFile& cf_;
  const cf::Code& code_;
  TypeSimulator sim_;
  std::vector<bool> fresh_;
  std::unordered_map<Label, State> declared_, merged_;
  std::unordered_map<Label, size_t> position_;
  std::unordered_map<size_t, std::vector<Label>> handlers_;
  std::deque<Label> pending_;
  std::unordered_set<Label> queued_;
};

bool worth_it(const cf::Code& code) {
  bool allocates = false, accesses = false;
  for (const Insn& in : code.insns) {
    if (in.is_label()) continue;
    allocates |= in.op == op::newarray || in.op == op::anewarray || in.op == op::multianewarray;
    accesses |= is_array_load(in.op) || is_array_store(in.op);
  }
  return allocates && accesses;
}

}  // namespace

std::vector<bool> fresh_array_accesses(cf::ClassFile& cf, const cf::Member& m,
                                       const cf::Code& code) {
  if (cf.major < 50 || !worth_it(code)) return {};
  try {
    return Analysis(cf, m, code).run();
  } catch (const std::exception&) {
    return {};  // code the analysis cannot follow: every access stays a point
  }
}

}  // namespace jsched::rw
