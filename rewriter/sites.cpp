#include "rewriter/sites.h"

namespace jsched::rw {

const char* site_kind_name(SiteKind k) {
  static const char* kNames[] = {
      "monitorenter",  "monitorexit", "sync-enter", "sync-exit", "wait",      "notify",
      "notifyAll",     "start",       "join",       "sleep",     "yield",     "interrupt",
      "isInterrupted", "interrupted", "getfield",   "putfield",  "getstatic", "putstatic",
      "aload",         "astore",      "new",        "newarray",  "park",      "unpark",
      "sync-call",     "clock",       "random",     "iowait"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == size_t(SiteKind::Count));
  return kNames[size_t(k)];
}

}  // namespace jsched::rw
