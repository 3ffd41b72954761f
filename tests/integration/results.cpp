#include "tests/integration/results.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace jsched::test {

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::vector<json::Value> records(const std::string& dir) {
  std::vector<json::Value> out;
  std::istringstream in(slurp(dir + "/runs.jsonl"));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

std::map<uint64_t, std::string> canonical(const std::vector<json::Value>& recs) {
  std::map<uint64_t, std::string> out;
  for (json::Value r : recs) {
    r.set("elapsed_ms", json::Value());
    r.set("log", json::Value());
    // A thread the machine held inside the JVM (a class loaded on a loaded machine) is noted on
    // the record, as timing is: the same execution in another run need not note it.
    json::Value extra = json::Value::object();
    for (const auto& [k, v] : r["extra"].fields())
      if (k != "hidden_block" && k != "hidden_blocks") extra.set(k, v);
    if (r["extra"].is(json::Value::Object)) r.set("extra", extra);
    out[uint64_t(r.num("index"))] = r.dump();
  }
  return out;
}

std::string first_difference(const std::map<uint64_t, std::string>& a,
                             const std::map<uint64_t, std::string>& b) {
  if (a.size() != b.size())
    return "sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it == b.end()) return "execution " + std::to_string(k) + " missing";
    if (it->second != v) return "execution " + std::to_string(k) + ":\n" + v + "\n" + it->second;
  }
  return "";
}

ProcessResult run_jsched(std::vector<std::string> args) {
  args.insert(args.begin(), JSCHED_BIN);
  return run(args);
}

int start_jsched(const std::vector<std::string>& args, const std::string& err_file) {
  std::vector<std::string> a = {JSCHED_BIN};
  a.insert(a.end(), args.begin(), args.end());
  return start_process(a, "", err_file);
}

int start_process(std::vector<std::string> a, const std::string& out_file,
                  const std::string& err_file) {
  pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& s : a) argv.push_back(s.data());
    argv.push_back(nullptr);
    int out = out_file.empty() ? open("/dev/null", O_WRONLY)
                               : open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

int wait_status(int pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace jsched::test
