/*
 * options.h - the settings of a run (cmd_run.c parses them, usage there)
 * and the helpers that parse option values.  Depends on job.h, worker.h.
 */
#ifndef HARNESS_OPTIONS_H
#define HARNESS_OPTIONS_H

#include <stdint.h>

#include "engine/engine.h"
#include "judge/judge.h"

typedef struct run_options {
    const char *candidate;          /* default: see options_default_candidate */
    const char **cases;             /* --cases, repeatable; default <srcdir>/cases */
    int ncases;
    int jobs;                       /* default: online cores */
    int jobs_given;                 /* --jobs N: exactly N slots; else the run may
                                       add as many again (run/widen.h) */
    int timeout_ms;                 /* default 10000 */
    isolation iso;
    int sandbox;                    /* --sandbox on|off: the workers' confinement
                                       (sandbox.h); default on */
    const char **sandbox_allow;     /* --sandbox-allow PATH: more to read */
    int nsandbox_allow;
    const char **sandbox_write;     /* --sandbox-allow-write PATH: more to change */
    int nsandbox_write;
    const char **sandbox_deny;      /* --sandbox-deny PATH: more secrets */
    int nsandbox_deny;
    uint64_t sandbox_scratch_mb;    /* --sandbox-scratch-mb N: each slot's
                                       scratch tmpfs; 0: the default, 64 */
    unsigned variants;              /* bit 1 << variant; default all */
    const char **filters;           /* --filter, repeatable (any of them): ID_GLOB or
                                       ID_GLOB/VARIANT_GLOB, fnmatch */
    int nfilters;
    const char **tags;              /* any of them */
    int ntags;
    unsigned ops;                   /* bit 1 << op; 0: all */
    const char **op_names;
    int nops;
    int shard_k, shard_n;           /* 1-based: shard K of N */
    uint64_t seed;                  /* default 1 */
    uint64_t max_bytes;             /* default 16 MiB */
    int strict_errors;
    int libraries;                  /* --libraries: record the workers' shared objects */
    int list;
    int verbose;                    /* a line per run that did not pass */
    int quiet;                      /* no progress */
    const char *json;
    const char *junit;
    const char *junit_suite_name;   /* --junit-suite-name NAME: the JUnit suite's name */
    const char *report_dir;
    const char *expectations;       /* --expectations FILE (expectations.h) */
    int update_expectations;        /* --update-expectations: drop entries that pass now */
    const char *baseline;           /* --baseline OLD.json (baseline.h) */
    int allow_fixes;                /* --allow-fixes: a fixed known failure passes the gate */
    const char *journal;            /* --journal FILE (journal.h), kept after the run */
    const char *resume;             /* --resume JOURNAL: options from its header */
    int nsettings;                  /* options given other than --resume, --quiet, --verbose */
    int argc;
    char **argv;
} run_options;

void options_defaults(run_options *o, int argc, char **argv);

/* exe_dir()/libreshape_ref.so when it exists, else (installed)
 * exe_prefix()/lib/libreshape_ref.so when it exists, else
 * source_dir()/build/libreshape_ref.so. */
const char *options_default_candidate(void);

/* Decimal unsigned integer in [lo, hi]: returns 0, or -1 when `s` is not
 * one. */
int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* "K/N" with 1 <= K <= N: returns 0 or -1. */
int parse_shard(const char *s, int *k, int *n);
/* A comma-separated list of variant names ("all" for every one) into a
 * mask: returns 0, or -1 with *bad set to the first unknown name (new
 * string). */
int parse_variants(const char *s, unsigned *mask, char **bad);

#endif
