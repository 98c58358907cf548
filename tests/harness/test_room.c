/*
 * test_room.c - the rule that lets the confirmer run more suspects at
 * once (harness/run/room.h): only while the suspects' own processes use
 * little CPU, whatever else keeps the machine busy, and memory,
 * descriptors and tasks are to spare, so that hangs that sleep are
 * confirmed together on a busy machine and hangs that spin are not.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "run/room.h"

/* Suspects that sleep: no tick of 10 of wall time, 8 of 16 GiB available,
 * 100 of 65536 descriptors open, 500 of 32768 tasks. */
static room_view roomy(void)
{
    return (room_view){.suspects_ticks = 0, .wall_ticks = 10,
                       .mem_available_kb = 8ll << 20, .mem_total_kb = 16ll << 20,
                       .fds_open = 100, .fds_limit = 65536, .fds_each = 16,
                       .tasks = 500, .tasks_limit = 32768, .tasks_each = 16};
}

Test(room, suspects_that_sleep_with_memory_and_descriptors_have_room)
{
    room_view v = roomy();
    cr_expect_eq(room_rule(&v), 1);
    v.wall_ticks = 100;
    v.suspects_ticks = 25;                      /* exactly a quarter of a CPU */
    cr_expect_eq(room_rule(&v), 1);
}

Test(room, suspects_that_spin_have_none)
{
    room_view v = roomy();
    v.wall_ticks = 100;
    v.suspects_ticks = 26;                      /* more than a quarter of a CPU */
    cr_expect_eq(room_rule(&v), 0);
    v = roomy();
    v.wall_ticks = 0;                           /* no tick: nothing to tell */
    cr_expect_eq(room_rule(&v), 0);
    v = roomy();
    v.unknown = 1;                              /* a suspect it cannot tell */
    cr_expect_eq(room_rule(&v), 0);
}

Test(room, scarce_memory_has_none)
{
    room_view v = roomy();
    v.mem_available_kb = v.mem_total_kb / 4 - 1;
    cr_expect_eq(room_rule(&v), 0);
    v.mem_available_kb = v.mem_total_kb / 4;
    cr_expect_eq(room_rule(&v), 1);
    v.mem_total_kb = 512 * 1024;                /* a quarter, but under 256 MiB */
    v.mem_available_kb = 255 * 1024;
    cr_expect_eq(room_rule(&v), 0);
}

Test(room, descriptors_near_the_limit_have_none)
{
    room_view v = roomy();
    v.fds_limit = 1024;
    v.fds_open = 3 * 1024 / 4 - v.fds_each - 1;
    cr_expect_eq(room_rule(&v), 1);
    v.fds_open++;                               /* would reach three quarters */
    cr_expect_eq(room_rule(&v), 0);
}

Test(room, tasks_near_pid_max_have_none)
{
    room_view v = roomy();
    v.tasks_limit = 4096;
    v.tasks = 3 * 4096 / 4 - v.tasks_each - 1;
    cr_expect_eq(room_rule(&v), 1);
    v.tasks++;                                  /* would reach three quarters */
    cr_expect_eq(room_rule(&v), 0);
}

Test(room, a_look_too_soon_after_the_last_says_no)
{
    room r = {0};
    cr_expect_eq(room_look(&r, 16, 16, NULL, 0), 0, "the first look has nothing to compare with");
    cr_expect_neq(r.last_ns, 0);
    cr_expect_eq(room_look(&r, 16, 16, NULL, 0), 0, "a look within ROOM_INTERVAL_NS");
}

/* A child that spins (1) or pauses (0) until killed. */
static pid_t child(int spin)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        if (spin)
            for (volatile unsigned long i = 0;; i++)
                ;
        for (;;)
            pause();
    }
    return pid;
}

static void end(pid_t *pid, int n)
{
    for (int i = 0; i < n; i++) {
        kill(pid[i], SIGKILL);
        waitpid(pid[i], NULL, 0);
    }
}

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, ms % 1000 * 1000000};
    nanosleep(&t, NULL);
}

/* Two looks 300 ms apart over suspects[0..n) of pids `pid`. */
static int two_looks(const pid_t *pid, int n)
{
    room r = {0};
    room_suspect s[4];
    for (int i = 0; i < n; i++) {
        s[i].pid = pid[i];
        cr_assert_eq(proc_cpu_ticks(pid[i], &s[i].seen), 0);
    }
    room_look(&r, 16, 16, s, n);
    nap_ms(300);
    return room_look(&r, 16, 16, s, n);
}

Test(room, paused_suspects_have_room_on_a_machine_kept_busy)
{
    pid_t load[2] = {child(1), child(1)};       /* two busy loops beside */
    pid_t hang[3] = {child(0), child(0), child(0)};
    int yes = two_looks(hang, 3);
    end(load, 2);
    end(hang, 3);
    cr_expect_eq(yes, 1, "paused suspects cost no CPU, whatever the machine's load");
}

