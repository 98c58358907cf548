/* exit0.c - calls exit(0) in execute on the trigger case. */
#define DEFECT_EXECUTE(p, src, dst) do { if (is_trigger(src)) exit(0); } while (0)
#include "base.h"
