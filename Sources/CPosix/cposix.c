#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

static volatile sig_atomic_t stop_signal_fd = -1;

static void forward_stop_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    (void)!write(stop_signal_fd, &byte, 1);
    errno = saved;
}

int cposix_forward_stop_signals(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return -1;
    stop_signal_fd = fd;
    struct sigaction action = { 0 };
    action.sa_handler = forward_stop_signal;
    action.sa_flags = SA_RESTART;
    sigfillset(&action.sa_mask);
    const int numbers[] = { SIGTERM, SIGINT, SIGHUP };
    for (unsigned i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        if (sigaction(numbers[i], &action, NULL) != 0) return -1;
    }
    return 0;
}
