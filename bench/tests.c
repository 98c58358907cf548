/*
 * tests.c - the tests section: how long the last `make test` took, as the
 * run itself measured it (bench.h).  Running the tests again here would
 * take minutes and write the build tree; so the figure is the one `make
 * test-run` wrote to build/test-times.last (opt->test_times): its "run"
 * file, "WALL JOBS CORES UTC COMMIT COMMAND STATUS", and a TARGET.time file
 * per target whose last line is /usr/bin/time's "WALL USER SYS" (a line
 * before it says how a failed target ended).  When no run is recorded the
 * section says so and measures nothing; that is no failure of the bench.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

/* The last line of `path` into `line`; 0, or -1 when it cannot be read or
 * is empty. */
static int last_line(const char *path, char *line, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[512];
    int any = 0;
    while (fgets(buf, sizeof buf, f)) {
        snprintf(line, size, "%s", buf);
        any = 1;
    }
    fclose(f);
    return any ? 0 : -1;
}

/* Adds DIR/FILE's figures (FILE is NAME.time) to `targets` and to *cpu;
 * 0, or -1 after saying why.  /usr/bin/time writes "Command exited with
 * non-zero status N" or "Command terminated by signal N" before its figures
 * when the target failed. */
static int read_target(const char *dir, const char *file, json_t *targets, double *cpu)
{
    char path[1024], line[512] = "", name[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(name, sizeof name, "%.*s", (int)(strlen(file) - strlen(".time")), file);
    FILE *f = fopen(path, "r");
    int failed = 0;
    while (f && fgets(line, sizeof line, f))
        failed |= strncmp(line, "Command ", 8) == 0;
    if (f)
        fclose(f);
    double wall, user, sys;
    if (sscanf(line, "%lf %lf %lf", &wall, &user, &sys) != 3) {
        fprintf(stderr, "bench: %s does not end with \"WALL USER SYS\"\n", path);
        return -1;
    }
    json_object_set_new(targets, name, json_pack("{s:f, s:f, s:b}", "wall_s", wall,
                                                 "cpu_s", user + sys, "failed", failed));
    *cpu += user + sys;
    return 0;
}

int bench_tests(const struct bench_options *opt, json_t *out, json_t *table)
{
    char path[1024], line[512], utc[64], commit[64], command[64];
    double wall;
    int jobs, cores, status;
    snprintf(path, sizeof path, "%s/run", opt->test_times);
    json_object_set_new(out, "dir", json_string(opt->test_times));
    if (last_line(path, line, sizeof line) != 0) {
        printf("tests: no make test run recorded in %s (make test writes it)\n",
               opt->test_times);
        json_object_set_new(out, "recorded", json_false());
        return 0;
    }
    if (sscanf(line, "%lf %d %d %63s %63s %63s %d", &wall, &jobs, &cores, utc, commit, command,
               &status) != 7) {
        fprintf(stderr, "bench: %s is not \"WALL JOBS CORES UTC COMMIT COMMAND STATUS\"\n", path);
        return -1;
    }
    DIR *d = opendir(opt->test_times);
    if (!d) {
        fprintf(stderr, "bench: cannot read %s: %s\n", opt->test_times, strerror(errno));
        return -1;
    }
    json_t *targets = json_object();
    double cpu = 0;
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".time") == 0 && strcmp(e->d_name, "build.time") != 0)
            bad |= read_target(opt->test_times, e->d_name, targets, &cpu) != 0;
    }
    closedir(d);
    /* the Makefile writes the command as one word: "make-test" */
    if (strncmp(command, "make-", 5) == 0)
        command[4] = ' ';
    json_object_set_new(out, "recorded", json_true());
    json_object_set_new(out, "command", json_string(command));
    json_object_set_new(out, "wall_s", json_real(wall));
    json_object_set_new(out, "cpu_s", json_real(cpu));
    json_object_set_new(out, "jobs", json_integer(jobs));
    json_object_set_new(out, "cores", json_integer(cores));
    json_object_set_new(out, "measured_utc", json_string(utc));
    json_object_set_new(out, "commit", json_string(commit));
    json_object_set_new(out, "exit_status", json_integer(status));
    json_object_set_new(out, "targets", targets);
    char figure[128];
    snprintf(figure, sizeof figure, "%s, last run: wall", command);
    bench_row(table, "tests", figure, wall, "s",
              strcmp(command, "make test") == 0 ? "<= 180 (2 cores)" : NULL);
    snprintf(figure, sizeof figure, "%s, last run: CPU of its targets", command);
    bench_row(table, "tests", figure, cpu, "CPU-s", NULL);
    printf("tests: %s at %s (commit %.12s, %d cores, %d targets at a time, exit %d), "
           "as it measured itself in %s\n", command, utc, commit, cores, jobs, status,
           opt->test_times);
    return bad ? -1 : 0;
}
