#!/bin/sh
# gitlab.sh - the GitLab template, ci/gitlab/reshape-conform.yml, run by a
# GitLab runner: gitlab-ci-local with its shell executor (--shell-isolation:
# each job in a copy of the project, artifacts passed as GitLab passes them,
# under .gitlab-ci-local/artifacts/JOB, never into the project).  A
# candidate's project is made in TMP/project, a git repository as GitLab
# checks it out, whose .gitlab-ci.yml includes the template (a copy, as a
# local include) with two shards (parallel: 2) and the merge job, and
# whose ci/conformance-baseline.json the first pipeline makes:
#
#   refresh     special_zero_ignored (known bugs), no baseline: the shards
#               and the merge fail with 1, and the pipeline fails;
#               the merge's merged.json is committed as the baseline
#   known       the same candidate against it: every job passes
#   lost        shard 2's artifact of that pipeline lost, the merge job
#               run again alone: it fails with 4 ("shard 2/2 is missing")
#   regression  copies_one_long against the baseline: a shard and the
#               merge fail with 1 and the pipeline fails; the shard says
#               "regressions against ci/conformance-baseline.json", once
#   fix         base (no defect) against it: every job passes and the
#               jobs' logs report FIX lines
#
# Each check reads the runner's own results: its exit status, each job's
# result line ("JOB finished in T", then "FAIL N" or "WARN N" where the
# script exited N), the jobs' logs (.gitlab-ci-local/output/JOB.log) and
# their artifacts.  In each pipeline the JUnit the merge job publishes,
# the file its artifacts:reports:junit names (in the runner's expanded
# YAML; no shard job publishes one), is in the merge job's artifacts, has
# the tests of both shards' JUnit, and is byte for byte what
# `reshape-conform merge` makes of the shards' artifacts.
#
# usage: tests/ci/gitlab.sh GITLAB_CI_LOCAL TMP   (make test-gitlab, from
#        the top of the source tree; GITLAB_CI_LOCAL is the executable)
# Prints one line per failed check and "test-gitlab: N passed, M failed";
# exits 1 when a check failed.

set -u
[ $# -eq 2 ] || { echo "usage: tests/ci/gitlab.sh GITLAB_CI_LOCAL TMP" >&2; exit 2; }
glc=$1
tmp=$2
src=$(pwd)
tool=$src/build/reshape-conform
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "test-gitlab: $*" >&2; }
expect() { # expect WHAT TEST...
    what=$1; shift
    if "$@"; then ok; else fail "$what"; fi
}

proj=$tmp/project
mkdir -p "$proj/ci/gitlab"
cp ci/gitlab/reshape-conform.yml "$proj/ci/gitlab/"
# ci_yaml [BASELINE]: the project's .gitlab-ci.yml, gating on BASELINE
ci_yaml() {
    cat >"$proj/.gitlab-ci.yml" <<YAML
include:
  - local: ci/gitlab/reshape-conform.yml

variables:
  RESHAPE_CONFORM: $tool
  EXTRA_ARGS: "--cases $src/cases/openvino_reshape_1.yaml --filter openvino_example_* --variants dense,infer --timeout-ms 3000"

conformance-shard:
  extends: .reshape-conform-shard
  parallel: 2
  variables:
    CANDIDATE: $src/build/broken/special_zero_ignored.so
${1:+    BASELINE: $1}

conformance-merge:
  extends: .reshape-conform-merge
  needs: [conformance-shard]
${1:+  variables:
    BASELINE: $1}
YAML
}
git() { command git -C "$proj" -c user.name=test-gitlab -c user.email=test-gitlab@invalid "$@"; }
ci_yaml
git init -q -b main && git remote add origin https://gitlab.invalid/kernels/mykernel.git &&
    git add -A && git commit -q -m "the candidate's pipeline" ||
    { echo "test-gitlab: cannot make the project's git repository" >&2; exit 1; }

