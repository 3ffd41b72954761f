// Removing a file frees its blocks, and on a file system mounted with `discard` (ext4 without a
// journal, as on these VMs) each free waits for the disk's discard: seconds, even for one empty
// folder. An interrupted jsched must end within 2 s, so what it would remove on its way out it
// renames into one hidden folder (a rename frees nothing) and a detached `rm` removes that
// folder once jsched has ended. Nothing left behind is in a place jsched reads again.
#pragma once

#include <string>
#include <vector>

namespace jsched::runner {

// Moves the paths that exist into `parent`/.jsched-removing-PID-N (they and `parent` are on one
// file system) and starts an `rm -rf` of it that outlives jsched; a path that cannot be moved is
// removed at once.
void remove_in_background(const std::vector<std::string>& paths, const std::string& parent);

}  // namespace jsched::runner
