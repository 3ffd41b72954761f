#include "runner/batch/suite.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <pugixml.hpp>
#include <set>
#include <sstream>

#include "jvmti-agent/options.h"
#include "runner/batch/executor.h"
#include "runner/batch/run_checks.h"
#include "scheduler/strategy_registry.h"

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

const std::set<std::string> kExpect = {"bug", "deadlock", "any", "none"};

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// A program's agent options come before its strategy's.
std::string cell_params(const SuiteProgram& p, const SuiteStrategy& st) {
  return p.params.empty() || st.params.empty() ? p.params + st.params : p.params + "," + st.params;
}

class Loader {
 public:
  explicit Loader(const std::string& path) : path_(path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw SuiteError(path + " is a directory, not a suite file");
    std::ifstream in(path);
    if (!in) throw SuiteError(path + ": cannot read the file");
    text_.assign(std::istreambuf_iterator<char>(in), {});
    dir_ = fs::absolute(fs::path(path)).parent_path();
  }

  Suite load() {
    pugi::xml_parse_result ok = doc_.load_buffer(
        text_.data(), text_.size(), pugi::parse_default | pugi::parse_ws_pcdata_single);
    if (!ok) fail_at(size_t(ok.offset), ok.description());
    pugi::xml_node root = doc_.document_element();
    if (std::string(root.name()) != "suite")
      fail(root, "the root element must be <suite>, not <" + std::string(root.name()) + ">");
    Suite s;
    s.file = path_;
    only_attrs(root, {"name", "runs", "repetitions", "timeout", "java"});
    s.name = root.attribute("name").as_string(fs::path(path_).stem().c_str());
    s.runs = uint32_t(number(root, "runs", 100, 1, 10000000));
    s.repetitions = uint32_t(number(root, "repetitions", 1, 1, 100000));
    s.timeout_ms = number(root, "timeout", 10000, 1, 86400000);
    s.java = root.attribute("java").as_string("java");
    std::string classpath, jvm_args;
    std::set<std::string> names, labels;
    std::vector<pugi::xml_node> nodes, strategy_nodes;  // of programs, of strategies
    for (pugi::xml_node n : root.children()) {
      if (n.type() != pugi::node_element) continue;
      std::string tag = n.name();
      if (tag == "classpath") {
        only_attrs(n, {});
        for (const std::string& p : split(n.text().as_string(), ':')) {
          classpath += (classpath.empty() ? "" : ":") + resolve(p);
        }
      } else if (tag == "jvm-args") {
        only_attrs(n, {});
        jvm_args = n.text().as_string();
      } else if (tag == "strategy") {
        only_attrs(n, {"name", "label", "params", "runs"});
        SuiteStrategy st;
        st.name = required(n, "name");
        const sched::StrategyEntry* e = sched::find_strategy(st.name);
        if (!e) fail(n, "unknown strategy '" + st.name + "' (" + sched::strategy_name_list() + ")");
        if (!e->in_suites)
          fail(n, "strategy '" + st.name + "' cannot be a suite's (it follows a file a run made)");
        st.params = n.attribute("params").as_string();
        st.runs = uint32_t(number(n, "runs", 0, 1, 10000000));
        st.label = n.attribute("label").as_string(st.name.c_str());
        if (!labels.insert(st.label).second)
          fail(n, "two strategies labelled '" + st.label + "' (add label=\"...\")");
        s.strategies.push_back(st);
        strategy_nodes.push_back(n);
      } else if (tag == "program") {
        only_attrs(n, {"name", "main", "args", "classpath", "jvm-args", "params", "expect",
                       "finding", "runs", "timeout", "bug-output"});
        SuiteProgram p;
        p.name = required(n, "name");
        if (!names.insert(p.name).second) fail(n, "two programs named '" + p.name + "'");
        p.main = required(n, "main");
        p.args = words(n.attribute("args").as_string());
        p.params = n.attribute("params").as_string();
        if (pugi::xml_attribute b = n.attribute("bug-output")) {
          p.params += std::string(p.params.empty() ? "" : ",") +
                      "bug-output=" + agent::escape_commas(b.as_string());
        }
        p.bug_output = p.params.find("bug-output=") != std::string::npos;
        p.finding = n.attribute("finding").as_string();
        p.jvm_args = words(n.attribute("jvm-args").as_string(jvm_args.c_str()));
        std::string cp = n.attribute("classpath").as_string();
        if (cp.empty()) {
          p.classpath = classpath;
        } else {
          for (const std::string& e : split(cp, ':'))
            p.classpath += (p.classpath.empty() ? "" : ":") + resolve(e);
        }
        if (p.classpath.empty())
          fail(n, "program '" + p.name + "' has no classpath (add <classpath> to the suite)");
        p.expect = n.attribute("expect").as_string("none");
        if (!kExpect.count(p.expect))
          fail(n, "expect must be bug, deadlock, any or none, not '" + p.expect + "'");
        p.runs = uint32_t(number(n, "runs", 0, 1, 10000000));
        p.timeout_ms = number(n, "timeout", 0, 1, 86400000);
        p.line = line_at(size_t(n.offset_debug()));
        s.programs.push_back(p);
        nodes.push_back(n);
      } else {
        fail(n,
             "unknown element <" + tag + "> (expected classpath, jvm-args, strategy or program)");
      }
    }
    if (s.programs.empty()) fail(root, "the suite has no <program>");
    if (s.strategies.empty()) {
      const std::string name(sched::kRunnerDefault);
      s.strategies.push_back(SuiteStrategy{name, name, ""});
    }
    // Every cell's agent options, through the agent's own parser (a strategy's params alone
    // first, so that its own mistakes are named at its line).
    for (size_t k = 0; k < s.strategies.size(); ++k) {
      const SuiteStrategy& st = s.strategies[k];
      if (std::string why = check_agent_params(st.name, st.params); !why.empty())
        fail(k < strategy_nodes.size() ? strategy_nodes[k] : root,
             "strategy '" + st.label + "': " + why);
    }
    for (size_t i = 0; i < s.programs.size(); ++i) {
      for (const SuiteStrategy& st : s.strategies) {
        std::string why = check_agent_params(st.name, cell_params(s.programs[i], st));
        if (!why.empty())
          fail(nodes[i], "program '" + s.programs[i].name + "' under '" + st.label + "': " + why);
      }
    }
    return s;
  }

