// What the rewriter instruments.
#pragma once

#include <string>

namespace jsched::rw {

enum class Accesses { None, Volatile, All };

struct RewriteConfig {
  std::string hook_owner = "java/lang/JSchedShim";
  bool monitors = true;     // monitorenter/monitorexit and synchronized methods
  bool calls = true;        // wait/notify/notifyAll and the Thread operations
  Accesses accesses = Accesses::None;  // field and array reads and writes
  bool allocations = false;            // allocation sites
};

}  // namespace jsched::rw
