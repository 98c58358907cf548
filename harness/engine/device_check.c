/*
 * device_check.c - the device check before a run (device_check.h): the
 * parent spawns `reshape-conform __device`, reads its one line under a
 * deadline and kills what is left; the child loads the candidate and
 * tries its device.  Depends on device_check.h, exec_device.h, sandbox.h,
 * reaper.h, util.h, jansson and POSIX.
 */
#define _GNU_SOURCE     /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "device_check.h"
#include "proc/proc.h"
#include "wire/wire.h"

extern char **environ;

/* Reads what the child writes on `fd` until EOF or the deadline into
 * buf[0..size); returns 0 at EOF, -1 at the deadline. */
static int read_all(int fd, char *buf, size_t size, double timeout_s)
{
    size_t got = 0;
    double deadline = now_s() + timeout_s;
    for (;;) {
        double left = deadline - now_s();
        if (left <= 0)
            return -1;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || (got += (size_t)n) >= size - 1) {
            buf[got] = '\0';
            return 0;
        }
    }
}

static void describe(device_status *out, const char *line, int st, int timed_out,
                     double timeout_s)
{
    json_t *o = json_loads(line, 0, NULL);
    json_t *usable = json_object_get(o, "usable");
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *why = json_string_value(json_object_get(o, "why"));
    if (json_is_true(usable) && name) {
        out->state = DEVICE_USABLE;
        snprintf(out->name, sizeof out->name, "%s", name);
    } else if (json_is_false(usable) && why) {
        out->state = DEVICE_UNAVAILABLE;
        snprintf(out->why, sizeof out->why, "%s", why);
    } else if (why) {
        snprintf(out->why, sizeof out->why, "%s", why);
    } else if (timed_out) {
        snprintf(out->why, sizeof out->why, "no answer within %g s", timeout_s);
    } else if (WIFSIGNALED(st)) {
        snprintf(out->why, sizeof out->why, "the check died: signal %d (%s)", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    } else {
        snprintf(out->why, sizeof out->why, "the check ended with status %d and no answer",
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    sanitize_text(out->name);
    sanitize_text(out->why);
    json_decref(o);
}

void device_check(const char *candidate, int sandbox, double timeout_s, device_status *out)
{
    memset(out, 0, sizeof *out);
    out->state = DEVICE_CHECK_FAILED;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) {
        snprintf(out->why, sizeof out->why, "cannot make a pipe: %s", strerror(errno));
        return;
    }
    char *argv[] = {"reshape-conform", "__device", (char *)candidate,
                    sandbox ? "1" : "0", NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], DEVICE_CHECK_FD);
    pid_t pid;
    int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc) {
        close(fds[0]);
        snprintf(out->why, sizeof out->why, "cannot start the check: %s", strerror(rc));
        return;
    }
    char line[2048];
    int timed_out = read_all(fds[0], line, sizeof line, timeout_s) != 0;
    close(fds[0]);
    reaper_kill_descendants(pid);
    kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    describe(out, line, st, timed_out, timeout_s);
}
