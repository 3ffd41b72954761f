// jsched: the command-line front end. Subcommands live in their own files.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runner/commands.h"

namespace {

void usage(FILE* out) {
  std::fputs(
      "usage: jsched <command> [args]\n"
      "\n"
      "commands:\n"
      "  classfile roundtrip PATH...   read every class under PATH (.class, directory, jar,\n"
      "                                jmod), decode all code and frames, write it back and\n"
      "                                compare byte for byte\n"
      "  classfile instrument --out DIR PATH...\n"
      "                                write the instrumented form of every class under PATH\n"
      "                                to DIR (see `jsched classfile instrument` for options)\n"
      "  help                          this text\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    usage(args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "classfile") return jsched::cmd_classfile({args.begin() + 1, args.end()});
  std::fprintf(stderr, "jsched: error: unknown command '%s' (try: jsched help)\n", args[0].c_str());
  return 2;
}
