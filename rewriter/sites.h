// Instrumentation sites: every hook call passes the id of the instruction it belongs to, so the
// scheduler can name locations (class, method, bytecode index) and what they touch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace jsched::rw {

enum class SiteKind : uint8_t {
  MonitorEnter,
  MonitorExit,
  SyncMethodEnter,
  SyncMethodExit,
  Wait,
  Notify,
  NotifyAll,
  ThreadStart,
  Join,
  Sleep,
  Yield,
  Interrupt,
  IsInterrupted,
  Interrupted,
  GetField,
  PutField,
  GetStatic,
  PutStatic,
  ArrayLoad,
  ArrayStore,
  AllocObject,
  AllocArray,
  Park,      // Unsafe.park inside LockSupport
  Unpark,    // Unsafe.unpark inside LockSupport
  SyncCall,  // a call to a java.util.concurrent method (a scheduling point before it)
  Clock,     // System.nanoTime / currentTimeMillis in JDK concurrency code
  Random,    // an unseeded source of chance (a seed, Math.random, randomUUID, shuffle)
  IoWait,    // a blocking wait for a socket or a selector (Net.poll, EPoll.wait)
  Count
};

const char* site_kind_name(SiteKind k);

// Whether an array instruction with element kind `elem` ("I", "B", "L", ...) can touch an
// array of type `type` ("[I", "[Z", "[[D", "[Lpkg/C;", ...).
inline bool element_matches(std::string_view type, std::string_view elem) {
  if (type.size() < 2 || type[0] != '[') return false;
  const char t = type[1];
  if (elem == "L") return t == 'L' || t == '[';
  if (elem == "B") return t == 'B' || t == 'Z';
  return elem.size() == 1 && t == elem[0];
}

inline bool is_field_access(SiteKind k) {
  return k == SiteKind::GetField || k == SiteKind::PutField || k == SiteKind::GetStatic ||
         k == SiteKind::PutStatic;
}

struct SiteInfo {
  SiteKind kind;
  std::string_view cls, method, method_desc;  // where
  uint32_t bci;
  // What: the field (owner, name, descriptor) of accesses; the called method of calls; the
  // allocated class or array type of allocations; empty for monitors.
  std::string_view owner, name, desc;
};

// An instruction as a plan's site lines name it: "<class> <method> <descriptor> <bci>".
inline std::string plan_site(std::string_view cls, std::string_view method,
                             std::string_view method_desc, uint32_t bci) {
  std::string out;
  out.reserve(cls.size() + method.size() + method_desc.size() + 14);
  out.append(cls).append(" ").append(method).append(" ").append(method_desc).append(" ");
  return out.append(std::to_string(bci));
}
inline std::string plan_site(const SiteInfo& s) {
  return plan_site(s.cls, s.method, s.method_desc, s.bci);
}

// A read of a field that holds a number or a boolean, not a reference: a final one's value
// cannot race, and reaches nothing else.
inline bool reads_a_value(const SiteInfo& s) {
  return (s.kind == SiteKind::GetField || s.kind == SiteKind::GetStatic) && !s.desc.empty() &&
         s.desc[0] != 'L' && s.desc[0] != '[';
}

// A read of a field that holds an object (not an array): what it reaches may be code with
// scheduling points of its own.
inline bool reads_an_object(const SiteInfo& s) {
  return (s.kind == SiteKind::GetField || s.kind == SiteKind::GetStatic) && !s.desc.empty() &&
         s.desc[0] == 'L';
}

// Assigns ids; implementations must be safe to call from several class-loading threads.
class SiteSink {
 public:
  virtual ~SiteSink() = default;
  virtual int32_t add(const SiteInfo& s) = 0;
};

}  // namespace jsched::rw
