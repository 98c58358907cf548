/*
 * main.c - `reshape-conform`: the dispatch table of subcommands.  `run` is
 * the default when the first argument is an option or absent.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "engine/engine.h"
#include "worker/worker.h"
#include "perf/perf.h"
#include "cli.h"

int cmd_run(int argc, char **argv)
{
    return run_main(argc, argv, 0);
}

static const struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *what;
} commands[] = {
    {"run", cmd_run, "run the cases against a candidate (the default)"},
    {"list", cmd_list, "print the selected cases"},
    {"merge", cmd_merge, "join the JSON reports of shards into one"},
    {"compare", cmd_compare, "gate a JSON report against a previous one"},
    {"expectations", cmd_expectations, "write an expectations file from a report"},
    {"certify", cmd_certify, "run the full suite and write a certification bundle"},
    {"verify", cmd_verify, "check a certification bundle"},
    {"perf", cmd_perf, "time a candidate's execute beside memcpy"},
    {"fuzz", cmd_fuzz, "compare a candidate with the reference on random requests"},
};

/* `help`, `--help` and `-h`: every subcommand of the table above. */
static int help(void)
{
    printf("usage: reshape-conform [COMMAND] [OPTIONS]\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        printf("  %-8s %s\n", commands[i].name, commands[i].what);
    printf("\n'reshape-conform COMMAND --help' describes each; man reshape-conform.\n");
    return EXIT_CONFORMANT;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
                      !strcmp(argv[1], "-h")))
        return help();
    if (argc < 2 || argv[1][0] == '-')
        return cmd_run(argc, argv);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    /* how the harness starts its own workers (wire/channel.h); not listed */
    if (!strcmp(argv[1], "__worker"))
        return cmd_worker(argc - 1, argv + 1);
    if (!strcmp(argv[1], "__perf"))
        return cmd_perf_worker(argc - 1, argv + 1);
    if (!strcmp(argv[1], "__device"))
        return cmd_device_worker(argc - 1, argv + 1);
    if (!strcmp(argv[1], "help"))
        return help();
    fprintf(stderr, "reshape-conform: unknown command '%s' (", argv[1]);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(stderr, "%s, ", commands[i].name);
    fprintf(stderr, "or help)\n");
    return EXIT_USAGE;
}
