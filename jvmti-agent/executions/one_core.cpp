#include "jvmti-agent/executions/one_core.h"

#include <sched.h>

namespace jsched::agent {

namespace {
cpu_set_t g_process;
bool g_process_known = false;
thread_local int t_stays = 0;  // Stays held by this thread
}  // namespace

void OneCore::note_process_cpus() {
  g_process_known = sched_getaffinity(0, sizeof g_process, &g_process) == 0;
}

void OneCore::leave() {
  if (g_process_known) sched_setaffinity(0, sizeof g_process, &g_process);
}

void OneCore::join() {
  int cpu = cpu_.load();
  if (cpu < 0) {
    const int here = sched_getcpu();
    if (here < 0) return;
    if (cpu_.compare_exchange_strong(cpu, here)) cpu = here;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
}

OneCore::SavedCpus::SavedCpus() {
  restore_ = t_stays == 0 && sched_getaffinity(0, sizeof saved_, &saved_) == 0;
}

OneCore::SavedCpus::~SavedCpus() {
  if (restore_) sched_setaffinity(0, sizeof saved_, &saved_);
}

OneCore::Visit::Visit(OneCore& core) {
  core.join();
}

OneCore::Stay::Stay() {
  ++t_stays;
}

OneCore::Stay::~Stay() {
  --t_stays;
}

}  // namespace jsched::agent
