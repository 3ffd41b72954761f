// jsched: the command-line front end. Subcommands live in their own files.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runner/batch/executor.h"
#include "runner/commands/commands.h"
#include "runner/commands/version.h"

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
      "  minimize [--out DIR] -- CMD   the schedule with the fewest pre-emptions that still ends\n"
      "                                in a finding, and its timeline (jsched minimize --help)\n"
      "  classfile roundtrip PATH...   read every class under PATH (.class, directory, jar,\n"
      "                                jmod), decode all code and frames, write it back and\n"
      "                                compare byte for byte\n"
      "  classfile instrument --out DIR PATH...\n"
      "                                write the instrumented form of every class under PATH\n"
      "                                to DIR (see `jsched classfile instrument` for options)\n"
      "  agent-path                    print the path of the agent library, libjsched.so (for\n"
      "                                -agentpath: in a pom's argLine or a java command)\n"
      "  version, --version            print jsched's version and the git commit it was built\n"
      "                                from\n"
      "  help                          this text\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
  // A full disk or a file-size limit must fail a write (and be reported), not kill jsched.
  std::signal(SIGXFSZ, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    usage(args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "version" || args[0] == "--version") {
    std::printf("jsched %s (commit %s)\n", jsched::kVersion, jsched::kCommit);
    return 0;
  }
  if (args[0] == "agent-path") {
    if (!rest.empty() && (rest[0] == "--help" || rest[0] == "-h")) {
      std::puts(
          "usage: jsched agent-path\n\nPrints the absolute path of libjsched.so: "
          "$JSCHED_AGENT if set, else the one installed with this jsched.");
      return 0;
    }
    if (!rest.empty()) {
      std::fprintf(stderr, "jsched: error: agent-path takes no arguments\n");
      return 2;
    }
    try {
      std::puts(jsched::runner::find_agent("").c_str());
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "jsched: error: %s\n", e.what());
      return 2;
    }
  }
  if (args[0] == "classfile") return jsched::cmd_classfile(rest);
  if (args[0] == "run") return jsched::cmd_run(rest);
  if (args[0] == "bench") return jsched::cmd_bench(rest);
  if (args[0] == "merge") return jsched::cmd_merge(rest);
  if (args[0] == "minimize") return jsched::cmd_minimize(rest);
  std::fprintf(stderr, "jsched: error: unknown command '%s' (try: jsched help)\n", args[0].c_str());
  return 2;
}
