/* leak.c - allocates 64 bytes in every execute and never frees them. */
static void *volatile leaked;
#define DEFECT_EXECUTE(p, src, dst) do { leaked = malloc(64); } while (0)
#include "base.h"
