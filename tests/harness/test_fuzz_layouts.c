/*
 * test_fuzz_layouts.c - `reshape-conform fuzz` generates the layouts of
 * reference/DECISIONS.md D12 (fuzz_layout.c, and the broadcast_src and
 * size1_strides variants on every request): within 1,000 requests it finds
 * a kernel that reads a broadcast src as dense, one that refuses a size-1
 * dim with a stride of 2^58, and one that writes an overlapping dst; each
 * case it writes loads, the reference passes it and the kernel fails it.
 */
#include <dirent.h>

#include "run_harness.h"

#define BROKEN "build/broken/"

/* Runs `reshape-conform ARGS` quietly; returns the exit status and, in
 * *out, what it printed on stdout (new string). */
static int run_cmd(const char *dir, char **out, const char *fmt, ...)
{
    char args[2048], cmd[4096], path[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "NO_COLOR=1 %s %s >%s/out 2>&1 </dev/null", harness_bin(), args, dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "'%s' did not exit", cmd);
    snprintf(path, sizeof path, "%s/out", dir);
    *out = slurp(path);
    return WEXITSTATUS(st);
}

/* The text of the one case file in `dir`, or NULL (new string). */
static char *the_case(const char *dir)
{
    DIR *d = opendir(dir);
    char path[512], *text = NULL;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".yaml")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            free(text);
            text = slurp(path);
        }
    if (d)
        closedir(d);
    return text;
}

/* Fuzzes `name` for 1,000 requests; asserts it is caught as `kind` with a
 * case holding `holds`, which the reference passes and `name` fails. */
static void finds(const char *name, const char *kind, const char *holds)
{
    char dir[64], cases[128], *out;
    temp_template(dir, sizeof dir, "/tmp/fuzz-layout-");
    cr_assert(mkdtemp(dir));
    snprintf(cases, sizeof cases, "%s/cases", dir);
    int code = run_cmd(dir, &out, "fuzz --candidate " BROKEN "%s.so --count 1000 --seed 4 "
                       "--max-cases 1 --jobs 2 --out %s", name, cases);
    cr_expect_eq(code, 1, "%s", out);
    cr_expect(strstr(out, kind), "%s", out);
    free(out);
    char *text = the_case(cases);
    cr_assert(text, "no case written");
    cr_expect(strstr(text, holds), "%s", text);
    free(text);
    code = run_cmd(dir, &out, "--quiet --jobs 2 --strict-errors --cases %s", cases);
    cr_expect_eq(code, 0, "the reference fails the case: %s", out);
    free(out);
    code = run_cmd(dir, &out, "--quiet --jobs 2 --candidate " BROKEN "%s.so --cases %s", name,
                   cases);
    cr_expect_eq(code, 1, "%s", out);
    free(out);
}

Test(fuzz_layouts, a_broadcast_src_read_as_dense_is_found, .timeout = 120)
{
    finds("broadcast_read_as_dense", "FAIL: bytes differ", "strides: [0,");
}

Test(fuzz_layouts, a_size1_stride_refuser_is_found, .timeout = 120)
{
    finds("size1_stride_refused", "in size1_strides", "expect: {shape: [");
}

Test(fuzz_layouts, an_overlapping_dst_written_is_found, .timeout = 120)
{
    finds("aliasing_dst_written", "MEMORY_VIOLATION", "expect: {error: INVALID_ARGUMENT}");
}
