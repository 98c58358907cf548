"""scoreboard.py - runs the harness on every built library adapter and writes
reports/SCOREBOARD.md: a table of candidate x operation with counts per
verdict, and for each library what it gets wrong, in plain words, with the
case ids that show it.

Usage: /usr/bin/python3 candidates/scoreboard.py [--harness PATH]
           [--adapters DIR] [--reports DIR] [--render-only | --only LIB,...]

For each library in LIBRARIES whose adapter DIR/<library>.so exists it runs
  HARNESS --candidate DIR/<library>.so --report-dir REPORTS/<library> --quiet
(with OMP_NUM_THREADS=1: oneDNN and libtorch then use one OpenMP thread, as the
harness runs its own threads and forks workers) and reads the JSON it
writes, then profiles it (scoreboard_perf.py) and certifies it and reruns
the bundle (scoreboard_certify.py).  A library that is not built is listed as
such.  --render-only reads the existing reports without running anything;
--only LIB,... runs those libraries (not the reference's profile) and reads
the others' existing reports, so that one library can be run again.

Exit status: 0 the scoreboard was written (whatever the libraries' verdicts:
the harness's exit 1, nonconformant, or a bundle that does not reproduce is a
result, not a failure); 2 bad usage; 3 the harness failed (exit 2 or 3, or no
report or bundle written) for some library, after writing the scoreboard.

Findings are reported as measured: the harness groups the failing entries
into findings (reports/SCHEMA.md, "Findings"); nothing here hides or
re-judges a verdict, it only attaches a note to a finding's signature.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time

import scoreboard_certify
import scoreboard_layouts
import scoreboard_perf

LIBRARIES = ["onednn", "onednn_graph", "onnxruntime", "libtorch", "numpy", "xnnpack",
             "xtensor", "eigen", "opencv", "armnn"]
OPS = ["openvino_reshape_1", "onednn_static_reshape_1",
       "onednn_dynamic_reshape_1", "onnx_reshape_14"]
# Verdict columns, in reports/SCHEMA.md order.
VERDICTS = ["PASS", "FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT",
            "MEMORY_VIOLATION", "LEAK", "FLOOD", "NOT_SUPPORTED", "WAIVED",
            "UNEXPECTED_PASS"]
COUNTS_AGAINST = {"FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT",
                  "MEMORY_VIOLATION", "LEAK", "FLOOD", "UNEXPECTED_PASS"}

# Plain-words explanations of findings, keyed by the finding's signature in
# the harness's report (reports/SCHEMA.md, "Findings"): (library, signature)
# -> what the library does, checked against the cases that show them when
# they were written.  A signature written without " (on VARIANT)" also names
# the same finding confined to one layout.  A finding without a note is still
# listed; a note whose finding disappears is simply not printed.
NOTES = [
    ("onednn", "FAIL: returned INVALID_ARGUMENT where a shape was expected",
     "dnnl_memory_desc_reshape refuses every reshape of an empty tensor (all of these "
     "cases have a 0 in the input dims)"),
    ("onednn", "FAIL: bytes differ",
     "the reorder that moves f16 elements converts them through f32: -0.0 comes out "
     "as +0.0 and signalling NaNs come out quiet (7d55 becomes 7f55); on a host "
     "without AVX-512 (ONEDNN_VERBOSE names the reorder simple:any, isa AVX2) bf16 "
     "goes the same way, and its denormals are flushed too (8000 becomes 0000, 7f95 "
     "7fd5, 0001 0000); on the host of the scoreboard before, bf16 passed"),
    ("onednn", "CRASH: signal N (Floating point exception) in execute",
     "a reorder of an empty tensor with strides dies with SIGFPE inside libdnnl's "
     "parallel reorder driver (dnnl_primitive_execute)"),
    ("onednn", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "the primitive API has no operation type list: s32, s8 and u8 data pass where "
     "StaticReshape and DynamicReshape list f32, f16 and bf16 only"),
    ("onednn_graph", "CRASH: signal N (Aborted) in infer_shape",
     "dnnl_graph_partition_compile (oneDNN 3.13.1) ends the process: for an f32 input of "
     "dims [4611686018427387904] and shape [-1] (any input whose volume fits int64 but whose "
     "byte size does not) make_dnnl_memory_desc, called from layout_propagator_for_reshape, "
     "throws dnnl::error \"could not construct a memory descriptor using strides\", which "
     "escapes the C API: std::terminate, SIGABRT, instead of a dnnl_status_t"),
    ("onednn_graph", "CRASH: signal N (Aborted) in execute",
     "dnnl_graph_partition_compile (oneDNN 3.13.1) ends the process for an output logical "
     "tensor whose strides interleave its dims: f32 [6] to [3, 2] with dst strides [2, 3] "
     "(offsets 0 3 2 5 4 7, distinct) makes make_dnnl_memory_desc, called from "
     "layout_propagator_for_reshape, throw dnnl::error \"could not construct a memory "
     "descriptor using strides\", which escapes the C API: std::terminate, SIGABRT"),
    ("onednn_graph", "ACCEPTED_INVALID: returned OK where OVERFLOW was expected",
     "infer_static_reshape_output_shape (oneDNN 3.13.1, src/graph/interface/shape_infer.cpp) "
     "multiplies the input dims in dim_t without an overflow check: an f32 input of dims "
     "[4294967296, 4294967296] (volume 2^64) with shape [-1] wraps to volume 0, and "
     "dnnl_graph_partition_compile succeeds with the output dims [0]"),
    ("onnxruntime", "ACCEPTED_INVALID: returned OK where ZERO_AND_MINUS_ONE was expected",
     "with allowzero = 1 and an empty input, ONNX Runtime solves a -1 beside a literal "
     "0 instead of refusing the shape"),
    ("onnxruntime", "FAIL: returned OVERFLOW where a shape was expected",
     "ONNX Runtime multiplies the dims before it looks for a 0: an empty tensor whose "
     "other dims multiply past int64 is refused"),
    ("libtorch", "FAIL: returned OVERFLOW where a shape was expected",
     "libtorch multiplies the dims before it looks for a 0: an empty tensor whose other "
     "dims multiply past int64 is refused"),
    ("libtorch", "FAIL: bytes differ",
     "copy_ of a bool tensor writes 0 or 1: any other boolean byte comes out as 01, "
     "in place too"),
    ("libtorch", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "at::reshape has no type list: any libtorch dtype passes for the oneDNN operations"),
    ("numpy", "ACCEPTED_INVALID: returned OK where BELOW_MINUS_ONE was expected",
     "PyArray_Newshape takes every negative value as the unknown dimension: -2 or "
     "INT32_MIN act as -1"),
    ("numpy", "FAIL: returned OVERFLOW where a shape was expected",
     "PyArray_Newshape refuses an empty array whose nonzero dims times the item size pass "
     "NPY_MAX_INTP: f64 [0] to [0, 1152921504606846976] is \"array is too big\" although it "
     "holds no element; found by reshape-conform fuzz (cases/found_by_fuzz.yaml)"),
    ("numpy", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "PyArray_Newshape has no type list: any NumPy dtype passes for the oneDNN operations"),
    ("xnnpack", "ACCEPTED_INVALID: returned OK where VOLUME_MISMATCH was expected",
     "xnn_define_static_reshape (2022) compares no volumes: it takes any explicit "
     "shape, and the copy then moves the input's volume whatever the output's is "
     "(tests/adapters: 24 elements written into a [4,5] destination, past its end)"),
    ("xnnpack", "MEMORY_VIOLATION", "execute into the dims infer_shape returned",
     "the copy after an accepted mismatch moves the input's volume, not the output's: "
     "f32 [2,3,4] into the [7,3] it accepted writes past the end of the 21-element dst, "
     "and f32 [1] into an accepted [0] writes into the page after the empty dst"),
    ("xnnpack", "ACCEPTED_INVALID: returned OK where OVERFLOW was expected",
     "dims are size_t and their products wrap silently"),
    ("xnnpack", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "s8 and u8 (qint8, quint8) pass where the oneDNN operations list f32, f16 and "
     "bf16 only"),
    ("xtensor", "CRASH", "Floating point exception",
     "xstrided_container::reshape (xcontainer.hpp:1081) computes size() % |product of "
     "the shape| first: any target shape with a 0 dies with SIGFPE, valid empty "
     "reshapes included ([2,5,5,0] with [0,4])"),
    ("xtensor", "ACCEPTED_INVALID", "BELOW_MINUS_ONE",
     "xstrided_container::reshape takes every negative value as the inferred dim "
     "(its XTENSOR_ASSERT(dim == -1) is compiled out by default): [2,3] with [-2,3] "
     "gives [1,3], half the elements"),
    ("xtensor", "ACCEPTED_INVALID", "MULTIPLE_MINUS_ONE",
     "with an odd number of -1s the product stays negative and only the last is "
     "solved: [2,3,4] with [-1,-1,-1] gives dims [18446744073709551615, "
     "18446744073709551615, 24]"),
    ("xtensor", "ACCEPTED_INVALID", "OVERFLOW",
     "dims are size_t and their products wrap silently"),
    ("xtensor", "ACCEPTED_INVALID", "DATA_TYPE",
     "xtensor has no type list: any element type passes for the oneDNN operations"),
    ("opencv", "ACCEPTED_INVALID", "VOLUME_MISMATCH",
     "Mat::reshape(cn, 2, newsz) on a 2-D Mat calls reshape(cn, newsz[0]) and never "
     "reads newsz[1]: [2,3] with [0,4] gives [2,3]"),
    ("opencv", "ACCEPTED_INVALID", "BELOW_MINUS_ONE",
     "the same ignored second size: [2,3] with [3,-2] gives [3,2]"),
    ("opencv", "FAIL", "wrong shape",
     "the same ignored second size: [0,0] with [0,12] gives [0,0], not [0,12]"),
    ("opencv", "FAIL", "of 'dst' is",
     "the same ignored second size: [0,0] with [0,12] gives [0,0], so a [0,12] "
     "destination is refused"),
    ("opencv", "FAIL", "INVALID_ARGUMENT where a shape",
     "cv::Mat::reshape refuses a new row count that does not divide the old one even when "
     "both are empty: u8 [1,0] to [2,0] (the 0 copied) gives \"Bad new number of rows\" "
     "(code -211); found by reshape-conform fuzz (cases/found_by_fuzz.yaml)"),
    ("opencv", "ACCEPTED_INVALID", "OVERFLOW",
     "the element counts Mat::reshape(cn, newndims, newsz) compares are size_t products, "
     "which wrap: f16 [0, 4] to [4, 1073741824, 1073741824, 4] (2^64 elements) counts 0, "
     "as the empty input does, and passes"),
    ("opencv", "ACCEPTED_INVALID", "DATA_TYPE",
     "cv::Mat has no type list: every depth passes for the oneDNN operations"),
    ("eigen", "ACCEPTED_INVALID", "BELOW_MINUS_ONE",
     "Eigen's dims are a signed Index and its one check (an eigen_assert) compares "
     "products only: negative dims pass whenever the product still matches, e.g. "
     "[2,3] to [-2,-3], or an empty tensor to [0,-2]"),
    ("eigen", "ACCEPTED_INVALID", "OVERFLOW",
     "the same check multiplies the signed Index dims without an overflow check: "
     "boolean [4, 4611686018427387905] (2^64 + 4 elements) counts 4 and reshapes to [4]"),
    ("eigen", "ACCEPTED_INVALID", "DATA_TYPE",
     "Eigen tensors have no type list: any element type passes for the oneDNN "
     "operations"),
    ("armnn", "ACCEPTED_INVALID", "DATA_TYPE",
     "Arm NN has no type list: s8, s16, s32 and u8 data pass for the oneDNN operations"),
    ("armnn", "ACCEPTED_INVALID", "BELOW_MINUS_ONE",
     "TfLiteParser::OutputShapeOfReshape converts every value to unsigned int and the "
     "layer compares 32-bit element counts: f32 [6] with [-2, -3] gives [4294967294, "
     "4294967293], whose product is 6 modulo 2^32"),
    ("armnn", "ACCEPTED_INVALID", "VOLUME_MISMATCH",
     "ReshapeQueueDescriptor::Validate compares TensorInfo::GetNumElements(), an unsigned "
     "int: f32 [4] to [4, 1073741825] (2^32 + 4 elements) loads and infers"),
    ("armnn", "ACCEPTED_INVALID", "NOT_DIVISIBLE",
     "TfLiteParser::OutputShapeOfReshape multiplies the shape's values in 32 bits before it "
     "divides: bf16 [8] with [-1, 4, 1073741825] takes the product 4 (2^32 + 4 modulo 2^32) "
     "and gives [2, 4, 1073741825], 2^33 + 8 elements, which the unsigned-int element count "
     "calls 8"),
    ("armnn", "ACCEPTED_INVALID", "ZERO_OUT_OF_RANGE",
     "a copying 0 reads TensorShape::operator[] as OnnxParser's ComputeReshapeInfo does, and "
     "a scalar's TensorShape has one dim of 1 (the ONNX parser's scalars are [1]): [] with "
     "[0] gives [1]"),
    ("armnn", "FAIL: wrong shape",
     "the -1 divides TensorShape::GetNumElements(), an unsigned int: f32 [3037000499, "
     "3037000499] with [-1] gives [2661407785], the square modulo 2^32 (above the declared "
     "max_volume 2^32 - 1: a harness that reads declared limits skips these)"),
    ("armnn", "ACCEPTED_INVALID", "OVERFLOW",
     "element counts are unsigned int and wrap: an input of 2^63 elements counts 0 (above "
     "the declared max_volume, as above)"),
    ("armnn", "TIMEOUT", "in execute",
     "armnn::CopyMemGenericWorkload::Execute walks the outer dims of an empty tensor: "
     "EnqueueWorkload on f32 [2147483647, 2147483647, 2147483647, 0] does not return "
     "(tests/adapters/armnn_test.c)"),
]


# What a library's section says whatever its runs show (evidence gathered
# by hand, cited where it comes from).
LIBRARY_TEXT = {
    "onednn_graph":
        "DynamicReshape-1 answers NOT_SUPPORTED: oneDNN v3.0 onward has no DynamicReshape "
        "op kind (compiling `dnnl::graph::op::kind::DynamicReshape` against v3.13.1's "
        "headers fails; `dnnl_graph_types.h` lists `dnnl_graph_op_static_reshape` only), "
        "and the 2022-23 Graph preview declared it without any backend implementing it. "
        "OpenVINO Reshape-1 and ONNX Reshape-14 run through the same StaticReshape op; "
        "data types its schema refuses are NOT_SUPPORTED for them "
        "(`candidates/onednn_graph/README.md`).",
}

# Libraries compared run by run on one operation: (library, other, op).
COMPARE = [("onednn_graph", "onednn", "onednn_static_reshape_1")]
# How many runs a comparison line names as examples.
EXAMPLES_PER_FINDING = 3


def compare(report, other, op):
    """Lines comparing two reports on `op`, over the (case, variant) runs
    that neither answered NOT_SUPPORTED."""
    theirs = {(e["id"], e["variant"]): e["verdict"] for e in other["cases"]
              if e["op"] == op}
    groups = collections.OrderedDict((k, []) for k in
                                     ("both pass", "both fail", "only this one fails",
                                      "only the other fails"))
    for e in report["cases"]:
        key = (e["id"], e["variant"])
        if e["op"] != op or key not in theirs:
            continue
        mine, their = e["verdict"], theirs[key]
        if "NOT_SUPPORTED" in (mine, their):
            continue
        bad, their_bad = mine in COUNTS_AGAINST, their in COUNTS_AGAINST
        name = ("both fail" if bad and their_bad else "only this one fails" if bad
                else "only the other fails" if their_bad else "both pass")
        groups[name].append("`%s` (%s: %s vs %s)" % (e["id"], e["variant"], mine, their))
    return ["- %s: %d runs%s" % (name, len(runs),
                                 (", e.g. " + "; ".join(runs[:EXAMPLES_PER_FINDING]))
                                 if runs and name != "both pass" else "")
            for name, runs in groups.items()]


def note_for(library, signature):
    """The note of `library` for a finding `signature`: the one written for the
    signature itself, else for the signature without its " (on VARIANT)";
    a note written as (library, verdict, text, note) names every finding of
    that verdict whose signature contains `text`."""
    bare = re.sub(r" \(on [a-z_]+\)$", "", signature)
    exact = [n for n in NOTES if len(n) == 3 and n[0] == library]
    for _, sig, note in exact:
        if sig == signature:
            return note
    for _, sig, note in exact:
        if sig == bare:
            return note
    for n in NOTES:
        if len(n) == 4 and n[0] == library and signature.startswith(n[1] + ":") \
                and n[2] in signature:
            return n[3]
    return None


def run_harness(harness, adapter, report_dir):
    """Runs the harness on one adapter; returns (exit status, seconds)."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    start = time.monotonic()
    proc = subprocess.run([harness, "--candidate", adapter, "--report-dir",
                           report_dir, "--quiet"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    elapsed = time.monotonic() - start
    tail = proc.stdout.strip().splitlines()[-1:] if proc.stdout.strip() else []
    print("scoreboard: %s: exit %d in %.1f s%s" %
          (os.path.basename(adapter), proc.returncode, elapsed,
           (": " + tail[0]) if tail else ""))
    return proc.returncode, elapsed


def op_table(report):
    """{op: Counter of verdicts} over every entry of the report."""
    table = {op: collections.Counter() for op in OPS}
    for entry in report["cases"]:
        table.setdefault(entry["op"], collections.Counter())[entry["verdict"]] += 1
    return table


def op_verdict(counts):
    total = sum(counts.values())
    if total == 0 or counts["NOT_SUPPORTED"] + counts["WAIVED"] == total:
        return "not supported"
    if any(counts[v] for v in COUNTS_AGAINST):
        return "**nonconformant**"
    return "conformant"


def findings(report):
    """The report's findings (the harness groups them, reports/SCHEMA.md),
    most runs first."""
    return report.get("findings") or []


def cell(text):
    """`text` inside one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def render(results, out_path, perf_rows, cert_rows):
    lines = ["# Scoreboard: real libraries against the reshape specs", "",
             "Written by `make scoreboard` (`candidates/scoreboard.py`): the harness run on "
             "each library adapter in `build/candidates/` (`make candidates` builds them), "
             "every case and every variant; the full reports are in `reports/<library>/` "
             "(`report.md` is kept in git; `report.json`, `report.xml` and `report.html` are "
             "written beside it). Counts are (case, variant) runs. An operation is \"not "
             "supported\" when the adapter answered NOT_SUPPORTED for all of it. What each "
             "adapter can and cannot express is in `candidates/<library>/README.md`.", ""]
    header = ["candidate", "operation", "verdict"] + VERDICTS
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for lib, res in results:
        if res.get("report") is None:
            lines.append("| %s | (all) | %s |%s" % (lib, res["status"], " |" * len(VERDICTS)))
            continue
        cand = res["report"]["candidate"]
        name = "%s %s" % (cand["name"], cand["version"])
        for op, counts in sorted(op_table(res["report"]).items(),
                                 key=lambda kv: OPS.index(kv[0]) if kv[0] in OPS else 99):
            lines.append("| %s | %s | %s | %s |" %
                         (name, op, op_verdict(counts),
                          " | ".join(str(counts[v]) if counts[v] else "" for v in VERDICTS)))
    lines += ["", "## What each library gets wrong", ""]
    reports = {lib: res.get("report") for lib, res in results}
    for lib, res in results:
        report = res.get("report")
        extra = [LIBRARY_TEXT[lib], ""] if lib in LIBRARY_TEXT else []
        if report is None:
            lines += ["### %s" % lib, "", res["status"] + "."] + [""] + extra
            continue
        cand, suite = report["candidate"], report["suite"]
        lines += ["### %s %s" % (cand["name"], cand["version"]), "",
                  "Adapter `%s` (sha256 `%s`), suite %s at commit `%s`, %d cases loaded; "
                  "run in %.1f s. Overall: **%s**. Error status names: %d agree with the "
                  "expected status, %d do not (any error status satisfies an error case)." %
                  (cand["path"], cand["sha256"][:12], suite["version"],
                   suite["git_commit"][:12], suite["cases_loaded"], res["seconds"],
                   report["verdict"], report["status_agreement"]["agree"],
                   report["status_agreement"]["disagree"]), ""]
        lines += extra
        found = findings(report)
        if not found:
            lines += ["Nothing: every run it supports passes.", ""]
        else:
            lines += ["| finding (harness signature) | what the library does | runs | cases "
                      "| ops | variants | smallest example |",
                      "|---|---|---|---|---|---|---|"]
        for f in found:
            note = note_for(lib, f["signature"])
            ex = f["example"]
            lines.append("| `%s` | %s | %d | %d | %s | %s | `%s/%s`: expected %s, got %s |" %
                         (cell(f["signature"]), cell(note) if note else "",
                          f["runs"], f["cases"], ", ".join(f["ops"]), ", ".join(f["variants"]),
                          ex["id"], ex["variant"], cell(ex["expected"]), cell(ex["got"])))
        for mine, other, op in COMPARE:
            if mine == lib and reports.get(other) is not None:
                ocand = reports[other]["candidate"]
                lines += ["", "Against %s %s on %s, run by run (runs neither answered "
                          "NOT_SUPPORTED):" % (ocand["name"], ocand["version"], op), ""]
                lines += compare(report, reports[other], op)
        skipped = report["summary"].get("NOT_SUPPORTED", 0)
        lines += ["", "Skipped: %d of %d runs are NOT_SUPPORTED, configurations the "
                  "library cannot express through its API (`candidates/%s/README.md`)." %
                  (skipped, report["summary"]["total"], lib), ""]
    lines += scoreboard_layouts.section(results)
    lines += scoreboard_certify.section(cert_rows) + scoreboard_perf.section(perf_rows)
    with open(out_path, "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--harness", default="build/reshape-conform")
    ap.add_argument("--adapters", default="build/candidates")
    ap.add_argument("--reports", default="reports")
    ap.add_argument("--reference", default="build/libreshape_ref.so")
    ap.add_argument("--render-only", action="store_true")
    ap.add_argument("--only", default="",
                    help="comma-separated libraries to run; the others are rendered from "
                         "their reports as --render-only does")
    args = ap.parse_args()
    only = [lib for lib in args.only.split(",") if lib]
    unknown = [lib for lib in only if lib not in LIBRARIES]
    if unknown:
        ap.error("--only: unknown library '%s' (one of %s)" % (unknown[0], ", ".join(LIBRARIES)))

    failed = False
    results = []
    for lib in LIBRARIES:
        adapter = os.path.join(args.adapters, lib + ".so")
        report_dir = os.path.join(args.reports, lib)
        json_path = os.path.join(report_dir, "report.json")
        res = {"seconds": 0.0}
        render_only = args.render_only or (only and lib not in only)
        if not render_only:
            if not os.path.exists(adapter):
                print("scoreboard: skipped %s: %s not built (run `make candidates`)" %
                      (lib, adapter))
                res["status"] = "not built"
                results.append((lib, res))
                continue
            rc, res["seconds"] = run_harness(args.harness, adapter, report_dir)
            if rc in (0, 1) and scoreboard_perf.run(args.harness, adapter, report_dir) not in (0, 1):
                rc = 3
            if rc in (0, 1) and scoreboard_certify.run(args.harness, adapter,
                                                       report_dir) not in (0, 1):
                failed = True
            if rc not in (0, 1):
                print("scoreboard: the harness failed on '%s' with exit %d" % (lib, rc),
                      file=sys.stderr)
                failed = True
                res["status"] = "harness failed (exit %d)" % rc
                results.append((lib, res))
                continue
        try:
            with open(json_path) as f:
                res["report"] = json.load(f)
            res["seconds"] = res["seconds"] or res["report"].get("duration_s", 0.0)
        except (OSError, ValueError) as e:
            if not render_only:
                failed = True
            print("scoreboard: no report for '%s': %s" % (lib, e), file=sys.stderr)
            res["status"] = "no report"
        results.append((lib, res))
    ref_dir = os.path.join(args.reports, "reference")
    if not args.render_only and not only and \
            scoreboard_perf.run(args.harness, args.reference, ref_dir) not in (0, 1):
        failed = True
    perf_rows, cert_rows = [("reference", "reference", scoreboard_perf.headline(ref_dir))], []
    for lib, res in results:
        if res.get("report") is not None:
            cand, folder = res["report"]["candidate"], os.path.join(args.reports, lib)
            name = "%s %s" % (cand["name"], cand["version"])
            perf_rows.append((name, lib, scoreboard_perf.headline(folder)))
            cert_rows.append((name, scoreboard_certify.record(folder)))
    out = os.path.join(args.reports, "SCOREBOARD.md")
    render(results, out, perf_rows, cert_rows)
    print("scoreboard: wrote %s" % out)
    return 3 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
