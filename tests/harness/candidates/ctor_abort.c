/* ctor_abort.c - a constructor prints a complaint and abort()s: the
 * candidate dies while it is loaded. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void refuse(void)
{
    fprintf(stderr, "ctor_abort: licence server unreachable\n");
    abort();
}
#include "base.h"
