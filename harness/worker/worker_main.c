/*
 * worker_main.c - `reshape-conform-worker`, the program the harness
 * spawns for each slot: the process that loads the candidate and serves
 * as the slot's zygote, forking its workers, or as its worker
 * (harness/wire/channel.h).  It links only the engine's side of the
 * candidate (harness/build.mk), not the harness's libraries (YAML, JSON,
 * archives, crypto), because every worker is a fork of it: a process with
 * 22 libraries mapped took twice as long to fork and end as one with 5
 * (0.57 against 0.28 ms under load, bench/cands).  Its argv is the
 * harness's own `__worker` command line, so `reshape-conform __worker`
 * (what the harness spawns when this program is missing) runs the same
 * code.  Not built into reshape-conform.
 */
#include "worker.h"

int main(int argc, char **argv)
{
    return cmd_worker(argc - 1, argv + 1);
}
