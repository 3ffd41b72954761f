// `jsched merge --out DIR SHARD_DIR...`: shard results combined into what one unsharded run
// with the same master seed produces.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "runner/batch/batch.h"
#include "runner/batch/results_dir.h"
#include "runner/batch/suite.h"
#include "runner/commands/cli_args.h"
#include "runner/commands/commands.h"

namespace jsched {

namespace runner {
int finish_batch(ResultsDir& dir, const std::string& title, const Expectations& expect,
                 uint64_t seed);
}

namespace {
const char* kMergeUsage =
    "usage: jsched merge --out DIR SHARD_DIR...\n"
    "\n"
    "Combines the results directories of the shards of one batch (jsched run/bench --shard I/N,\n"
    "same master seed) into DIR, exactly as if the batch had run unsharded.\n";
}  // namespace

int cmd_merge(const std::vector<std::string>& args) {
  using namespace runner;
  CliArgs cli(args, kMergeUsage);
  std::string out = cli.value("--out");
  std::vector<std::string> shards = cli.positional();
  cli.done();
  if (out.empty() || shards.empty()) return cli.fail("usage: jsched merge --out DIR SHARD_DIR...");
  std::map<uint64_t, RunRecord> all;
  json::Value batch;
  std::set<uint32_t> have;  // shard indices given
  uint32_t of = 0;          // shards in the batch
  try {
    for (const std::string& s : shards) {
      ResultsDir d = ResultsDir::resume(s);
      json::Value b = d.batch();
      std::string shard = b.str("shard");
      if (!shard.empty()) {
        Shard sh = Shard::parse(shard);
        if (!have.insert(sh.index).second)
          return cli.fail(s + " is shard " + shard + " again (given twice?)");
        of = sh.count;
      }
      b.set("shard", json::Value());
      if (batch.is(json::Value::Null)) {
        batch = b;
      } else if (b.dump() != batch.dump()) {
        return cli.fail(s + " holds a different batch (other suite, command or master seed)");
      }
      for (const RunRecord& r : d.records()) {
        RunRecord copy = r;
        if (!copy.log.empty())
          copy.log = std::filesystem::absolute(std::filesystem::path(s) / copy.log).string();
        auto [it, fresh] = all.emplace(r.index, copy);
        if (!fresh) return cli.fail("execution " + std::to_string(r.index) + " is in two shards");
      }
    }
    json::Value clean = json::Value::object();
    for (const auto& [k, v] : batch.fields()) {
      if (!v.is(json::Value::Null)) clean.set(k, v);
    }
    ResultsDir dir = ResultsDir::create(out, clean);
    for (auto& [i, r] : all) dir.add(r);
    Expectations expect;
    std::string title = "merged";
    if (clean.str("kind") == "bench") {
      Suite suite = Suite::load(clean.str("suite"));
      expect = suite.expectations();
      title = "suite " + suite.name;
    }
    std::fprintf(stderr, "jsched: merged %zu executions from %zu shards into %s\n", all.size(),
                 shards.size(), out.c_str());
    if (have.size() < of) {
      std::string missing;
      for (uint32_t i = 0; i < of; ++i) {
        if (!have.count(i))
          missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" + std::to_string(of);
      }
      std::fprintf(stderr,
                   "jsched: warning: shard%s %s missing: the merged results hold %zu of %u "
                   "shards, not the whole batch\n",
                   of - have.size() > 1 ? "s" : "", missing.c_str(), have.size(), of);
    }
    return finish_batch(dir, title, expect, std::stoull(clean.str("seed", "0")));
  } catch (const std::exception& e) {
    return cli.fail(e.what());
  }
}

}  // namespace jsched
