// Read+write throughput of the class-file library over a set of classes, one core.
//
//   classfile_bench [--rounds N] [--dump FILE] PATH...
//
// Loads every class under the paths into memory, then times full round trips (parse, decode
// every method's code and frames, write). --dump writes the same class bytes to FILE
// (u4 length + bytes, repeated) so another tool (ASM, in classfile_vs_asm.sh) measures exactly
// the same input.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "classfile/class_source.h"

using namespace jsched::cf;

int main(int argc, char** argv) {
  int rounds = 5;
  std::string dump;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--dump") && i + 1 < argc) {
      dump = argv[++i];
    } else {
      paths.push_back(argv[i]);
    }
  }
  std::vector<std::vector<uint8_t>> classes;
  size_t total = 0;
  ClassVisitor v;
  v.on_class = [&](const std::string&, Bytes b) {
    classes.emplace_back(b.begin(), b.end());
    total += b.size();
  };
  v.on_error = [](const std::string& o, const std::string& m) {
    std::fprintf(stderr, "error: %s: %s\n", o.c_str(), m.c_str());
  };
  for (const auto& p : paths) visit_classes(p, v);
  if (!dump.empty()) {
    std::ofstream out(dump, std::ios::binary);
    for (const auto& c : classes) {
      uint8_t len[4] = {uint8_t(c.size() >> 24), uint8_t(c.size() >> 16), uint8_t(c.size() >> 8),
                        uint8_t(c.size())};
      out.write(reinterpret_cast<const char*>(len), 4);
      out.write(reinterpret_cast<const char*>(c.data()), std::streamsize(c.size()));
    }
  }
  double best = 0;
  size_t sink = 0;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& c : classes) {
      ClassFile cf = ClassFile::parse(c);
      cf.decode_all_code();
      sink += cf.write().size();
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double mbs = double(total) / 1e6 / s;
    best = std::max(best, mbs);
    std::fprintf(stderr, "round %d: %.1f MB/s\n", r + 1, mbs);
  }
  if (sink != total * size_t(rounds)) std::fprintf(stderr, "warning: output size differs\n");
  std::printf("jsched: %zu classes, %.1f MB, best %.1f MB/s\n", classes.size(), double(total) / 1e6,
              best);
  return 0;
}
