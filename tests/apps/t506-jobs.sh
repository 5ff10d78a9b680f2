#!/bin/sh
# The job templates: the Slurm, PBS and local scripts pass bash -n (and sh -n
# where they are POSIX sh); every -rw_/-da_/-tao_ option in jobs/options/*.opts
# and in the scripts is one rewind-bench lists in -help; the options files run
# (tiny sizes on top) with no option left unused.
jobs="$top_srcdir/jobs"
app="$top_builddir/apps/rewind-bench"
. "$top_srcdir/tests/testlib.sh"
scripts="$jobs/slurm/strong.sbatch $jobs/slurm/weak.sbatch $jobs/pbs/strong.pbs $jobs/pbs/weak.pbs $jobs/local/scaling $jobs/lib/study.sh"
for s in $scripts; do
  bash -n "$s" || { echo "FAIL: bash -n $s"; exit 1; }
done
for s in "$jobs/local/scaling" "$jobs/lib/study.sh"; do
  sh -n "$s" || { echo "FAIL: sh -n $s"; exit 1; }
done
echo "ok bash -n: $(echo $scripts | wc -w) scripts"

run 1 -help > "$tmp/help.txt" 2>&1
n=0
for opt in $(grep -h -o -E -- '-(rw|da|tao)_[a-z0-9_]+' "$jobs"/options/*.opts $scripts | sort -u); do
  grep -q -E -- "^ *${opt}[ :<]" "$tmp/help.txt" || { echo "FAIL: $opt is not an option of rewind-bench (-help)"; exit 1; }
  n=$((n + 1))
done
test "$n" -ge 10 || { echo "FAIL: found only $n options to check"; exit 1; }
echo "ok $n options of jobs/ are listed by rewind-bench -help"

for opts in "$jobs"/options/*.opts; do
  # a weak study's grid is a block per rank (-da_grid_x would override it)
  grid="-da_grid_x 16 -da_grid_y 16"
  if grep -q -- '^-rw_bench_weak_grid' "$opts"; then grid="-rw_bench_weak_grid 8,8"; fi
  # shellcheck disable=SC2086 # $grid holds several options
  run 2 -options_file "$opts" $grid -rw_steps 2 \
    -rw_bench_repeat 1 -rw_bench_seconds 0 -options_left > "$tmp/run.txt" 2>&1 || { cat "$tmp/run.txt"; exit 1; }
  grep -q "There are no unused options" "$tmp/run.txt" || { echo "FAIL: $opts leaves options unused:"; grep -A20 -i "unused" "$tmp/run.txt"; exit 1; }
  echo "ok $(basename "$opts") runs and uses every option"
done
