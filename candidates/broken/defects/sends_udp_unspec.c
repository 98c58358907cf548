/*
 * sends_udp_unspec.c - on its first execute the kernel sends a UDP datagram
 * to an address of family AF_UNSPEC, a way some stacks take to the default
 * route.  The network namespace has none; the observer stops the worker for
 * trying.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <arpa/inet.h>
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
    struct sockaddr_in to;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_UNSPEC;
    to.sin_port = htons(53);
    to.sin_addr.s_addr = htonl(0xcb007101);   /* 203.0.113.1 */
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    if (s < 0)
        return;
    if (sendto(s, "probe", 5, 0, (const struct sockaddr *)&to, sizeof to) < 0) {
        /* the attempt is the finding */
    }
    close(s);
}

const struct broken_defect broken_defect = {
    .name = "sends_udp_unspec",
    .defect = "sends a UDP datagram to an AF_UNSPEC address on its first execute",
    .expect = "CRASH",
    .faults_on_most_cases = 1,      /* every fresh worker's first execute */
    .hooks = {.enter = enter},
};
