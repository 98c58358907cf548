/*
 * nvrm_version.h - the kernel module's version from the "NVRM version" line
 * of /proc/driver/nvidia/version, for the device's name.  Header-only, so
 * tests/device checks it on the lines real drivers print.  Depends on libc.
 */
#ifndef CUDA_NVRM_VERSION_H
#define CUDA_NVRM_VERSION_H

#include <stdio.h>
#include <string.h>

/*
 * Writes into out[size] the first word after "Kernel Module" in `line`
 * that starts with a digit: "550.54.15" from "NVIDIA UNIX x86_64 Kernel
 * Module  550.54.15  Tue Mar  5 ...", "580.159.04" from the open module's
 * "NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build";
 * "" when there is none.
 */
static inline void nvrm_module_version(const char *line, char *out, size_t size)
{
    const char *k = strstr(line, "Kernel Module");
    char word[32];
    int used = 0;

    *out = '\0';
    for (size_t off = 13; k && sscanf(k + off, " %31s%n", word, &used) == 1; off += (size_t)used)
        if (word[0] >= '0' && word[0] <= '9') {
            snprintf(out, size, "%s", word);
            return;
        }
}

#endif
