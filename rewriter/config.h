// What the rewriter instruments.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rewriter/sites.h"

namespace jsched::rw {

// Shared: as Volatile, and the plain accesses an AccessFilter names (Point): those the profile
// runs saw touch what more than one thread touched.
enum class Accesses { None, Volatile, Shared, All };

// Whether `a` asks for a hook at an access of kind `k` (before any filter): field accesses
// unless None, array elements only with All (or a filter's Point).
inline bool accesses_cover(Accesses a, SiteKind k) {
  return is_field_access(k) ? a != Accesses::None : a == Accesses::All;
}

// Whether plain accesses can be points at `a` (Shared or All): races are looked for among them.
inline bool plain_points(Accesses a) {
  return a == Accesses::Shared || a == Accesses::All;
}

// What to emit at one field access, array access or allocation instruction.
struct AccessDecision {
  enum Kind : uint8_t {
    Default,        // as `accesses` and `allocations` say
    Skip,           // nothing
    TrackedStatic,  // count an access to tracked variable `arg` (a slot)
    TrackedObject,  // count it if the object belongs to a tracked variable among the slots of
                    // bit mask `arg` (0: ask the agent which)
    TrackedAlloc,   // the new object belongs to tracked variable `arg`
    Counted,        // profile runs: count the access in Java; no scheduling point
    Point,          // a scheduling point whatever `accesses` says (accesses=shared)
  } kind = Default;
  int32_t arg = 0;
};

// Chooses, per instruction, what the variable-tracking strategies (PCTVB) need. `site` has
// no id yet; `owner`, `name`, `desc` describe the field, or the allocated type.
class AccessFilter {
 public:
  virtual ~AccessFilter() = default;
  virtual AccessDecision decide(const SiteInfo& site) const = 0;
};

struct RewriteConfig {
  std::string hook_owner = "java/lang/JSchedShim";
  bool monitors = true;        // monitorenter/monitorexit and synchronized methods
  bool calls = true;           // wait/notify/notifyAll and the Thread operations
  bool object_calls = true;    // with `calls`: wait/notify/notifyAll too (they need
                               // the monitors modelled)
  bool sync_calls = false;     // calls to java.util.concurrent methods are points
  bool park_calls = false;     // Unsafe.park/unpark (LockSupport) go to the scheduler
  bool virtual_clock = false;  // System.nanoTime/currentTimeMillis: scheduler's clock
  // Unseeded sources of chance take the execution's seed: new Random(), ThreadLocalRandom's and
  // new SplittableRandom()'s seeds (in those JDK classes), Math.random(), UUID.randomUUID() and
  // Collections.shuffle(list) (at the application's calls).
  bool seeded_randomness = false;
  // Application classes get identity hash codes the seed and schedule determine
  // (rewriter/stable_hashes.h).
  bool stable_hashes = false;
  // Blocking socket and selector waits of the JDK's NIO classes go to the scheduler.
  bool io_waits = false;
  // JDK code that seeds a randomization from the clock gets a constant instead, so that runs
  // with JDK classes instrumented repeat: ImmutableCollections' SALT orders Set.of/Map.of.
  bool fixed_jdk_seeds = false;
  // Statics start clean in each execution without loading classes again
  // (rewriter/static_reset.h); `may_reset` says which other classes' statics the checks cover
  // (all when null).
  bool static_reset = false;
  bool (*may_reset)(std::string_view internal_name) = nullptr;
  Accesses accesses = Accesses::None;    // field and array reads and writes
  bool allocations = false;              // allocation sites
  const AccessFilter* filter = nullptr;  // consulted first for accesses and allocations
};

}  // namespace jsched::rw
