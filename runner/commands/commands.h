// Entry points of the jsched subcommands; each returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace jsched {

int cmd_classfile(const std::vector<std::string>& args);
int cmd_run(const std::vector<std::string>& args);
int cmd_bench(const std::vector<std::string>& args);
int cmd_merge(const std::vector<std::string>& args);
int cmd_minimize(const std::vector<std::string>& args);

}  // namespace jsched
