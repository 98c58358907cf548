/*
 * fuzz_candidate.c - libFuzzer target: a candidate against the reference,
 * the way `reshape-conform fuzz` does it, for days of fuzzing on
 * ClusterFuzzLite or OSS-Fuzz (.clusterfuzzlite/, docs/fuzzing.md,
 * "Fuzzing at scale").  Each input is one request: written field by field
 * (a case of
 * the suite is one: the seed corpus), or, when its first byte has bit 7
 * set, the seed of fuzz's own request generator (fuzz_generate).  Its
 * expected outcome is the reference's (fuzz_expect, the reference loaded
 * in this process); the candidate runs it in every one-call variant in a
 * sandboxed worker of the harness's engine, and the harness's judge
 * decides (schedule_run).  A verdict that counts against conformance is a
 * finding: the target prints it and aborts, so libFuzzer keeps the input.
 *
 * Environment:
 *   RESHAPE_FUZZ_CANDIDATE   the candidate .so (default: FUZZ_CANDIDATE, a
 *                            build flag, else the reference); a relative
 *                            name is looked up beside this binary first
 *   RESHAPE_FUZZ_REFERENCE   the reference .so (default: libreshape_ref.so
 *                            beside this binary, else build/)
 *   RESHAPE_FUZZ_TIMEOUT_MS  the full budget of a request (default 2000)
 *   RESHAPE_FUZZ_CASES=DIR   findings are written to DIR as YAML cases
 *                            (case_write.c) instead of aborting: how the
 *                            inputs libFuzzer kept become cases
 *   RESHAPE_FUZZ_SEEDS=DIR   writes the cases of RESHAPE_FUZZ_SEEDS_FROM
 *                            (default cases/) into DIR as inputs, then exits
 *
 * Input (little-endian): [mode|op][dtype][flags][rank][nvalues] then rank
 * int64 dims and nvalues int64 shape values; flags bit 0 special_zero,
 * bit 1 a rank-0 shape tensor, bits 4-6 the shape dtype (shape_dtypes[]).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "suite/suite.h"
#include "engine/engine.h"
#include "worker/worker.h"
#include "judge/judge.h"
#include "run/run.h"
#include "fuzz/fuzz.h"

#ifndef FUZZ_CANDIDATE
#define FUZZ_CANDIDATE NULL
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEADER 5
#define MODE_GENERATOR 0x80

static const reshape_dtype shape_dtypes[8] = {
    RESHAPE_DT_S64, RESHAPE_DT_S32, RESHAPE_DT_S16, RESHAPE_DT_S8,
    RESHAPE_DT_U64, RESHAPE_DT_U32, RESHAPE_DT_U16, RESHAPE_DT_U8};

static const reshape_candidate *ref;
static engine *eng;
static char *ref_path, *cand_path;     /* kept for the process's life */
static const char *cases_dir;
static int timeout_ms = 2000;

/* `name` beside this binary when it is a bare name found there, else
 * `name` itself.  New string. */
