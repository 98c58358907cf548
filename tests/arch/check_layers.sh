#!/bin/sh
# check_layers.sh - checks that a source tree keeps its layers.
#
# usage: check_layers.sh [-I ABI_DIR] [-o OBJ_DIR] [-w WORKER_LAYER
#                         [-c CALLERS] [-r READERS] [-b WORKER_BIN]] ROOT LAYER...
#
# ROOT holds one folder per LAYER, the LAYERs given bottom first; the door of
# layer L is ROOT/L/L.h.  Every .c and .h under ROOT must sit directly in a
# layer's folder.  A file of layer L may write
#   #include "NAME.h"    a header of its own folder (or of ABI_DIR, the
#                        public ABI headers, which any layer may use)
#   #include "M/M.h"     the door of a layer M below L
# and nothing else in quotes: no header of a layer above, no header of
# another layer but its door, no own-layer header written with its folder.
# The doors may include headers of their own layer: those become part of
# the door.  The include graph of the files must have no cycle.
#
# With -o OBJ_DIR (the objects of the ROOT/L/F.c files, as OBJ_DIR/L/F.o),
# the same holds for calls: a symbol an object uses is defined in its own
# layer or in one below, and the graph of which object uses which has no
# cycle (one file calling another that calls it back).
#
# With -w WORKER_LAYER, the trust boundary (harness/ARCHITECTURE.md): the
# layer WORKER_LAYER runs beside the candidate, every layer above it is the
# parent's side, the layers below are shared (the protocol among them).
#   - No file of the parent's side includes the worker side's door (the
#     only header of it a file above could include) and, with -o, none
#     uses a symbol an object of the worker side defines, but the files the
#     list CALLERS names (one path below ROOT a line, then why; # starts a
#     comment): those run worker-side code in a process of their own.
#   - With -r READERS: every name of the protocol that carries what a
#     worker wrote (one line each: NAME FILE..., # a comment) appears, in
#     the code of the parent's side (comments left out: cc -fpreprocessed),
#     only in the files its line names, and each file named uses it.
#   - With -b WORKER_BIN (and -o): the worker's program holds no object of
#     the parent's side: none of the global symbols those objects define.
#
# Needs awk, sort, tsort (coreutils), with -o nm (binutils), with -r cc.  Prints
# one line per problem, "FILE:LINE: message" where a line is known, and
# exits 1 if there is any, 2 on bad usage, 0 otherwise.

usage="usage: check_layers.sh [-I ABI_DIR] [-o OBJ_DIR] [-w WORKER_LAYER [-c CALLERS] [-r READERS] [-b WORKER_BIN]] ROOT LAYER..."
abi=
obj=
worker=
callers=
readers=
bin=
while getopts I:o:w:c:r:b: opt; do
    case $opt in
    I) abi=$OPTARG ;;
    o) obj=$OPTARG ;;
    w) worker=$OPTARG ;;
    c) callers=$OPTARG ;;
    r) readers=$OPTARG ;;
    b) bin=$OPTARG ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    echo "$usage" >&2
    exit 2
fi
root=${1%/}
shift
layers="$*"
if [ ! -d "$root" ]; then
    echo "check_layers: no folder '$root'" >&2
    exit 2
fi
if [ -z "$worker" ] && [ -n "$callers$readers$bin" ]; then
    echo "check_layers: -c, -r and -b need -w" >&2
    exit 2
fi
if [ -n "$worker" ] && ! echo " $* " | grep -q " $worker "; then
    echo "check_layers: worker layer '$worker' is not among the layers" >&2
    exit 2
fi
for f in "$callers" "$readers" "$bin"; do
    if [ -n "$f" ] && [ ! -f "$f" ]; then
        echo "check_layers: no file '$f'" >&2
        exit 2
    fi
done
if [ -n "$bin" ] && [ -z "$obj" ]; then
    echo "check_layers: -b needs -o" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_layers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/problems"

# The sources, as paths below ROOT ("suite/case_load.c").
(cd "$root" && find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/files"

# --------------------------------------------------------- placement, doors
for l in $layers; do
    [ -f "$root/$l/$l.h" ] || echo "$root/$l: layer \"$l\" has no door \"$l/$l.h\"" >>"$tmp/problems"
done
awk -v root="$root" -v layers="$layers" '
BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) known[L[i]] = 1 }
{
    k = split($0, p, "/")
    if (k != 2 || !(p[1] in known))
        printf "%s/%s: not in a layer folder (layers: %s)\n", root, $0, layers
}' "$tmp/files" >>"$tmp/problems"

