/* ctor_reads_shadow.c - a constructor opens /etc/shadow: a secret read
 * while the candidate is loaded, which the sandbox stops. */
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void peek(void)
{
    int fd = open("/etc/shadow", O_RDONLY);
    if (fd >= 0)
        close(fd);
}
#include "base.h"
