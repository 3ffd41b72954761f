#include "jvmti-agent/instrumentation/main_diversion.h"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "classfile/zip_reader.h"

namespace jsched::agent {

namespace {

// A method body replaced by `insns` (no branches: no frames needed).
void replace_body(cf::ClassFile& cls, cf::Member& m, std::initializer_list<cf::Insn> insns,
                  uint16_t max_stack, uint16_t max_locals) {
  cf::Code& code = cls.decode_code(m);
  code.insns.assign(insns.begin(), insns.end());
  code.switches.clear();
  code.switch_keys.clear();
  code.switch_targets.clear();
  code.exceptions.clear();
  code.attrs.clear();
  code.max_stack = max_stack;
  code.max_locals = max_locals;
}

// Main-Class of a jar's manifest (lines may continue on the next one after a space).
std::string jar_main_class(const std::string& path, std::string& why) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), {});
  if (!in.good() && !in.eof()) {
    why = "cannot read " + path;
    return "";
  }
  try {
    cf::ZipReader zip(cf::Bytes(data.data(), data.size()));
    for (const cf::ZipReader::Entry& e : zip.entries()) {
      if (e.name != "META-INF/MANIFEST.MF") continue;
      std::vector<uint8_t> raw = zip.read(e);
      std::string text(raw.begin(), raw.end()), joined;
      for (size_t pos = 0; pos < text.size();) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] == ' ')
          joined += line.substr(1);
        else
          joined += "\n" + line;
        pos = end + 1;
      }
      size_t at = joined.find("\nMain-Class:");
      if (at == std::string::npos) break;
      std::string v = joined.substr(at + 12, joined.find('\n', at + 1) - at - 12);
      v.erase(0, v.find_first_not_of(' '));
      v.erase(v.find_last_not_of(' ') + 1);
      if (!v.empty()) return v;
    }
  } catch (const cf::ZipError& e) {
    why = path + ": " + e.what();
    return "";
  }
  why = path + " has no Main-Class in its manifest";
  return "";
}

}  // namespace

std::string launcher_main_class(jvmtiEnv* jvmti, std::string& why) {
  char* value = nullptr;
  if (jvmti->GetSystemProperty("sun.java.command", &value) != JVMTI_ERROR_NONE || !value) {
    why = "the JVM does not say which main class it runs (no sun.java.command)";
    return "";
  }
  std::string command(value);
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(value));
  std::string first = command.substr(0, command.find(' '));
  auto ends_with = [&](std::string_view tail) {
    return first.size() > tail.size() &&
           first.compare(first.size() - tail.size(), tail.size(), tail) == 0;
  };
  std::string name = first;
  if (ends_with(".jar")) {
    name = jar_main_class(first, why);
    if (name.empty()) return "";
  } else if (first.empty() || first.find('/') != std::string::npos || ends_with(".java")) {
    why = "not a main class or -jar (a module or a source file): '" + first + "'";
    return "";
  }
  for (char& c : name) c = c == '.' ? '/' : c;
  return name;
}

cf::Buffer divert_shared_main(cf::Bytes main_class) {
  cf::ClassFile cls = cf::ClassFile::parse(main_class);
  size_t main_index = cls.methods.size();
  for (size_t i = 0; i < cls.methods.size(); ++i) {
    cf::Member& m = cls.methods[i];
    if (m.code_attr < 0) continue;
    std::string_view name = cls.member_name(m);
    if (name == "main" && cls.member_desc(m) == "([Ljava/lang/String;)V" &&
        (m.access & cf::acc::kStatic) != 0) {
      main_index = i;
    } else if (name == "<clinit>") {
      replace_body(cls, m, {cf::Insn::make(cf::op::return_)}, 0, 0);
    }
  }
  if (main_index == cls.methods.size()) throw std::runtime_error("no static main(String[]) to run");
  const uint16_t access = cls.methods[main_index].access;
  cls.methods[main_index].name = cls.cp.add_utf8(kSharedMainBody);
  cls.methods[main_index].access = uint16_t((access & ~(cf::acc::kPrivate | cf::acc::kProtected)) |
                                            cf::acc::kPublic | cf::acc::kSynthetic);
  const uint16_t run = cls.cp.add_methodref("java/lang/JSchedShim", "runIterations",
                                            "([Ljava/lang/String;Ljava/lang/Class;)V");
  const uint16_t self = cls.this_class;
  cf::Member& m = cls.add_method(access, "main", "([Ljava/lang/String;)V", true);
  m.code->insns.push_back(cf::Insn::make(cf::op::aload_0));
  m.code->insns.push_back(cf::Insn::make(cf::op::ldc_w, self));
  m.code->insns.push_back(cf::Insn::make(cf::op::invokestatic, run));
  m.code->insns.push_back(cf::Insn::make(cf::op::return_));
  m.code->max_stack = 2;
  m.code->max_locals = 1;
  return cls.write();
}

cf::Buffer divert_main(cf::Bytes main_class) {
  cf::ClassFile cls = cf::ClassFile::parse(main_class);
  bool diverted = false;
  for (cf::Member& m : cls.methods) {
    if (m.code_attr < 0) continue;
    std::string_view name = cls.member_name(m);
    if (name == "main" && cls.member_desc(m) == "([Ljava/lang/String;)V" &&
        (m.access & cf::acc::kStatic) != 0) {
      uint16_t self = cls.this_class;
      uint16_t run = cls.cp.add_methodref("java/lang/JSchedShim", "runIterations",
                                          "([Ljava/lang/String;Ljava/lang/Class;)V");
      replace_body(cls, m,
                   {cf::Insn::make(cf::op::aload_0), cf::Insn::make(cf::op::ldc_w, self),
                    cf::Insn::make(cf::op::invokestatic, run), cf::Insn::make(cf::op::return_)},
                   2, 1);
      diverted = true;
    } else if (name == "<clinit>") {
      replace_body(cls, m, {cf::Insn::make(cf::op::return_)}, 0, 0);
    }
  }
  if (!diverted) throw std::runtime_error("no static main(String[]) to run");
  if (cls.major < 49) cls.major = 49;  // `ldc Class` came with Java 5
  return cls.write();
}

}  // namespace jsched::agent
