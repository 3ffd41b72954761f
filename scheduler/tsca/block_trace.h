// What one execution did at the level of atomic blocks (docs/strategies.md, tsca): the blocks in
// the order they started, and the orderings between them that the program itself imposes (a
// thread's first block follows the block that started it; the block after a join follows the joined
// thread's last block).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jsched::sched {

struct BlockOccurrence {
  uint32_t thread = 0;     // creation index
  std::string start, end;  // locations: "begin", "end" or a code location
  bool operator==(const BlockOccurrence&) const = default;
};

struct BlockTrace {
  std::vector<BlockOccurrence> blocks;
  // (i, j): occurrence i must precede occurrence j in every execution (indices into blocks).
  std::vector<std::pair<uint32_t, uint32_t>> edges;
};

}  // namespace jsched::sched
