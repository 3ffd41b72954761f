#include "runner/batch/background_removal.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>

extern char** environ;

namespace jsched::runner {

namespace fs = std::filesystem;

namespace {

// A shell that starts `rm` in the background and ends, so that `rm` is nobody's zombie: in a
// session of its own, in the trash folder's parent with a relative name, with no file of
// jsched's. posix_spawn, not fork: a forked copy keeps every descriptor of jsched's (the results
// folder's lock among them) until it closes them, which under load came after jsched had ended,
// and a `--resume` started at once found its folder still locked.
void spawn_rm(const std::string& dir, const std::string& name) {
  std::string sh = "sh", c = "-c", script = "rm -rf -- \"$1\" &", zero = "sh", arg = name;
  char* argv[] = {sh.data(), c.data(), script.data(), zero.data(), arg.data(), nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  for (int fd = 0; fd < 3; ++fd)
    posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t dflt;
  sigemptyset(&dflt);
  for (int sig : {SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGXFSZ}) sigaddset(&dflt, sig);
  posix_spawnattr_setsigdefault(&attr, &dflt);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF);
  pid_t child = -1;
  const int rc = posix_spawnp(&child, "sh", &fa, &attr, argv, environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return;  // the renamed folder stays, hidden, as after a crash
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
