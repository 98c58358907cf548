/*
 * followup.h - what an error case's wrongly accepted shape would do: when
 * `infer_shape` returns OK for a case that expects only errors
 * (ACCEPTED_INVALID on `infer`), `execute` is called once more, on the
 * case's input, into a dense dst of the dims the candidate inferred, so
 * that a kernel that accepts a bad shape and would then crash writing it
 * shows the crash (its own `dense` call got a dst of the input's dims,
 * which it may refuse).  The outcome is merged into the `infer` entry
 * (docs/harness/verdicts.md, "How a verdict is reached").  Depends on stage.h,
 * worker.h and job.h.
 */
#ifndef HARNESS_FOLLOWUP_H
#define HARNESS_FOLLOWUP_H

#include <stdint.h>

#include "engine/engine.h"
#include "judge/judge.h"

/* An `infer` entry to follow up: its case and the dims inferred. */
typedef struct followup {
    int case_index;
    uint32_t seq;               /* the infer job's; the follow-up's is derived */
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
} followup;

/*
 * Nonzero when result `r` of the job staged in `s` (judged from arena `a`)
 * calls for a follow-up: an `infer` entry that is ACCEPTED_INVALID for a
 * case without an abuse; then `f` holds the dims from the cell's out page
 * (read before the cell is used again).
 */
int followup_wanted(const stage *s, const arena *a, const result *r, followup *f);

/*
 * Runs follow-up `f` in slot `i` of `e` (idle; its batch has ended),
 * staged through `stages` (the slot's, indexed by cell: a small cell when
 * src and dst fit one, else the big cell), and merges its outcome into
 * `r`, the `infer` entry: a CRASH, MEMORY_VIOLATION, TIMEOUT, FLOOD, LEAK
 * or FAIL of that call becomes the entry's verdict, its detail saying so
 * ("execute into the dims infer_shape returned, [4,6]: SIGSEGV at address
 * 0x10 in execute; infer_shape returned OK, expected error OVERFLOW");
 * anything else (OK, an error, NOT_SUPPORTED, or a dst that has a negative
 * dim or does not fit the cells this run stages) leaves ACCEPTED_INVALID
 * and is added to its detail.  The call is judged without --strict-errors
 * (which error it returns is the `dense` entry's matter); `timeout_ms` is
 * for the detail, `seed` seeds the canaries.  Exits with EXIT_HARNESS when
 * no worker can be started.
 */
void followup_run(engine *e, int i, stage *stages, const case_set *set, const followup *f,
                  int timeout_ms, uint64_t seed, result *r);

#endif
