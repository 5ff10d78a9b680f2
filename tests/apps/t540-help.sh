#!/bin/sh
# -help of every program returns at once (under a time limit), on 1 and 3
# ranks, having solved nothing, and lists every option the program reads:
# each "-rw_..." option its own sources read, and each option the library
# objects it makes read (the option strings of those classes' sources), but
# for the few a run of this kind never reads (below, with the reason).
# A missing required option is one line naming it, not a PETSc error dump.
. "$top_srcdir/tests/testlib.sh"
unset PETSC_OPTIONS
fail() { echo "FAIL $*"; exit 1; }
s=$top_srcdir/src
# the classes every problem program makes (rewind-gradient and the inversions)
problem="$s/problem $s/adjoint $s/schedule/interface $s/model/interface $s/objective/interface $s/objective/terms $s/ensemble $s/store/interface $s/store/impls/memory $s/observations"
# never read by these runs: testing options (hidden unless -help_debug); the
# hdf5 store's own, read only with -rw_store_type hdf5 or a keep file
skip='^-rw_debug_|^-rw_store_keep$|^-rw_store_overwrite$'
# the objective from options: not read when J comes from observations
withobs='^-rw_objective_terminal|^-rw_objective_time_average$|^-rw_wave_receivers$'
# the journal of an optimisation: not made by a program without an unknown
nojournal='^-rw_journal'

# options FILES-OR-DIRS...: the "-rw_" options the sources read (deprecated names apart)
options() {
  for f in "$@"; do
    if test -d "$f"; then cat "$f"/*.c; else cat "$f"; fi
  done | grep -v 'PetscOptionsDeprecated' | grep -E 'Options[A-Za-z0-9_]*\(|RwOptions[A-Za-z0-9_]*\(' |
    grep -oE '"-rw_[a-z0-9_]+"' | tr -d '"' | sort -u
}

# check PROG EXCEPT SOURCES...: PROG -help on 1 and 3 ranks, its listing against SOURCES
check() {
  prog=$1 except=$2
  shift 2
  app="$top_builddir/apps/$prog"
  for np in 1 3; do
    start=$(date +%s)
    timeout 60 $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n $np "$app" -help > "$tmp/$prog.$np" 2> "$tmp/$prog.$np.err" || { tail -20 "$tmp/$prog.$np.err"; fail "$prog -help on $np ranks: exit status $?"; }
    secs=$(($(date +%s) - start))
    test "$(grep -c "^$prog -help: the options above are every option this run reads" "$tmp/$prog.$np")" = 1 || fail "$prog -help on $np ranks did not end with its one closing line"
    echo "$prog -help on $np ranks: $(wc -l < "$tmp/$prog.$np") lines in $secs s"
  done
  out="$tmp/$prog.1"
  missing=
  for o in $(options "$@" | grep -Ev "$skip${except:+|$except}"); do
    grep -qE -- "^ *$o[ <:]" "$out" || missing="$missing $o"
  done
  test -z "$missing" || fail "$prog -help does not list:$missing"
  echo "ok $prog -help lists all $(options "$@" | grep -Evc "$skip${except:+|$except}") options its sources and its objects' read"
}

a=$top_srcdir/apps
check rewind-gradient "$nojournal" "$a/rewind-gradient.c" $problem "$s/model/impls/heat"
check rewind-heat-inverse "$withobs" "$a/rewind-heat-inverse.c" "$a/heatinverse" $problem "$s/model/impls/heat"
check rewind-fwi "$withobs" "$a/rewind-fwi.c" "$a/fwi" $problem "$s/model/impls/wave"
check rewind-hybrid "$withobs" "$a/rewind-hybrid.c" "$a/hybrid" $problem "$s/model/impls/heat" "$s/nn"
check rewind-schedule "" "$a/rewind-schedule.c" "$s/schedule/interface"
check rewind-heat-control "$withobs" "$a/rewind-heat-control.c" $problem "$s/model/impls/heat"
check rewind-heat-design "$withobs" "$a/rewind-heat-design.c" $problem "$s/model/impls/heat" "$s/design"
check rewind-4dvar "$withobs" "$a/rewind-4dvar.c" $problem "$s/model/impls/l96" "$s/horizon"
check rewind-horizon "$withobs|$nojournal" "$a/rewind-horizon.c" $problem "$s/model/impls/l96" "$s/horizon"
check rewind-bench "$nojournal" "$a/rewind-bench.c" "$a/bench" "$s/problem" "$s/adjoint" "$s/schedule/interface" "$s/store/impls/hdf5"

# nothing solved: no result lines, no files written
for p in gradient:'^J ' heat-inverse:'^recovered' fwi:'^J_start' hybrid:'^Fisher-KPP' schedule:'^forward_steps' heat-control:'^heat control' heat-design:'^heat design' 4dvar:'^4D-Var' horizon:'^horizon table'; do
  grep -q "${p#*:}" "$tmp/rewind-${p%%:*}.1" && fail "rewind-${p%%:*} -help ran the job"
done
test -z "$(ls "$tmp" | grep -v '^rewind-')" || fail "-help left files: $(ls "$tmp")"

# the model's options show the values the run uses, not PETSc's first array element
app="$top_builddir/apps/rewind-gradient"
run 1 -rw_model_type wave -help > "$tmp/wave.help"
grep -q -E -- '-rw_wave_spacing <now 10\.,10\. :' "$tmp/wave.help" || fail "wave -help: $(grep -- -rw_wave_spacing "$tmp/wave.help")"
grep -q -- '-rw_wave_sources <now one source near the centre of the physical region, unless the program places its own (rewind-fwi: one a shot) :' "$tmp/wave.help" || fail "wave -help: $(grep -- -rw_wave_sources "$tmp/wave.help")"
grep -q '^ *heat: u the temperature' "$tmp/rewind-gradient.1" || fail "rewind-gradient -help does not say what J is for heat"
# and the hdf5 store's options, listed when it is chosen
run 1 -rw_store_type hdf5 -help | grep -q -- '-rw_store_overwrite:' || fail "-rw_store_type hdf5 -help does not list -rw_store_overwrite"

# a missing required option: one line that names it, exit status 1
app="$top_builddir/apps/rewind-schedule"
set +e
run 2 > "$tmp/out" 2> "$tmp/err"
rc=$?
set -e
cat "$tmp/err"
test $rc != 0 || fail "rewind-schedule without -rw_steps: exit status 0"
# one line from the program (mpiexec adds its own about the exit status), no PETSc error dump
test "$(grep -c '^rewind-schedule' "$tmp/err")" = 1 && grep -q '^rewind-schedule: missing -rw_steps: ' "$tmp/err" || fail "rewind-schedule without -rw_steps did not say so in one line"
grep -q 'PETSC ERROR' "$tmp/err" && fail "rewind-schedule without -rw_steps printed a PETSc error"
# options that make no schedule (revolve without slots): the schedule's reason in one line
set +e
run 2 -rw_steps 100 -rw_schedule_type revolve > "$tmp/out" 2> "$tmp/err"
rc=$?
set -e
cat "$tmp/err"
test $rc != 0 || fail "rewind-schedule revolve without slots: exit status 0"
test "$(grep -c '^rewind-schedule' "$tmp/err")" = 1 && grep -q '^rewind-schedule: revolve needs RAM slots: give -rw_schedule_ram_slots' "$tmp/err" || fail "rewind-schedule revolve without slots did not say so in one line"
grep -q 'PETSC ERROR' "$tmp/err" && fail "rewind-schedule revolve without slots printed a PETSc error"
echo "ok: -help stops before solving and lists every option; a missing -rw_steps or revolve's slots is one line"
