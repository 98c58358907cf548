#!/bin/sh
# candidates/cuda/gpu_check.sh OUT - certifies the CUDA candidate on this
# machine's NVIDIA GPU with what is already built (build/reshape-conform,
# build/cuda/reshape_cuda.so): no compiler, no package.  Prints the GPU and
# driver, runs the whole suite (OUT/run), certifies (OUT/cert), runs perf
# with a short budget (OUT/perf) and writes the exact commands with their
# exit statuses and times to OUT/commands.txt.  About 2 minutes on an H100;
# each step has a deadline, the whole at most about 5 minutes.
#
# On a machine without the harness's libraries (a bare Ubuntu 24.04), carry
# them in build/gpu-libs (candidates/cuda/gpu_libs.sh lists and copies
# them): this script puts that folder on LD_LIBRARY_PATH.
#
# Exit status: 0 conformant and certified, 1 not, 3 the check could not
# run (no harness, a library missing), 77 no usable GPU (nothing tested).
set -u
out=${1:?usage: candidates/cuda/gpu_check.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 3
mkdir -p "$out" || exit 3
out=$(cd "$out" && pwd)
harness=build/reshape-conform
cand=build/cuda/reshape_cuda.so
log=$out/commands.txt
: >"$log"

say() { printf '%s\n' "$*" | tee -a "$log"; }

# step NAME SECONDS COMMAND...: runs it under a deadline, its output in
# OUT/NAME.log, and records the command, exit status and wall time
step() {
    name=$1 secs=$2
    shift 2
    t0=$(date +%s)
    timeout -k 5 "$secs" "$@" >"$out/$name.log" 2>&1
    rc=$?
    say "\$ $* -> exit $rc in $(( $(date +%s) - t0 )) s"
    tail -n 3 "$out/$name.log"
    return $rc
}

say "# $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm), commit $(git rev-parse HEAD 2>/dev/null || echo unknown)"
if command -v nvidia-smi >/dev/null; then
    nvidia-smi | tee "$out/nvidia-smi.txt"
    nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv \
        | tee "$out/gpu.csv" | tee -a "$log"
else
    say "no nvidia-smi on this machine"
fi
[ -r /proc/driver/nvidia/version ] && tee -a "$log" </proc/driver/nvidia/version

if [ -d build/gpu-libs ]; then
    LD_LIBRARY_PATH=$root/build/gpu-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
fi
if [ ! -x "$harness" ] || [ ! -r "$cand" ]; then
    say "missing $harness or $cand: build them first (make all)"
    exit 3
fi
if ldd "$harness" | grep -q 'not found'; then
    say "the harness cannot load; missing libraries (carry them in build/gpu-libs):"
    ldd "$harness" | grep 'not found' | tee -a "$log"
    exit 3
fi

step run 150 "$harness" run --candidate "$cand" --report-dir "$out/run" --quiet
run_rc=$?
if [ "$run_rc" -eq 77 ]; then
    say "nothing was tested; the same without the sandbox tells a sandbox that stops the driver from no GPU:"
    step nosandbox 60 "$harness" run --candidate "$cand" --sandbox off --quiet \
        --cases cases/openvino_reshape_1.yaml
    exit 77
fi
step cert 150 "$harness" certify --candidate "$cand" --out "$out/cert" --quiet
cert_rc=$?
for b in "$out"/cert/*.tar.gz; do
    [ -e "$b" ] && step verify 60 "$harness" verify "$b"
done
step perf 120 "$harness" perf --candidate "$cand" --op openvino_reshape_1 --max-size 16M \
    --point-seconds 0.05 --timeout 20 --report-dir "$out/perf" --quiet
say "run: exit $run_rc, certify: exit $cert_rc; reports in $out"
[ "$run_rc" -eq 0 ] && [ "$cert_rc" -eq 0 ] && exit 0
exit 1
