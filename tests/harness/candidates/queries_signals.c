/* queries_signals.c - execute asks the action of every signal, SIGSYS
 * included, on the trigger case, as CPython's signal module does at import
 * (sigaction with no new action): allowed by the sandbox, so the run is
 * conformant. */
#include <signal.h>
#include <stddef.h>
#define DEFECT_EXECUTE(p, src, dst) \
    do { \
        if (is_trigger(src)) \
            for (int sig = 1; sig < NSIG; sig++) { \
                struct sigaction old; \
                if (sigaction(sig, NULL, &old) != 0 && sig != 32 && sig != 33) \
                    return RESHAPE_E_INTERNAL; \
            } \
    } while (0)
#include "base.h"
