// The cost of handing control from one thread to another on a futex, the primitive behind a
// scheduling point: two threads pass a token back and forth through jsched's Parker.
// Run under `taskset -c 0` for the same-core figure.
//
//   futex_pingpong [HANDOFFS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "scheduler/core/parker.h"

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 200000;
  jsched::sched::Parker a, b;
  std::thread other([&] {
    for (long i = 0; i < n; ++i) {
      b.park();
      a.unpark();
    }
  });
  auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) {
    b.unpark();
    a.park();
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  other.join();
  std::printf("futex handoff: %.3f us (%ld round trips, 2 handoffs each)\n",
              s * 1e6 / double(2 * n), n);
  return 0;
}
