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
      "  run [options] -- java ARGS...  run a program many times under jsched and report what\n"
      "                                was found (jsched run --help)\n"
      "  bench SUITE.xml [options]     run a suite of programs under several strategies\n"
      "                                (jsched bench --help)\n"
      "  merge --out DIR SHARD_DIR...  combine the results of shards of one batch\n"
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
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "classfile") return jsched::cmd_classfile(rest);
  if (args[0] == "run") return jsched::cmd_run(rest);
  if (args[0] == "bench") return jsched::cmd_bench(rest);
  if (args[0] == "merge") return jsched::cmd_merge(rest);
  std::fprintf(stderr, "jsched: error: unknown command '%s' (try: jsched help)\n", args[0].c_str());
  return 2;
}
