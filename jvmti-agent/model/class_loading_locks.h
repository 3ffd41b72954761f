// Class loaders' locks in JDK mode. Loading a class runs java.util code (maps, lists of the
// class path) while the loader holds a lock per class name; with java.util instrumented, a
// controlled thread can reach a scheduling point there, and another controlled thread loading
// the same class would then block on that lock where the scheduler cannot see it (a hidden
// block, resolved in real time, so that the same seed need not give the same execution). The
// loaders' own monitors are modelled instead: the second thread blocks in the model on the
// loading thread, which the scheduler then runs. Only their monitors: nothing else in them
// becomes a scheduling point.
#pragma once

#include <optional>
#include <string_view>

#include "rewriter/config.h"

namespace jsched::agent {

// The rewrite for JDK class `internal_name` when it is one of the class loaders that lock
// per class name; nothing otherwise.
std::optional<rw::RewriteConfig> class_loading_lock_config(std::string_view internal_name,
                                                           const rw::RewriteConfig& app);

}  // namespace jsched::agent
