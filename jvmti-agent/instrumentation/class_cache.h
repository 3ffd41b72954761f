// Rewritten class bytes, kept when the JVM runs several executions: each execution loads the
// application's classes again (through a class loader of its own), and the same input
// rewrites to the same output with the same sites, so it is rewritten once.
#pragma once

#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "classfile/bytes.h"

namespace jsched::agent {

class ClassCache {
 public:
  // What rewriting `input` gave the last time: the new bytes, or empty for "unchanged";
  // nullptr if it has not been rewritten yet. Entries live as long as the cache.
  const cf::Buffer* find(std::string_view name, cf::Bytes input);
  void put(std::string_view name, cf::Bytes input, const cf::Buffer& output);

 private:
  struct Entry {
    cf::Buffer input, output;
  };
  std::mutex mu_;
  // By class name; a name may come with different bytes (two versions on the class path). A
  // deque and a node-based map keep entries where they are as others are added.
  std::unordered_map<std::string, std::deque<Entry>> entries_;
};

}  // namespace jsched::agent
