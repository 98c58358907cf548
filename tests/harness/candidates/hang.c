/* hang.c - never returns from execute on the trigger case. */
#include <unistd.h>
#define DEFECT_EXECUTE(p, src, dst) do { if (is_trigger(src)) for (;;) pause(); } while (0)
#include "base.h"
