/*
 * verify_problem.c - the problem lines of `verify` (verify.h).  A bundle
 * is hostile input: its strings reach the terminal only through
 * sanitize_text().  Depends on util.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"
#include "verify.h"

void verify_problem(checker *k, const char *name, const char *fmt, ...)
{
    strbuf b;
    va_list ap;
    sb_init(&b);
    va_start(ap, fmt);
    sb_vaddf(&b, fmt, ap);
    va_end(ap);
    char *msg = sb_take(&b);
    sanitize_text(msg);
    printf("problem: %s: %s\n", name, msg);
    free(msg);
    k->problems++;
}
