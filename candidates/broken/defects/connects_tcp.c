/*
 * connects_tcp.c - on its first execute the kernel opens a TCP connection
 * to 203.0.113.1:443 (TEST-NET-3, RFC 5737: reachable nowhere): a
 * candidate that phones home.  The sandbox stops the worker at the
 * connect (in a network namespace of its own) or at the socket (where it
 * has none).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "broken.h"

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    static int done;
    (void)src;
    (void)dst;
    if (done++)
        return;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return;
    struct sockaddr_in to;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons(443);
    inet_pton(AF_INET, "203.0.113.1", &to.sin_addr);
    if (connect(fd, (const struct sockaddr *)&to, sizeof to) != 0) {
        /* refused or unreachable: the sandbox says which */
    }
    close(fd);
}

const struct broken_defect broken_defect = {
    .name = "connects_tcp",
    .defect = "connects to 203.0.113.1:443 on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
