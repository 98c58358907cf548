/*
 * cmd_list.c - `reshape-conform list [OPTIONS]`: print the cases a run with
 * the same selectors (--cases, --filter, --tag, --op, --shard) would take,
 * one "ID OP FILE:LINE" a line.  Exit 0, or 2 when a case file is invalid.
 * The options are those of `run` (cmd_run.c); this is `run --list`.
 */
#include "cli.h"

int cmd_list(int argc, char **argv)
{
    return run_main(argc, argv, 1);
}
