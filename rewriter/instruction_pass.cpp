// The per-instruction passes. Each hook sequence leaves the operand stack and locals exactly
// as it found them, so existing frames stay valid; hooks that must see the state of the
// operation run before it (they are scheduling points for that operation), except the
// monitor-exit hook which runs once the monitor is released.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "classfile/opcodes.h"
#include "rewriter/annotations.h"
#include "rewriter/descriptors.h"
#include "rewriter/emitter.h"
#include "rewriter/fresh_arrays.h"
#include "rewriter/handler_gaps.h"
#include "rewriter/jdk_packages.h"
#include "rewriter/method_rewriter.h"
#include "rewriter/thread_calls.h"
#include "rewriter/type_simulator.h"

namespace jsched::rw {

namespace op = cf::op;
using cf::Insn;
using cf::is_array_load;
using cf::is_array_store;
using cf::VType;

namespace {

// A replacement of one exact JDK method by a hook with the same operands plus a site.
struct ExactMatch {
  Hook hook;
  SiteKind kind;
};

std::optional<ExactMatch> match_exact(const RewriteConfig& cfg, uint8_t o, std::string_view owner,
                                      std::string_view name, std::string_view desc) {
  if (cfg.park_calls && o == op::invokevirtual && owner == "jdk/internal/misc/Unsafe") {
    if (name == "park" && desc == "(ZJ)V") return ExactMatch{Hook::UnsafePark, SiteKind::Park};
    if (name == "unpark" && desc == "(Ljava/lang/Object;)V")
      return ExactMatch{Hook::UnsafeUnpark, SiteKind::Unpark};
  }
  if (cfg.calls && name == "gc" && desc == "()V") {
    if (o == op::invokestatic && owner == "java/lang/System")
      return ExactMatch{Hook::SystemGc, SiteKind::Sleep};
    if (o == op::invokevirtual && owner == "java/lang/Runtime")
      return ExactMatch{Hook::RuntimeGc, SiteKind::Sleep};
  }
  if (cfg.park_calls && o == op::invokeinterface &&
      owner == "jdk/internal/access/JavaLangAccess") {  // a virtual thread parks (JDK 21+)
    if (name == "parkVirtualThread" && desc == "()V")
      return ExactMatch{Hook::VirtualPark, SiteKind::Park};
    if (name == "parkVirtualThread" && desc == "(J)V")
      return ExactMatch{Hook::VirtualParkNanos, SiteKind::Park};
    if (name == "unparkVirtualThread" && desc == "(Ljava/lang/Thread;)V")
      return ExactMatch{Hook::VirtualUnpark, SiteKind::Unpark};
  }
  if (cfg.calls && o == op::invokeinterface && owner == "jdk/internal/access/JavaLangAccess" &&
      name == "start" && desc == "(Ljava/lang/Thread;Ljdk/internal/vm/ThreadContainer;)V")
    return ExactMatch{Hook::ThreadStartIn, SiteKind::ThreadStart};
  if (cfg.calls && name == "start" && desc == "(Ljava/lang/Runnable;)Ljava/lang/Thread;" &&
      o == op::invokeinterface && owner.starts_with("java/lang/Thread$Builder"))
    return ExactMatch{Hook::ThreadBuilderStart, SiteKind::ThreadStart};
  if (cfg.calls && o == op::invokestatic && owner == "java/lang/Thread" &&
      name == "startVirtualThread" && desc == "(Ljava/lang/Runnable;)Ljava/lang/Thread;")
    return ExactMatch{Hook::ThreadStartVirtual, SiteKind::ThreadStart};
  if (cfg.virtual_clock && o == op::invokestatic && owner == "java/lang/System" && desc == "()J") {
    if (name == "nanoTime") return ExactMatch{Hook::NanoTime, SiteKind::Clock};
    if (name == "currentTimeMillis") return ExactMatch{Hook::CurrentTimeMillis, SiteKind::Clock};
  }
  // SystemClock (Clock.systemUTC(), systemDefaultZone(), InstantSource.system()) calls the
  // static method it inherits through its own name.
  if (cfg.virtual_clock && o == op::invokestatic &&
      (owner == "java/time/Clock" || owner == "java/time/Clock$SystemClock") &&
      name == "currentInstant" && desc == "()Ljava/time/Instant;")
    return ExactMatch{Hook::ClockInstant, SiteKind::Clock};
  if (cfg.seeded_randomness && o == op::invokestatic) {
    if ((owner == "java/lang/Math" || owner == "java/lang/StrictMath") && name == "random" &&
        desc == "()D")
      return ExactMatch{Hook::MathRandom, SiteKind::Random};
    if (owner == "java/util/UUID" && name == "randomUUID" && desc == "()Ljava/util/UUID;")
      return ExactMatch{Hook::RandomUUID, SiteKind::Random};
    if (owner == "java/util/Collections" && name == "shuffle" && desc == "(Ljava/util/List;)V")
      return ExactMatch{Hook::Shuffle, SiteKind::Random};
  }
  return std::nullopt;
}

template <size_t N>
bool one_of(const std::string_view (&names)[N], std::string_view name) {
  return std::find(names, names + N, name) != names + N;
}

// java.util.concurrent methods that only read their receiver (for the dependence of
// docs/architecture.md, "Dependence"; anything else counts as a write).
bool reads_only(std::string_view name) {
  static constexpr std::string_view kReaders[] = {"get",
                                                  "getPlain",
                                                  "getOpaque",
                                                  "getAcquire",
                                                  "intValue",
                                                  "longValue",
                                                  "doubleValue",
                                                  "floatValue",
                                                  "getCount",
                                                  "isLocked",
                                                  "isHeldByCurrentThread",
                                                  "getHoldCount",
                                                  "getQueueLength",
                                                  "hasQueuedThreads",
                                                  "availablePermits",
                                                  "isBroken",
                                                  "getNumberWaiting",
                                                  "getParties",
                                                  "isDone",
                                                  "isCancelled",
                                                  "isShutdown",
                                                  "isTerminated",
                                                  "size",
                                                  "isEmpty",
                                                  "contains",
                                                  "containsKey",
                                                  "containsValue",
                                                  "peek",
                                                  "getReadLockCount",
                                                  "isWriteLocked",
                                                  "toString",
                                                  "sum",
                                                  "length"};
  return one_of(kReaders, name);
}

// Unsafe's memory accesses that other threads can see (volatile, acquire/release, opaque, CAS,
// get-and-op), as opposed to its offsets, allocation and plain accesses.
bool is_unsafe_shared_access(std::string_view name) {
  for (std::string_view part : {"Volatile", "Acquire", "Release", "Opaque"}) {
    if (name.find(part) != std::string_view::npos) return true;
  }
  for (std::string_view prefix : {"compareAnd", "weakCompare", "getAnd"}) {
    if (name.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

// Calls that become scheduling points under `sync_calls`: instance methods of
// java.util.concurrent classes (not TimeUnit's conversions nor ThreadLocalRandom), and
// LockSupport.unpark; every VarHandle access (a spin loop on getVolatile or compareAndSet must
// let the thread it waits for run: otherwise a false hang); Unsafe's shared accesses. A
// VarHandle names one field or array type, so its accesses touch it as a variable would (the
// receiver of the call is the VarHandle).
bool is_sync_call(uint8_t o, std::string_view owner, std::string_view name) {
  if (o == op::invokevirtual && owner == "java/lang/invoke/VarHandle")
    return name != "accessModeType" && name != "isAccessModeSupported" &&
           name != "toMethodHandle" && name != "varType" && name != "coordinateTypes" &&
           name != "hasInvokeExactBehavior" && name != "withInvokeExactBehavior" &&
           name != "withInvokeBehavior" && name != "describeConstable" && name != "toString" &&
           name != "hashCode" && name != "equals" && name != "getClass";
  if (o == op::invokevirtual && (owner == "sun/misc/Unsafe" || owner == "jdk/internal/misc/Unsafe"))
    return is_unsafe_shared_access(name);
  constexpr std::string_view kJuc = "java/util/concurrent/";
  if (owner.substr(0, kJuc.size()) != kJuc) return false;
  if (o == op::invokestatic)
    return owner == "java/util/concurrent/locks/LockSupport" && name == "unpark";
  return owner != "java/util/concurrent/TimeUnit" &&
         owner != "java/util/concurrent/ThreadLocalRandom";
}

// A call that may be one on a program's subclass of a java.util.concurrent class (a lock that
// extends ReentrantLock, as commons-pool2's does; a synchronizer that extends
// AbstractQueuedSynchronizer; an executor that extends ThreadPoolExecutor): an instance call on
// a class outside the JDK by a name of those classes' synchronizing methods. Which class the
// receiver is, only the run knows (the subclass loads after its callers are rewritten): the
// hook asks it there. Names of collections' methods (get, put, add) are left out: they are on
// every other class of a program, and a check at each of its calls costs more than a missed
// ordering (a program's subclass of a concurrent collection reached through its own class).
bool may_be_concurrent_subclass_call(uint8_t o, std::string_view owner, std::string_view name) {
  if (o != op::invokevirtual || jdk_package(owner)) return false;
  static constexpr std::string_view kNames[] = {"lock",
                                                "lockInterruptibly",
                                                "tryLock",
                                                "unlock",
                                                "newCondition",
                                                "readLock",
                                                "writeLock",
                                                "acquire",
                                                "acquireUninterruptibly",
                                                "acquireInterruptibly",
                                                "tryAcquire",
                                                "tryAcquireNanos",
                                                "release",
                                                "acquireShared",
                                                "acquireSharedInterruptibly",
                                                "tryAcquireShared",
                                                "tryAcquireSharedNanos",
                                                "releaseShared",
                                                "countDown",
                                                "await",
                                                "arrive",
                                                "arriveAndAwaitAdvance",
                                                "arriveAndDeregister",
                                                "awaitAdvance",
                                                "awaitAdvanceInterruptibly",
                                                "register",
                                                "bulkRegister",
                                                "execute",
                                                "submit",
                                                "invokeAll",
                                                "invokeAny",
                                                "schedule",
                                                "scheduleAtFixedRate",
                                                "scheduleWithFixedDelay",
                                                "shutdown",
                                                "shutdownNow",
                                                "awaitTermination"};
  return one_of(kNames, name);
}

// Typed local load/store opcode for a value of field descriptor `d`.
uint8_t local_kind(std::string_view d, bool load) {
  switch (d[0]) {
    case 'J':
      return load ? op::lload : op::lstore;
    case 'F':
      return load ? op::fload : op::fstore;
    case 'D':
      return load ? op::dload : op::dstore;
    case 'L':
    case '[':
      return load ? op::aload : op::astore;
    default:
      return load ? op::iload : op::istore;
  }
}

bool has_monitor_exit(const cf::Code& code) {
  return std::any_of(code.insns.begin(), code.insns.end(),
                     [](const Insn& in) { return !in.is_label() && in.op == op::monitorexit; });
}

class InstructionPass {
 public:
  InstructionPass(ClassContext& ctx, cf::Member& m, cf::Code& code)
      : ctx_(ctx),
        cf_(ctx.cf),
        m_(m),
        code_(code),
        method_(ctx.cf.member_name(m)),
        desc_(ctx.cf.member_desc(m)),
        ctor_(method_ == "<init>") {}

  bool run() {
    bool want_sim = cf_.major >= 50 && (ctx_.cfg.allocations || ctx_.cfg.filter ||
                                        (ctor_ && ctx_.cfg.accesses != Accesses::None));
    // Accesses to an array this call just made (and kept to itself) are no points.
    const bool want_fresh =
        cf_.major >= 50 &&
        (ctx_.cfg.filter || accesses_cover(ctx_.cfg.accesses, SiteKind::ArrayLoad));
    if (want_sim || want_fresh) label_news(code_);
    if (want_sim) simulate();
    if (want_fresh) fresh_ = fresh_array_accesses(cf_, m_, code_);
    cf::Layout lay;
    cf::compute_layout(code_, lay);
    std::vector<int> handler_held;
    if (ctx_.cfg.monitors && has_monitor_exit(code_)) {
      held_ = monitors_held(code_);
      handler_held = held_at_labels(code_, held_);
    }
    cf::Vec<Insn> out(code_.resource());
    out.reserve(code_.insns.size() * 2);
    Emitter e(cf_, out);
    const std::string& owner = ctx_.cfg.hook_owner;
    for (size_t i = 0; i < code_.insns.size(); ++i) {
      const Insn in = code_.insns[i];
      if (in.is_label()) {
        e.insn(in);
        continue;
      }
      uint32_t bci = lay.insn_offset[i];
      uint8_t o = in.op;
      if (o == op::monitorenter && ctx_.cfg.monitors) {
        e.op(op::dup);
        e.iconst(site(SiteKind::MonitorEnter, bci));
        e.hook(owner, Hook::MonitorEnter);
        grow(2);
      } else if (o == op::monitorexit && ctx_.cfg.monitors) {
        e.op(op::dup);
        e.insn(in);
        const int before = held_.empty() ? -1 : held_[i];
        const Gap gap{code_.new_label(), code_.new_label(), before > 0 ? before - 1 : -1};
        e.label(gap.from);
        e.iconst(site(SiteKind::MonitorExit, bci));
        e.hook(owner, Hook::MonitorExit);
        e.label(gap.to);
        released_.push_back(gap);
        grow(2);
        continue;
      } else if (o == op::invokevirtual || o == op::invokeinterface || o == op::invokestatic) {
        if (call_hook(e, in, bci)) continue;
      } else if (o >= op::getstatic && o <= op::putfield) {
        field_hook(e, in, i, bci);
      } else if ((is_array_load(o) || is_array_store(o)) && !(i < fresh_.size() && fresh_[i])) {
        if (array_hook(e, in, bci)) continue;
      } else if (o == op::newarray || o == op::anewarray || o == op::multianewarray) {
        e.insn(in);
        alloc_hook(e, SiteKind::AllocArray, bci, array_name(in));
        continue;
      } else if (o == op::invokespecial) {
        if (seed_hook(e, in, bci)) continue;
        if (auto it = alloc_after_.find(i); it != alloc_after_.end()) {
          e.insn(in);
          alloc_hook(e, SiteKind::AllocObject, bci, it->second);
          continue;
        }
      }
      e.insn(in);
    }
    if (!changed_) return false;
    code_.insns = std::move(out);
    if (!released_.empty()) leave_gaps_uncovered(code_, released_, handler_held);
    if (uint32_t(code_.max_stack) + extra_stack_ > 0xffff)
      throw std::runtime_error("max_stack overflow");
    code_.max_stack = uint16_t(code_.max_stack + extra_stack_);
    if (temp_ != 0xffff) code_.max_locals = uint16_t(temp_ + 2);
    if (spill_end_ > code_.max_locals) code_.max_locals = spill_end_;
    return true;
  }

 private:
  int32_t site(SiteKind k, uint32_t bci, std::string_view owner = "", std::string_view name = "",
               std::string_view desc = "") {
    changed_ = true;
    return ctx_.sites.add(SiteInfo{k, ctx_.class_name, method_, desc_, bci, owner, name, desc});
  }

  void grow(int n) { extra_stack_ = std::max(extra_stack_, n); }

  // The filter's decision, with Default resolved to what `accesses`/`allocations` ask for.
  AccessDecision decide(SiteKind k, uint32_t bci, std::string_view owner, std::string_view name,
                        std::string_view desc) {
    AccessDecision d;
    if (ctx_.cfg.filter)
      d = ctx_.cfg.filter->decide(
          SiteInfo{k, ctx_.class_name, method_, desc_, bci, owner, name, desc});
    if (d.kind == AccessDecision::Point) return AccessDecision{};
    if (d.kind != AccessDecision::Default) return d;
    bool alloc = k == SiteKind::AllocObject || k == SiteKind::AllocArray;
    bool on = alloc ? ctx_.cfg.allocations : accesses_cover(ctx_.cfg.accesses, k);
    if (!on) d.kind = AccessDecision::Skip;
    return d;
  }

  // `iconst arg; iconst site` and the tracking hook.
  void tracked(Emitter& e, const AccessDecision& d, int32_t id, Hook h) {
    e.iconst(d.arg);
    e.iconst(id);
    e.hook(ctx_.cfg.hook_owner, h);
  }

  void alloc_hook(Emitter& e, SiteKind k, uint32_t bci, const std::string& type) {
    AccessDecision d = decide(k, bci, "", "", type);
    if (d.kind == AccessDecision::Skip) return;
    e.op(op::dup);
    int32_t id = site(k, bci, "", "", type);
    if (d.kind == AccessDecision::TrackedAlloc) {
      tracked(e, d, id, Hook::TrackedAlloc);
      grow(3);
    } else {
      e.iconst(id);
      e.hook(ctx_.cfg.hook_owner, Hook::Allocated);
      grow(2);
    }
  }

  // Emits the hook before an array load or store, and the instruction itself when it had to
  // move the stored value aside; returns whether it emitted the instruction.
  bool array_hook(Emitter& e, const Insn& in, uint32_t bci) {
    static const char* kElem[] = {"I", "J", "F", "D", "L", "B", "C", "S"};
    bool load = is_array_load(in.op);
    SiteKind k = load ? SiteKind::ArrayLoad : SiteKind::ArrayStore;
    const char* elem = kElem[load ? in.op - op::iaload : in.op - op::iastore];
    AccessDecision d = decide(k, bci, "", "", elem);
    if (d.kind == AccessDecision::Skip || d.kind == AccessDecision::TrackedStatic ||
        d.kind == AccessDecision::TrackedAlloc) {
      return false;
    }
    uint16_t tmp = 0;
    if (!load) {
      tmp = temp_slot();
      e.local(local_kind(elem, false), tmp);
    }
    e.op(op::dup2);  // array index array index
    int32_t id = site(k, bci, "", "", elem);
    if (d.kind == AccessDecision::TrackedObject) {
      e.op(op::pop);
      tracked(e, d, id, Hook::TrackedObject);
    } else if (d.kind == AccessDecision::Counted) {
      e.op(op::pop);
      e.iconst(id);
      e.hook(ctx_.cfg.hook_owner, Hook::CountObject);
    } else {
      e.iconst(id);
      e.hook(ctx_.cfg.hook_owner, load ? Hook::ArrayLoad : Hook::ArrayStore);
    }
    grow(3);
    if (load) return false;
    e.local(local_kind(elem, true), tmp);
    e.insn(in);
    return true;
  }

  uint16_t temp_slot() {
    if (temp_ == 0xffff) {
      if (code_.max_locals > 0xfffd) throw std::runtime_error("max_locals overflow");
      temp_ = code_.max_locals;
    }
    return temp_;
  }

  std::string array_name(const Insn& in) {
    static const char* kArr[] = {"[Z", "[C", "[F", "[D", "[B", "[S", "[I", "[J"};
    if (in.op == op::newarray) return kArr[in.u - 4];
    std::string c(cf_.cp.class_name(in.u));
    if (in.op == op::multianewarray) return c;
    return c[0] == '[' ? "[" + c : "[L" + c + ";";
  }

  // Collects, from the type simulation, which putfields in a constructor write to the object
  // still under construction, and after which <init> calls the new object is on the stack top.
  void simulate() {
    try {
      TypeSimulator sim(cf_, m_, code_);
      sim.walk([&](size_t i, const State& s) {
        const Insn& in = code_.insns[i];
        if (in.op == op::putfield && ctor_ && s.stack.size() >= 2 &&
            s.stack[s.stack.size() - 2].tag == VType::UninitializedThis) {
          uninit_receiver_.insert({i, true});
        } else if (in.op == op::putfield && ctor_) {
          uninit_receiver_.insert({i, false});
        } else if (in.op == op::invokespecial && cf_.cp.member_ref(in.u).name == "<init>") {
          size_t nargs = arg_descs(cf_.cp.member_ref(in.u).desc).size();
          if (s.stack.size() < nargs + 2) return;
          const VType& recv = s.stack[s.stack.size() - 1 - nargs];
          const VType& below = s.stack[s.stack.size() - 2 - nargs];
          if (recv.tag == VType::Uninitialized && below == recv) {
            alloc_after_[i] = std::string(cf_.cp.member_ref(in.u).owner);
          }
        }
      });
    } catch (const std::exception&) {
      // Code the simulation cannot follow gets no simulation-based hooks; the other passes
      // still apply.
      uninit_receiver_.clear();
      alloc_after_.clear();
    }
  }

  void field_hook(Emitter& e, const Insn& in, size_t i, uint32_t bci) {
    const std::string& owner = ctx_.cfg.hook_owner;
    auto ref = cf_.cp.member_ref(in.u);
    const bool is_static = in.op == op::getstatic || in.op == op::putstatic;
    const SiteKind k = in.op == op::getstatic   ? SiteKind::GetStatic
                       : in.op == op::putstatic ? SiteKind::PutStatic
                       : in.op == op::getfield  ? SiteKind::GetField
                                                : SiteKind::PutField;
    AccessDecision d = decide(k, bci, ref.owner, ref.name, ref.desc);
    if (d.kind == AccessDecision::Skip || d.kind == AccessDecision::TrackedAlloc ||
        (d.kind == AccessDecision::TrackedStatic && !is_static) ||
        (d.kind == AccessDecision::TrackedObject && is_static)) {
      return;
    }
    if (is_static) {
      int32_t id = site(k, bci, ref.owner, ref.name, ref.desc);
      if (d.kind == AccessDecision::TrackedStatic) {
        tracked(e, d, id, Hook::TrackedStatic);
        grow(2);
      } else if (d.kind == AccessDecision::Counted) {
        e.iconst(id);
        e.hook(owner, Hook::CountStatic);
        grow(1);
      } else {
        e.iconst(id);
        e.hook(owner, k == SiteKind::GetStatic ? Hook::GetStatic : Hook::PutStatic);
        grow(1);
      }
      return;
    }
    const bool object = d.kind == AccessDecision::TrackedObject;
    const Hook plain = d.kind == AccessDecision::Counted ? Hook::CountObject
                       : in.op == op::getfield           ? Hook::GetField
                                                         : Hook::PutField;
    if (in.op == op::getfield) {
      e.op(op::dup);
      int32_t id = site(k, bci, ref.owner, ref.name, ref.desc);
      if (object) {
        tracked(e, d, id, Hook::TrackedObject);
      } else {
        e.iconst(id);
        e.hook(owner, plain);
      }
      grow(object ? 3 : 2);
      return;
    }
    // putfield. In a constructor the receiver may still be uninitialized, which no method may
    // receive: such writes (to an object no other thread can see yet) pass null, and writes
    // whose receiver is unknown (old class files, unsimulated code) get no hook.
    bool uninit = false;
    if (ctor_) {
      auto it = uninit_receiver_.find(i);
      if (it == uninit_receiver_.end()) return;
      uninit = it->second;
    }
    int32_t id = site(k, bci, ref.owner, ref.name, ref.desc);
    if (uninit) {
      e.op(op::aconst_null);
    } else if (desc_slots(ref.desc) == 2) {
      e.op(op::dup2_x1);  // obj v -> v obj v
      e.op(op::pop2);     // v obj
      e.op(op::dup_x2);   // obj v obj
    } else {
      e.op(op::dup2);  // obj v obj v
      e.op(op::pop);   // obj v obj
    }
    if (object) {
      tracked(e, d, id, Hook::TrackedObject);
    } else {
      e.iconst(id);
      e.hook(owner, plain);
    }
    grow(object ? 4 : 3);
  }

  // Where the JDK's generators take their seed from the clock and a global counter, the seed
  // goes through the RandomSeed hook, which gives controlled threads one from the execution.
  // Returns whether it emitted the call.
  bool seed_hook(Emitter& e, const Insn& in, uint32_t bci) {
    const std::string_view cls = ctx_.class_name;
    if (!ctx_.cfg.seeded_randomness ||
        (cls != "java/util/Random" && cls != "java/util/concurrent/ThreadLocalRandom" &&
         cls != "java/util/SplittableRandom"))
      return false;
    auto ref = cf_.cp.member_ref(in.u);
    if (cls == "java/util/Random" && method_ == "<init>" && desc_ == "()V" &&
        in.op == op::invokespecial && ref.name == "<init>" && ref.desc == "(J)V") {
      e.iconst(site(SiteKind::Random, bci, ref.owner, ref.name, ref.desc));
      e.hook(ctx_.cfg.hook_owner, Hook::RandomSeed);
      e.insn(in);
      grow(1);
      return true;
    }
    // ThreadLocalRandom's next seed adds the thread's id, which depends on how many threads
    // the JVM made before: a controlled thread's id is its place in the execution instead.
    if (cls == "java/util/concurrent/ThreadLocalRandom" && ref.owner == "java/lang/Thread" &&
        (ref.name == "getId" || ref.name == "threadId") && ref.desc == "()J") {
      e.insn(in);
      e.iconst(site(SiteKind::Random, bci, ref.owner, ref.name, ref.desc));
      e.hook(ctx_.cfg.hook_owner, Hook::StableThreadId);
      grow(1);
      return true;
    }
    if (((cls == "java/util/concurrent/ThreadLocalRandom" && method_ == "localInit") ||
         (cls == "java/util/SplittableRandom" && method_ == "<init>" && desc_ == "()V")) &&
        ref.owner == "java/util/concurrent/atomic/AtomicLong" && ref.name == "getAndAdd") {
      e.insn(in);
      e.iconst(site(SiteKind::Random, bci, ref.owner, ref.name, ref.desc));
      e.hook(ctx_.cfg.hook_owner, Hook::RandomSeed);
      grow(1);
      return true;
    }
    return false;
  }

  // Emits what a call gets (a replacement, or a scheduling point before it); returns whether
  // it emitted the call itself.
  bool call_hook(Emitter& e, const Insn& in, uint32_t bci) {
    auto ref = cf_.cp.member_ref(in.u);
    if (ctx_.cfg.fixed_jdk_seeds && in.op == op::invokestatic && ref.owner == "java/lang/System" &&
        ref.name == "nanoTime" && ctx_.class_name == "java/util/ImmutableCollections" &&
        method_ == "<clinit>") {
      e.op(op::lconst_1);  // a long in place of the call's long: the stack is unchanged
      return true;
    }
    if (seed_hook(e, in, bci)) return true;
    if (io_wait_hook(e, in, bci)) return true;
    if (io_ready_before(e, in, bci)) return true;
    if (auto exact = match_exact(ctx_.cfg, in.op, ref.owner, ref.name, ref.desc)) {
      call_instead(e, exact->hook, exact->kind, in, bci);
      return true;
    }
    if (ctx_.cfg.calls && replace_call(e, in, bci)) return true;
    if (!ctx_.cfg.sync_calls) return false;
    if (is_sync_call(in.op, ref.owner, ref.name)) {
      sync_point(e, in, bci, false);
    } else if (may_be_concurrent_subclass_call(in.op, ref.owner, ref.name)) {
      sync_point(e, in, bci, true);
    }
    return false;
  }

  // The hook takes the call's operands plus the site, in place of the call.
  void call_instead(Emitter& e, Hook h, SiteKind k, const Insn& in, uint32_t bci) {
    auto ref = cf_.cp.member_ref(in.u);
    e.iconst(site(k, bci, ref.owner, ref.name, ref.desc));
    e.hook(ctx_.cfg.hook_owner, h);
    grow(1);
  }

  // `receiver args...` stays as it was; the receiver (for a static call, its one reference
  // argument) goes to the sync hook. Arguments above the receiver wait in fresh locals.
  // `checked`: the hook first asks whether the receiver is a java.util.concurrent object.
  void sync_point(Emitter& e, const Insn& in, uint32_t bci, bool checked) {
    auto ref = cf_.cp.member_ref(in.u);
    std::vector<std::string_view> args = arg_descs(ref.desc);
    if (in.op == op::invokestatic) {
      if (args.size() != 1 || (args[0][0] != 'L' && args[0][0] != '[')) return;
      args.clear();  // the argument plays the receiver
    }
    int32_t id = site(SiteKind::SyncCall, bci, ref.owner, ref.name, ref.desc);
    std::vector<uint16_t> slots = spill(e, args);
    e.op(op::dup);
    e.iconst(id);
    const bool memory = ref.owner.substr(0, 15) != "java/util/concu";  // VarHandle, Unsafe
    const bool read = memory ? ref.name.substr(0, 3) == "get" && ref.name.substr(0, 6) != "getAnd"
                             : reads_only(ref.name);
    e.hook(ctx_.cfg.hook_owner,
           checked ? Hook::SyncCallIfConcurrent : (read ? Hook::SyncRead : Hook::SyncCall));
    reload(e, args, slots);
    grow(2);
  }

  // The static call's arguments wait in fresh locals; the hook gets those at `pass` (and the
  // site) and returns a new value for the argument at `replace`; then the call gets its
  // arguments back, that one replaced.
  void filter_argument(Emitter& e, const Insn& in, uint32_t bci, Hook h,
                       const std::vector<size_t>& pass, size_t replace) {
    auto ref = cf_.cp.member_ref(in.u);
    std::vector<std::string_view> args = arg_descs(ref.desc);
    int32_t id = site(SiteKind::IoWait, bci, ref.owner, ref.name, ref.desc);
    std::vector<uint16_t> slots = spill(e, args);
    for (size_t k : pass) e.local(local_kind(args[k], true), slots[k]);
    e.iconst(id);
    e.hook(ctx_.cfg.hook_owner, h);
    e.local(local_kind(args[replace], false), slots[replace]);
    reload(e, args, slots);
    e.insn(in);
    grow(2);
  }

  // Where the JDK blocks on a socket or a selector (NioSocketImpl's Net.poll, the epoll
  // selector's EPoll.wait): the hook waits in the model until the descriptor is ready and
  // returns the timeout the real call then gets (0: do not block). Returns whether it emitted
  // the call.
  bool io_wait_hook(Emitter& e, const Insn& in, uint32_t bci) {
    if (!ctx_.cfg.io_waits || in.op != op::invokestatic) return false;
    auto ref = cf_.cp.member_ref(in.u);
    if (ref.owner == "sun/nio/ch/Net" && ref.name == "poll" &&
        ref.desc == "(Ljava/io/FileDescriptor;IJ)I") {
      filter_argument(e, in, bci, Hook::IoPoll, {0, 1, 2}, 2);
      return true;
    }
    if (ref.owner == "sun/nio/ch/EPoll" && ref.name == "wait" && ref.desc == "(IJII)I") {
      filter_argument(e, in, bci, Hook::EpollWait, {0, 3}, 3);
      return true;
    }
    return false;
  }

  // A blocking socket without a timeout reads and accepts on a blocking descriptor (no poll
  // first): the thread waits in the model for it to be readable before the call (then the
  // call does not block). Returns whether it emitted the call.
  bool io_ready_before(Emitter& e, const Insn& in, uint32_t bci) {
    if (!ctx_.cfg.io_waits || ctx_.class_name != "sun/nio/ch/NioSocketImpl") return false;
    auto ref = cf_.cp.member_ref(in.u);
    const bool read = method_ == "implRead" && ref.owner == ctx_.class_name &&
                      ref.name == "tryRead" && ref.desc == "(Ljava/io/FileDescriptor;[BII)I";
    const bool accept = method_ == "accept" && ref.owner == "sun/nio/ch/Net" &&
                        ref.name == "accept" && in.op == op::invokestatic;
    if (!read && !accept) return false;
    std::vector<std::string_view> args = arg_descs(ref.desc);
    int32_t id = site(SiteKind::IoWait, bci, ref.owner, ref.name, ref.desc);
    std::vector<uint16_t> slots = spill(e, args);
    e.local(local_kind(args[0], true), slots[0]);  // the descriptor
    e.iconst(1);                                   // POLLIN
    e.op(op::iconst_m1);                           // no timeout
    e.op(op::i2l);
    e.iconst(id);
    e.hook(ctx_.cfg.hook_owner, Hook::IoPoll);
    e.op(op::pop2);
    reload(e, args, slots);
    e.insn(in);
    grow(5);
    return true;
  }

  // The call's arguments `args` go from the stack into fresh locals (the top one first);
  // returns their slots.
  std::vector<uint16_t> spill(Emitter& e, const std::vector<std::string_view>& args) {
    std::vector<uint16_t> slots(args.size());
    uint16_t next = spill_base();
    for (size_t k = 0; k < args.size(); ++k) {
      slots[k] = next;
      next = uint16_t(next + desc_slots(args[k]));
    }
    spill_end_ = std::max(spill_end_, next);
    for (size_t k = args.size(); k-- > 0;) e.local(local_kind(args[k], false), slots[k]);
    return slots;
  }

  // The spilled arguments back on the stack, in order.
  void reload(Emitter& e, const std::vector<std::string_view>& args,
              const std::vector<uint16_t>& slots) {
    for (size_t k = 0; k < args.size(); ++k) e.local(local_kind(args[k], true), slots[k]);
  }

  // Spilled arguments live past the method's locals and the array-store temporary.
  uint16_t spill_base() {
    if (orig_max_locals_ > 0xff00) throw std::runtime_error("max_locals overflow");
    return uint16_t(orig_max_locals_ + 2);
  }

  bool replace_call(Emitter& e, const Insn& in, uint32_t bci) {
    auto ref = cf_.cp.member_ref(in.u);
    auto match = match_call(in.op, ref.name, ref.desc);
    if (!match) return false;
    if (match->group == CallMatch::ObjectMethod && !ctx_.cfg.object_calls) return false;
    bool direct = match->group == CallMatch::ObjectMethod ||
                  (ref.owner == "java/lang/Thread" && in.op != op::invokeinterface);
    if (direct) {
      call_instead(e, match->hook, match->kind, in, bci);
      return true;
    }
    // Bridges are new methods: static calls through another owner need `ldc Class` (49+);
    // interfaces can hold static methods from version 52 on.
    if (match->group == CallMatch::ThreadStatic && cf_.major < 49) return false;
    if (ctx_.is_interface && cf_.major < 52) return false;
    BridgeKey key{in.op, std::string(ref.owner), std::string(ref.name), std::string(ref.desc)};
    auto [it, inserted] = ctx_.bridges.try_emplace(key);
    if (inserted) {
      std::string recv = match->group == CallMatch::ThreadStatic ? "" : "L" + key.owner + ";";
      std::string args(ref.desc.substr(1, ref.desc.find(')') - 1));
      it->second =
          BridgeRequest{"jsched$bridge$" + std::to_string(ctx_.bridges.size() - 1),
                        "(" + recv + args + "I)" + std::string(return_desc(ref.desc)), match->hook};
    }
    e.iconst(site(match->kind, bci, ref.owner, ref.name, ref.desc));
    e.invokestatic(ctx_.class_name, it->second.method_name, it->second.method_desc,
                   ctx_.is_interface);
    grow(1);
    return true;
  }

  ClassContext& ctx_;
  cf::ClassFile& cf_;
  cf::Member& m_;
  cf::Code& code_;
  std::string method_, desc_;
  bool ctor_;
  bool changed_ = false;
  int extra_stack_ = 0;
  // The monitor-exit hooks: run once the monitor is released, outside the handlers that
  // release it (rewriter/handler_gaps.h).
  std::vector<Gap> released_;
  std::vector<int> held_;  // monitors held before each instruction (rewriter/handler_gaps.h)
  uint16_t temp_ = 0xffff;
  uint16_t orig_max_locals_ = code_.max_locals;
  uint16_t spill_end_ = 0;
  std::unordered_map<size_t, bool> uninit_receiver_;     // putfield index -> receiver uninit
  std::unordered_map<size_t, std::string> alloc_after_;  // <init> call index -> class
  std::vector<bool> fresh_;                              // fresh_arrays.h, by index
};

}  // namespace

bool rewrite_method(ClassContext& ctx, cf::Member& m) {
  cf::Code& code = ctx.cf.decode_code(m);
  bool changed = InstructionPass(ctx, m, code).run();
  // HotSpot matches its intrinsics by flags too: a de-synchronized intrinsic candidate loses
  // its intrinsic and makes the JVM print a warning, so those keep the JVM's own monitor.
  if ((m.access & cf::acc::kSynchronized) && ctx.cfg.monitors &&
      !has_annotation(ctx.cf, m, "Ljdk/internal/vm/annotation/IntrinsicCandidate;")) {
    desynchronize(ctx, m, code);
    changed = true;
  }
  if (changed) relocate(ctx.cf, m, code);
  return changed;
}

}  // namespace jsched::rw
