#include "rewriter/hooks.h"

namespace jsched::rw {

namespace {
constexpr HookInfo kHooks[kHookCount] = {
#define JSCHED_HOOK_INFO(e, name, desc) {name, desc},
    JSCHED_HOOKS(JSCHED_HOOK_INFO)
#undef JSCHED_HOOK_INFO
};
}  // namespace

const HookInfo& hook_info(Hook h) {
  return kHooks[size_t(h)];
}

}  // namespace jsched::rw
