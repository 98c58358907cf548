/*
 * test_fuzz_layouts.c - `reshape-conform fuzz` generates the layouts of
 * reference/DECISIONS.md D12 (fuzz_layout.c, and the broadcast_src and
 * size1_strides variants on every request): within 1,000 requests it finds
 * a kernel that reads a broadcast src as dense, one that refuses a size-1
 * dim with a stride of 2^58, and one that writes an overlapping dst; each
 * case it writes loads, the reference passes it and the kernel fails it.
 */
#include <dirent.h>

#include "engine/engine.h"
#include "worker/worker.h"
#include "fuzz/fuzz.h"
#include "run_harness.h"

#define BROKEN "build/broken/"

/* How many case files in `dir` hold `text`; *files counts them all. */
static int holding(const char *dir, const char *text, int *files)
{
    DIR *d = opendir(dir);
    char path[512];
    struct dirent *e;
    int n = 0;
    *files = 0;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".yaml")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            char *yaml = slurp(path);
            n += strstr(yaml, text) != NULL;
            ++*files;
            free(yaml);
        }
    if (d)
        closedir(d);
    return n;
}

/* Fuzzes `name` for 1,000 requests; asserts it is caught as `kind`, a
 * case written holding `holds` (up to 4 are written: which kinds come
 * first depends on the order the slots finish in), and the reference
 * passes the cases written and `name` fails them. */
static void finds(const char *name, const char *kind, const char *holds)
{
    char dir[64], cmd[1024], path[128];
    temp_template(dir, sizeof dir, "/tmp/fuzz-layout-");
    cr_assert(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "NO_COLOR=1 %s fuzz --candidate " BROKEN "%s.so --count 1000 "
             "--seed 4 --max-cases 4 --jobs 2 --out %s/cases >%s/out 2>&1 </dev/null",
             harness_bin(), name, dir, dir);
    int st = system(cmd);
    snprintf(path, sizeof path, "%s/out", dir);
    char *out = slurp(path);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s", out);
    cr_expect(strstr(out, kind), "%s", out);
    free(out);
    snprintf(path, sizeof path, "%s/cases", dir);
    int files;
    cr_expect_gt(holding(path, holds, &files), 0, "no case of %d holds '%s'", files, holds);
    run ref = run_harness("--quiet --jobs 2 --strict-errors --cases %s", path);
    cr_expect_eq(ref.code, 0, "the reference fails the case: %s", ref.out);
    run bad = run_harness("--quiet --jobs 2 --candidate " BROKEN "%s.so --cases %s", name, path);
    cr_expect_eq(bad.code, 1, "%s", bad.out);
    run_free(&ref);
    run_free(&bad);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(fuzz_layouts, a_broadcast_src_read_as_dense_is_found, .timeout = 120)
{
    finds("broadcast_read_as_dense", "FAIL: bytes differ", "expect: {shape: [");
}

Test(fuzz_layouts, a_size1_stride_refuser_is_found, .timeout = 120)
{
    finds("size1_stride_refused", "in size1_strides", "expect: {shape: [");
}

Test(fuzz_layouts, an_overlapping_dst_written_is_found, .timeout = 120)
{
    finds("aliasing_dst_written", "MEMORY_VIOLATION", "expect: {error: INVALID_ARGUMENT}");
}

/* Of 4,000 requests, those fuzz_layout gives a layout: broadcast srcs,
 * strides on dims of 1, and overlapping dsts expecting INVALID_ARGUMENT,
 * each a few dozen times; every one a case the loader's rules accept. */
Test(fuzz_layouts, requests_carry_every_layout)
{
    wire_probe probe;
    const reshape_candidate *ref = candidate_open("build/libreshape_ref.so", &probe);
    cr_assert(ref, "%s", probe.message);
    int broadcast = 0, size1 = 0, aliasing = 0;
    for (uint64_t seed = 1; seed <= 4000; seed++) {
        rcase c;
        fuzz_generate(&c, seed, 0);
        if (fuzz_expect(&c, ref) == 0 && case_has_layout(&c)) {
            const outcome *o = &c.outcomes[0];
            int zero = 0;
            for (int32_t i = 0; c.src_layout.strided && i < c.rank; i++)
                zero |= c.src_layout.strides[i] == 0 && c.dims[i] > 1;
            broadcast += zero;
            size1 += !zero && !c.dst_has_dims;
            aliasing += c.dst_has_dims && o->is_error && o->error == RESHAPE_E_INVALID_ARGUMENT;
            int overlaps = c.dst_layout.strided &&
                           strided_overlaps(c.dst_rank, c.dst_dims, c.dst_layout.strides);
            cr_expect_eq(overlaps, c.dst_has_dims, "%s: dst overlaps iff an error is expected",
                         c.id);
            cr_expect_leq(c.layout_bytes, FUZZ_MAX_PAYLOAD * 2, "%s", c.id);
        }
        free(c.id);
    }
    cr_expect_gt(broadcast, 20);
    cr_expect_gt(size1, 20);
    cr_expect_gt(aliasing, 20);
}