static char *beside_me(const char *name)
{
    if (!strchr(name, '/')) {
        char *p = path_join(exe_dir(), name);
        if (access(p, R_OK) == 0)
            return p;
        free(p);
    }
    return xstrdup(name);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

/* The request of input data[0..size) into `c`: 0, or -1 when it is none
 * (too short, a negative dim, a value its shape dtype cannot hold, a
 * volume past int64, or one the reference has no answer for). */
static int decode(const uint8_t *data, size_t size, rcase *c)
{
    memset(c, 0, sizeof *c);
    if (size >= 9 && (data[0] & MODE_GENERATOR)) {
        fuzz_generate(c, le64(data + 1), 0);
        free(c->id);
    } else {
        if (size < HEADER)
            return -1;
        c->op = (reshape_op)(1 + data[0] % RESHAPE_OP_COUNT);
        c->dtype = (reshape_dtype)(1 + data[1] % RESHAPE_DT_COUNT);
        c->special_zero = data[2] & 1;
        c->shape_rank = data[2] & 2 ? 0 : 1;
        c->shape_dtype = shape_dtypes[(data[2] >> 4) & 7];
        c->rank = data[3] % (RESHAPE_MAX_RANK + 1);
        c->nvalues = data[4] % 17;
        if (size < HEADER + 8 * (size_t)(c->rank + c->nvalues))
            return -1;
        for (int i = 0; i < c->rank; i++)
            if ((c->dims[i] = (int64_t)le64(data + HEADER + 8 * i)) < 0)
                return -1;
        for (int i = 0; i < c->nvalues; i++)
            c->values[i] = le64(data + HEADER + 8 * (c->rank + i));
        c->data.kind = FILL_RANDOM;
        c->data.seed = fnv1a(data, size);
        if (fuzz_finish(c) != 0)
            return -1;
    }
    c->clause = c->quote = c->note = "";
    c->file = "fuzz_candidate";
    return fuzz_expect(c, ref);
}

/* Case `c` as an input of the format above, into out[]; its length, or 0
 * when it has none (a contract case, a shape dtype outside the table). */
static size_t encode(const rcase *c, uint8_t *out)
{
    int sd = 0;
    while (sd < 8 && shape_dtypes[sd] != c->shape_dtype)
        sd++;
    if (c->abuse || sd == 8 || c->nvalues > 16 || c->rank > RESHAPE_MAX_RANK)
        return 0;
    out[0] = (uint8_t)(c->op - 1);
    out[1] = (uint8_t)(c->dtype - 1);
    out[2] = (uint8_t)((c->special_zero ? 1 : 0) | (c->shape_rank == 0 ? 2 : 0) | sd << 4);
    out[3] = (uint8_t)c->rank;
    out[4] = (uint8_t)c->nvalues;
    size_t n = HEADER;
    for (int i = 0; i < c->rank + c->nvalues; i++) {
        uint64_t v = i < c->rank ? (uint64_t)c->dims[i] : c->values[i - c->rank];
        for (int b = 0; b < 8; b++)
            out[n++] = (uint8_t)(v >> (8 * b));
    }
    return n;
}

/* RESHAPE_FUZZ_SEEDS: every case of the suite as an input file. */
static int write_seeds(const char *dir)
{
    const char *from = getenv("RESHAPE_FUZZ_SEEDS_FROM");
    const char *paths[] = {from && *from ? from : "cases"};
    case_set set;
    memset(&set, 0, sizeof set);
    case_set_load(&set, paths, 1);
    int written = 0;
    for (int i = 0; i < set.ncases; i++) {
        uint8_t buf[HEADER + 8 * (RESHAPE_MAX_RANK + 16)];
        size_t n = encode(&set.cases[i], buf);
        char *name = xasprintf("%s/%s", dir, set.cases[i].id);
        FILE *f = n ? fopen(name, "wb") : NULL;
        if (f && fwrite(buf, 1, n, f) == n)
            written++;
        if (f)
            fclose(f);
        free(name);
    }
    printf("fuzz_candidate: %d seeds from %d cases of %s into %s\n", written, set.ncases,
           paths[0], dir);
    case_set_free(&set);
    return written ? 0 : 1;
}

/* The policy of the candidate's sandbox, whose scratch folder this
 * process removes as it exits (libFuzzer ends with exit()); a process
 * forked from it inherits the handler, not the folder. */
static sandbox_policy sb;
static pid_t sb_owner;

static void drop_scratch(void)
{
    if (getpid() == sb_owner)
        sandbox_policy_free(&sb);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    /* the engine starts its workers as this binary (wire/channel.h) */
    if (*argc > 1 && !strcmp((*argv)[1], "__worker"))
        exit(cmd_worker(*argc - 1, *argv + 1));
    const char *seeds = getenv("RESHAPE_FUZZ_SEEDS");
    const char *v = getenv("RESHAPE_FUZZ_REFERENCE");
    ref_path = beside_me(v && *v ? v : "libreshape_ref.so");
    if (access(ref_path, R_OK) != 0) {
        free(ref_path);
        ref_path = xstrdup("build/libreshape_ref.so");
    }
    wire_probe probe;
    if (!(ref = candidate_open(ref_path, &probe)))
        die(EXIT_HARNESS, "fuzz_candidate: cannot load the reference '%s': %s", ref_path,
            probe.message);
    if (seeds && *seeds)
        exit(write_seeds(seeds));
    v = getenv("RESHAPE_FUZZ_CANDIDATE");
    cand_path = v && *v ? beside_me(v) : FUZZ_CANDIDATE ? beside_me(FUZZ_CANDIDATE) : ref_path;
    if ((v = getenv("RESHAPE_FUZZ_TIMEOUT_MS")) && atoi(v) > 0)
        timeout_ms = atoi(v);
    cases_dir = getenv("RESHAPE_FUZZ_CASES");
    char *err = NULL;
    char real[4096];
    if (!realpath(cand_path, real))
        die(EXIT_HARNESS, "fuzz_candidate: cannot read candidate '%s'", cand_path);
    /* the candidate confined as in a run */
    sandbox_spec spec = {NULL, 0, NULL, 0, NULL, 0, 0};
    if (sandbox_policy_make(&sb, real, &spec, &err) != 0)
        die(EXIT_HARNESS, "fuzz_candidate: %s", err);
    sb_owner = getpid();
    atexit(drop_scratch);
    eng = engine_start(ISO_WORKER, 1, real, timeout_ms, &sb, 1 << 16, 1 << 16, &probe, &err);
    if (!eng)
        die(EXIT_HARNESS, "fuzz_candidate: %s", err);
    fprintf(stderr, "fuzz_candidate: %s against the reference %s\n", real, ref_path);
    return 0;
}

/* The results of one input that count against conformance. */
typedef struct findings {
    result r[V_COUNT * WIRE_THREADS];
    int n;
} findings;

static void keep(void *ctx, result *r)
{
    findings *f = ctx;
    if (verdict_counts_against(r->vd) && f->n < (int)(sizeof f->r / sizeof *f->r)) {
        f->r[f->n++] = *r;
        return;
    }
    free(r->detail);
    free(r->got);
}

/* Writes finding `r` of `c` into cases_dir as a YAML case. */
static void write_case(rcase *c, const result *r, uint64_t hash)
{
    char *id = xasprintf("fuzz_candidate_%016llx", (unsigned long long)hash);
    char *file = xasprintf("%s/%s.yaml", cases_dir, id);
    char *header = xasprintf("found by the libFuzzer target fuzz_candidate against %s; in %s "
                             "the candidate gave %s: %s", cand_path, variant_name(r->v),
                             verdict_name(r->vd), r->detail ? r->detail : "");
    sanitize_text(header);
    c->id = id;
    FILE *out = fopen(file, "w");
    if (!out || case_write_yaml(out, c, header) != 0 || fclose(out) != 0)
        die(EXIT_HARNESS, "fuzz_candidate: cannot write '%s'", file);
    printf("%s: %s in %s\n", file, verdict_name(r->vd), variant_name(r->v));
    free(header);
    free(file);
    free(id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rcase c;
    if (decode(data, size, &c) != 0)
        return 0;
    c.id = "fuzz_candidate";
    case_set set;
    memset(&set, 0, sizeof set);
    set.cases = &c;
    set.ncases = 1;
    int sel = 0, njobs;
    unsigned one_call = ((1u << V_COUNT) - 1) & ~(1u << V_THREADS) & ~(1u << V_REPEAT);
    job *jobs = plan_jobs(&set, &sel, 1, one_call, FUZZ_MAX_PAYLOAD, &njobs);
    static findings f;
    f.n = 0;
    schedule_run(eng, &set, jobs, njobs, 0, timeout_ms, 1, engine_slots(eng), keep, &f);
    free(jobs);
    for (int i = 0; i < f.n; i++)
        fprintf(stderr, "fuzz_candidate: %s in %s: %s (expected %s, got %s)\n",
                verdict_name(f.r[i].vd), variant_name(f.r[i].v), f.r[i].detail,
                c.outcomes[0].is_error ? reshape_status_name(c.outcomes[0].error) : "a shape",
                f.r[i].got ? f.r[i].got : "");
    if (f.n && cases_dir)
        write_case(&c, &f.r[0], fnv1a(data, size));
    int found = f.n;
    for (int i = 0; i < f.n; i++) {
        free(f.r[i].detail);
        free(f.r[i].got);
    }
    if (found && !cases_dir)
        abort();        /* a finding: libFuzzer keeps the input */
    return 0;
}
