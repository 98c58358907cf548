/*
 * test_zygote.c - the fork server (harness/worker/zygote.h) through the
 * real binary: a verdict depends on the request alone (a request that
 * died in a process an earlier request touched runs again in a fresh one;
 * --isolation fork gives each request its own), the candidate is loaded
 * once per zygote, a candidate that starts threads while loading gets
 * spawned workers, a worker cannot kill its zygote and a dead zygote is
 * replaced, each worker leads its own process group with no inherited
 * descriptor, the candidate runs on every CPU of the harness, and nothing a candidate started outlives a harness that is
 * interrupted or a constructor that forked.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <time.h>

#include "../common/survivors.h"
#include "run_harness.h"

extern char **environ;

/* Lines of the file at `path` (0 when it is missing). */
static int lines_of(const char *path)
{
    char *s = slurp(path);
    int n = 0;
    for (char *c = s; *c; c++)
        n += *c == '\n';
    free(s);
    return n;
}

/* A fresh file name for RESHAPE_TEST_CTOR_LOG, set in the environment:
 * outside the scratch folder, so the run must let the candidate write it
 * (--sandbox-allow-write), and writable by the uid a root harness drops
 * its workers to. */
static void ctor_log(char *path, size_t size)
{
    temp_template(path, size, "/tmp/zygote-ctor-");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(fchmod(fd, 0666), 0);
    close(fd);
    setenv("RESHAPE_TEST_CTOR_LOG", path, 1);
}

/* (id/variant) -> verdict of every entry of a report. */
static json_t *verdicts(const run *r)
{
    json_t *map = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->report, "cases"), i, e) {
        char key[512];
        snprintf(key, sizeof key, "%s/%s", field(e, "id"), field(e, "variant"));
        json_object_set_new(map, key, json_string(field(e, "verdict")));
    }
    return map;
}

/* Its second call crashes every process: each request that died after
 * another in its process runs again alone, in a fresh one, and passes. */
Test(zygote, a_candidate_spoiled_by_its_first_call_passes_whatever_the_jobs, .timeout = 120)
{
    run one = run_harness("--candidate " CANDS "first_call_only.so --cases " BASIC
                          " --variants dense,infer,misaligned --jobs 1 --quiet");
    run three = run_harness("--candidate " CANDS "first_call_only.so --cases " BASIC
                            " --variants dense,infer,misaligned --jobs 3 --quiet");
    cr_expect_eq(one.code, 0, "%s %s", one.out, one.err);
    cr_expect_eq(three.code, 0, "%s %s", three.out, three.err);
    cr_assert(one.report && three.report);
    cr_expect_eq(others_not_passing(&one, NULL), 0);
    json_t *a = verdicts(&one), *b = verdicts(&three);
    cr_expect(json_equal(a, b), "the verdicts depend on --jobs");
    cr_expect_gt(json_object_size(a), 20);
    json_decref(a);
    json_decref(b);
    run_free(&one);
    run_free(&three);
}

/* --isolation fork: each request in a process no other request touched. */
Test(zygote, fork_mode_gives_every_request_a_fresh_process)
{
    run r = run_harness("--candidate " CANDS "first_call_only.so --cases " BASIC
                        " --variants dense,infer --isolation fork --quiet");
    cr_expect_eq(r.code, 0, "%s %s", r.out, r.err);
    cr_expect_eq(others_not_passing(&r, NULL), 0);
    run_free(&r);
}

/* Every crash costs a fork of the zygote, not a new load: two slots, two
 * loads, however many of the requests die. */
Test(zygote, the_constructor_runs_once_per_zygote)
{
    char log[64];
    ctor_log(log, sizeof log);
    run r = run_harness("--candidate " CANDS "first_call_only.so --cases " BASIC
                        " --variants dense,infer --jobs 2 --quiet --sandbox-allow-write %s", log);
    cr_expect_eq(r.code, 0, "%s %s", r.out, r.err);
    cr_expect_eq(lines_of(log), 2, "the candidate was loaded %d times", lines_of(log));
    run_free(&r);
    unlink(log);
}

/* A zygote and its forks start on their slot's CPU, beside the harness's
 * thread of the slot (harness/proc/cpus.h); the candidate runs with every
 * CPU the harness may use, as it would in a process of its own (a thread
 * pool sized by sched_getaffinity is as large).  Cannot fail on a machine
 * of one CPU: skipped there. */
Test(zygote, the_candidate_runs_on_every_cpu_of_the_harness)
{
    cpu_set_t mine;
    cr_assert_eq(sched_getaffinity(0, sizeof mine, &mine), 0);
    if (CPU_COUNT(&mine) < 2)
        cr_skip_test("one CPU: a worker left on its slot's CPU would look the same");
    char log[64];
    ctor_log(log, sizeof log);
    run r = run_harness("--candidate " CANDS "logs_its_cpus.so --cases " BASIC
                        " --jobs 2 --quiet --sandbox-allow-write %s", log);
    cr_expect_eq(r.code, 0, "%s %s", r.out, r.err);
    char *s = slurp(log);
    int calls = 0, fewer = 0;
    for (char *line = s; *line; ) {
        char *end = strchr(line, '\n');
        if (!end)
            break;
        calls++;
        fewer += atoi(line) != CPU_COUNT(&mine);
        line = end + 1;
    }
    cr_expect_gt(calls, 10, "only %d calls logged their CPUs", calls);
    cr_expect_eq(fewer, 0, "%d of %d calls ran on other than the harness's %d CPUs", fewer, calls,
                 CPU_COUNT(&mine));
    free(s);
    run_free(&r);
    unlink(log);
}

