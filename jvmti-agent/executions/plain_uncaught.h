// Uncaught exceptions in a test's plain run (the run that tells whether a finding shows without
// jsched). A thread's uncaught exception under jsched that the plain run throws too, at the same
// place, while the test passes there, is the test's own doing (a task that throws on purpose to
// see the executor survive it): not a finding. Exceptions so allowed are ignored for the rest of
// the test's executions.
#pragma once

#include <jni.h>

#include <mutex>
#include <string>
#include <vector>

namespace jsched::agent {

// "java.lang.IllegalStateException at com.x.Y.run(Y.java:12)": the throwable's class and the
// frame that threw it (its message may differ from run to run). `trace`: its getStackTrace(),
// when the caller has it already.
std::string uncaught_signature(JNIEnv* env, jthrowable e, jobjectArray trace = nullptr);

class PlainUncaught {
 public:
  void record(bool on);  // from on: what the plain run's threads throw, forgetting the last run
  void seen(const std::string& signature);  // a thread's uncaught exception, kept if recording
  bool recording() const;
  bool saw(const std::string& signature) const;
  // Whether the last plain run threw `signature`, waiting up to `ms` for it: a pool's worker
  // dispatches its uncaught exception after it started the worker that replaces it, so the
  // test can pass, and its plain run return, first (under load the check missed it, and a
  // task that throws on purpose became a finding).
  bool threw(const std::string& signature, int ms);

  void allow(const std::string& signature);  // the test's own: no finding for the test
  bool allowed(const std::string& signature) const;
  void clear_allowed();  // a new test

 private:
  mutable std::mutex mu_;
  bool on_ = false;
  std::vector<std::string> seen_, allowed_;
};

PlainUncaught& plain_uncaught();

}  // namespace jsched::agent
