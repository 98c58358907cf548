/*
 * probe_supports.c - the equivalence probe's sweep of supports() and
 * last_error() (probe_run.h): every op, data dtype, shape dtype and layout
 * flags, RESHAPE_LAYOUT_DEVICE among them, on both builds, compared.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe_run.h"

#define OPS (RESHAPE_OP_COUNT + 2)
#define DTYPES (RESHAPE_DT_COUNT + 2)
#define LAYOUTS 65 /* flags 0..63 (every flag of the header) and 128 */
#define ANSWERS ((size_t)OPS * DTYPES * DTYPES * LAYOUTS)

/* One supports() answer: the status, and last_error() after it (0: NULL,
 * else a hash of the text, never 0). */
struct said {
    int32_t status;
    uint32_t message;
};

static uint32_t text_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h ? h : 1;
}

/* Whether the ABI fixes the answer: the op and both dtypes in their enums
 * and only flags the header defines (for other values "either answer is
 * allowed", include/reshape_candidate.h, supports; they are swept, not
 * compared). */
static int defined(int op, int dt, int st, size_t layout)
{
    return op >= 1 && op <= RESHAPE_OP_COUNT && dt >= 1 && dt <= RESHAPE_DT_COUNT && st >= 1 &&
           st <= RESHAPE_DT_COUNT && layout < LAYOUTS - 1;
}

static unsigned layout_of(size_t i)
{
    return i < LAYOUTS - 1 ? (unsigned)i : 128u;
}

static void sweep_child(const reshape_candidate *lib, struct said *out)
{
    size_t k = 0;
    for (int op = 0; op < OPS; op++)
        for (int dt = 0; dt < DTYPES; dt++)
            for (int st = 0; st < DTYPES; st++)
                for (size_t l = 0; l < LAYOUTS; l++, k++) {
                    out[k].status = lib->supports((reshape_op)op, (reshape_dtype)dt,
                                                  (reshape_dtype)st, layout_of(l));
                    const char *m = lib->last_error();
                    out[k].message = m ? text_hash(m) : 0;
                }
    _exit(0);
}

/* Runs the sweep of `lib` in a child into `out`; its wait status into
 * *status.  -1 when fork fails. */
static int run(const reshape_candidate *lib, struct said *out, int *status)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        sweep_child(lib, out);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        continue;
    return 0;
}

int probe_supports_sweep(const reshape_candidate *original, const reshape_candidate *mutant,
                         int *differ, int *msg_differ, char *text, size_t size)
{
    size_t bytes = 2 * ANSWERS * sizeof(struct said);
    struct said *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED)
        return -1;
    struct said *b = a + ANSWERS;
    int sa = 0, sb = 0;
    *differ = *msg_differ = 0;
    if (run(original, a, &sa) != 0 || run(mutant, b, &sb) != 0) {
        munmap(a, bytes);
        return -1;
    }
    if (sa != sb) {
        *differ = 1;
        snprintf(text, size, "supports() sweep: the original's child ended with wait status "
                 "%d, the mutant's with %d", sa, sb);
    }
    size_t k = 0;
    for (int op = 0; op < OPS && !*differ; op++)
        for (int dt = 0; dt < DTYPES && !*differ; dt++)
            for (int st = 0; st < DTYPES && !*differ; st++)
                for (size_t l = 0; l < LAYOUTS; l++, k++) {
                    *msg_differ |= a[k].message != b[k].message;
                    if (a[k].status == b[k].status || !defined(op, dt, st, l))
                        continue;
                    const char *x = reshape_status_name((reshape_status)a[k].status);
                    const char *y = reshape_status_name((reshape_status)b[k].status);
                    const char *on = reshape_op_name((reshape_op)op);
                    const char *dn = reshape_dtype_name((reshape_dtype)dt);
                    const char *sn = reshape_dtype_name((reshape_dtype)st);
                    snprintf(text, size, "supports(%s, %s, %s, layout 0x%x): original %s, "
                             "mutant %s", on ? on : "op ?", dn ? dn : "dtype ?",
                             sn ? sn : "dtype ?", layout_of(l), x ? x : "?", y ? y : "?");
                    *differ = 1;
                    break;
                }
    munmap(a, bytes);
    return 0;
}
