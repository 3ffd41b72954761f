#include "rewriter/hooks.h"

namespace jsched::rw {

namespace {
constexpr HookInfo kHooks[kHookCount] = {
    {"monitorEnter", "(Ljava/lang/Object;I)V"},
    {"monitorExit", "(Ljava/lang/Object;I)V"},
    {"objectWait", "(Ljava/lang/Object;I)V"},
    {"objectWaitTimed", "(Ljava/lang/Object;JI)V"},
    {"objectWaitNanos", "(Ljava/lang/Object;JII)V"},
    {"objectNotify", "(Ljava/lang/Object;I)V"},
    {"objectNotifyAll", "(Ljava/lang/Object;I)V"},
    {"threadStart", "(Ljava/lang/Thread;I)V"},
    {"threadJoin", "(Ljava/lang/Thread;I)V"},
    {"threadJoinTimed", "(Ljava/lang/Thread;JI)V"},
    {"threadJoinNanos", "(Ljava/lang/Thread;JII)V"},
    {"threadSleep", "(JI)V"},
    {"threadSleepNanos", "(JII)V"},
    {"threadYield", "(I)V"},
    {"threadInterrupt", "(Ljava/lang/Thread;I)V"},
    {"threadIsInterrupted", "(Ljava/lang/Thread;I)Z"},
    {"threadInterrupted", "(I)Z"},
    {"resolvesToThread", "(Ljava/lang/Class;I)Z"},
    {"getField", "(Ljava/lang/Object;I)V"},
    {"putField", "(Ljava/lang/Object;I)V"},
    {"getStatic", "(I)V"},
    {"putStatic", "(I)V"},
    {"arrayLoad", "(Ljava/lang/Object;II)V"},
    {"arrayStore", "(Ljava/lang/Object;II)V"},
    {"allocated", "(Ljava/lang/Object;I)V"},
    {"trackedStatic", "(II)V"},
    {"trackedObject", "(Ljava/lang/Object;II)V"},
    {"trackedAlloc", "(Ljava/lang/Object;II)V"},
    {"uncaught", "(Ljava/lang/Throwable;)V"},
    {"threadOnSpinWait", "(I)V"},
    {"unsafePark", "(Ljdk/internal/misc/Unsafe;ZJI)V"},
    {"unsafeUnpark", "(Ljdk/internal/misc/Unsafe;Ljava/lang/Object;I)V"},
    {"syncCall", "(Ljava/lang/Object;I)V"},
    {"syncRead", "(Ljava/lang/Object;I)V"},
    {"nanoTime", "(I)J"},
    {"currentTimeMillis", "(I)J"},
    {"exiting", "(I)V"},
    {"clockInstant", "(I)Ljava/time/Instant;"},
    {"randomSeed", "(JI)J"},
    {"mathRandom", "(I)D"},
    {"randomUUID", "(I)Ljava/util/UUID;"},
    {"shuffle", "(Ljava/util/List;I)V"},
    {"identityHash", "(Ljava/lang/Object;)I"},
    {"stableThreadId", "(JI)J"},
    {"ioPoll", "(Ljava/io/FileDescriptor;IJI)J"},
    {"epollWait", "(III)I"},
};
}  // namespace

const HookInfo& hook_info(Hook h) {
  return kHooks[size_t(h)];
}

}  // namespace jsched::rw
