// `jsched classfile roundtrip PATH...`
#include <cstdio>

#include "classfile/class_source.h"
#include "classfile/roundtrip.h"
#include "runner/commands.h"

namespace jsched {

namespace {

int roundtrip_paths(const std::vector<std::string>& paths) {
  size_t classes = 0, differ = 0, errors = 0;
  cf::ClassVisitor v;
  v.on_class = [&](const std::string& origin, cf::Bytes bytes) {
    ++classes;
    cf::RoundtripResult r = cf::roundtrip(bytes);
    if (r.kind == cf::RoundtripResult::Differ) {
      ++differ;
      std::printf("differ: %s: %s\n", origin.c_str(), r.message.c_str());
    } else if (r.kind == cf::RoundtripResult::Error) {
      ++errors;
      std::printf("error: %s: %s\n", origin.c_str(), r.message.c_str());
    }
  };
  v.on_error = [&](const std::string& origin, const std::string& message) {
    ++errors;
    std::printf("error: %s: %s\n", origin.c_str(), message.c_str());
  };
  for (const std::string& p : paths) cf::visit_classes(p, v);
  std::printf("roundtrip: %zu classes, %zu differ, %zu errors\n", classes, differ, errors);
  return differ == 0 && errors == 0 ? 0 : 1;
}

}  // namespace

int cmd_classfile(const std::vector<std::string>& args) {
  if (args.size() >= 2 && args[0] == "roundtrip") {
    return roundtrip_paths({args.begin() + 1, args.end()});
  }
  std::fprintf(stderr, "jsched: error: usage: jsched classfile roundtrip PATH...\n");
  return 2;
}

}  // namespace jsched
