#include "jvmti-agent/model/class_loading_locks.h"

namespace jsched::agent {

std::optional<rw::RewriteConfig> class_loading_lock_config(std::string_view name,
                                                           const rw::RewriteConfig& app) {
  // ClassLoader.loadClass(String, boolean) for loaders of the application's and libraries'
  // own; BuiltinClassLoader.loadClassOrNull for the application and platform loaders.
  if (name != "java/lang/ClassLoader" && name != "jdk/internal/loader/BuiltinClassLoader")
    return std::nullopt;
  rw::RewriteConfig c;  // monitors only: the defaults, without the calls
  c.hook_owner = app.hook_owner;
  c.calls = false;
  c.object_calls = false;
  return c;
}

}  // namespace jsched::agent
