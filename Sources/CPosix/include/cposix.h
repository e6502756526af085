#ifndef CPOSIX_H
#define CPOSIX_H
#include <sys/socket.h>

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start (no window for another thread's
/// spawn to inherit them). Glibc's module exports pipe2 only with _GNU_SOURCE.
int cposix_pipe_cloexec(int fds[2]);

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC), for the same reason.
int cposix_accept_cloexec(int fd);
#endif
