#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include "cposix.h"

int cposix_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int cposix_accept_cloexec(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC); }

int cposix_set_nondumpable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

int cposix_disable_core_files(void) {
    struct rlimit none = { 0, 0 };
    return setrlimit(RLIMIT_CORE, &none);
}

int cposix_spawn_detach(posix_spawn_file_actions_t *actions) {
    int status = posix_spawn_file_actions_addclosefrom_np(actions, 3);
    return status != 0 ? status : posix_spawn_file_actions_addchdir_np(actions, "/");
}
