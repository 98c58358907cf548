/*
 * pauses_ignoring_signals.c - every OpenVINO Reshape-1 shape with
 * special_zero true given to infer_shape (one entry point; execute is
 * right) makes the kernel ignore SIGTERM, SIGALRM and SIGINT and pause()
 * for good: a hang that only SIGKILL ends.
 */
#include <signal.h>
#include <unistd.h>

#include "broken.h"

static int special_zero(const reshape_params *params)
{
    if (params->op == RESHAPE_OP_OPENVINO_RESHAPE_1 && params->special_zero &&
        !broken_in_execute) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGALRM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
        for (;;)
            pause();
    }
    return params->special_zero;
}

const struct broken_defect broken_defect = {
    .name = "pauses_ignoring_signals",
    .defect = "ignores SIGTERM/SIGALRM/SIGINT, pause()s in infer_shape on OpenVINO special_zero",
    .expect = "TIMEOUT",
    .hooks = {.special_zero = special_zero},
};