# ---------------------------------------------------------------- includes
# One line per quoted include: FILE LINE TARGET.
while read -r f; do
    awk -v f="$f" '
    /^[ \t]*#[ \t]*include[ \t]*"/ {
        s = $0; sub(/^[^"]*"/, "", s); sub(/".*$/, "", s)
        print f, FNR, s
    }' "$root/$f"
done <"$tmp/files" >"$tmp/includes"

# Judges each include; writes problems, and the edges FILE TARGET_FILE of
# the include graph for the cycle check.
abi_list="$tmp/abi"
: >"$abi_list"
[ -n "$abi" ] && [ -d "$abi" ] && (cd "$abi" && find . -name '*.h' | sed 's|^\./||') >"$abi_list"
awk -v root="$root" -v layers="$layers" -v edges="$tmp/edges" '
BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) rank[L[i]] = i }
FILENAME == ARGV[1] { abi[$0] = 1; next }
FILENAME == ARGV[2] { have[$0] = 1; next }
{
    file = $1; line = $2; inc = $3
    split(file, p, "/"); own = p[1]
    if (!(own in rank))
        next                    # reported as misplaced already
    where = root "/" file ":" line ": "
    k = split(inc, q, "/")
    if (k == 1) {
        if ((own "/" inc) in have)
            print file, own "/" inc > edges
        else if (!(inc in abi))
            printf "%sincludes \"%s\", which is neither in %s/ nor an ABI header\n", where, inc, own
        next
    }
    m = q[1]
    if (k != 2 || !(m in rank)) {
        printf "%sincludes \"%s\", which is no layer door\n", where, inc
        next
    }
    if (m == own) {
        printf "%sincludes \"%s\" of its own layer with the folder: write \"%s\"\n", where, inc, q[2]
        next
    }
    if (rank[m] > rank[own]) {
        printf "%sincludes \"%s\" of layer \"%s\", above its own layer \"%s\"\n", where, inc, m, own
        next
    }
    if (q[2] != m ".h") {
        printf "%sincludes \"%s\", which is not the door of layer \"%s\": include \"%s/%s.h\"\n", where, inc, m, m, m
        next
    }
    if (!(inc in have)) {
        printf "%sincludes \"%s\", which does not exist\n", where, inc
        next
    }
    print file, inc > edges
}' "$abi_list" "$tmp/files" "$tmp/includes" >>"$tmp/problems"
touch "$tmp/edges"

# Prints "KIND cycle: a -> b -> a" when the edges in $1 hold a cycle.
report_cycle() {
    # every node also points to itself, so that tsort knows the lone ones
    if ! awk '{ print; print $1, $1; print $2, $2 }' "$1" | tsort >/dev/null 2>"$tmp/tsort"; then
        awk -v kind="$2" -v root="$root" '
        function flush() { if (c != "") printf "%s cycle: %s -> %s\n", kind, c, first; c = first = "" }
        /input contains a loop/ { flush(); on = 1; next }
        on && /^tsort: / { sub(/^tsort: /, ""); c = c (c == "" ? "" : " -> ") root "/" $0; if (first == "") first = root "/" $0 }
        END { flush() }' "$tmp/tsort"
    fi
}
report_cycle "$tmp/edges" include >>"$tmp/problems"

