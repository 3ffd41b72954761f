// Threads that outlive the execution they parked in (tests only): the workers of an executor a
// test class keeps in a static field, made once outside every execution and used by all of them.
// On a plain JVM such a worker stays parked until the next test hands it a task. Ending it with
// the execution (ThreadDeath from inside its queue's wait) would leave the executor broken: a
// worker count that says it is there, a condition queue with its dead node that takes the next
// signal. So a thread parked as its execution ends, or that parks once its execution is over,
// parks for real instead, outside every execution, until:
//  - a thread of the current execution unparks or interrupts it: it becomes one of that
//    execution's threads, started by the waker at that step (a deterministic point of the
//    schedule), and its park returns;
//  - a thread jsched does not control (a plain run of the test, say) wakes it: it runs plainly,
//    as a thread outside the execution (outside_threads.h), until it parks again.
// A wake-up of the JVM's own (spurious) leaves it parked.
// Its park's own timeout does not pass: time passes for a carried thread only in an execution.
// Carried threads no execution has taken up for long are ended as before (kMaxCarried), so tests
// that leak a new executor in every execution do not pile up threads.
#pragma once

#include <jni.h>

#include <chrono>
#include <cstddef>

namespace jsched::agent {

class Runtime;
struct ThreadCtx;

// At most this many carried threads wait at a time: beyond it, the one that has waited longest
// since it last ran ends with ThreadDeath.
inline constexpr size_t kMaxCarried = 100;

// In the park hook, tests only: whether the calling thread parks as a carried thread (its
// execution is over, or it has been carried before and runs plainly now).
bool parks_carried();
// Parks the calling thread until it is woken as the header says, after it leaves the execution
// it belonged to. ThreadDeath is pending on return when it must end.
void park_carried(JNIEnv* env);

// The calling thread ends (JVMTI ThreadEnd).
void carried_thread_ended();
// Waits, at most `limit`, until no carried thread woken plainly still runs (each has parked again
// or ended): an execution starting earlier would meet it taking its tasks uncontrolled. Whether
// none does.
bool await_plain_carried(std::chrono::milliseconds limit);

// The unpark or interrupt hook of a thread no execution controls, for thread `t`: if `t` is
// carried, it runs plainly once woken (a plain run of the test hands its worker a task).
void woken_plainly(JNIEnv* env, jobject t);

// The unpark or interrupt hook of a thread of execution `rt` (`waker`), for a thread `t` that
// execution does not know: if `t` is carried, it becomes a thread of `rt` started by the waker,
// and is woken. Whether it was carried.
bool wake_carried(JNIEnv* env, jobject t, Runtime& rt, ThreadCtx& waker);

}  // namespace jsched::agent
