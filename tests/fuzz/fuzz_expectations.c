/*
 * fuzz_expectations.c - libFuzzer target: the expectations reader
 * (harness/judge/expectations_read.c, expectations_parse) on arbitrary
 * bytes: entries and "FILE:LINE:COL: message" lines, never a crash, leak
 * or undefined behaviour.  Seeds: tests/fuzz/corpus/expectations/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    expectations x;
    memset(&x, 0, sizeof x);
    strbuf errs;
    sb_init(&errs);
    expectations_parse(&x, "fuzz.yaml", (const char *)data, size, &errs);
    free(errs.s);
    expectations_free(&x);
    return 0;
}