 private:
  size_t line_at(size_t offset) const {
    size_t line = 1;
    for (size_t i = 0; i < offset && i < text_.size(); ++i) line += text_[i] == '\n';
    return line;
  }
  [[noreturn]] void fail_at(size_t offset, const std::string& why) const {
    throw SuiteError(path_ + ":" + std::to_string(line_at(offset)) + ": " + why);
  }
  [[noreturn]] void fail(const pugi::xml_node& n, const std::string& why) const {
    fail_at(size_t(n.offset_debug()), why);
  }
  void only_attrs(const pugi::xml_node& n, std::initializer_list<const char*> allowed) const {
    for (pugi::xml_attribute a : n.attributes()) {
      bool ok = false;
      for (const char* x : allowed) ok |= std::string(a.name()) == x;
      if (!ok) fail(n, "<" + std::string(n.name()) + "> has no attribute '" + a.name() + "'");
    }
  }
  std::string required(const pugi::xml_node& n, const char* attr) const {
    std::string v = n.attribute(attr).as_string();
    if (v.empty()) fail(n, "<" + std::string(n.name()) + "> needs " + attr + "=\"...\"");
    return v;
  }
  uint64_t number(const pugi::xml_node& n, const char* attr, uint64_t dflt, uint64_t lo,
                  uint64_t hi) const {
    pugi::xml_attribute a = n.attribute(attr);
    if (!a) return dflt;
    std::string v = a.as_string();
    char* end = nullptr;
    unsigned long long x = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || *end || v[0] == '-' || x < lo || x > hi) {
      fail(n, std::string(attr) + "=\"" + v + "\" is not a number from " + std::to_string(lo) +
                  " to " + std::to_string(hi));
    }
    return x;
  }
  std::vector<std::string> split(const std::string& s, char sep) const {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
      if (c == sep) {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else if (c != '\n' && c != ' ' && c != '\t') {
        cur += c;
      }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
  }
  std::string resolve(const std::string& p) const {
    fs::path q(p);
    return (q.is_absolute() ? q : dir_ / q).lexically_normal().string();
  }

  std::string path_, text_;
  fs::path dir_;
  pugi::xml_document doc_;
};

}  // namespace

