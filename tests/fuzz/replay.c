/*
 * replay.c - runs a fuzz target's entry point (LLVMFuzzerTestOneInput)
 * over the files named on the command line, without libFuzzer: built with
 * gcc under ASan+UBSan into build/san/fuzz-replay/<target>, it is how
 * `make test` replays every committed seed and regression input
 * (tests/fuzz/regressions_test.c).  Prints one line per file it cannot
 * read and exits 2 then; a sanitizer report aborts it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        size_t len;
        char *data = read_file(argv[i], &len);
        if (!data) {
            fprintf(stderr, "replay: cannot read '%s'\n", argv[i]);
            bad = 1;
            continue;
        }
        LLVMFuzzerTestOneInput((const uint8_t *)data, len);
        free(data);
    }
    return bad ? 2 : 0;
}
