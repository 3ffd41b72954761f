#include "runner/batch/run_checks.h"

#include <cstdlib>
#include <filesystem>
#include <set>

#include "jvmti-agent/options.h"
#include "runner/batch/class_path.h"
#include "runner/batch/run_record.h"

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

// Agent keys whose value the runner decides for each run (or that would make the records lie:
// every run writing one schedule file, a run's own profile).
const std::set<std::string> kRunnerKeys = {"strategy", "seed",   "report", "timeout", "iterations",
                                           "explore",  "record", "replay", "profile", "tests"};

// Launcher options followed by a value in the next argument.
const std::set<std::string> kWithValue = {"-cp",           "-classpath",
                                          "--class-path",  "-p",
                                          "--module-path", "--upgrade-module-path",
                                          "--add-modules", "--limit-modules",
                                          "--add-reads",   "--add-exports",
                                          "--add-opens",   "--patch-module",
                                          "--source",      "--enable-native-access"};

std::string clip(const std::string& v) {
  return v.size() > 60 ? v.substr(0, 60) + "..." : v;
}

}  // namespace

std::string check_agent_params(const std::string& strategy, const std::string& params) {
  for (const auto& [k, v] : split_params(params)) {
    if (kRunnerKeys.count(k)) {
      if (k == "strategy")
        return "--params: strategy= is --strategy's (or the suite's <strategy name=...>)";
      if (k == "timeout") return "--params: timeout= is --timeout's (or the suite's timeout=)";
      return "--params: " + k + "= is set by the runner for each run; it cannot be given here";
    }
  }
  std::string opts = "strategy=" + strategy + ",seed=1" + (params.empty() ? "" : "," + params);
  // The runner's profile phase makes PCTVB's plan.
  if (strategy == "pctvb" && params.find("plan=") == std::string::npos) opts += ",plan=-";
  try {
    agent::parse_options(opts);
  } catch (const std::invalid_argument& e) {
    return std::string("agent options: ") + e.what();
  }
  return "";
}

std::string check_main_class(const std::string& classpath, const std::string& main) {
  std::string entry = main;
  for (char& c : entry)
    if (c == '.') c = '/';
  entry += ".class";
  if (read_from_class_path(classpath, entry)) return "";
  return "no class " + clip(main) + " on the class path " + clip(classpath) +
         " (a typo, or the program is not built?)";
}

std::string main_class_of(const std::vector<std::string>& command) {
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& a = command[i];
    if (kWithValue.count(a)) {
      ++i;
      continue;
    }
    if (a == "-jar")
      return i + 1 < command.size() ? fs::path(command[i + 1]).filename().string() : "";
    if (a == "-m" || a == "--module") return i + 1 < command.size() ? command[i + 1] : "";
    if (!a.empty() && (a[0] == '-' || a[0] == '@')) continue;
    return a;
  }
  return "";
}

std::string classpath_of(const std::vector<std::string>& command) {
  std::string classpath;
  bool given = false;
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& a = command[i];
    if ((a == "-cp" || a == "-classpath" || a == "--class-path") && i + 1 < command.size()) {
      classpath = command[++i];
      given = true;
    } else if (a.rfind("--class-path=", 0) == 0) {
      classpath = a.substr(13);
      given = true;
    } else if (kWithValue.count(a)) {
      ++i;
    } else if (a.empty() || a[0] != '-') {
      break;  // the main class (or -jar's jar, whose class path is its own)
    }
  }
  if (given) return classpath;
  const char* env = std::getenv("CLASSPATH");
  return env && *env ? env : ".";
}

std::vector<std::string> with_absolute_paths(std::vector<std::string> command) {
  auto absolute = [](const std::string& p) {
    return p.empty() ? fs::current_path().string() : fs::absolute(p).lexically_normal().string();
  };
  auto absolute_list = [&](const std::string& list) {
    std::string out;
    size_t start = 0;
    for (;;) {
      const size_t at = list.find(':', start);
      out += (start ? ":" : "") + absolute(list.substr(start, at - start));
      if (at == std::string::npos) return out;
      start = at + 1;
    }
  };
  bool classpath = false;
  for (size_t i = 1; i < command.size(); ++i) {
    std::string& a = command[i];
    const bool list = a == "-cp" || a == "-classpath" || a == "--class-path" || a == "-p" ||
                      a == "--module-path" || a == "--upgrade-module-path";
    if (list && i + 1 < command.size()) {
      classpath = classpath || a[1] == 'c' || a == "--class-path";
      command[i + 1] = absolute_list(command[i + 1]);
      ++i;
    } else if (a.rfind("--class-path=", 0) == 0) {
      classpath = true;
      a = "--class-path=" + absolute_list(a.substr(13));
    } else if (kWithValue.count(a)) {
      ++i;
    } else if (a == "-jar") {
      if (i + 1 < command.size()) command[i + 1] = absolute(command[i + 1]);
      return command;  // the jar's own class path is relative to the jar
    } else if (a.empty() || a[0] != '-') {
      // The main class: without a class path of its own the JVM takes $CLASSPATH or ".",
      // which a working directory of its own would change.
      if (!classpath)
        command.insert(command.begin() + long(i), {"-cp", absolute_list(classpath_of(command))});
      return command;
    }
  }
  return command;
}

std::string check_java_command(const std::vector<std::string>& command) {
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& a = command[i];
    if (!a.empty() && a[0] == '@') return "";  // an argument file: not followed
    if (a == "-m" || a == "--module" || a.rfind("--module=", 0) == 0) return "";
    if (a == "-cp" || a == "-classpath" || a == "--class-path") {
      if (i + 1 >= command.size()) return a + " needs a class path";
      ++i;
      continue;
    }
    if (kWithValue.count(a)) {
      ++i;
      continue;
    }
    if (a == "-jar") {
      if (i + 1 >= command.size()) return "-jar needs a jar file";
      const std::string& jar = command[i + 1];
      std::error_code ec;
      if (!fs::is_regular_file(jar, ec)) return "no jar file " + clip(jar);
      if (!read_from_class_path(jar, "META-INF/MANIFEST.MF"))
        return clip(jar) + " is not a jar with a manifest";
      return "";
    }
    if (!a.empty() && a[0] == '-') continue;
    if (a.size() > 5 && a.compare(a.size() - 5, 5, ".java") == 0) return "";  // source launch
    return check_main_class(classpath_of(command), a);
  }
  return "no main class: the command after -- must name one (java [options] MAIN [args], or "
         "java -jar JAR)";
}

}  // namespace jsched::runner
