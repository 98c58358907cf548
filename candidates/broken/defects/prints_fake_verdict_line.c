/*
 * prints_fake_verdict_line.c - the library's constructor prints the
 * harness's own summary line of a conformant run, on stdout and stderr,
 * then exits: the harness quotes what a candidate printed while loading
 * in its load error, and a quoted line must never read as the harness's
 * own (each is prefixed "candidate: ").
 */
#include <stdio.h>
#include <stdlib.h>

#include "broken.h"

static void load(void)
{
    static const char line[] = "conformant: 9999 runs of 999 cases in 0.01 s: 9999 PASS\n";
    fputs(line, stdout);
    fputs(line, stderr);
    fflush(stdout);
    exit(0);
}

const struct broken_defect broken_defect = {
    .name = "prints_fake_verdict_line",
    .defect = "prints a forged 'conformant: ...' summary line from a constructor, then exits",
    .expect = "CRASH",
    .hooks = {.load = load},
};
