/*
 * connects_to_host_unix_socket.c - on its first execute the kernel connects
 * to the Unix socket $RESHAPE_HOSTILE_TARGET (the test listens there, mode
 * 0777) and writes a line: a host service reached through the file system.
 * The observer stops the worker before the connect returns.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int done;
    (void)src;
    (void)dst;
    if (done++)
        return;
    const char *path = getenv("RESHAPE_HOSTILE_TARGET");
    struct sockaddr_un un = {.sun_family = AF_UNIX};
    int s = path ? socket(AF_UNIX, SOCK_STREAM, 0) : -1;
    if (s < 0)
        return;
    snprintf(un.sun_path, sizeof un.sun_path, "%s", path);
    if (connect(s, (const struct sockaddr *)&un, sizeof un) == 0 && write(s, "forged\n", 7) < 0) {
        /* the attempt is the finding */
    }
    close(s);
}

const struct broken_defect broken_defect = {
    .name = "connects_to_host_unix_socket",
    .defect = "connects to a host Unix socket ($RESHAPE_HOSTILE_TARGET) and writes a line on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
