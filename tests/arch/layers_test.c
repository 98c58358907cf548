/*
 * layers_test.c - tests/arch/check_layers.sh on small trees of two layers,
 * `low` below `high` (tests/arch/fixtures/): a tree that keeps its layers
 * passes, and each way of breaking them is caught, with its line.  The
 * call checks run on objects compiled here from the fixture's sources.
 * Run from the repository root (make test-layers).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define CHECK "tests/arch/check_layers.sh"
#define FIXTURES "tests/arch/fixtures"
#define MAX_LINES 4

/* Arrays, not pointers: Criterion hands the parameters to the test's own
 * process by copying their bytes. */
struct layer_case {
    char fixture[32];
    int objects;                        /* compile it and pass -o */
    int status;                         /* the script's exit status */
    char lines[MAX_LINES][224];         /* lines it must print, in order */
};

static struct layer_case cases[] = {
    {"good", 1, 0, {"check_layers: " FIXTURES "/good keeps its layers (low high)"}},
    {"upward", 0, 1,
     {FIXTURES "/upward/low/a.c:2: includes \"high/high.h\" of layer \"high\", above its "
               "own layer \"low\"",
      "check_layers: 1 problem in " FIXTURES "/upward (layers, bottom first: low high)"}},
    {"private", 0, 1,
     {FIXTURES "/private/high/b.c:4: includes \"low/part.h\", which is not the door of "
               "layer \"low\": include \"low/low.h\""}},
    {"spelling", 0, 1,
     {FIXTURES "/spelling/high/b.c:2: includes \"high/high.h\" of its own layer with the "
               "folder: write \"high.h\"",
      FIXTURES "/spelling/high/b.c:5: includes \"nowhere.h\", which is neither in high/ "
               "nor an ABI header"}},
    {"misplaced", 0, 1,
     {FIXTURES "/misplaced/high: layer \"high\" has no door \"high/high.h\"",
      FIXTURES "/misplaced/other/x.c: not in a layer folder (layers: low high)",
      FIXTURES "/misplaced/stray.c: not in a layer folder (layers: low high)",
      "check_layers: 3 problems in " FIXTURES "/misplaced (layers, bottom first: low high)"}},
    {"include_cycle", 0, 1,
     {"include cycle: " FIXTURES "/include_cycle/low/low.h -> " FIXTURES
      "/include_cycle/low/part.h -> " FIXTURES "/include_cycle/low/low.h"}},
    {"call_upward", 1, 1,
     {FIXTURES "/call_upward/low/a.c: uses \"high_fn\" of " FIXTURES "/call_upward/high/b.c, "
               "in layer \"high\" above its own layer \"low\""}},
    {"call_cycle", 1, 1,
     {"call cycle: " FIXTURES "/call_cycle/low/a.c -> " FIXTURES "/call_cycle/low/c.c -> "
      FIXTURES "/call_cycle/low/a.c"}},
};

static int run(const char *cmd)
{
    int rc = system(cmd);
    cr_assert_neq(rc, -1, "cannot run '%s'", cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

/* Compiles every FIXTURE/LAYER/F.c into DIR/LAYER/F.o. */
static void compile(const char *fixture, const char *dir)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "for c in " FIXTURES "/%s/*/*.c; do l=$(basename $(dirname $c)); "
             "mkdir -p %s/$l && cc -c -I" FIXTURES "/abi -I" FIXTURES "/%s $c "
             "-o %s/$l/$(basename ${c%%.c}).o || exit 1; done",
             fixture, dir, fixture, dir);
    cr_assert_eq(run(cmd), 0, "cannot compile fixture %s", fixture);
}

ParameterizedTestParameters(layers, check)
{
    return cr_make_param_array(struct layer_case, cases, sizeof cases / sizeof *cases);
}

RowTest(struct layer_case *c, layers, check)
{
    char dir[] = "/tmp/layers-test-XXXXXX", cmd[1024], out[300];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/out.txt", dir);
    if (c->objects) {
        char obj[300];
        snprintf(obj, sizeof obj, "%s/obj", dir);
        compile(c->fixture, obj);
        snprintf(cmd, sizeof cmd, "sh " CHECK " -I " FIXTURES "/abi -o %s " FIXTURES "/%s low high >%s 2>&1",
                 obj, c->fixture, out);
    } else {
        snprintf(cmd, sizeof cmd, "sh " CHECK " -I " FIXTURES "/abi " FIXTURES "/%s low high >%s 2>&1",
                 c->fixture, out);
    }
    int status = run(cmd);

    FILE *f = fopen(out, "r");
    cr_assert_not_null(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    cr_expect_eq(status, c->status, "%s: exit status %d, expected %d; it printed:\n%s",
                 c->fixture, status, c->status, text);
    /* each expected line, whole, after the previous one */
    const char *at = text;
    for (int i = 0; i < MAX_LINES && c->lines[i][0]; i++) {
        size_t len = strlen(c->lines[i]);
        const char *hit = at;
        while ((hit = strstr(hit, c->lines[i])) != NULL &&
               !((hit == text || hit[-1] == '\n') && (hit[len] == '\n' || hit[len] == '\0')))
            hit++;
        cr_expect_not_null(hit, "%s: no line '%s' in order; it printed:\n%s", c->fixture,
                           c->lines[i], text);
        if (hit)
            at = hit + len;
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}
