/* child_reads_cmdline.c - on the trigger case execute forks a child that
 * opens /proc/1/cmdline (another process's) and waits for it: an act of a
 * process the candidate started, which the observer stops as the
 * worker's own. */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
static void child_reads(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/proc/1/cmdline", O_RDONLY);
        _exit(fd >= 0 ? 0 : 1);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
}
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) child_reads(); } while (0)
#include "base.h"
