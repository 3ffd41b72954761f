// Test methods under jsched's control: each JUnit 4 or JUnit 5 test method of a class keeps
// its name, annotations and `throws` clause, but its body moves to a method of its own
// (jsched$test$<name>) and the test method calls JSchedShim.runTest(this, that name) instead,
// so the agent can run the body as a controlled execution, as many times as asked.
#pragma once

#include <cstddef>
#include <string_view>

#include "classfile/class_file.h"

namespace jsched::rw {

inline constexpr std::string_view kTestBodyPrefix = "jsched$test$";

// A cheap look at raw class bytes: false when the class cannot have test methods.
bool may_have_tests(cf::Bytes class_bytes);

// Wraps every instance method `()V` annotated @org.junit.Test or @org.junit.jupiter.api.Test
// (not abstract, not native). Returns how many; throws cf::ParseError on malformed input.
size_t wrap_test_methods(cf::ClassFile& cf);

}  // namespace jsched::rw
