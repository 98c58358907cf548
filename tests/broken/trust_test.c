/*
 * trust_test.c - the hostile candidates that lie to the harness across
 * the process boundary (issue 30, harness/ARCHITECTURE.md "Trust
 * boundary"): a pid the zygote forges, a start time, a cell index and the
 * arena's size.  Each run takes one case (OpenVINO Example 2, which the
 * candidates act on) and must end with a finished report, exit status 1,
 * the act as its finding, nothing outside the run killed and nothing of
 * the run left running (RESHAPE_HOSTILE_MARK, as hostile_test.c).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/survivors.h"
#include "expect_caught.h"
#include "run.h"

extern char **environ;

/* Runs the harness on build/broken/<name>.so over the one case, with
 * `more` arguments (NULL-terminated, or NULL), and checks the points
 * above: the first result with verdict `expect` has `detail` in its
 * detail.  Returns the run's wall time in seconds. */
static double lied_to(const char *name, const char *expect, const char *detail,
                      int timeout_ms, const char *const *more)
{
    char mark[128], label[96], json[512], cases[512];
    snprintf(mark, sizeof mark, "RESHAPE_HOSTILE_MARK=trust-%s-%ld", name, (long)getpid());
    /* the test's pid too: two tests lie with one candidate, and one's run
     * must not replace the report the other reads */
    snprintf(label, sizeof label, "trust-%s-%ld", name, (long)getpid());
    snprintf(cases, sizeof cases, "%s/openvino_reshape_1.yaml", run_cases_dir());
    const char *argv[16] = {"--cases", cases, "--filter", "openvino_example_2_*"};
    int argc = 4;
    while (more && *more && argc < 15)
        argv[argc++] = *more++;
    char so[512];
    snprintf(so, sizeof so, "%s/%s.so", run_broken_dir(), name);
    setenv("RESHAPE_HOSTILE_MARK", strchr(mark, '=') + 1, 1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = run_harness(so, run_runs_dir(), label, timeout_ms, argv, json, sizeof json);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    unsetenv("RESHAPE_HOSTILE_MARK");
    expect_caught(name, label, rc, json, expect, detail, mark);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/* A process outside the run, in a process group of its own (as a worker
 * leads one): `sleep 600`, a child of the test. */
static pid_t start_victim(void)
{
    pid_t v = fork();
    cr_assert_geq(v, 0);
    if (v == 0) {
        setpgid(0, 0);
        execlp("sleep", "sleep", "600", (char *)NULL);
        _exit(127);
    }
    setpgid(v, v);
    return v;
}

/* 1 when the victim still runs (not killed, not ended). */
static int victim_alive(pid_t v)
{
    int st;
    return waitpid(v, &st, WNOHANG) == 0 && kill(v, 0) == 0;
}

/* The zygote answers the victim's pid for every fork; --isolation fork
 * retires each worker after its request (a SIGKILL to the pid the harness
 * holds), which killed the victim when the harness believed the answer. */
Test(trust, a_forged_worker_pid_kills_nothing_outside_the_run, .timeout = 120)
{
    pid_t v = start_victim();
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)v);
    setenv("RESHAPE_FORGED_PID", pid, 1);
    const char *more[] = {"--isolation", "fork", NULL};
    lied_to("forges_worker_pids", "CRASH", "which is no new child of the harness (a forged pid)",
            3000, more);
    unsetenv("RESHAPE_FORGED_PID");
    int alive = victim_alive(v);
    kill(v, SIGKILL);
    waitpid(v, NULL, 0);
    cr_expect(alive, "the victim (pid %ld), outside the run, was killed", (long)v);
}

/* Children of process `pid` (of all its threads). */
static int children_of(pid_t pid)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "/proc/%ld/task/*/children", (long)pid);
    glob_t g;
    int n = 0;
    if (glob(pattern, 0, NULL, &g) != 0)
        return 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *f = fopen(g.gl_pathv[i], "re");
        long c;
        while (f && fscanf(f, "%ld", &c) == 1)
            n++;
        if (f)
            fclose(f);
    }
    globfree(&g);
    return n;
}

/* Ctrl-C SIGKILLs the process group of every worker the harness holds
 * (groups.c): with a forged pid believed, the victim's group, a process
 * outside the run, went with them.  The harness is interrupted 100 ms
 * after its first workers start, over the whole suite (it runs for
 * seconds). */
