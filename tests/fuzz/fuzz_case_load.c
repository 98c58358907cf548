/*
 * fuzz_case_load.c - libFuzzer target: the YAML case loader
 * (harness/suite/case_load.c, case_load_text) on arbitrary bytes.  Every
 * input must end in cases and load errors, never a crash, a leak or undefined
 * behaviour (ASan+UBSan).  Seeds: cases/ and tests/harness/data/.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "suite/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    case_set set;
    memset(&set, 0, sizeof set);
    case_load_text(&set, "fuzz.yaml", (const char *)data, size);
    case_set_free(&set);
    return 0;
}
