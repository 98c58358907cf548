#!/bin/sh
# template.sh - the CI templates' steps (ci/run-template.sh) end to end on
# broken candidates, as a candidate's pipeline lives them, two shards each:
#
#   refresh     special_zero_ignored (known bugs), no baseline: the shards
#               and the merge exit 1; merged.json becomes the baseline
#   known       the same candidate against it: every shard and the merge
#               exit 0, the merged JUnit has no failure or error and the
#               known failures as <skipped message="known: ...">
#   regression  copies_one_long against it: a shard and the merge exit 1,
#               the merged JUnit has its CRASH as an <error>
#   partial     the regression's shard 2 report lost: the merge refuses
#               the set with 4, never green
#   fix         base (no defect) against it: exit 0, FIX lines, no
#               skipped known
#   waived      special_zero_ignored with expectations, no baseline, the
#               whole case file: exit 0, the JUnit names the reason and
#               tracker
#
# Every JUnit file (the shards' and the merged) validates against Jenkins'
# junit-10.xsd (XSD).  A failing shard's message names its gate once
# ("regressions against BASELINE", or "not conformant").  Then the
# templates: each line of run-template.sh's shard and merge steps, but the
# messages and the exit, is in ci/github/action.yml and
# ci/gitlab/reshape-conform.yml, which are YAML, and so is each message's
# text (but GitHub's ::error:: prefix).
#
# usage: tests/ci/template.sh XSD TMP   (make test-ci-template, from the top
#        of the source tree)
# Prints one line per failed check and "test-ci-template: N passed, M
# failed"; exits 1 when a check failed.

set -u
[ $# -eq 2 ] || { echo "usage: tests/ci/template.sh XSD TMP" >&2; exit 2; }
xsd=$1
tmp=$2
src=$(pwd)
passed=0
failed=0
skipped=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "test-ci-template: $*" >&2; }
expect() { # expect WHAT TEST...
    what=$1; shift
    if "$@"; then ok; else fail "$what"; fi
}
# Jenkins' schema is a third-party file the repository does not carry: in
# a clone alone the pipelines still run, and each validation is skipped.
if [ ! -r "$xsd" ]; then
    echo "test-ci-template: Jenkins' junit-10.xsd is not readable at JUNIT_XSD='$xsd':" \
        "its validations are skipped; give make JUNIT_XSD=PATH to run them"
    xsd=
fi

export RESHAPE_CONFORM="$src/build/reshape-conform"
export EXTRA_ARGS="--cases cases/openvino_reshape_1.yaml --filter openvino_example_* --variants dense,infer --timeout-ms 3000"
export SUITE_NAME=conformance

# pipeline NAME CANDIDATE: both shards and the merge into TMP/NAME; their
# exit statuses in $rc1 $rc2 $rcm
pipeline() {
    export OUT="$tmp/$1" CANDIDATE="$src/build/broken/$2.so"
    sh ci/run-template.sh shard 1 2 >"$tmp/$1.shard1.out" 2>&1; rc1=$?
    sh ci/run-template.sh shard 2 2 >"$tmp/$1.shard2.out" 2>&1; rc2=$?
    sh ci/run-template.sh merge >"$tmp/$1.merge.out" 2>&1; rcm=$?
    for f in "$OUT/shard-1.xml" "$OUT/shard-2.xml" "$OUT/report.xml"; do
        if [ -z "$xsd" ]; then skipped=$((skipped + 1))
        elif xmllint --noout --schema "$xsd" "$f" >"$tmp/xmllint.out" 2>&1; then ok; else
            fail "$1: $f does not validate: $(tail -3 "$tmp/xmllint.out")"; fi
    done
}
count() { grep -c -- "$1" "$2"; }        # count PATTERN FILE: matching lines
attr() { # attr NAME FILE: NAME="N" of the <testsuite> element
    sed -n "s/.*<testsuite name=[^>]* $1=\"\\([0-9]*\\)\".*/\\1/p" "$2"
}

pipeline refresh special_zero_ignored
expect "refresh: shards exited $rc1 $rc2, merge $rcm, not 1 (nonconformant)" \
    [ "$rc1$rc2$rcm" = 111 ]
expect "refresh: the merged JUnit has no failure" [ "$(attr failures "$tmp/refresh/report.xml")" -gt 0 ]
for k in 1 2; do
    expect "refresh: shard $k/2 does not say 'not conformant': $(grep "shard $k/2:" "$tmp/refresh.shard$k.out")" \
        grep -q -x -F "reshape-conform: shard $k/2: not conformant" "$tmp/refresh.shard$k.out"
done
cp "$tmp/refresh/merged.json" "$tmp/baseline.json"
export BASELINE="$tmp/baseline.json"

pipeline known special_zero_ignored
x=$tmp/known/report.xml
expect "known: shards exited $rc1 $rc2, merge $rcm, not 0" [ "$rc1$rc2$rcm" = 000 ]
expect "known: failures or errors in the JUnit of a passing gate" \
    [ "$(attr failures "$x")$(attr errors "$x")" = 00 ]
