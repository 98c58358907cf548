/*
 * fuzz_baseline.c - libFuzzer target: the baseline reader
 * (harness/report/baseline.c, baseline_parse) on arbitrary bytes: a
 * baseline or one error message, never a crash, leak or undefined behaviour.  Seeds:
 * tests/fuzz/corpus/baseline/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    baseline b;
    char *err = NULL;
    if (baseline_parse(&b, "fuzz.json", (const char *)data, size, &err) == 0)
        baseline_free(&b);
    else
        free(err);
    return 0;
}
