#include "rewriter/junit_method_wrapping.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "classfile/opcodes.h"
#include "rewriter/annotations.h"

namespace jsched::rw {

namespace {

constexpr std::string_view kJUnit4 = "Lorg/junit/Test;";
constexpr std::string_view kJUnit5 = "Lorg/junit/jupiter/api/Test;";

// Attributes that describe the method to JUnit and to javac: they go to the wrapper.
bool describes_method(std::string_view name) {
  return name == "RuntimeVisibleAnnotations" || name == "RuntimeInvisibleAnnotations" ||
         name == "RuntimeVisibleParameterAnnotations" ||
         name == "RuntimeInvisibleParameterAnnotations" || name == "Exceptions" ||
         name == "Signature" || name == "MethodParameters";
}

}  // namespace

bool may_have_tests(cf::Bytes b) {
  auto has = [&](std::string_view s) {
    return std::search(b.begin(), b.end(), s.begin(), s.end()) != b.end();
  };
  return has(kJUnit4) || has(kJUnit5);
}

size_t wrap_test_methods(cf::ClassFile& cf) {
  std::set<std::string_view> names;
  for (const cf::Member& m : cf.methods) names.insert(cf.member_name(m));
  std::vector<size_t> tests;
  for (size_t i = 0; i < cf.methods.size(); ++i) {
    const cf::Member& m = cf.methods[i];
    if (m.access & (cf::acc::kStatic | cf::acc::kAbstract | cf::acc::kNative)) continue;
    if (m.code_attr < 0 || cf.member_desc(m) != "()V") continue;
    std::string_view name = cf.member_name(m);
    if (name.starts_with(kTestBodyPrefix)) continue;
    if (names.count(std::string(kTestBodyPrefix) + std::string(name))) continue;  // wrapped
    if (has_annotation(cf, m, kJUnit4) || has_annotation(cf, m, kJUnit5)) tests.push_back(i);
  }
  const uint16_t run = cf.cp.add_methodref("java/lang/JSchedShim", "runTest",
                                           "(Ljava/lang/Object;Ljava/lang/String;)V");
  for (size_t i : tests) {
    std::string name(cf.member_name(cf.methods[i]));
    std::string body = std::string(kTestBodyPrefix) + name;
    uint16_t access = cf.methods[i].access;
    cf::Member& w = cf.add_method(access, name, "()V", true);  // may move cf.methods
    cf::Member& m = cf.methods[i];
    // The body keeps its code (and the rest); the wrapper takes what JUnit reads.
    cf::Vec<cf::Attribute> kept(cf.arena());
    int code_attr = -1;
    for (const cf::Attribute& a : m.attrs) {
      if (describes_method(cf.cp.utf8(a.name))) {
        w.attrs.push_back(a);
      } else {
        if (&a - m.attrs.data() == m.code_attr) code_attr = int(kept.size());
        kept.push_back(a);
      }
    }
    m.attrs = std::move(kept);
    m.code_attr = code_attr;
    m.name = cf.cp.add_utf8(body);
    m.access = uint16_t((access & ~(cf::acc::kPublic | cf::acc::kProtected)) | cf::acc::kPrivate |
                        cf::acc::kSynthetic);
    cf::Code& code = *w.code;
    code.insns.push_back(cf::Insn::make(cf::op::aload_0));
    code.insns.push_back(cf::Insn::make(cf::op::ldc_w, cf.cp.add_string(body)));
    code.insns.push_back(cf::Insn::make(cf::op::invokestatic, run));
    code.insns.push_back(cf::Insn::make(cf::op::return_));
    code.max_stack = 2;
    code.max_locals = 1;
  }
  return tests.size();
}

}  // namespace jsched::rw
