// Test methods as executions: the places where JUnit runs one test with its whole lifecycle
// (a new test instance, set-up and tear-down, rules and extensions) are diverted to jsched's
// driver, which runs that lifecycle once per execution on a controlled thread 0:
//
// - JUnit 4 (and the vintage engine): ParentRunner.runLeaf evaluates the test's Statement,
//   which from JUnit 4.13 on builds the test (methodBlock: instance, @Before/@After, rules,
//   timeouts) as it is evaluated. Its `statement.evaluate()` becomes
//   JSchedShim.runJunit4Test(statement, description).
// - JUnit 5 (Jupiter): TestMethodTestDescriptor.prepare (the instance and the extension
//   context) and execute (the callbacks, @BeforeEach/@AfterEach, the method) with cleanUp. The
//   parent context prepare receives is kept in a field, and execute becomes
//   JSchedShim.runJupiterTest(this, context, dynamicTestExecutor, parent); the original is
//   jsched$execute.
// - JUnit 3 (junit.framework.TestCase, as JUnit 4's JUnit38ClassRunner and the vintage engine
//   run it): runBare (setUp, the test, tearDown) becomes JSchedShim.runJunit3Test(this); the
//   original is jsched$runBare, which each execution calls on an instance of its own.
#pragma once

#include <string_view>

#include "classfile/bytes.h"

namespace jsched::rw {

inline constexpr std::string_view kJunit4Runner = "org/junit/runners/ParentRunner";
inline constexpr std::string_view kJupiterTestMethod =
    "org/junit/jupiter/engine/descriptor/TestMethodTestDescriptor";
inline constexpr std::string_view kJunit3TestCase = "junit/framework/TestCase";

// Whether `internal_name` is one of the classes above.
bool is_test_runner_entry(std::string_view internal_name);

// The class diverted as above. Throws std::exception when it does not have the shape this
// JUnit version was expected to have (the caller then cannot run tests as executions).
cf::Buffer divert_test_runner_entry(cf::Bytes class_bytes);

}  // namespace jsched::rw