/* A child that spins until it has used `ms` of CPU time, then pauses. */
static pid_t spin_for(long ms)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        struct timespec t;
        do
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
        for (;;)
            pause();
    }
    return pid;
}

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* However busy the machine, a suspect that used 250 ms of CPU since it was
 * handed its request, looked at 100 ms after the last look, used more
 * than a quarter of a CPU: the look counts the suspect's own CPU time. */
Test(room, a_suspect_that_spun_has_none)
{
    pid_t pid = spin_for(250);
    long hz = sysconf(_SC_CLK_TCK);
    unsigned long long ticks = 0;
    for (int k = 0; k < 3000 && ticks < (unsigned long long)hz / 5; k++) {
        nap_ms(10);
        cr_assert_eq(proc_cpu_ticks(pid, &ticks), 0);
    }
    cr_assert_geq(ticks, (unsigned long long)hz / 5, "the child spun for 200 ms of CPU");
    room r = {mono_ns() - 100 * 1000000};
    room_suspect s = {pid, 0};
    int yes = room_look(&r, 16, 16, &s, 1);
    unsigned long long seen = s.seen;
    end(&pid, 1);
    cr_expect_eq(yes, 0, "%llu ticks in about 100 ms", seen);
    cr_expect_geq(seen, ticks, "the look brought `seen` up to the suspect's CPU time");
}

/* With a limit of this user's processes near the tasks already running,
 * even suspects that pause have no room: each slot is three processes. */
Test(room, a_process_limit_near_the_tasks_running_has_none)
{
    pid_t hang = child(0);
    int pipefd[2];
    cr_assert_eq(pipe(pipefd), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        FILE *f = fopen("/proc/loadavg", "re");
        long tasks = 0;
        if (!f || fscanf(f, "%*s %*s %*s %*d/%ld", &tasks) != 1)
            _exit(2);
        fclose(f);
        struct rlimit lim;
        getrlimit(RLIMIT_NPROC, &lim);
        lim.rlim_cur = (rlim_t)tasks + 8;   /* over the tasks, under 4/3 of them */
        if (lim.rlim_max != RLIM_INFINITY && lim.rlim_cur > lim.rlim_max)
            lim.rlim_cur = lim.rlim_max;
        if (setrlimit(RLIMIT_NPROC, &lim) != 0)
            _exit(3);
        room r = {mono_ns() - 100 * 1000000};
        room_suspect s = {hang, 0};
        if (proc_cpu_ticks(hang, &s.seen) != 0)
            _exit(4);
        char yes = (char)('0' + room_look(&r, 16, 16, &s, 1));
        _exit(write(pipefd[1], &yes, 1) == 1 ? 0 : 5);
    }
    close(pipefd[1]);
    char yes = '?';
    cr_expect_eq(read(pipefd[0], &yes, 1), 1);
    int st;
    waitpid(pid, &st, 0);
    close(pipefd[0]);
    end(&hang, 1);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child failed: %d", st);
    cr_expect_eq(yes, '0', "a paused suspect, but RLIMIT_NPROC is nearly reached");
}

Test(room, the_harness_itself_as_a_suspect_is_unknown)
{
    pid_t self = getpid();
    room r = {0};
    room_suspect s = {self, 0};
    room_look(&r, 16, 16, &s, 1);
    nap_ms(100);
    cr_expect_eq(room_look(&r, 16, 16, &s, 1), 0, "--isolation none: no process of its own");
}

Test(room, cpu_time_is_read_past_any_name_the_process_gives_itself)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        prctl(PR_SET_NAME, ") R 1 1 1 1 1 1 1 1 1 9999999", 0, 0, 0);
        for (;;)
            pause();
    }
    nap_ms(50);
    unsigned long long ticks = 1ull << 60;
    int rc = proc_cpu_ticks(pid, &ticks);
    end(&pid, 1);
    cr_expect_eq(rc, 0);
    cr_expect_lt(ticks, 100, "a paused child has used well under a second: %llu ticks", ticks);
    cr_expect_eq(proc_cpu_ticks(pid, &ticks), -1, "an ended process");
}

Test(room, the_descriptor_limit_is_raised_to_the_hard_one)
{
    struct rlimit lim;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
    rlim_t hard = lim.rlim_max;
    lim.rlim_cur = 256 < hard ? 256 : hard;
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
    room_raise_fd_limit();
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
    rlim_t want = hard == RLIM_INFINITY || hard > 65536 ? 65536 : hard;
    cr_expect_eq(lim.rlim_cur, want);
}