/* A fork would lack the thread the constructor started: every worker is
 * spawned and loads the candidate (once per crash, then), and the
 * verdicts are the same. */
Test(zygote, a_candidate_that_starts_threads_while_loading_gets_spawned_workers)
{
    char log[64];
    ctor_log(log, sizeof log);
    run r = run_harness("--candidate " CANDS "ctor_thread.so --cases " BASIC
                        " --jobs 2 --quiet --sandbox-allow-write %s", log);
    cr_expect_eq(r.code, 1, "%s %s", r.out, r.err);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "SIGSEGV");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    cr_expect_gt(lines_of(log), 2 + 5, "loaded %d times: forked after all?", lines_of(log));
    run_free(&r);
    unlink(log);
}

Test(zygote, a_worker_cannot_kill_its_zygote)
{
    run r = run_harness("--candidate " CANDS "kills_zygote.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 1, "%s %s", r.out, r.err);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH",
                   "the sandbox stopped system call kill (62) in execute");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    run_free(&r);
}

/* The owner of an fd's signals is a way past the kill rules: the observer
 * stops the worker that names another process, and only that worker, so
 * the zygote, loaded once, serves every request. */
Test(zygote, a_worker_cannot_signal_its_zygote_through_an_fd_owner)
{
    char log[64];
    ctor_log(log, sizeof log);
    run r = run_harness("--candidate " CANDS "signals_by_fd_owner.so --cases " BASIC
                        " --jobs 1 --quiet --sandbox-allow-write %s", log);
    cr_expect_eq(r.code, 1, "%s %s", r.out, r.err);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "the sandbox stopped the candidate in "
                   "execute: it tried to signal process ");
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "(fcntl F_SETOWN) (the worker was stopped)");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    cr_expect_eq(lines_of(log), 1, "the candidate was loaded %d times", lines_of(log));
    cr_expect_null(strstr(r.err, "zygote"), "%s", r.err);
    run_free(&r);
    unlink(log);
}

/* Without the sandbox the kill goes through: each time the slot starts a
 * new zygote for its next worker, says so, and no other result suffers. */
Test(zygote, a_dead_zygote_is_started_again)
{
    run r = run_harness("--candidate " CANDS "kills_zygote.so --cases " BASIC
                        " --sandbox off --jobs 1 --quiet");
    cr_expect_eq(r.code, 1, "%s %s", r.out, r.err);
    expect_verdict(&r, "trigger_f32", "dense", "CRASH", "SIGSEGV");
    cr_expect_eq(others_not_passing(&r, "trigger_f32"), 0);
    cr_expect(strstr(r.err, "the zygote (pid "), "%s", r.err);
    cr_expect(strstr(r.err, "signal 9 (Killed): slot 0 starts a new one"), "%s", r.err);
    run_free(&r);
}

Test(zygote, each_worker_leads_its_own_process_group_without_inherited_fds)
{
    run r = run_harness("--candidate " CANDS "own_group.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 0, "%s %s", r.out, r.err);
    run_free(&r);
}

/* What a constructor started in the zygote is killed and counted. */
Test(zygote, a_process_a_constructor_started_is_killed_and_reported)
{
    char mark[96];
    snprintf(mark, sizeof mark, "RESHAPE_ZYGOTE_MARK=ctor%ld", (long)getpid());
    putenv(mark);
    run r = run_harness("--candidate " CANDS "ctor_child.so --cases " BASIC " --jobs 1 --quiet");
    cr_expect_eq(r.code, 0, "%s %s", r.out, r.err);
    cr_expect(strstr(r.err, "killed 1 process the candidate left running"), "%s", r.err);
    cr_expect_eq(survivors(mark), 0, "the constructor's child outlived the run");
    run_free(&r);
}

/* A hung worker's child sleeps in the worker's process group; SIGTERM to
 * the harness kills the group before the harness ends. */
Test(zygote, an_interrupted_harness_leaves_nothing_running, .timeout = 60)
{
    char mark[96];
    snprintf(mark, sizeof mark, "RESHAPE_ZYGOTE_MARK=%ld", (long)getpid());
    putenv(mark);
    /* its scratch folder is made in TMPDIR: one the dropped uid can reach */
    char tmp[64], tmpdir[96];
    snprintf(tmp, sizeof tmp, "/tmp/harness-interrupted-XXXXXX");
    cr_assert(mkdtemp(tmp));
    cr_assert_eq(chmod(tmp, 0755), 0);
    snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", tmp);
    putenv(tmpdir);
    char *argv[] = {(char *)harness_bin(), "--candidate", CANDS "hang_with_child.so", "--cases",
                    BASIC, "--variants", "dense", "--jobs", "1", "--timeout-ms", "60000",
                    "--quiet", NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    cr_assert_eq(posix_spawn(&pid, argv[0], &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    unsetenv("TMPDIR");
    /* the harness, the slot's zygote and worker, and the worker's child */
    int seen = 0;
    for (int tries = 0; tries < 400 && seen < 4; tries++) {
        struct timespec ms25 = {0, 25000000};
        nanosleep(&ms25, NULL);
        seen = holders(mark);
    }
    cr_expect_geq(seen, 4, "the hang never came (%d processes)", seen);
    kill(pid, SIGTERM);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "the harness did not end of SIGTERM");
    cr_expect_eq(survivors(mark), 0, "processes outlived the harness");
    cr_expect(dir_is_empty(tmp), "the interrupted run left its scratch folder in %s", tmp);
    rmdir(tmp);
}