# the runner's settings are the test's alone: no GCL_* variable of the
# caller's and no ~/.gitlab-ci-local of theirs
for v in $(env | sed -n 's/^\(GCL_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
mkdir -p "$tmp/home"

jobs="conformance-shard: [1/2]|conformance-shard: [2/2]|conformance-merge"
glcdir=$proj/.gitlab-ci-local

# pipeline NAME CANDIDATE [OPTION...]: the pipeline (or, with a job's name
# among the options, that job alone) on build/broken/CANDIDATE.so; the
# runner's output in TMP/NAME.out, its exit status in $rc, each job's
# logs and artifacts copied to TMP/NAME/
pipeline() {
    name=$1 cand=$2; shift 2
    (cd "$proj" && "$glc" --home "$tmp/home" --shell-isolation --no-color --no-artifacts-to-source \
        --variable "CANDIDATE=$src/build/broken/$cand.so" "$@") >"$tmp/$name.out" 2>&1
    rc=$?
    rm -rf "$tmp/$name" && mkdir -p "$tmp/$name" &&
        cp -R "$glcdir/output" "$glcdir/artifacts" "$glcdir/expanded-gitlab-ci.yml" "$tmp/$name/"
}
# result NAME JOB: the exit status the runner reports for JOB in NAME's
# pipeline (0 for a job it passed), or "none" when it did not run
result() {
    awk -v job="$2" '
        index($0, job) == 1 && substr($0, length(job) + 1) ~ /^ +finished in / {
            n = split($0, f, " "); r = (f[n - 1] == "FAIL" || f[n - 1] == "WARN") ? f[n] : 0 }
        END { print (r == "" ? "none" : r) }' "$tmp/$1.out"
}
# results NAME: "JOB=STATUS ..." of every job
results() {
    echo "$jobs" | tr '|' '\n' | while IFS= read -r j; do printf '%s=%s ' "$j" "$(result "$1" "$j")"; done
}
# log NAME JOB: that job's log file; artifacts NAME JOB: its artifacts' folder
# (the runner names both after the job, "[1/2]" spelt as "OiBb1Lw2XQ")
safe() { printf '%s' "$1" | sed -e 's/: \[\([0-9]*\)\/\([0-9]*\)\]/OiBb\1Lw\2XQ/'; }
log() { echo "$tmp/$1/output/$(safe "$2").log"; }
artifacts() { echo "$tmp/$1/artifacts/$(safe "$2")"; }
testcases() { grep -c '<testcase ' "$1" 2>/dev/null; }
# published NAME: the merge job's JUnit is the one published, made of both
# shards' artifacts
published() {
    junit=$(/usr/bin/python3 -c '
import re, sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
def path(job):  # its reports:junit, the variables in it expanded
    v = dict(y.get("variables", {}), **y[job].get("variables", {}))
    return re.sub(r"\$\{?(\w+)\}?", lambda m: str(v.get(m.group(1), m.group(0))),
                  y[job]["artifacts"]["reports"]["junit"])
print(" ".join("%s=%s" % (j, path(j)) for j in sorted(y) if not j.startswith(".")
               and isinstance(y[j], dict) and "reports" in y[j].get("artifacts", {})))' \
        "$tmp/$1/expanded-gitlab-ci.yml")
    expect "$1: the runner publishes '$junit', not conformance/report.xml of conformance-merge alone" \
        [ "$junit" = conformance-merge=conformance/report.xml ]
    x=$(artifacts "$1" conformance-merge)/${junit#conformance-merge=}
    s1=$(artifacts "$1" "conformance-shard: [1/2]")/conformance
    s2=$(artifacts "$1" "conformance-shard: [2/2]")/conformance
    expect "$1: the published JUnit is not in the merge job's artifacts" [ -s "$x" ]
    expect "$1: the published JUnit has $(testcases "$x") tests, not both shards' $(testcases "$s1/shard-1.xml")+$(testcases "$s2/shard-2.xml")" \
        [ "$(testcases "$x")" -eq $(($(testcases "$s1/shard-1.xml") + $(testcases "$s2/shard-2.xml"))) ]
    expect "$1: a shard's JUnit has no test" [ "$(testcases "$s1/shard-1.xml")" -gt 0 ]
    expect "$1: a shard's JUnit has no test" [ "$(testcases "$s2/shard-2.xml")" -gt 0 ]
    b=
    [ "$1" = refresh ] || b="--baseline ci/conformance-baseline.json"
    # shellcheck disable=SC2086
    (cd "$proj" && "$tool" merge "$s1/shard-1.json" "$s2/shard-2.json" $b -o "$tmp/$1.merged.json" \
        --junit "$tmp/$1.report.xml") >/dev/null 2>&1
    expect "$1: the published report.xml is not what the merge of the shards' artifacts makes" \
        cmp -s "$x" "$tmp/$1.report.xml"
}

# refresh: no baseline yet.  The first pipeline validates the YAML against
# GitLab's schema too (the later ones skip that, 4 s each).
pipeline refresh special_zero_ignored
r=$(results refresh)
expect "refresh: the runner exited $rc, not 1 (a red pipeline): $(tail -3 "$tmp/refresh.out")" [ "$rc" -eq 1 ]
expect "refresh: the jobs' results are $r, not 1 each" \
    [ "$r" = "conformance-shard: [1/2]=1 conformance-shard: [2/2]=1 conformance-merge=1 " ]
expect "refresh: shard 1's log does not say 'not conformant'" \
    grep -q -x -F "reshape-conform: shard 1/2: not conformant" "$(log refresh "conformance-shard: [1/2]")"
published refresh
cp "$(artifacts refresh conformance-merge)/conformance/merged.json" "$proj/ci/conformance-baseline.json"
ci_yaml ci/conformance-baseline.json
git add -A && git commit -q -m "the baseline"

pipeline known special_zero_ignored --no-json-schema-validation
r=$(results known)
expect "known: the runner exited $rc, not 0 (a green pipeline): $(tail -3 "$tmp/known.out")" [ "$rc" -eq 0 ]
expect "known: the jobs' results are $r, not 0 each" \
    [ "$r" = "conformance-shard: [1/2]=0 conformance-shard: [2/2]=0 conformance-merge=0 " ]
published known
expect "known: failures in the published JUnit" \
    grep -q '<testsuite name=[^>]* failures="0" errors="0"' "$(artifacts known conformance-merge)/conformance/report.xml"

rm -rf "$glcdir/artifacts/$(safe 'conformance-shard: [2/2]')"
pipeline lost special_zero_ignored --no-json-schema-validation conformance-merge
expect "lost: the runner exited $rc, not 1 (a red pipeline)" [ "$rc" -eq 1 ]
expect "lost: the merge job's result is $(result lost conformance-merge), not 4 (not one whole run)" \
    [ "$(result lost conformance-merge)" = 4 ]
expect "lost: the merge job's log does not name the missing shard" \
    grep -q "shard 2/2 is missing" "$(log lost conformance-merge)"
expect "lost: the merge job still published a report.xml" [ ! -e "$(artifacts lost conformance-merge)/conformance/report.xml" ]

pipeline regression copies_one_long --no-json-schema-validation
s1=$(result regression "conformance-shard: [1/2]") s2=$(result regression "conformance-shard: [2/2]")
expect "regression: the runner exited $rc, not 1 (a red pipeline)" [ "$rc" -eq 1 ]
expect "regression: the shards' results are $s1 $s2, not 0 or 1 and one of them 1" \
    sh -c "[ '$s1$s2' = 01 ] || [ '$s1$s2' = 10 ] || [ '$s1$s2' = 11 ]"
expect "regression: the merge job's result is $(result regression conformance-merge), not 1" \
    [ "$(result regression conformance-merge)" = 1 ]
k=$([ "$s1" = 1 ] && echo 1 || echo 2)
msg=$(grep "^reshape-conform: shard $k/2:" "$(log regression "conformance-shard: [$k/2]")")
expect "regression: shard $k's log says '$msg', not 'regressions against ci/conformance-baseline.json' once" \
    [ "$msg" = "reshape-conform: shard $k/2: regressions against ci/conformance-baseline.json" ]
expect "regression: no REGRESSION line in the merge job's log" \
    grep -q "^ *REGRESSION " "$(log regression conformance-merge)"
published regression
expect "regression: the CRASH is not an <error> of the published JUnit" \
    grep -q '<error type="CRASH"' "$(artifacts regression conformance-merge)/conformance/report.xml"

pipeline fix base --no-json-schema-validation
r=$(results fix)
expect "fix: the runner exited $rc, not 0 (a green pipeline)" [ "$rc" -eq 0 ]
expect "fix: the jobs' results are $r, not 0 each" \
    [ "$r" = "conformance-shard: [1/2]=0 conformance-shard: [2/2]=0 conformance-merge=0 " ]
expect "fix: no FIX line in the shards' logs" \
    grep -q -h "^ *FIX " "$(log fix "conformance-shard: [1/2]")" "$(log fix "conformance-shard: [2/2]")"
expect "fix: no FIX line in the merge job's log" grep -q "^ *FIX " "$(log fix conformance-merge)"
published fix

echo "test-gitlab: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
