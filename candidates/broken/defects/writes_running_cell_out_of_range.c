/*
 * writes_running_cell_out_of_range.c - on a src of dims [2, 5, 5, 24]
 * (OpenVINO Example 2, and more) execute writes 2^28 as the cell of the
 * running request into the batch page the worker shares with the harness,
 * then writes through a null pointer.  A harness that finds the running
 * request's cell (to read what its worker recorded of the fault) through
 * that number reads far outside its own cells.
 */
#define _GNU_SOURCE
#include "broken.h"
#include "hostile.h"

/* 0, out of the compiler's sight */
static volatile uintptr_t broken_null;

static void enter(const reshape_tensor *src, const reshape_tensor *dst)
{
    (void)dst;
    if (src->rank != 4 || src->dims[0] != 2 || src->dims[1] != 5 || src->dims[3] != 24)
        return;
    struct batch_page *b = batch_page_find();
    if (b) {
        int k = __atomic_load_n(&b->running, __ATOMIC_ACQUIRE);
        if (k >= 0 && k < BATCH_PAGE_CELLS)
            __atomic_store_n(&b->cells[k], 1 << 28, __ATOMIC_RELEASE);
    }
    *(volatile int *)(uintptr_t)broken_null = 1;
}

const struct broken_defect broken_defect = {
    .name = "writes_running_cell_out_of_range",
    .defect = "writes cell 2^28 for the running request into the batch page, then faults "
              "(src dims [2,5,x,24])",
    .expect = "CRASH",
    .hooks = {.enter = enter},
};
