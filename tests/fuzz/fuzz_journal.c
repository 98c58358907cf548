/*
 * fuzz_journal.c - libFuzzer target: the journal reader
 * (harness/report/journal_read.c, journal_parse) on arbitrary bytes:
 * entries and a torn tail, or one "PATH:LINE: message", never a crash, leak or
 * undefined behaviour.  Also checks what it promises: good_len ends a
 * line, and a torn tail is exactly the bytes after it.  Seeds:
 * tests/fuzz/corpus/journal/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    journal j;
    char *err = NULL;
    if (journal_parse(&j, "fuzz.jsonl", (const char *)data, size, &err) != 0) {
        free(err);
        return 0;
    }
    if (j.good_len > size || (j.good_len && data[j.good_len - 1] != '\n') ||
        (j.torn_line ? j.good_len + j.torn_bytes != size : j.good_len != size))
        abort();
    journal_free(&j);
    return 0;
}
