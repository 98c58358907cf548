/*
 * verify_problem.c - the problem lines of `verify` (verify.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "verify.h"

void verify_problem(checker *k, const char *name, const char *fmt, ...)
{
    va_list ap;
    printf("problem: %s: ", name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    k->problems++;
}
