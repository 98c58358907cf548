/*
 * device_worker.c - `reshape-conform __device CANDIDATE SANDBOX`, the
 * device check's process (worker.h; the parent's side is
 * engine/device_check.c): a child subreaper, with the seccomp filter when
 * SANDBOX is 1, loads the candidate, makes its device's first use
 * (exec_device_try) and writes one JSON line on DEVICE_CHECK_FD
 * (wire/channel.h).  Depends on worker.h, exec_device.h, util.h, jansson.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "exec_device.h"
#include "worker.h"

static void put(json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (s && write(DEVICE_CHECK_FD, s, strlen(s)) < 0) {
        /* the parent is gone: nothing to tell */
    }
    free(s);
}

int cmd_device_worker(int argc, char **argv)
{
    if (argc != 3)
        die(EXIT_USAGE, "__device: usage: __device CANDIDATE SANDBOX");
    wire_probe probe;
    memset(&probe, 0, sizeof probe);
    char why[512];
    if (reaper_become_subreaper() != 0 ||
        (!strcmp(argv[2], "1") && sandbox_install(probe.message, sizeof probe.message))) {
        put(json_pack("{s:s}", "why", *probe.message ? probe.message
                      : "cannot make the check a child subreaper"));
        return EXIT_HARNESS;
    }
    const reshape_candidate *t = candidate_open(argv[1], &probe);
    if (!t || !exec_device(t)) {
        put(json_pack("{s:s}", "why", t ? "the candidate has no device" : probe.message));
        return EXIT_NONCONFORMANT;
    }
    if (exec_device_try(t, why, sizeof why) != 0) {
        put(json_pack("{s:b, s:s}", "usable", 0, "why", why));
        return EXIT_CONFORMANT;
    }
    put(json_pack("{s:b, s:s}", "usable", 1, "name", exec_device(t)->name));
    return EXIT_CONFORMANT;
}