Suite Suite::load(const std::string& path) {
  return Loader(path).load();
}

void Suite::check_programs() const {
  for (const SuiteProgram& p : programs) {
    if (std::string why = check_main_class(p.classpath, p.main); !why.empty())
      throw SuiteError(file + ":" + std::to_string(p.line) + ": program '" + p.name + "': " + why);
  }
}

std::vector<RunSpec> Suite::specs(uint64_t master_seed, bool consecutive) const {
  std::vector<RunSpec> out;
  uint64_t index = 0;
  for (const SuiteProgram& p : programs) {
    for (const SuiteStrategy& st : strategies) {
      for (uint32_t rep = 0; rep < repetitions; ++rep) {
        uint32_t n = st.runs ? st.runs : p.runs ? p.runs : runs;
        for (uint32_t i = 0; i < n; ++i) {
          RunSpec s;
          s.index = index++;
          s.program = p.name;
          s.strategy = st.label;
          s.agent_strategy = st.name;
          s.params = cell_params(p, st);
          s.target = p.finding;
          s.repetition = rep;
          s.run = i;
          // HaPSet runs share JVMs always (they learn from the runs before them).
          s.seed = consecutive || learns(s)
                       ? consecutive_seed(master_seed, p.name, st.label, rep, i)
                       : derive_seed(master_seed, p.name, st.label, rep, i);
          s.timeout_ms = p.timeout_ms ? p.timeout_ms : timeout_ms;
          s.command = {java, "-cp", p.classpath, p.main};
          s.command.insert(s.command.end(), p.args.begin(), p.args.end());
          s.jvm_args = p.jvm_args;
          out.push_back(std::move(s));
        }
      }
    }
  }
  return out;
}

uint64_t Suite::execution_count() const {
  uint64_t n = 0;
  for (const SuiteProgram& p : programs) {
    for (const SuiteStrategy& st : strategies)
      n += uint64_t(repetitions) * (st.runs ? st.runs : p.runs ? p.runs : runs);
  }
  return n;
}

uint64_t Suite::spec_bytes() const {
  Suite one = *this;  // a run of each cell
  one.runs = one.repetitions = 1;
  for (SuiteProgram& p : one.programs) p.runs = 0;
  for (SuiteStrategy& st : one.strategies) st.runs = 0;
  uint64_t most = 0;
  for (const RunSpec& s : one.specs(0)) most = std::max(most, approx_bytes(s));
  return most;
}

Expectations Suite::expectations() const {
  Expectations e;
  for (const SuiteProgram& p : programs) e[p.name] = p.expect;
  return e;
}

void Suite::default_bug_output(const std::string& regex) {
  for (SuiteProgram& p : programs) {
    if (p.bug_output) continue;
    p.params +=
        std::string(p.params.empty() ? "" : ",") + "bug-output=" + agent::escape_commas(regex);
    p.bug_output = true;
  }
}

void Suite::default_hapset_coverage() {
  for (SuiteProgram& p : programs) {
    bool said = false;
    for (const auto& kv : split_params(p.params)) said = said || kv.first == "hapset";
    if (!said) p.params += std::string(p.params.empty() ? "" : ",") + "hapset=on";
  }
}

}  // namespace jsched::runner
