#!/bin/sh
# repro.sh LIB SRC_DIR OUT_DIR - builds and runs the reproducers of one
# library's findings (reports/LIB/repro/, issue 40): each SRC_DIR/NAME.c
# (as C11) or NAME.cpp (as C++17) into OUT_DIR/NAME, then runs it, and each
# SRC_DIR/NAME.py with $PYTHON.  A reproducer exits 0 when the behaviour it
# documents is present (the finding holds), 1 when it is gone, 77 when the
# library cannot be used here.  Called by tests/adapters/repro.mk, which
# passes the library's REPRO_* settings (candidates/LIB/build.mk) as:
#   REPRO_READY   a file that exists once the library is installed
#   REPRO_CC      compiler of the .c / .cpp reproducers
#   REPRO_FLAGS   compile flags (-I...)
#   REPRO_LDLIBS  link flags (-L... -l... -Wl,-rpath,...)
#   REPRO_ENV     a prefix for running each one (env VAR=...), may be empty
#   PYTHON        the interpreter of the .py ones (default /usr/bin/python3)
#   REPRO_TIMEOUT seconds a reproducer may run (default 120)
# Prints one line per reproducer (its own output too when it does not
# hold) and one summary line.  Exit status: 0 when every finding holds or
# was skipped, 1 when one changed, failed to build or did not end with 0,
# 1 or 77, or when the library declares no reproducer at all.  Depends on
# POSIX sh and coreutils' timeout only.

lib=$1 src=$2 out=$3
PYTHON=${PYTHON:-/usr/bin/python3}
REPRO_TIMEOUT=${REPRO_TIMEOUT:-120}
update="update the finding (reports/$lib/repro/README.md, candidates/scoreboard_notes.py, reports/$lib/)"

if [ -z "$REPRO_READY" ] || [ ! -e "$REPRO_READY" ]; then
    echo "repro: skipped $lib: '${REPRO_READY:-REPRO_READY_$lib}' is missing (make candidates installs it)"
    exit 0
fi
mkdir -p "$out" || exit 1

held=0 changed=0 skipped=0 total=0
for file in "$src"/*.c "$src"/*.cpp "$src"/*.py; do
    [ -f "$file" ] || continue
    total=$((total + 1))
    base=${file##*/} name=${base%.*} log=$out/$name.log
    case $file in
    *.py)
        run="$PYTHON $file" ;;
    *)
        case $file in *.c) std=-std=c11 ;; *) std=-std=c++17 ;; esac
        bin=$out/$name
        # Rebuilt when the source or the command that builds it changed.
        cmd="$REPRO_CC $std -Wall -Wextra -Werror -O1 -g $REPRO_FLAGS -o $bin $file $REPRO_LDLIBS"
        if [ ! -x "$bin" ] || [ "$file" -nt "$bin" ] || \
           [ "$(cat "$bin.cmd" 2>/dev/null)" != "$cmd" ]; then
            rm -f "$bin" "$bin.cmd"
            if ! $cmd >"$log" 2>&1; then
                echo "repro: FAIL $lib/$base: did not build: $cmd"
                cat "$log"
                changed=$((changed + 1)); continue
            fi
            echo "$cmd" >"$bin.cmd"
        fi
        run=$bin ;;
    esac
    # shellcheck disable=SC2086 # REPRO_ENV and run are word lists
    timeout "$REPRO_TIMEOUT" $REPRO_ENV $run >"$log" 2>&1
    rc=$?
    case $rc in
    0)  echo "repro: $lib/$name: holds"; held=$((held + 1)) ;;
    77) echo "repro: skipped $lib/$name: the library cannot be used here: $(tail -n 1 "$log")"
        skipped=$((skipped + 1)) ;;
    1)  echo "repro: FAIL $lib/$name: the behaviour it documents is gone; $update"
        cat "$log"; changed=$((changed + 1)) ;;
    124) echo "repro: FAIL $lib/$name: did not end within $REPRO_TIMEOUT s"
        cat "$log"; changed=$((changed + 1)) ;;
    *)  echo "repro: FAIL $lib/$name: exit status $rc, neither 0, 1 nor 77 (above 128: a signal)"
        cat "$log"; changed=$((changed + 1)) ;;
    esac
done

if [ "$total" -eq 0 ]; then
    echo "repro: FAIL $lib: REPRO_LIBS names it but $src holds no reproducer"
    exit 1
fi
echo "repro: $lib: $held of $total hold, $changed changed or broken, $skipped skipped"
[ "$changed" -eq 0 ]
