#!/bin/sh
# test_times.sh DIR WALL_SECONDS JOBS - the table `make test` ends with: for
# each test target, the wall time it took and the CPU time (user + system,
# of every process it ran) from DIR/<target>.time, which /usr/bin/time
# wrote ("WALL USER SYS", after a line saying how it failed when it did),
# slowest in CPU first; then the total CPU time of the targets and
# WALL_SECONDS, the wall time of the whole `make test-run` with JOBS
# targets at a time; and the build's, DIR/build.time, when there is one.  On 2 cores, 3 minutes of wall time is 360 CPU-s at
# most: the CPU column says where the time goes when the machine is shared.
dir=$1 wall=$2 jobs=$3
for f in "$dir"/*.time; do
    [ -f "$f" ] && [ "$(basename "$f")" != build.time ] || continue
    name=$(basename "$f" .time)
    status=ok
    grep -q "non-zero status\|terminated by signal" "$f" && status=FAILED
    tail -n 1 "$f" | awk -v n="$name" -v s="$status" '{printf "%s %.1f %.1f %.1f %s\n", n, $1, $2 + $3, $2, s}'
done | sort -k3 -g -r | awk -v wall="$wall" -v jobs="$jobs" '
    BEGIN { printf "\ntest times (slowest in CPU first; CPU = user + system of every process):\n" }
    { printf "  %-24s %8.1f s wall %8.1f CPU-s%s\n", $1, $2, $3, $5 == "FAILED" ? "  FAILED" : ""
      cpu += $3; n++ }
    END { printf "  %-24s %8.1f s wall %8.1f CPU-s (%d targets, %d at a time)\n", "total", wall, cpu, n, jobs }'
[ -f "$dir/build.time" ] && tail -n 1 "$dir/build.time" |
    awk '{ printf "  %-24s %8.1f s wall %8.1f CPU-s (before the tests)\n", "build (make all)", $1, $2 + $3 }'
