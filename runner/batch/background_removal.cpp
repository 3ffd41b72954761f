#include "runner/batch/background_removal.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

// A grandchild, so that it is nobody's zombie: it runs with the trash folder as its working
// directory and a relative name, detached from jsched's terminal and files.
void spawn_rm(const std::string& dir, const std::string& name) {
  const pid_t child = fork();
  if (child < 0) return;
  if (child == 0) {
    if (fork() != 0) _exit(0);
    setsid();
    const int devnull = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; ++fd) dup2(devnull, fd);
    close_range(3, ~0U, 0);
    if (chdir(dir.c_str()) != 0) _exit(1);
    execlp("rm", "rm", "-rf", "--", name.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

void remove_in_background(const std::vector<std::string>& paths, const std::string& parent) {
  static std::atomic<unsigned> made{0};
  const std::string name =
      ".jsched-removing-" + std::to_string(getpid()) + "-" + std::to_string(made++);
  const fs::path trash = fs::path(parent) / name;
  std::error_code ec;
  std::vector<std::string> present;
  for (const std::string& p : paths)
    if (fs::exists(fs::symlink_status(p, ec))) present.push_back(p);
  if (present.empty()) return;
  fs::create_directory(trash, ec);
  size_t k = 0;
  for (const std::string& p : present) {
    fs::rename(p, trash / std::to_string(k++), ec);
    if (ec) fs::remove_all(p, ec);
  }
  spawn_rm(parent, name);
}

}  // namespace jsched::runner