expect "known: the known failures are not skipped as known" \
    [ "$(count 'message="known: failed in the baseline' "$x")" -eq "$(attr failures "$tmp/refresh/report.xml")" ]
expect "known: the suite is not named $SUITE_NAME" grep -q "<testsuite name=\"$SUITE_NAME\"" "$x"

pipeline regression copies_one_long
x=$tmp/regression/report.xml
expect "regression: shards exited $rc1 $rc2, not one of them 1" sh -c "[ $rc1 -eq 1 ] || [ $rc2 -eq 1 ]"
expect "regression: a shard exited neither 0 nor 1 ($rc1 $rc2)" sh -c "[ $rc1 -le 1 ] && [ $rc2 -le 1 ]"
expect "regression: merge exited $rcm, not 1 (the gate over the merged run)" [ "$rcm" -eq 1 ]
expect "regression: the CRASH is not an <error>" grep -q '<error type="CRASH"' "$x"
expect "regression: no REGRESSION line" grep -q '^ *REGRESSION ' "$tmp/regression.shard1.out" "$tmp/regression.shard2.out"
expect "regression: no REGRESSION line from the merge" grep -q '^ *REGRESSION ' "$tmp/regression.merge.out"
# the shard's message names the gate once: the baseline's path under a
# baseline, "not conformant" without one (it once printed the path twice)
for k in 1 2; do
    eval "rc=\$rc$k"
    [ "$rc" -eq 1 ] || continue
    expect "regression: shard $k/2 does not say 'regressions against $BASELINE' once: $(grep "shard $k/2:" "$tmp/regression.shard$k.out")" \
        grep -q -x -F "reshape-conform: shard $k/2: regressions against $BASELINE" "$tmp/regression.shard$k.out"
done

rm "$tmp/regression/shard-2.json"
OUT="$tmp/regression" sh ci/run-template.sh merge >"$tmp/partial.merge.out" 2>&1; rcp=$?
expect "partial: merge of one shard of two exited $rcp, not 4" [ "$rcp" -eq 4 ]
expect "partial: the missing shard is not named" grep -q 'shard 2/2 is missing' "$tmp/partial.merge.out"

pipeline fix base
x=$tmp/fix/report.xml
expect "fix: shards exited $rc1 $rc2, merge $rcm, not 0" [ "$rc1$rc2$rcm" = 000 ]
expect "fix: no FIX line" grep -q '^ *FIX ' "$tmp/fix.shard1.out" "$tmp/fix.shard2.out"
expect "fix: failures, errors or known in the JUnit" \
    [ "$(attr failures "$x")$(attr errors "$x")$(count 'known:' "$x")" = 000 ]

# every failure of special_zero_ignored in openvino_reshape_1.yaml waived,
# over the whole file: a shard whose results are all WAIVED has no PASS, and
# a run where nothing passed is not conformant
unset BASELINE
export EXPECTATIONS="$tmp/expectations.yaml"
export EXTRA_ARGS="--cases cases/openvino_reshape_1.yaml --variants dense,infer --timeout-ms 3000"
cat >"$EXPECTATIONS" <<'YAML'
expectations:
  - id: "openvino_example_[2-5]_*"
    verdict: FAIL
    reason: "special_zero is read as false"
    tracker: https://example.org/issues/7
  - id: "openvino_copying_zero_is_left_aligned"
    verdict: FAIL
    reason: "special_zero is read as false"
  - id: "openvino_copying_zero_below_rank_copies"
    verdict: FAIL
    reason: "special_zero is read as false"
  - id: "openvino_special_zero_true_copies_*"
    verdict: FAIL
    reason: "special_zero is read as false"
YAML
pipeline waived special_zero_ignored
x=$tmp/waived/report.xml
expect "waived: shards exited $rc1 $rc2, merge $rcm, not 0" [ "$rc1$rc2$rcm" = 000 ]
expect "waived: no reason and tracker in the JUnit" \
    grep -q 'message="known: special_zero is read as false (https://example.org/issues/7)"' "$x"
expect "waived: an entry without a tracker is not said so" \
    grep -q 'message="known: special_zero is read as false (no tracker)"' "$x"
expect "waived: failures or errors in the JUnit" [ "$(attr failures "$x")$(attr errors "$x")" = 00 ]

# The templates run the script's lines: those of its shard and merge steps
# but the messages (the case arms) and the exit.
sed -n '/# --- the \(shard\|merge\) step/,/# --- end of the/p' ci/run-template.sh |
    sed -e 's/^ *//' | grep -v -e '^#' -e '^case ' -e '^esac' -e '^exit ' -e '^[0-9*]*) ' \
    >"$tmp/steps"
expect "no steps found in ci/run-template.sh" [ "$(wc -l <"$tmp/steps")" -ge 8 ]
for t in ci/github/action.yml ci/gitlab/reshape-conform.yml; do
    sed -e 's/^ *//' "$t" >"$tmp/template"
    while IFS= read -r line; do
        grep -q -x -F -- "$line" "$tmp/template" || fail "$t lacks the step line: $line"
    done <"$tmp/steps"
    if /usr/bin/python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$t"; then ok
    else fail "$t is no YAML"; fi
done

# and the messages: each arm's text (without GitHub's ::error:: or
# ::warning:: prefix) is the script's, so that a fix in one is in all
sed -n '/# --- the shard step/,/# --- end of the/p' ci/run-template.sh |
    sed -n 's/^ *\([0-9*]*)\) echo "\([^"]*\)".*/\1 \2/p' >"$tmp/messages"
expect "no messages found in ci/run-template.sh" [ "$(wc -l <"$tmp/messages")" -eq 4 ]
for t in ci/github/action.yml ci/gitlab/reshape-conform.yml; do
    sed -n 's/^ *\([0-9*]*)\) echo "\(::[a-z]*::\)\{0,1\}\([^"]*\)".*/\1 \3/p' "$t" >"$tmp/template"
    while IFS= read -r line; do
        grep -q -x -F -- "$line" "$tmp/template" || fail "$t lacks the message: $line"
    done <"$tmp/messages"
done

echo "test-ci-template: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