# ---------------------------------------------------------- trust boundary
if [ -n "$worker" ]; then
    # the parent's side: the files of every layer above the worker's
    echo "$layers" | awk -v w="$worker" '{ for (i = 1; i <= NF; i++) if (on) print $i; else if ($i == w) on = 1 }' \
        >"$tmp/parent_layers"
    awk 'FILENAME == ARGV[1] { up[$1] = 1; next } { split($0, p, "/"); if (p[1] in up) print }' \
        "$tmp/parent_layers" "$tmp/files" >"$tmp/parent_files"
    : >"$tmp/callers"
    [ -n "$callers" ] && awk '!/^[ \t]*(#|$)/ { print $1 }' "$callers" >"$tmp/callers"
    # includes of the worker side's door from the parent's side
    awk -v root="$root" -v door="$worker/$worker.h" -v list="${callers:-no list (-c)}" '
    FILENAME == ARGV[1] { ok[$1] = 1; next }
    FILENAME == ARGV[2] { parent[$1] = 1; next }
    ($1 in parent) && $3 == door && !($1 in ok) {
        printf "%s/%s:%s: includes \"%s\", the worker side'"'"'s door, from the parent'"'"'s side: only the files %s names may\n", root, $1, $2, door, list
    }' "$tmp/callers" "$tmp/parent_files" "$tmp/includes" >>"$tmp/problems"
    if [ -n "$readers" ]; then
        # NAME FILE: each protocol name the code of a parent-side file uses
        awk '!/^[ \t]*(#|$)/ { print $1 }' "$readers" | sort -u >"$tmp/names"
        : >"$tmp/reads"
        while read -r f; do
            ${CC:-cc} -fpreprocessed -dD -E -P "$root/$f" 2>/dev/null | tr -c 'A-Za-z0-9_' '\n' |
                grep -x -F -f "$tmp/names" | sort -u | sed "s|^|$f |" >>"$tmp/reads"
        done <"$tmp/parent_files"
        awk -v root="$root" -v list="$readers" '
        FILENAME == ARGV[1] {
            if ($0 ~ /^[ \t]*(#|$)/) next
            for (i = 2; i <= NF; i++) { ok[$1 " " $i] = FNR }
            next
        }
        { used[$2 " " $1] = 1
          if (!(($2 " " $1) in ok))
              printf "%s/%s: reads \"%s\" of the worker protocol, which only the files %s names for it may\n", root, $1, $2, list }
        END {
            for (k in ok) if (!(k in used)) {
                split(k, p, " ")
                printf "%s:%d: %s/%s does not read \"%s\": take it off the list\n", list, ok[k], root, p[2], p[1]
            }
        }' "$readers" "$tmp/reads" | sort >>"$tmp/problems"
    fi
fi

# ------------------------------------------------------------------- calls
if [ -n "$obj" ]; then
    # SYMBOL SOURCE ("suite/case_load.c") of each object's defined and
    # undefined symbols: one nm over all objects (-A: "OBJ:VALUE T SYMBOL"
    # and "OBJ: U SYMBOL"), not one per object, which cost seconds
    : >"$tmp/objs"
    for l in $layers; do
        for o in "$obj/$l"/*.o; do
            [ -f "$o" ] && echo "$o" >>"$tmp/objs"
        done
    done
    # "OBJ/LAYER/FILE.o" to "LAYER/FILE.c"
    source_of='function src(o,   k, p) { sub(/:[^:]*$/, "", o); k = split(o, p, "/"); return p[k - 1] "/" substr(p[k], 1, length(p[k]) - 2) ".c" }'
    if [ -s "$tmp/objs" ]; then
        xargs nm -g --defined-only -A <"$tmp/objs" |
            awk "$source_of"' NF == 3 && $2 != "U" { print $3, src($1) }' >"$tmp/defs"
        xargs nm -u -A <"$tmp/objs" | awk "$source_of"' { print $NF, src($1) }' >"$tmp/uses"
    else
        : >"$tmp/defs"
        : >"$tmp/uses"
    fi
    if [ ! -s "$tmp/defs" ]; then
        echo "$obj: no objects of the layers' sources" >>"$tmp/problems"
    fi
    awk -v root="$root" -v layers="$layers" -v edges="$tmp/calls" '
    BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) rank[L[i]] = i }
    FILENAME == ARGV[1] { def[$1] = $2; next }
    ($1 in def) && def[$1] != $2 {
        user = $2; owner = def[$1]
        split(user, a, "/"); split(owner, b, "/")
        if (rank[b[1]] > rank[a[1]])
            printf "%s/%s: uses \"%s\" of %s/%s, in layer \"%s\" above its own layer \"%s\"\n", root, user, $1, root, owner, b[1], a[1]
        else
            print user, owner > edges
    }' "$tmp/defs" "$tmp/uses" >>"$tmp/problems"
    if [ -n "$worker" ]; then
        # calls from the parent's side into the worker side, and the parent's
        # objects in the worker's program
        awk -v root="$root" -v w="$worker" -v list="${callers:-no list (-c)}" '
        FILENAME == ARGV[1] { ok[$1] = 1; next }
        FILENAME == ARGV[2] { up[$1] = 1; next }
        FILENAME == ARGV[3] { def[$1] = $2; next }
        ($1 in def) && def[$1] != $2 {
            split($2, a, "/"); split(def[$1], b, "/")
            if ((a[1] in up) && b[1] == w && !($2 in ok))
                printf "%s/%s: uses \"%s\" of %s/%s, on the worker side, from the parent'"'"'s side: only the files %s names may\n", root, $2, $1, root, def[$1], list
        }' "$tmp/callers" "$tmp/parent_layers" "$tmp/defs" "$tmp/uses" | sort -u >>"$tmp/problems"
        if [ -n "$bin" ]; then
            nm -g --defined-only "$bin" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/bin_defs"
            cp "$tmp/defs" "$tmp/defs_below"
            awk -v root="$root" -v bin="$bin" '
            FILENAME == ARGV[1] { up[$1] = 1; next }
            FILENAME == ARGV[2] { have[$1] = 1; next }
            FILENAME == ARGV[3] { split($2, p, "/"); if (!(p[1] in up)) low[$1] = 1; next }
            { split($2, p, "/") }
            # a name an object below defines too ("main") is that one'"'"'s
            (p[1] in up) && ($1 in have) && !($1 in low) && !($2 in told) {
                told[$2] = 1
                printf "%s: holds %s/%s (\"%s\"), an object of the parent'"'"'s side (layer \"%s\")\n", bin, root, $2, $1, p[1]
            }' "$tmp/parent_layers" "$tmp/bin_defs" "$tmp/defs_below" "$tmp/defs" >>"$tmp/problems"
        fi
    fi
    touch "$tmp/calls"
    sort -u "$tmp/calls" -o "$tmp/calls"
    report_cycle "$tmp/calls" call >>"$tmp/problems"
fi

if [ -s "$tmp/problems" ]; then
    cat "$tmp/problems"
    n=$(wc -l <"$tmp/problems")
    [ "$n" -eq 1 ] && what=problem || what=problems
    echo "check_layers: $n $what in $root (layers, bottom first: $layers)"
    exit 1
fi
echo "check_layers: $root keeps its layers ($layers)"
exit 0
