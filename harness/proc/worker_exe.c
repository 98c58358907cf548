/*
 * worker_exe.c - where the program of a slot's processes lives
 * (engine_worker_exe, wire/channel.h).  A file of its own so that the
 * sandbox's policy, which lets a worker read that program, depends on
 * nothing that spawns.  Depends on base/.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "base/base.h"
#include "worker_exe.h"

char *engine_worker_exe(void)
{
    static const char *const places[] = {"reshape-conform-worker",
                                         "../libexec/reshape-conform/reshape-conform-worker"};
    for (size_t k = 0; k < sizeof places / sizeof *places; k++) {
        char *p = path_join(exe_dir(), places[k]);
        if (access(p, X_OK) == 0)
            return p;
        free(p);
    }
    return xstrdup("/proc/self/exe");
}
