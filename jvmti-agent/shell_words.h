// Command lines as a shell reads them: the agent prints replay commands with them, and the
// runner reads those commands back (jsched minimize) and prints its own.
#pragma once

#include <string>
#include <vector>

namespace jsched::agent {

// `s` as one shell word: as it is when it needs no quoting, else in single quotes.
std::string shell_quote(const std::string& s);
std::string shell_join(const std::vector<std::string>& argv);
// Words, single-quoted parts and backslash escapes (what shell_quote writes, and more).
std::vector<std::string> shell_split(const std::string& line);

// Whether a JVM argument loads jsched's agent (-agentpath:.../libjsched.so...).
bool is_jsched_agent_argument(const std::string& arg);

}  // namespace jsched::agent
