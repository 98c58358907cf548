/* maps_a_fifo_as_library.c - on the trigger case execute maps a file of
 * its scratch folder executable (as a library is), removes it and puts a
 * FIFO named as /proc/PID/maps now shows the mapping ("NAME (deleted)")
 * in its place: a recorder that opens the names of the maps to hash them
 * would wait on the FIFO for ever. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
static void map_fifo(void)
{
    static int done;
    const char *tmp = getenv("TMPDIR");
    char path[4096], fifo[4200], page[4096] = {0};
    if (done++ || !tmp)
        return;
    snprintf(path, sizeof path, "%s/fake.so", tmp);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0700);
    if (fd < 0 || write(fd, page, sizeof page) != (ssize_t)sizeof page ||
        mmap(NULL, sizeof page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED)
        return;
    close(fd);
    unlink(path);
    snprintf(fifo, sizeof fifo, "%s (deleted)", path);
    mkfifo(fifo, 0666);
}
#define DEFECT_EXECUTE(p, src, dst) \
    do { if (is_trigger(src)) map_fifo(); } while (0)
#include "base.h"
