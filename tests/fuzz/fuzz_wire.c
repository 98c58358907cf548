/*
 * fuzz_wire.c - libFuzzer target: the parent's side of the worker wire
 * protocol fed hostile worker replies.  A job of tests/harness/data/basic
 * is staged into an arena as a run stages it (stage_job); then the input
 * plays a worker that answers anything: it chooses the job and how the
 * request ended (answered, died with a wait status, timed out, flooded,
 * with the output's first bytes), and overwrites the response record
 * (statuses, out_rank, fault address, memory samples, thread slots and
 * statuses, last_error), the out page (out_dims) and the dst area with its
 * bytes.  judge_job must give a verdict for every reply: never a crash,
 * read out of bounds, leak or undefined behaviour (ASan+UBSan).
 *
 * Input: [job index][kind][4 bytes wstatus][output head length] then the
 * bytes written over response, out page, dst area, output head, in order.
 * Runs from the repository root (make fuzz).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"
#include "engine/engine.h"
#include "judge/judge.h"
#include "run/run.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static case_set set;
static job *jobs;
static int njobs;
static arena ar;
static stage stages[2];         /* a small cell's and the big cell's */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *paths[] = {"tests/harness/data/basic", "tests/harness/data/extremes"};
    case_set_load(&set, paths, 2);
    if (set.ncases == 0)
        abort();
    int *sel = malloc((size_t)set.ncases * sizeof *sel);
    for (int i = 0; i < set.ncases; i++)
        sel[i] = i;
    jobs = plan_jobs(&set, sel, set.ncases, (1u << V_COUNT) - 1, 1u << 20, &njobs);
    free(sel);
    size_t src_need = 4096, dst_need = 4096;
    for (int i = 0; i < njobs; i++) {
        size_t s, d;
        job_needs(&jobs[i], &set, &s, &d);
        src_need = s > src_need ? s : src_need;
        dst_need = d > dst_need ? d : dst_need;
    }
    if (arena_create(&ar, src_need, dst_need) != 0)
        abort();
    return 0;
}

/* Copies up to `room` bytes of the input at *at to `to`; returns how many. */
static size_t take(void *to, size_t room, const uint8_t *data, size_t size, size_t *at)
{
    size_t n = size - *at < room ? size - *at : room;
    memcpy(to, data + *at, n);
    *at += n;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 7 || njobs == 0)
        return 0;
    const job *j = &jobs[data[0] % njobs];
    int big = !job_fits_small(j, &set);
    const cell *cl = &ar.cells[big ? ARENA_BIG : 0];
    stage *s = &stages[big];
    stage_job(s, &ar, cl, &set, j, 1, 1);

    completion d;
    memset(&d, 0, sizeof d);
    d.kind = (done_kind)(data[1] % 4);
    d.n = 1;
    d.at = d.kind == DONE_OK ? 1 : 0;
    memcpy(&d.wstatus, data + 2, sizeof d.wstatus);
    size_t head = data[6] % (ENGINE_OUTPUT_HEAD + 1);
    d.output_bytes = head;
    size_t at = 7;
    take(arena_response(cl, ar.pview), sizeof(wire_response), data, size, &at);
    take(ar.pview + cl->out_off, ar.page, data, size, &at);
    take(ar.pview + cl->dst_off, cl->dst_size, data, size, &at);
    size_t got = take(d.output_head, head, data, size, &at);
    d.output_head[got] = '\0';

    result out[WIRE_THREADS];
    stage_map_back(s, &ar);
    int n = judge_job(s, &ar, &d, data[1] & 0x80, 10000, out);
    if (n < 1 || n > WIRE_THREADS)
        abort();
    for (int i = 0; i < n; i++) {
        free(out[i].detail);
        free(out[i].got);
    }
    return 0;
}
