/*
 * sandbox_layers.h - the layers of the workers' sandbox as this machine
 * offers them (sandbox_layers.c; docs/harness/sandbox.md, "Layers this
 * machine offers"), probed from the harness's own process without
 * confining it, for `run --help` and the report's host.sandbox.layers
 * (reports/SCHEMA.md): per layer whether the kernel and the image let the
 * workers have it, and when not, why and what a run does instead, so
 * that a missing layer is said, never skipped in silence.  Depends on
 * Linux (landlock_create_ruleset, seccomp, unshare, /proc, cgroup v1),
 * libseccomp (its API level, as worker/sandbox_confine.c asks it).
 */
#ifndef HARNESS_SANDBOX_LAYERS_H
#define HARNESS_SANDBOX_LAYERS_H


/* The layers, in the order --help and the report list them. */
enum {
    SANDBOX_LAYER_LANDLOCK,     /* Landlock: files, TCP, abstract sockets */
    SANDBOX_LAYER_SECCOMP,      /* the seccomp filters (sandbox_install) */
    SANDBOX_LAYER_OBSERVER,     /* seccomp user notification, pidfd_getfd */
    SANDBOX_LAYER_USERNS,       /* a user namespace (a non-root run's) */
    SANDBOX_LAYER_NETNS,        /* a network namespace of the workers' own */
    SANDBOX_LAYER_MOUNTNS,      /* a mount namespace: the scratch tmpfs */
    SANDBOX_LAYER_UID,          /* root dropped to nobody */
    SANDBOX_LAYER_PIDS,         /* a pids cgroup of the run's (bounds) */
    SANDBOX_LAYERS
};

/* One layer. */
typedef struct sandbox_layer {
    const char *name;       /* "landlock", "seccomp", "observer",
                               "user-namespace", "network-namespace",
                               "mount-namespace", "uid-drop", "pids-cgroup" */
    int present;            /* 1: the machine offers it to this process */
    int used;               /* 1: a run as this uid would use it (a root
                               run needs no user namespace, for one) */
    char detail[320];       /* present: what it is ("ABI 7"); missing: why
                               (the call and its errno, the setting that
                               refuses it) and what a run does instead */
} sandbox_layer;

/*
 * Probes every layer into out[0 .. SANDBOX_LAYERS).  Landlock's ABI and
 * seccomp's actions are asked of the kernel; the namespaces, the uid drop
 * and a tmpfs mount are tried in short-lived children (fork, then
 * unshare, setresuid or mount there, and _exit), which change nothing of
 * this process or the machine; the pids cgroup as proc/bounds.c looks
 * for it (/proc/self/cgroup, /sys/fs/cgroup/pids, writable).  The first
 * call probes and later ones return its results (one probe a process).
 * Never fails: a layer whose probe cannot be made is missing, saying so.
 * Not thread-safe on its first call.
 */
void sandbox_layers_probe(sandbox_layer out[SANDBOX_LAYERS]);

/* `layers` as --help's lines, one a layer: "NAME: present (DETAIL)" or
 * "NAME: missing: DETAIL" (", not used" after the word when a run as
 * this uid does not use it), indented by `indent`, wrapped at 79 columns
 * with continuation lines 2 further in, each ending in a newline.  A new
 * string (free it). */
char *sandbox_layers_text(const sandbox_layer layers[SANDBOX_LAYERS], int indent);

#endif
