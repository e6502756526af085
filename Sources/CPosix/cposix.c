#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include "cposix.h"

int cposix_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int cposix_accept_cloexec(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC); }
