// GNU extensions of glibc (2.34 and later) that Swift's Glibc module, built without _GNU_SOURCE, leaves out.
#include <spawn.h>

// Closes every descriptor from `from` up in the child: a daemon's descriptors without close-on-exec stay out of it.
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
// pipe(2) with flags, so a pipe is close-on-exec from the start (no window where another thread's child gets it).
int pipe2(int fds[2], int flags);
