/*
 * ctor_child.c - correct, but its constructor forks a child that sleeps
 * for 10 minutes (a license daemon started when the library is loaded).
 * The process that loaded it says so (wire/channel.h, the hello's strays)
 * and the harness kills the child.
 */
#include <unistd.h>

__attribute__((constructor)) static void start_daemon(void)
{
    if (fork() == 0) {
        sleep(600);
        _exit(0);
    }
}

#include "base.h"
