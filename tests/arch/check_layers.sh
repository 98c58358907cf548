#!/bin/sh
# check_layers.sh - checks that a source tree keeps its layers.
#
# usage: check_layers.sh [-I ABI_DIR] [-o OBJ_DIR] ROOT LAYER...
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
# Needs awk, sort, tsort (coreutils) and, with -o, nm (binutils).  Prints
# one line per problem, "FILE:LINE: message" where a line is known, and
# exits 1 if there is any, 2 on bad usage, 0 otherwise.

abi=
obj=
while getopts I:o: opt; do
    case $opt in
    I) abi=$OPTARG ;;
    o) obj=$OPTARG ;;
    *) echo "usage: check_layers.sh [-I ABI_DIR] [-o OBJ_DIR] ROOT LAYER..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    echo "usage: check_layers.sh [-I ABI_DIR] [-o OBJ_DIR] ROOT LAYER..." >&2
    exit 2
fi
root=${1%/}
shift
layers="$*"
if [ ! -d "$root" ]; then
    echo "check_layers: no folder '$root'" >&2
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
