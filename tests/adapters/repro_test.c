/*
 * repro_test.c - tests/adapters/repro.sh, the runner of the reproducers
 * (tests/adapters/repro.mk), on stand-in reproducers written into a
 * temporary folder: a finding that holds passes, one whose behaviour
 * changed, that does not build, dies or exits with another status fails,
 * 77 is a skip, and a library that is not installed is one "skipped" line.
 * Depends on Criterion, libc, gcc and POSIX sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

static char dir[64];
static char output[16384];

static void make_dir(void)
{
    strcpy(dir, "/tmp/repro_test.XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/src", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* Writes dir/src/name with `text`. */
static void write_src(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/src/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* A C reproducer `name`.c whose main returns `body`'s statement. */
static void write_c(const char *name, const char *body)
{
    char text[512], file[64];
    snprintf(text, sizeof text, "#include <stdlib.h>\nint main(void) { %s }\n", body);
    snprintf(file, sizeof file, "%s.c", name);
    write_src(file, text);
}

/* Runs repro.sh on library "lib" with READY `ready` (relative to dir, or
 * "" for a missing one) and extra environment `env`; its output into
 * `output`; returns its exit status. */
static int run_repro(const char *ready, const char *env)
{
    char cmd[1024], log[96];
    snprintf(log, sizeof log, "%s/out.log", dir);
    snprintf(cmd, sizeof cmd,
             "REPRO_READY='%s/%s' REPRO_CC=gcc REPRO_FLAGS= REPRO_LDLIBS= "
             "REPRO_ENV= %s sh tests/adapters/repro.sh lib '%s/src' '%s/out' >'%s' 2>&1",
             dir, ready[0] ? ready : "missing", env, dir, dir, log);
    int status = system(cmd);
    FILE *f = fopen(log, "r");
    cr_assert_not_null(f);
    size_t n = fread(output, 1, sizeof output - 1, f);
    output[n] = '\0';
    fclose(f);
    cr_assert(WIFEXITED(status), "repro.sh did not exit: %s", output);
    return WEXITSTATUS(status);
}

Test(repro, findings_that_hold_pass, .init = make_dir, .fini = remove_dir)
{
    write_c("a", "return 0;");
    write_src("b.py", "print('finding b')\n");
    cr_expect_eq(run_repro("src", ""), 0, "%s", output);
    cr_expect(strstr(output, "repro: lib/a: holds") != NULL, "%s", output);
    cr_expect(strstr(output, "repro: lib/b: holds") != NULL, "%s", output);
    cr_expect(strstr(output, "repro: lib: 2 of 2 hold, 0 changed or broken, 0 skipped") != NULL,
              "%s", output);
}

Test(repro, a_changed_behaviour_fails_and_says_to_update_the_finding, .init = make_dir,
     .fini = remove_dir)
{
    write_c("a", "return 0;");
    write_src("gone.c", "#include <stdio.h>\nint main(void) { puts(\"bytes now 01 02\"); return 1; }\n");
    cr_expect_eq(run_repro("src", ""), 1, "%s", output);
    cr_expect(strstr(output, "repro: FAIL lib/gone: the behaviour it documents is gone; "
                             "update the finding") != NULL, "%s", output);
    cr_expect(strstr(output, "bytes now 01 02") != NULL, "its output is printed: %s", output);
    cr_expect(strstr(output, "repro: lib/a: holds") != NULL, "the others still run: %s", output);
}

Test(repro, exit_77_is_a_skip, .init = make_dir, .fini = remove_dir)
{
    write_src("a.py", "import sys\nprint('no such module')\nsys.exit(77)\n");
    cr_expect_eq(run_repro("src", ""), 0, "%s", output);
    cr_expect(strstr(output, "repro: skipped lib/a: the library cannot be used here: "
                             "no such module") != NULL, "%s", output);
}

Test(repro, a_library_not_installed_is_one_skipped_line, .init = make_dir,
     .fini = remove_dir)
{
    write_c("a", "return 1;");
    cr_expect_eq(run_repro("", ""), 0, "%s", output);
    cr_expect(strncmp(output, "repro: skipped lib: '", 21) == 0, "%s", output);
    cr_expect(strchr(output, '\n') == output + strlen(output) - 1, "one line: %s", output);
}

Test(repro, a_reproducer_that_does_not_build_fails, .init = make_dir, .fini = remove_dir)
{
    write_c("a", "int unused; return 0;");
    cr_expect_eq(run_repro("src", ""), 1, "%s", output);
    cr_expect(strstr(output, "repro: FAIL lib/a.c: did not build") != NULL, "%s", output);
    cr_expect(strstr(output, "unused") != NULL, "the compiler's message: %s", output);
}

Test(repro, a_crash_or_another_status_fails, .init = make_dir, .fini = remove_dir)
{
    write_c("crash", "abort();");
    write_c("three", "return 3;");
    cr_expect_eq(run_repro("src", ""), 1, "%s", output);
    cr_expect(strstr(output, "repro: FAIL lib/crash: exit status 134") != NULL, "%s", output);
    cr_expect(strstr(output, "repro: FAIL lib/three: exit status 3") != NULL, "%s", output);
}

Test(repro, a_reproducer_that_hangs_fails, .init = make_dir, .fini = remove_dir)
{
    write_src("hang.py", "import time\ntime.sleep(30)\n");
    cr_expect_eq(run_repro("src", "REPRO_TIMEOUT=1"), 1, "%s", output);
    cr_expect(strstr(output, "repro: FAIL lib/hang: did not end within 1 s") != NULL, "%s",
              output);
}

Test(repro, a_library_without_reproducers_fails, .init = make_dir, .fini = remove_dir)
{
    cr_expect_eq(run_repro("src", ""), 1, "%s", output);
    cr_expect(strstr(output, "holds no reproducer") != NULL, "%s", output);
}

Test(repro, the_environment_prefix_reaches_the_reproducer, .init = make_dir,
     .fini = remove_dir)
{
    write_src("env.py", "import os, sys\nsys.exit(0 if os.environ.get('X') == 'y' else 1)\n");
    cr_expect_eq(run_repro("src", "REPRO_ENV='env X=y'"), 0, "%s", output);
    cr_expect_eq(run_repro("src", ""), 1, "without it the finding does not hold: %s", output);
}
