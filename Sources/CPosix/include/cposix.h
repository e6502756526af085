#ifndef CPOSIX_H
#define CPOSIX_H
#include <spawn.h>
#include <sys/socket.h>

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start (no window for another thread's
/// spawn to inherit them). Glibc's module exports pipe2 only with _GNU_SOURCE.
int cposix_pipe_cloexec(int fds[2]);

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC), for the same reason.
int cposix_accept_cloexec(int fd);

/// prctl(PR_SET_DUMPABLE, 0): no core dump, no ptrace or /proc/PID/mem access by other processes
/// of the same user. prctl is variadic, which Swift cannot call.
int cposix_set_nondumpable(void);

/// setrlimit(RLIMIT_CORE, {0, 0}): no core file, even where the dumpable flag is overridden
/// (fs.suid_dumpable). RLIMIT_CORE is an enum constant Glibc's module types awkwardly.
int cposix_disable_core_files(void);
/// For a daemon: close every descriptor from 3 up and change to "/" in the child
/// (posix_spawn_file_actions_addclosefrom_np, _addchdir_np; glibc exports them with _GNU_SOURCE).
int cposix_spawn_detach(posix_spawn_file_actions_t *actions);

/// Makes SIGTERM, SIGINT and SIGHUP write their number, one byte, to `fd` (made non-blocking: a
/// full pipe drops the byte rather than blocking the handler) and do nothing else, so a thread
/// reading the other end can act on them outside signal context. 0, or -1 with errno set.
int cposix_forward_stop_signals(int fd);
#endif
