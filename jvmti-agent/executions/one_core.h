// The controlled threads of an execution run on one CPU, the one its first thread started on.
// Only one of them runs at a time anyway, and a handoff between threads on one core costs a
// tenth of one between cores (a futex wake-up with the woken thread's cache and the CPU's idle
// exit on the other side): executions of small programs run about a third faster. The JVM's
// own threads (compilers, GC) keep the other CPUs.
#pragma once

#include <sched.h>

#include <atomic>

namespace jsched::agent {

class OneCore {
 public:
  // Moves the calling thread to the execution's CPU (chosen by the first thread to call). A
  // thread whose allowed CPUs exclude it stays where it is.
  void join();

  // At load, on the thread that loads the agent: the CPUs the process may use.
  static void note_process_cpus();
  // The calling thread (jsched's watchdog, created by a thread on an execution's CPU) may run
  // on any of those again.
  static void leave();

  // The calling thread's CPUs, given back on destruction; none are kept while a Stay holds
  // the thread (the Stay gives them back).
  class SavedCpus {
   public:
    SavedCpus();
    ~SavedCpus();
    SavedCpus(const SavedCpus&) = delete;
    SavedCpus& operator=(const SavedCpus&) = delete;

   private:
    cpu_set_t saved_;
    bool restore_ = false;
  };

  // The thread that starts the execution's first thread and waits for its end (the driver of
  // several executions) takes part while it lives: its CPU becomes the execution's.
  class Visit {
   public:
    explicit Visit(OneCore& core);

   private:
    SavedCpus saved_;
  };

  // Held by a driver around its loop of executions: the Visits of one execution after another
  // leave it on the execution's CPU, where the next execution then starts. Moved back to its
  // other CPUs after each, it was often woken on another CPU between two executions, and the
  // next execution's kept thread 0 had to move there (a migration each time, about 9 us).
  // Its own CPUs come back when the loop ends.
  class Stay {
   public:
    Stay();
    ~Stay();

   private:
    SavedCpus saved_;  // made before the count goes up, given back after it goes down
  };

 private:
  std::atomic<int> cpu_{-1};
};

}  // namespace jsched::agent
