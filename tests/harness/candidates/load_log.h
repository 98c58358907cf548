/*
 * load_log.h - for a test candidate's constructor: with
 * RESHAPE_TEST_CTOR_LOG set, appends the loading process's pid to that
 * file, so that a test counts the processes that loaded the candidate.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void load_log(void)
{
    const char *log = getenv("RESHAPE_TEST_CTOR_LOG");
    int fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;
    if (fd < 0)
        return;
    char line[32];
    int n = snprintf(line, sizeof line, "%ld\n", (long)getpid());
    if (write(fd, line, (size_t)n) != n) {
        /* the test counts the lines it finds */
    }
    close(fd);
}
