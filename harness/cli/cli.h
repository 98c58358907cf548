/*
 * cli.h - the cli layer's door (harness/ARCHITECTURE.md), the top of the
 * harness: main.c's dispatch table and one cmd_*.c per subcommand, its
 * usage and option table at the top.  Uses every layer below.
 */
#ifndef HARNESS_CLI_H
#define HARNESS_CLI_H

#include <jansson.h>

#include "cert/cert.h"

/* `reshape-conform [run] [OPTIONS]`, or with `list` nonzero `list
 * [OPTIONS]` (cmd_run.c).  Returns the exit code. */
int run_main(int argc, char **argv, int list);

/* The subcommands: each takes its own argv (argv[0] is its name) and
 * returns the exit code (docs/harness/options.md, "Exit codes"). */
int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_expectations(int argc, char **argv);
int cmd_certify(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_perf(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);

/*
 * Prints a command's usage `text` on stdout with "<srcdir>" replaced by
 * the folder the harness reads its cases, renderer and documents from
 * (source_dir(): the source tree, or PREFIX/share/reshape-conform when
 * installed) and "<reference>" by the default candidate's path (usage.c).
 */
void cli_usage(const char *text);

/* The text of `reshape-conform run --help`, for cli_usage (run_usage.c). */
extern const char run_usage[];

/* verify_rerun.c, `verify --rerun` (it runs `run` itself, so it sits here,
 * above cert/). */
/*
 * Reruns the suite on candidate `so` and compares: the file's SHA-256 must
 * be the one member candidate.sha256 names ("rerun-candidate-mismatch",
 * and then nothing runs); the run takes the suite at `cases`, every
 * variant, and the seed, timeout_ms, max_bytes and strict_errors `report`
 * records, with `jobs` (NULL: the default); every (case, variant) must get
 * the verdict the report has ("rerun-verdict-mismatch"), its workers
 * must have loaded the libraries the report records, each with its
 * SHA-256 ("rerun-library-mismatch"; `allow_system`:
 * --allow-system-updates, libraries_compare), its workers confined as the
 * report's sandbox_allow options say, and the bundle at `bundle_path` kept
 * from them.  `argv0` is the program as typed (the workers are the harness
 * binary itself).  Prints one "rerun: ..." line.  A candidate that cannot
 * be loaded ends the process with exit status 3, as a run does.
 */
void rerun_check(checker *k, const bundle *b, json_t *report, const char *so,
                 const char *cases, const char *jobs, int allow_system, char *argv0,
                 const char *bundle_path);

#endif
