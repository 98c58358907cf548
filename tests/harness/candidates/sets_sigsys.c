/* sets_sigsys.c - execute ignores SIGSYS on the trigger case, which would
 * take the sandbox's handler away: the sandbox stops the call. */
#include <signal.h>
#include <stddef.h>
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) signal(SIGSYS, SIG_IGN); } while (0)
#include "base.h"
