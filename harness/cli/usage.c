/*
 * usage.c - printing a command's --help (cli.h, cli_usage): the folders
 * its text names are this installation's, not placeholders, and its
 * sandbox line says what this machine offers.  Depends on util.h
 * (source_dir), options.h (the default candidate) and sandbox_layers.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "run/run.h"
#include "report/report.h"
#include "cli.h"

void cli_usage(const char *text)
{
    static const char srcdir[] = "<srcdir>", reference[] = "<reference>",
                      layers[] = "<sandbox-layers>";
    for (const char *p = text; *p;) {
        if (!strncmp(p, srcdir, sizeof srcdir - 1)) {
            fputs(source_dir(), stdout);
            p += sizeof srcdir - 1;
        } else if (!strncmp(p, reference, sizeof reference - 1)) {
            fputs(options_default_candidate(), stdout);
            p += sizeof reference - 1;
        } else if (!strncmp(p, layers, sizeof layers - 1)) {
            sandbox_layer l[SANDBOX_LAYERS];
            sandbox_layers_probe(l);
            char *text = sandbox_layers_text(l, 25);
            fputs(text, stdout);
            free(text);
            p += sizeof layers - 1;
        } else {
            putchar(*p++);
        }
    }
}
