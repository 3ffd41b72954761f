// What the runner checks before the first run, so that a batch never reports "nothing found"
// for a program that never ran: agent options (with the agent's own parser), and that the
// java command names a main class that is on its class path.
#pragma once

#include <string>
#include <vector>

namespace jsched::runner {

// The agent options every run of `strategy` with `params` gets (less seed, report and the
// iterations the executor adds), checked by the agent's parser. Keys the runner sets itself
// (strategy, seed, report, timeout, iterations, ...) are refused in `params`: the records
// would say otherwise than what ran. Returns "" or a one-line reason.
std::string check_agent_params(const std::string& strategy, const std::string& params);

// `java [options] MAIN [args]` or `java [options] -jar JAR [args]`: the main class on the
// class path (-cp/-classpath/--class-path, else $CLASSPATH, else "."), or the jar. Command
// lines this cannot follow (modules, @argfiles, source files) are not checked. Returns "" or
// a one-line reason.
std::string check_java_command(const std::vector<std::string>& command);

// Whether class `main` (dotted) is in one of the class path entries (directories, jars, `dir/*`).
// Returns "" or a one-line reason naming the class path.
std::string check_main_class(const std::string& classpath, const std::string& main);

// The class path a java command runs with: -cp/-classpath/--class-path, else $CLASSPATH,
// else ".".
std::string classpath_of(const std::vector<std::string>& command);

// The same command run from another working directory: its class path (given, else $CLASSPATH
// or "."), module paths and -jar file made absolute (from the current directory). The
// program's own arguments are left as they are.
std::vector<std::string> with_absolute_paths(std::vector<std::string> command);

// The main class a java command runs ("" if none or not known): names a batch by its program.
std::string main_class_of(const std::vector<std::string>& command);

}  // namespace jsched::runner
