/*
 * connects_abstract_socket.c - on its first execute the kernel connects to
 * the abstract Unix socket @reshape-hostile-probe, which no file system
 * names: a host service reached past the file system's rules.  Landlock (ABI
 * 6) scopes abstract sockets; the observer stops the worker for trying.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stddef.h>
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
    struct sockaddr_un un = {.sun_family = AF_UNIX};
    static const char name[] = "reshape-hostile-probe";
    memcpy(un.sun_path + 1, name, sizeof name - 1);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0)
        return;
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + sizeof name - 1);
    if (connect(s, (const struct sockaddr *)&un, len) == 0 && write(s, "forged\n", 7) < 0) {
        /* the attempt is the finding */
    }
    close(s);
}

const struct broken_defect broken_defect = {
    .name = "connects_abstract_socket",
    .defect = "connects to the abstract Unix socket @reshape-hostile-probe on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
