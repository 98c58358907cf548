/*
 * run_device.c - the device check of `run` (run_steps.h, device_check.h):
 * a candidate with a device whose first use fails here is not tested, and
 * the run says why and exits EXIT_SKIPPED.  Depends on run_steps.h.
 */
#include <stdio.h>

#include "base/base.h"
#include "run_steps.h"

/* The check's deadline: a driver's first initialisation may take seconds. */
#define DEVICE_CHECK_MIN_S 60.0

void run_check_device(engine *e, const char *candidate, const run_options *o, wire_probe *probe)
{
    device_status ds;
    double t = o->timeout_ms / 1000.0 > DEVICE_CHECK_MIN_S ? o->timeout_ms / 1000.0
                                                           : DEVICE_CHECK_MIN_S;
    device_check(candidate, o->sandbox, t, &ds);
    if (ds.state == DEVICE_USABLE) {
        snprintf(probe->device_name, sizeof probe->device_name, "%s", ds.name);
        return;
    }
    if (ds.state == DEVICE_CHECK_FAILED) {
        warn("could not check the candidate's device '%s' before the run: %s",
             probe->device_name, ds.why);
        return;
    }
    engine_stop(e);
    fprintf(stderr, "reshape-conform: skipped: the candidate's device '%s' is not available "
            "here: %s; nothing was tested\n", probe->device_name, ds.why);
    exit(EXIT_SKIPPED);
}
