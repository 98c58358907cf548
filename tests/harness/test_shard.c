/*
 * test_shard.c - the N shards of a run, merged, are the run: for N = 1..7,
 * `--shard 1/N` .. `--shard N/N` of a broken candidate merged with
 * `merge` give the same entries (every field), summary, matrices,
 * findings and verdict as one run over the same cases, `threads` and
 * `repeat` included (their picks are made over the whole run).  A
 * `threads` entry's detail counts the calls made within a time budget,
 * which no two runs need share: its detail and got are left out.
 */
#include "run_harness.h"

#define SHARD_CASES "--cases cases/onnx_reshape_14.yaml --cases cases/openvino_reshape_1.yaml " \
                    "--candidate build/broken/special_zero_ignored.so"

/* The parts of a report that must not depend on how the run was split. */
static const char *const same[] = {"cases", "summary", "matrices", "findings", "verdict"};

/* Drops detail and got of the threads entries and findings examples of
 * report `r` (both timed). */
static void untime(json_t *r)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r, "cases"), i, e)
        if (!strcmp(field(e, "variant"), "threads")) {
            json_object_del(e, "detail");
            json_object_del(e, "got");
        }
    json_array_foreach(json_object_get(r, "findings"), i, e) {
        json_t *x = json_object_get(e, "example");
        if (!strcmp(field(x, "variant"), "threads")) {
            json_object_del(x, "detail");
            json_object_del(x, "got");
        }
    }
}

/* How many entries of report `r` have variant `v`. */
static int count_variant(json_t *r, const char *v)
{
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r, "cases"), i, e)
        n += !strcmp(field(e, "variant"), v);
    return n;
}

Test(shard, n_shards_merged_are_the_whole_run, .timeout = 300)
{
    run whole = run_harness(SHARD_CASES " --quiet");
    cr_assert_not_null(whole.report, "%s", whole.err);
    cr_assert_gt(count_variant(whole.report, "threads"), 0, "no threads entries");
    cr_assert_gt(count_variant(whole.report, "repeat"), 0, "no repeat entries");
    untime(whole.report);
    char dir[64];
    temp_template(dir, sizeof dir, "/tmp/shard-test-");
    cr_assert(mkdtemp(dir));
    for (int n = 1; n <= 7; n++) {
        char files[1024] = "";
        for (int k = 1; k <= n; k++) {
            run s = run_harness(SHARD_CASES " --quiet --shard %d/%d", k, n);
            cr_assert_not_null(s.report, "shard %d/%d: %s", k, n, s.err);
            char path[128];
            snprintf(path, sizeof path, "%s/%d.json", dir, k);
            cr_assert_eq(json_dump_file(s.report, path, 0), 0);
            size_t len = strlen(files);
            snprintf(files + len, sizeof files - len, " %s", path);
            run_free(&s);
        }
        char cmd[2048], out[128];
        snprintf(out, sizeof out, "%s/merged.json", dir);
        snprintf(cmd, sizeof cmd, "%s merge%s -o %s >/dev/null", harness_bin(), files, out);
        int st = system(cmd);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) <= 1, "'%s' failed", cmd);
        json_error_t je;
        json_t *m = json_load_file(out, 0, &je);
        cr_assert_not_null(m, "%s: %s", out, je.text);
        untime(m);
        for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
            json_t *a = json_object_get(whole.report, same[i]), *b = json_object_get(m, same[i]);
            if (!json_equal(a, b)) {
                char *x = json_dumps(a, JSON_COMPACT), *y = json_dumps(b, JSON_COMPACT);
                cr_expect_fail("%d shards: '%s' differs: %zu entries merged, %zu in the whole "
                               "run (%.300s ... against %.300s ...)", n, same[i],
                               json_array_size(json_object_get(m, "cases")),
                               json_array_size(json_object_get(whole.report, "cases")), y, x);
                free(x);
                free(y);
            }
        }
        json_decref(m);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
    run_free(&whole);
}
