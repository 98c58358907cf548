"""
build_run.py - one mutant's life: compile the mutated unit, link
libreshape_ref.so from it and the other reference objects, run the harness
over the whole suite, and say whether the suite killed it.

Depends on: Python 3, gcc, and a built tree (build/reshape-conform and
build/obj/reference/*.o, from `make`).  mutants.py gives the mutants.

The harness runs the mutant up to three times, stopping at the first run
that exits non-zero (the mutant is then killed by that run):
  default  as `make run` does (the reference's fast copy paths on)
  plain    with RESHAPE_REF_PLAIN=1 (the plain copy path only: mutants of
           code the fast paths skip can only be seen this way)
  strict   with --strict-errors (an error must name the expected status)
"""
import hashlib
import os
import signal
import re
import subprocess
import tempfile
import threading

import mutants as mut

# The project's CFLAGS (Makefile) with -fvisibility=hidden (reference/build.mk)
# but without -g, so that two units with the same code give the same object,
# and without -Werror: a mutant that only warns is still a mutant.
CFLAGS = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE",
          "-O2", "-fPIC", "-fvisibility=hidden", "-w"]

# A line of the harness for a (case, variant) that counts against
# conformance: "VERDICT id/variant: detail [file:line]".
VERDICT_LINE = re.compile(r"^[A-Z_]+ [a-z0-9_]+/[a-z_]+: ")

RUNS = [("default", {}, []),
        ("plain", {"RESHAPE_REF_PLAIN": "1"}, []),
        ("strict", {}, ["--strict-errors"])]


def compile_unit(root, source_text, name, outdir, extra=()):
    """Compiles `source_text` as reference/`name` into outdir/`name`.o, with
    CFLAGS and `extra` flags.  Returns (object path, sha256 of the object)
    or (None, compiler's first error line)."""
    os.makedirs(outdir, exist_ok=True)
    src = os.path.join(outdir, name)
    obj = src[:-2] + ".o"
    with open(src, "wb") as f:
        f.write(source_text)
    cmd = ["gcc"] + CFLAGS + list(extra) + [
                              "-I" + os.path.join(root, "include"),
                              "-I" + os.path.join(root, "reference"),
                              "-c", src, "-o", obj]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        err = [ln for ln in p.stderr.splitlines() if "error" in ln]
        return None, (err[0] if err else p.stderr.strip())[:200]
    with open(obj, "rb") as f:
        return obj, hashlib.sha256(f.read()).hexdigest()


def link(root, unit_obj, name, out_so):
    """libreshape_ref.so from `unit_obj` and every other reference object of
    build/obj/reference/ (the unit `name` replaced)."""
    objdir = os.path.join(root, "build", "obj", "reference")
    others = sorted(os.path.join(objdir, f) for f in os.listdir(objdir)
                    if f.endswith(".o") and f != name[:-2] + ".o")
    return link_objects(others + [unit_obj], out_so)


def link_objects(objs, out_so, asan=False):
    """A shared library `out_so` of `objs`; with `asan`, objects compiled
    with -fsanitize=address (their runtime comes from the program that
    loads the library, so undefined symbols are allowed).  Returns (ok, the
    linker's error)."""
    cmd = ["gcc", "-shared", "-fvisibility=hidden"] + (
        ["-fsanitize=address"] if asan else ["-Wl,-z,defs"]) + [
        "-o", out_so] + objs
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode == 0, p.stderr.strip()[:200]


def run_harness(root, so, env_extra, args, limit_s):
    """Runs the harness on candidate `so` and stops it at its first failing
    line (one (case, variant) that counts against conformance): a mutant
    that fails every request would otherwise cost a worker respawn each.
    --verbose makes the harness print each such line as it is decided;
    without it a failing run prints only its findings, at the end.
    Returns (exit status, "failed" or "hang"; the line or what happened)."""
    cmd = ["stdbuf", "-oL", os.path.join(root, "build", "reshape-conform"),
           "--candidate", so, "--quiet", "--verbose", "--jobs", "1",
           "--timeout-ms", "2000"] + args
    env = dict(os.environ, NO_COLOR="1")
    env.pop("RESHAPE_REF_PLAIN", None)
    env.update(env_extra)
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err,
                             env=env, text=True, start_new_session=True)
        timer = threading.Timer(limit_s, os.killpg, (p.pid, signal.SIGKILL))
        timer.start()
        first = None
        for line in p.stdout:
            if VERDICT_LINE.match(line):
                first = line.strip()
                # SIGTERM: the harness kills its workers' groups and
                # removes its scratch folder before it ends (SIGKILL left
                # the folder behind, one a killed mutant)
                os.killpg(p.pid, signal.SIGTERM)
                break
        p.stdout.close()
        rc = p.wait()
        hung = not timer.is_alive()
        timer.cancel()
        if first is not None:
            return "failed", first[:240]
        if hung:
            return "hang", "the whole run took over %d s" % limit_s
        err.seek(0)
        lines = [ln for ln in err.read().splitlines()
                 if ln.strip() and not ln.startswith("progress:")]
        return rc, (lines[-1] if lines else "")[:240]


def judge(root, so, limit_s):
    """The outcome of one linked mutant: (killed_by or None, evidence)."""
    for run, env_extra, args in RUNS:
        rc, line = run_harness(root, so, env_extra, args, limit_s)
        if rc != 0:
            return run, line if rc == "failed" else "%s: %s" % (
                rc if rc == "hang" else "exit %d" % rc, line)
    return None, ""


def original_hashes(root, sources, workdir):
    """sha256 of each unmutated unit's object, compiled like the mutants."""
    hashes = {}
    for path in sources:
        name = os.path.basename(path)
        with open(path, "rb") as f:
            obj, h = compile_unit(root, f.read(), name,
                                  os.path.join(workdir, "original"))
        if obj is None:
            raise SystemExit("mutation: %s does not compile: %s" % (path, h))
        hashes[name] = h
    return hashes


def compile_mutant(root, m, texts, workdir):
    """Compiles mutant `m`; fills m["object"] (path or None) and m["hash"]
    (object sha256, or the compiler's error)."""
    name = os.path.basename(m["file"])
    obj, h = compile_unit(root, mut.apply(texts[m["file"]], m), name,
                          os.path.join(workdir, m["num"]))
    m["object"], m["hash"] = obj, h
    return m


def run_mutant(root, m, workdir, limit_s):
    """Links and judges compiled mutant `m`; fills m["status"] (killed or
    survived), m["killed_by"] and m["evidence"]."""
    name = os.path.basename(m["file"])
    so = os.path.join(workdir, m["num"], "libreshape_ref.so")
    ok, err = link(root, m["object"], name, so)
    if not ok:
        m.update(status="stillborn", killed_by=None, evidence=err)
        return m
    killed_by, evidence = judge(root, so, limit_s)
    m.update(status="killed" if killed_by else "survived",
             killed_by=killed_by, evidence=evidence)
    return m
