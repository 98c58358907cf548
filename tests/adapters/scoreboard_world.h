/*
 * scoreboard_world.h - what the scoreboard tests share: a temporary folder
 * (the "world") with adapters/<lib>.so stand-ins, a NumPy report fixture and
 * harness.sh, a stand-in harness that answers a run, `perf`, `certify` and
 * `verify --rerun` without any library installed; and candidates/scoreboard.py
 * run on it.  Depends on Criterion, libc and Debian's /usr/bin/python3.
 */
#ifndef SCOREBOARD_WORLD_H
#define SCOREBOARD_WORLD_H

/* The world's folder (mkdtemp'd by make_world). */
extern char world_dir[64];

/*
 * Makes the world: adapters/<lib>.so for each name in `built` (NULL-ended),
 * an empty tmp/ (the scoreboard's TMPDIR), and harness.sh.  A run of numpy
 * writes the fixture report and exits 1 (nonconformant); of onednn exits
 * `onednn_exit` without a report; of a <lib> with a report_<lib>.json in the
 * world hands that out and exits 1.  `perf` writes a profile for numpy.
 * `certify` writes <lib>-1.0.tar.gz and exits 1, `verify` checks that the
 * bundle exists and says every verdict was reproduced; an executable
 * certify_<lib> or verify_<lib> in the world answers instead, with the same
 * arguments.
 */
void make_world(const char *const *built, int onednn_exit);

/* Writes world_dir/name (mode 0755 when `executable`). */
void write_file(const char *name, const char *text, int executable);

/* Runs the scoreboard on the world with extra `options` (e.g. "" or
 * "--render-only"); returns its exit status. */
int run_scoreboard(const char *options);

/* The world's reports/SCOREBOARD.md (a static buffer). */
char *scoreboard_text(void);

/* 1 when world_dir/path exists. */
int world_has(const char *path);

/* 1 when the world's tmp/ is empty again. */
int world_tmp_is_empty(void);

/* Removes the world (a .fini for every scoreboard test). */
void remove_world(void);

/* mkdir -p world_dir/path; 0 on success. */
int mkdir_world(const char *path);

/* 1 when what the last run_scoreboard printed contains `text`. */
int world_output_has(const char *text);

#endif /* SCOREBOARD_WORLD_H */
