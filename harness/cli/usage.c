/*
 * usage.c - printing a command's --help (cli.h, cli_usage): the folders
 * its text names are this installation's, not placeholders.  Depends on
 * util.h (source_dir) and options.h (the default candidate).
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "run/run.h"
#include "cli.h"

void cli_usage(const char *text)
{
    static const char srcdir[] = "<srcdir>", reference[] = "<reference>";
    for (const char *p = text; *p;) {
        if (!strncmp(p, srcdir, sizeof srcdir - 1)) {
            fputs(source_dir(), stdout);
            p += sizeof srcdir - 1;
        } else if (!strncmp(p, reference, sizeof reference - 1)) {
            fputs(options_default_candidate(), stdout);
            p += sizeof reference - 1;
        } else {
            putchar(*p++);
        }
    }
}
