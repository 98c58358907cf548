/*
 * clone.c - clone-to-first-report: the wall time from `git clone` of the
 * checkout to the reference's first report, `make run` in the clone, on a
 * machine whose Debian packages are installed (`make deps` then has nothing
 * to do).  The CPU time of every process is given too: on a loaded host the
 * wall time says more about the neighbours than about the build.  Depends on
 * libc and jansson.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* What one command cost: wall and CPU seconds (user + system of the
 * command and everything it waited for), and its exit status (-1 when it
 * did not exit normally). */
struct cost {
    double wall, cpu;
    int exit_code;
};

static double cpu_of_children(void)
{
    struct rusage ru;

    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* Runs `argv` with its output appended to `log`, outside the make that may
 * have started the bench (no MAKEFLAGS: the clone's make picks its own -j).
 * Returns 0, or -1 when it could not be started. */
static int run(char *const argv[], const char *log, struct cost *c)
{
    double t0 = bench_now(), cpu0 = cpu_of_children();
    int status;
    pid_t pid = fork();

    if (pid < 0) {
        fprintf(stderr, "bench: cannot fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        unsetenv("MAKEFLAGS");
        unsetenv("MFLAGS");
        unsetenv("MAKELEVEL");
        execvp(argv[0], argv);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid) {
        fprintf(stderr, "bench: waitpid: %s\n", strerror(errno));
        return -1;
    }
    c->wall = bench_now() - t0;
    c->cpu = cpu_of_children() - cpu0;
    c->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return 0;
}

/* How many of the four reports `make run` writes are there, not empty. */
static int reports_written(const char *clone)
{
    static const char *const names[] = {"report.json", "report.xml", "report.md",
                                        "report.html"};
    char path[4200];
    struct stat st;
    int n = 0;

    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/reports/reference/%s", clone, names[i]);
        n += stat(path, &st) == 0 && st.st_size > 0;
    }
    return n;
}

int bench_clone(const struct bench_options *opt, json_t *out, json_t *table)
{
    char clone[2048], log[2100];
    struct cost cl, mk;

    snprintf(clone, sizeof clone, "%s/clone", opt->tmpdir);
    snprintf(log, sizeof log, "%s/clone.log", opt->tmpdir);
    char *rm[] = {"rm", "-rf", clone, log, NULL};
    char *mkdir_p[] = {"mkdir", "-p", (char *)opt->tmpdir, NULL};
    char *git[] = {"git", "clone", "-q", (char *)opt->source, clone, NULL};
    char *make[] = {"make", "-C", clone, "run", NULL};

    if (run(mkdir_p, "/dev/null", &cl) != 0 || run(rm, "/dev/null", &cl) != 0)
        return -1;
    if (run(git, log, &cl) != 0 || cl.exit_code != 0) {
        fprintf(stderr, "bench: git clone of '%s' failed (see %s)\n", opt->source, log);
        return -1;
    }
    if (run(make, log, &mk) != 0)
        return -1;
    int written = reports_written(clone);

    json_object_set_new(out, "clone_seconds", json_real(cl.wall));
    json_object_set_new(out, "make_run_seconds", json_real(mk.wall));
    json_object_set_new(out, "seconds", json_real(cl.wall + mk.wall));
    json_object_set_new(out, "cpu_seconds", json_real(cl.cpu + mk.cpu));
    json_object_set_new(out, "make_run_exit_code", json_integer(mk.exit_code));
    json_object_set_new(out, "reports_written", json_integer(written));
    bench_row(table, "clone", "clone to first report, wall", cl.wall + mk.wall, "s",
              "<= 15 (2 cores)");
    bench_row(table, "clone", "clone to first report, cpu", cl.cpu + mk.cpu, "s", NULL);
    bench_row(table, "clone", "git clone, wall", cl.wall, "s", NULL);
    bench_row(table, "clone", "make run, wall", mk.wall, "s", NULL);
    if (mk.exit_code != 0 || written != 4) {
        fprintf(stderr, "bench: make run in the clone exited %d with %d of 4 reports (see %s)\n",
                mk.exit_code, written, log);
        return -1;
    }
    char *rm_clone[] = {"rm", "-rf", clone, NULL};
    run(rm_clone, "/dev/null", &cl);
    return 0;
}
