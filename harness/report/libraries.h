/*
 * libraries.h - what a certificate pins besides the candidate file: every
 * shared object the workers had mapped after loading the candidate and
 * running its calls (reports/SCHEMA.md, "Libraries").  The parent reads
 * /proc/PID/maps of each live worker (engine_worker_pid), keeps every file
 * with an executable mapping, and records its path, its ELF soname
 * (libelf), the SHA-256 of the file (checked to be the inode that was
 * mapped) and, where dpkg owns it, its Debian package and version
 * (libraries_pkg.c).  Depends on jansson, libelf, libcrypto (report.h's
 * sha256_file) and util.h.
 */
#ifndef HARNESS_LIBRARIES_H
#define HARNESS_LIBRARIES_H

#include <jansson.h>
#include <sys/types.h>

/* The files the harness process itself maps (by device and inode), read
 * before the candidate is loaded anywhere: their objects' role is
 * "harness". */
typedef struct libraries_self {
    dev_t *dev;
    ino_t *ino;
    int n;
} libraries_self;

/* Reads /proc/self/maps into `self`.  Never fails (an unreadable maps file
 * leaves it empty). */
void libraries_self_read(libraries_self *self);
void libraries_self_free(libraries_self *self);

/*
 * The shared objects mapped by the processes pids[0..n) (0 entries are
 * skipped) as a new JSON array, each
 *
 *   {"path", "soname" (or null), "sha256", "package" (or null), "role"}
 *
 * role "candidate" for the file `candidate` (a real path), "harness" for a
 * file the harness itself maps (`self`), "library" for any other; sorted
 * candidate first, then by path.  The executable of the harness is left
 * out.  `sha256` is "unreadable" for a file that cannot be read (a deleted
 * or memfd mapping), "replaced" when the path now holds another inode than
 * the one mapped.  Returns NULL with *err set (a new string) when no
 * process's maps could be read, or none was given.
 */
json_t *libraries_record(const pid_t *pids, int n, const char *candidate,
                         const libraries_self *self, char **err);

/*
 * Sets "package" of every entry of `libs` whose file dpkg knows: "NAME
 * VERSION" (e.g. "libc6:amd64 2.36-9+deb12u4"), from one `dpkg-query -S`
 * and one `dpkg-query -W` (a path below /usr/lib is also tried as /lib,
 * which Debian's merged /usr registers); left null elsewhere, or without
 * dpkg-query.  Paths with glob characters are not looked up.
 */
void libraries_packages(json_t *libs);

#endif
