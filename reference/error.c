/*
 * error.c - the calling thread's last error message.  Depends on libc only.
 *
 * The ABI's last_error() must return a string that stays valid until the
 * thread's next call into the candidate, and candidates are called from
 * several threads at once: one buffer per thread.
 */
#include <stdarg.h>
#include <stdio.h>

#include "reference.h"

static _Thread_local char message[256];

reshape_status reshape_ref_fail(reshape_status status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return status;
}

void reshape_ref_clear_error(void)
{
    message[0] = '\0';
}

const char *reshape_ref_last_error(void)
{
    return message[0] != '\0' ? message : NULL;
}