Test(trust, an_interrupted_harness_kills_no_group_a_zygote_named, .timeout = 120)
{
    pid_t v = start_victim();
    char pid[32], mark[128], so[512], pattern[512], json[512];
    snprintf(pid, sizeof pid, "%ld", (long)v);
    setenv("RESHAPE_FORGED_PID", pid, 1);
    snprintf(mark, sizeof mark, "RESHAPE_HOSTILE_MARK=trust-interrupted-%ld", (long)getpid());
    setenv("RESHAPE_HOSTILE_MARK", strchr(mark, '=') + 1, 1);
    snprintf(so, sizeof so, "%s/forges_worker_pids.so", run_broken_dir());
    snprintf(json, sizeof json, "%s/trust-interrupted.json", run_runs_dir());
    snprintf(pattern, sizeof pattern, "%s/*.yaml", run_cases_dir());
    glob_t g;
    cr_assert_eq(glob(pattern, 0, NULL, &g), 0);
    const char **argv = calloc(2 * g.gl_pathc + 14, sizeof *argv);
    int argc = 0;
    /* a process per request: the whole suite then takes seconds, so the
     * SIGINT below lands while the run is going (with a worker per slot,
     * the harness's refusal of the forged pids ended the run in 0.11 s,
     * before it, on a loaded machine) */
    const char *head[] = {run_harness_path(), "--candidate", so, "--jobs", "2",
                          "--isolation", "fork", "--timeout-ms", "3000", "--quiet",
                          "--json", json};
    for (size_t k = 0; k < sizeof head / sizeof *head; k++)
        argv[argc++] = head[k];
    for (size_t i = 0; i < g.gl_pathc; i++) {
        argv[argc++] = "--cases";
        argv[argc++] = g.gl_pathv[i];
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    /* SIGINT as a terminal gives it: a harness that inherits it ignored
     * (every job a non-interactive shell starts with `&`, and what they
     * start, make test's included) keeps it ignored, as a background job
     * should, and then ran to its end (status 0x100) */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t dfl;
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGINT);
    posix_spawnattr_setsigdefault(&at, &dfl);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
    pid_t h;
    int rc = posix_spawn(&h, argv[0], &fa, &at, (char *const *)argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    globfree(&g);
    unsetenv("RESHAPE_FORGED_PID");
    unsetenv("RESHAPE_HOSTILE_MARK");
    cr_assert_eq(rc, 0, "cannot start %s", run_harness_path());
    /* its zygotes and their first workers: the forks were answered */
    for (int tries = 0; tries < 10000 && children_of(h) < 3; tries++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    struct timespec wait = {0, 100000000};
    nanosleep(&wait, NULL);
    kill(h, SIGINT);
    int st;
    cr_assert_eq(waitpid(h, &st, 0), h);
    int alive = victim_alive(v);
    kill(v, SIGKILL);
    waitpid(v, NULL, 0);
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT,
              "the harness did not end by the SIGINT (status 0x%x): the run was over first", st);
    cr_expect(alive, "the victim (pid %ld), outside the run, was killed", (long)v);
    cr_expect_eq(survivors(mark), 0, "processes outlived the interrupted run");
}

/* Without RESHAPE_FORGED_PID the zygote answers its parent's pid: the
 * harness's own, which made the harness SIGKILL itself (exit 137, no
 * report). */
Test(trust, a_zygote_answering_the_harnesss_own_pid_does_not_end_it, .timeout = 120)
{
    unsetenv("RESHAPE_FORGED_PID");
    const char *more[] = {"--isolation", "fork", NULL};
    lied_to("forges_worker_pids", "CRASH", "which is no new child of the harness (a forged pid)",
            3000, more);
}

/* A start time an hour ahead let a 12 s call pass under --timeout-ms
 * 1000: the deadline now counts from the parent's own submit time. */
Test(trust, a_start_time_in_the_future_extends_no_deadline, .timeout = 120)
{
    const char *more[] = {"--variants", "dense", NULL};
    double s = lied_to("lies_about_start_time", "TIMEOUT", "no return within 1000 ms", 1000,
                       more);
    cr_expect_lt(s, 10.0, "the run took %.1f s: the 12 s call ran to its end", s);
}

/* Cell 2^28 for the running request crashed the harness (SIGSEGV) as it
 * read the fault the worker recorded through that index. */
Test(trust, a_running_cell_out_of_range_is_the_candidates_crash, .timeout = 120)
{
    const char *more[] = {"--variants", "dense", NULL};
    lied_to("writes_running_cell_out_of_range", "CRASH",
            "wrote cell 268435456 for request 0 into the batch page", 3000, more);
}

/* Truncating the arena's memfd through /proc/ZYGOTE/fd made the harness
 * die of SIGBUS: the seals refuse it now, and what the candidate does
 * instead (a hole punched over the arena: zeros) is caught on the batch
 * page. */
Test(trust, truncating_the_arena_is_refused_and_wiping_it_is_caught, .timeout = 120)
{
    const char *more[] = {"--variants", "dense", NULL};
    lied_to("truncates_arena", "CRASH", "changed the count of requests in the batch page", 3000,
            more);
}
