// Method references to the Thread and Object operations jsched hooks
// (`waiters.forEach(Thread::interrupt)`, `threads.forEach(Thread::start)`, `lock::notifyAll`):
// LambdaMetafactory builds the lambda into a hidden class, which no agent sees, so its call
// would run outside the model (an interrupt the model never learns of leaves the interrupted
// thread parked for ever). The reference's implementation handle goes to a synthetic static
// method of the class instead, which calls the hook:
//
//   private static void jsched$ref$N(Thread t) { JSchedShim.threadInterrupt(t, SITE); }
#pragma once

#include "rewriter/method_rewriter.h"

namespace jsched::rw {

// Redirects the class's lambda bootstraps whose implementation is such an operation. Returns
// whether the class changed.
bool redirect_method_references(ClassContext& ctx);

}  // namespace jsched::rw
