/*
 * setsid_grandchild.c - on its first execute the kernel double-forks a
 * daemon: the child calls setsid() (a session and process group of its
 * own), forks a grandchild that sleeps for ten minutes, and exits, so the
 * grandchild is orphaned and out of the worker's process group.  The
 * grandchild names itself "broken-stray" (its comm).
 */
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int started;
    (void)src;
    (void)dst;
    if (started++)
        return;
    pid_t child = fork();
    if (child == 0) {
        setsid();
        if (fork() == 0) {
            prctl(PR_SET_NAME, "broken-stray");
            sleep(600);
        }
        _exit(0);
    }
    if (child > 0)
        waitpid(child, NULL, 0);
}

const struct broken_defect broken_defect = {
    .name = "setsid_grandchild",
    .defect = "setsid() and a grandchild that sleeps 600 s, on its first execute",
    .expect = "LEAK",
    .hooks = {.enter = enter},
};
