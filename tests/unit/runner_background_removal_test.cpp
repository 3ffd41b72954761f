// What an interrupted jsched leaves to remove is gone from its place at once and from the disk
// soon after, without jsched waiting for it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "runner/batch/background_removal.h"

using namespace jsched::runner;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::path(testing::TempDir()) / ("background_removal_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

bool empty_within(const fs::path& dir, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!fs::is_empty(dir)) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace

TEST(BackgroundRemoval, PathsLeaveAtOnceAndTheDiskSoonAfter) {
  const fs::path d = fresh_dir("tree");
  fs::create_directories(d / "jvm-1/tmp/deep");
  std::ofstream(d / "jvm-1/tmp/deep/file") << std::string(1 << 20, 'x');
  std::ofstream(d / "run-1.log") << "log";
  remove_in_background({(d / "jvm-1").string(), (d / "run-1.log").string(), (d / "none").string()},
                       d.string());
  EXPECT_FALSE(fs::exists(d / "jvm-1"));
  EXPECT_FALSE(fs::exists(d / "run-1.log"));
  EXPECT_TRUE(empty_within(d, std::chrono::seconds(20))) << "the hidden folder is removed";
}

TEST(BackgroundRemoval, NothingToRemoveLeavesNothing) {
  const fs::path d = fresh_dir("none");
  remove_in_background({(d / "none").string()}, d.string());
  EXPECT_TRUE(fs::is_empty(d));
}

// A folder's own name in the call: it goes, and what is beside it stays.
TEST(BackgroundRemoval, AFolderItselfGoesAndItsNeighboursStay) {
  const fs::path d = fresh_dir("self");
  fs::create_directories(d / "out/work");
  std::ofstream(d / "kept") << "kept";
  remove_in_background({(d / "out").string()}, d.string());
  EXPECT_FALSE(fs::exists(d / "out"));
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::distance(fs::directory_iterator(d), {}) > 1 && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(std::distance(fs::directory_iterator(d), {}), 1);
  EXPECT_TRUE(fs::exists(d / "kept"));
}

// The `rm` keeps none of the caller's descriptors, not even for a moment: a results folder's
// lock is free as soon as the batch that held it closes it.
TEST(BackgroundRemoval, NoDescriptorOfTheCallerOutlivesIt) {
  const fs::path d = fresh_dir("lock");
  fs::create_directories(d / "out");
  for (int i = 0; i < 200; ++i) std::ofstream(d / "out" / ("f" + std::to_string(i))) << "x";
  const std::string lock = (d / ".lock").string();
  for (int round = 0; round < 20; ++round) {
    const int fd = open(lock.c_str(), O_RDWR | O_CREAT, 0644);  // inheritable on purpose
    ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
    fs::create_directories(d / "out");
    remove_in_background({(d / "out").string()}, d.string());
    close(fd);
    const int again = open(lock.c_str(), O_RDWR);
    EXPECT_EQ(flock(again, LOCK_EX | LOCK_NB), 0) << "round " << round;
    close(again);
  }
}
