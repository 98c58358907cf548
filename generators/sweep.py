"""The sweep family: a deterministic sample of small reshapes, every op.

The space: input ranks 0-4 with dims from {0, 1, 2, 3, 4}; shape patterns
of length 0-4 with values from {-2, -1, 0, 1, 2, 3, 4, 6, 12}; special_zero
false and true; the four operations: 781 inputs x 7381 patterns x 2 x 4,
about 46 million cases.  SAMPLING says how it is cut to a few thousand;
it is repeated in the file's header and in cases/COVERAGE.md.  Data is f32 iota; the shape tensor has the operation's usual
dtype.  Depends on model.py and casebuild.py.
"""

import random

import casebuild
import model

DIMS = (0, 1, 2, 3, 4)
VALUES = (-2, -1, 0, 1, 2, 3, 4, 6, 12)
RANKS = range(5)
LENGTHS = range(5)
DRAWS = 400   # candidates drawn per stratum
QUOTA = 19    # cases kept per stratum, at most
SEED = 20240601
# Every operation must reach each of these outcomes somewhere in the sweep.
STATUSES = ("OK", "BELOW_MINUS_ONE", "MULTIPLE_MINUS_ONE", "ZERO_OUT_OF_RANGE",
            "ZERO_AND_MINUS_ONE", "NOT_DIVISIBLE", "VOLUME_MISMATCH")

SAMPLING = (
    "The space is every operation x input rank 0-4 (dims "
    "from {0,1,2,3,4}) x shape length 0-4 (values from {-2,-1,0,1,2,3,4,6,12}) x "
    "special_zero false/true, about 46 million cases. It is cut into 200 strata, "
    "one per (operation, input rank, shape length, special_zero). In each stratum "
    "a `random.Random` seeded with the string `\"%d:<op>:<rank>:<length>:<0|1>\"` "
    "draws %d (input dims, shape values) pairs uniformly, each dim and value "
    "independently; repeats are dropped. The model's outcome (OK or the reference's "
    "error status) groups the distinct draws; groups are visited in the order of "
    "their status names and one case is taken from each in turn, in draw order, "
    "until %d cases are taken or the draws run out. Small strata (rank 0, length 0) "
    "hold fewer cases than the quota. The generator fails unless every operation "
    "reaches each of %s."
    % (SEED, DRAWS, QUOTA, ", ".join(STATUSES)))


def status_of(outcome):
    """"OK" for a shape outcome, else the error's name."""
    return "OK" if outcome[0] == "shape" else outcome[1]


def stratum(op, rank, length, special_zero):
    """The cases kept for one stratum, as (dims, values) pairs (see SAMPLING)."""
    rng = random.Random("%d:%s:%d:%d:%d" % (SEED, op, rank, length, special_zero))
    shape_dtype = model.DEFAULT_SHAPE_DTYPE[op]
    groups, seen = {}, set()
    for _ in range(DRAWS):
        dims = tuple(rng.choice(DIMS) for _ in range(rank))
        values = tuple(rng.choice(VALUES) for _ in range(length))
        if (dims, values) in seen:
            continue
        seen.add((dims, values))
        outcome = model.infer(op, "f32", dims, shape_dtype, [length], values,
                              special_zero)
        groups.setdefault(status_of(outcome), []).append((dims, values))
    kept, queues = [], [groups[name] for name in sorted(groups)]
    while len(kept) < QUOTA and any(queues):
        for queue in queues:
            if queue and len(kept) < QUOTA:
                kept.append(queue.pop(0))
    return kept


def cases():
    """Every sweep case, strata in (op, rank, length, special_zero) order."""
    out, reached = [], set()
    for op in model.OPS:
        for rank in RANKS:
            for length in LENGTHS:
                for special_zero in (False, True):
                    for dims, values in stratum(op, rank, length, special_zero):
                        case_id = "sweep_%s_in_%s_shape_%s_%s" % (
                            casebuild.OP_WORDS[op], casebuild.dims_word(dims),
                            casebuild.values_word(values),
                            casebuild.zero_word(op, special_zero))
                        case = casebuild.make_case(case_id, op, dims, values,
                                                special_zero, tags=["sweep"])
                        out.append(case)
                        outcomes, _ = model.case_outcomes(case)
                        reached.add((op, status_of(outcomes[0])))
    missing = [(op, s) for op in model.OPS for s in STATUSES if (op, s) not in reached]
    if missing:
        raise ValueError("sweep reaches no case for %s" % missing)
    return out


def outcome_table(sweep_cases):
    """Markdown: sweep cases per operation and reference outcome."""
    counts = {}
    for case in sweep_cases:
        outcomes, _ = model.case_outcomes(case)
        key = (case["op"], status_of(outcomes[0]))
        counts[key] = counts.get(key, 0) + 1
    lines = ["| outcome | " + " | ".join(model.OPS) + " |",
             "| --- |" + " ---: |" * len(model.OPS)]
    for status in STATUSES:
        lines.append("| %s | %s |" % (status, " | ".join(
            str(counts.get((op, status), 0)) for op in model.OPS)))
    return "\n".join(lines)
