// Entry points of the jsched subcommands; each returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace jsched {

int cmd_classfile(const std::vector<std::string>& args);

}  // namespace jsched
