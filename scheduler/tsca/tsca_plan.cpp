#include "scheduler/tsca/tsca_plan.h"

#include <fstream>
#include <sstream>

namespace jsched::sched {

void TscaPlan::write(const std::string& path) const {
  std::ofstream f(path, std::ios::trunc);
  f << "jsched-tsca-plan 1\nt " << t << "\n";
  const BlockKnowledge& k = knowledge;
  for (uint32_t i = 0; i < k.size(); ++i) {
    const BlockOccurrence& b = k.block(i);
    f << "block " << b.thread << " " << b.start << " " << b.end << "\n";
  }
  for (auto [a, b] : k.orders()) f << "order " << a << " " << b << "\n";
  for (auto [a, b] : k.edges()) f << "edge " << a << " " << b << "\n";
  for (const auto& [thread, seq] : k.sequences()) {
    f << "sequence " << thread;
    for (uint32_t b : seq) f << " " << b;
    f << "\n";
  }
  f << "covered " << known << " " << (covered.empty() ? "-" : covered) << "\n";
  f << "schedule";
  for (ThreadId th : schedule) f << " " << th;
  f << "\nend\n";
  f.flush();
  if (!f) throw TscaPlanError("cannot write " + path);
}

TscaPlan TscaPlan::read(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw TscaPlanError("cannot read " + path);
  TscaPlan p;
  std::string line;
  size_t no = 0;
  bool ended = false;
  auto fail = [&](const std::string& why) {
    throw TscaPlanError(path + ":" + std::to_string(no) + ": " + why);
  };
  auto id = [&](std::istringstream& in, size_t limit, const char* what) {
    long long v = -1;
    if (!(in >> v) || v < 0 || size_t(v) >= limit) fail(std::string("bad ") + what);
    return uint32_t(v);
  };
  while (std::getline(f, line)) {
    ++no;
    std::istringstream in(line);
    std::string kw;
    in >> kw;
    if (no == 1) {
      if (line != "jsched-tsca-plan 1")
        fail("not a TSCA plan (first line must be 'jsched-tsca-plan 1')");
      continue;
    }
    const size_t blocks = p.knowledge.size();
    if (kw == "t") {
      p.t = id(in, SequenceCoverage::kMaxT + 1, "t");
      if (p.t == 0) fail("t must be 1 to 4");
    } else if (kw == "block") {
      BlockOccurrence b;
      b.thread = id(in, 1u << 30, "thread");
      if (!(in >> b.start >> b.end)) fail("block needs a thread and two locations");
      p.knowledge.add_block(b);
    } else if (kw == "order" || kw == "edge") {
      uint32_t a = id(in, blocks, "block id"), b = id(in, blocks, "block id");
      kw == "order" ? p.knowledge.add_order(a, b) : p.knowledge.add_edge(a, b);
    } else if (kw == "sequence") {
      uint32_t th = id(in, 1u << 30, "thread");
      std::vector<uint32_t> seq;
      long long v;
      while (in >> v) {
        if (v < 0 || size_t(v) >= blocks) fail("bad block id in sequence");
        seq.push_back(uint32_t(v));
      }
      p.knowledge.set_sequence(th, std::move(seq));
    } else if (kw == "covered") {
      long long n = -1;
      if (!(in >> n >> p.covered) || n < 0) fail("covered needs a count and flags");
      p.known = size_t(n);
      if (p.covered == "-") p.covered.clear();
    } else if (kw == "schedule") {
      long long v;
      while (in >> v) {
        if (v < 0 || v > (1ll << 30)) fail("bad thread in schedule");
        p.schedule.push_back(ThreadId(v));
      }
    } else if (kw == "end") {
      ended = true;
      break;
    } else if (!kw.empty()) {
      fail("unknown item '" + kw + "'");
    }
  }
  if (no == 0) throw TscaPlanError(path + ": empty file");
  if (!ended) throw TscaPlanError(path + ": truncated (no 'end' line)");
  return p;
}

std::unique_ptr<SequenceCoverage> TscaPlan::coverage() const {
  auto c = std::make_unique<SequenceCoverage>(knowledge, t);
  if (c->known() != known || (!covered.empty() && !c->load_covered_hex(covered)))
    throw TscaPlanError("the plan's covered flags do not fit its blocks (" + std::to_string(known) +
                        " sequences recorded, " + std::to_string(c->known()) + " enumerated)");
  return c;
}

}  // namespace jsched::sched
