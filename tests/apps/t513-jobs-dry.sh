#!/bin/sh
# The job templates with a site hook and fake launchers:
# - REWIND_DRY_RUN=1 prints the commands the Slurm and PBS templates would
#   run (srun with --mpi= and extra flags; mpiexec with the PBS hostfile and
#   extra flags), one per rank count 1, 2, 4, and the collect and plot steps,
#   runs none of them and writes nothing; the hook (REWIND_SITE_HOOK) is
#   sourced before the first command;
# - without the dry run, the same templates run rewind-bench through fake
#   srun/mpiexec (which log their arguments and hand the command to the MPI
#   launcher configure found) and gather a CSV line per rank count;
# - a site hook that does not exist stops the job naming it.
jobs="$top_srcdir/jobs"
. "$top_srcdir/tests/testlib.sh"
fake="$tmp/bin"
mkdir "$fake" "$tmp/work"
# the real launcher by its full path: the fakes come first in PATH
real=$(command -v "$RW_MPIEXEC")
# srun --ntasks=N [flags] CMD...: logs, then CMD on N ranks
cat > "$fake/srun" <<EOF2
#!/bin/sh
echo "srun \$*" >> "$tmp/launch.log"
n=1
while [ \$# -gt 0 ]; do
  case \$1 in --ntasks=*) n=\${1#--ntasks=} ;; -*) ;; *) break ;; esac
  shift
done
exec $real $RW_MPIEXEC_FLAGS -n "\$n" "\$@"
EOF2
# mpiexec [-hostfile F] [flags] -n N CMD...: logs, then CMD on N ranks
cat > "$fake/mpiexec" <<EOF2
#!/bin/sh
echo "mpiexec \$*" >> "$tmp/launch.log"
while [ \$# -gt 0 ] && [ "\$1" != -n ]; do shift; done
shift
n=\$1
shift
exec $real $RW_MPIEXEC_FLAGS -n "\$n" "\$@"
EOF2
chmod +x "$fake/srun" "$fake/mpiexec"
cat > "$tmp/site.sh" <<EOF2
module() { echo "module \$*" >> "$tmp/launch.log"; }
module load petsc/3.18 hdf5-parallel
REWIND_BENCH="$top_builddir/apps/rewind-bench"
EOF2
printf 'localhost\nlocalhost\nlocalhost\nlocalhost\n' > "$tmp/nodes"
# the study's options, at a tiny size
{ cat "$jobs/options/strong.opts"; printf -- "-da_grid_x 16\n-da_grid_y 16\n-rw_steps 2\n-rw_bench_repeat 1\n-rw_bench_seconds 0\n"; } > "$tmp/tiny.opts"
fail() { echo "FAIL $*"; exit 1; }

slurm() { # slurm NTASKS: the strong Slurm template in $tmp/work
  (cd "$tmp/work" && PATH="$fake:$PATH" SLURM_SUBMIT_DIR="$tmp/work" SLURM_JOB_ID=42 SLURM_NTASKS=$1 \
    REWIND_JOBS="$jobs" REWIND_SITE_HOOK="${HOOK:-$tmp/site.sh}" REWIND_SRUN_MPI=pmix REWIND_SRUN_FLAGS="--overlap --hint=nomultithread" \
    PYTHON="${PYTHON:-/usr/bin/python3}" bash "$jobs/slurm/strong.sbatch" "$tmp/tiny.opts")
}
pbs() { # pbs NODES: the strong PBS template in $tmp/work
  (cd "$tmp/work" && head -n "$1" "$tmp/nodes" > "$tmp/nodefile" && PATH="$fake:$PATH" PBS_O_WORKDIR="$tmp/work" PBS_JOBID=7.server \
    PBS_NODEFILE="$tmp/nodefile" MPIEXEC=mpiexec REWIND_JOBS="$jobs" REWIND_SITE_HOOK="$tmp/site.sh" REWIND_OPTIONS="$tmp/tiny.opts" \
    REWIND_MPIEXEC_FLAGS="--bind-to core" PYTHON="${PYTHON:-/usr/bin/python3}" bash "$jobs/pbs/strong.pbs")
}

# ---- dry runs: the commands, in order, and nothing run
: > "$tmp/launch.log"
REWIND_DRY_RUN=1 slurm 4 > "$tmp/slurm.dry"
cat "$tmp/slurm.dry"
bench="$top_builddir/apps/rewind-bench"
for np in 1 2 4; do
  grep -qxF "+ srun --ntasks=$np --cpu-bind=cores --mpi=pmix --overlap --hint=nomultithread $bench -options_file $tmp/tiny.opts -rw_bench_output rewind-strong-42/strong-np$np.csv" "$tmp/slurm.dry" || fail "slurm dry run: no srun line for $np ranks"
done
test "$(grep -c '^+ srun' "$tmp/slurm.dry")" = 3 || fail "slurm dry run: expected 3 srun lines"
grep -q "^+ .* $jobs/collect rewind-strong-42/strong-np\*.csv$" "$tmp/slurm.dry" || fail "slurm dry run: no collect step"
grep -q "^+ .* $jobs/plot_scaling.py rewind-strong-42/strong.csv rewind-strong-42/strong.png$" "$tmp/slurm.dry" || fail "slurm dry run: no plot step"
test "$(cat "$tmp/launch.log")" = "module load petsc/3.18 hdf5-parallel" || fail "slurm dry run: the hook was not sourced once, or a launcher ran: $(cat "$tmp/launch.log")"
test -z "$(ls "$tmp/work")" || fail "slurm dry run wrote $(ls "$tmp/work")"
: > "$tmp/launch.log"
REWIND_DRY_RUN=1 pbs 4 > "$tmp/pbs.dry"
cat "$tmp/pbs.dry"
for np in 1 2 4; do
  grep -qxF "+ mpiexec -hostfile $tmp/nodefile --bind-to core -n $np $bench -options_file $tmp/tiny.opts -rw_bench_output rewind-strong-7/strong-np$np.csv" "$tmp/pbs.dry" || fail "pbs dry run: no mpiexec line for $np ranks"
done
test "$(cat "$tmp/launch.log")" = "module load petsc/3.18 hdf5-parallel" || fail "pbs dry run: the hook was not sourced once, or a launcher ran"
REWIND_DRY_RUN=1 REWIND_HOSTFILE= pbs 2 | grep -q "^+ mpiexec --bind-to core -n 2 " || fail "pbs dry run: REWIND_HOSTFILE= still passes a hostfile"
test -z "$(ls "$tmp/work")" || fail "pbs dry run wrote $(ls "$tmp/work")"
echo "ok dry runs: Slurm and PBS print their commands, run none"

# ---- real runs through the fake launchers, 1 and 2 ranks
: > "$tmp/launch.log"
slurm 2 > "$tmp/slurm.out" 2>&1 || { cat "$tmp/slurm.out"; fail "the Slurm template failed"; }
pbs 2 > "$tmp/pbs.out" 2>&1 || { cat "$tmp/pbs.out"; fail "the PBS template failed"; }
cat "$tmp/launch.log"
test "$(grep -c '^module load' "$tmp/launch.log")" = 2 || fail "the hook did not run once per job"
grep -q "^srun --ntasks=2 --cpu-bind=cores --mpi=pmix --overlap --hint=nomultithread " "$tmp/launch.log" || fail "srun did not get --mpi and the extra flags"
grep -q "^mpiexec -hostfile $tmp/nodefile --bind-to core -n 2 " "$tmp/launch.log" || fail "mpiexec did not get the hostfile and flags"
for csv in "$tmp/work/rewind-strong-42/strong.csv" "$tmp/work/rewind-strong-7/strong.csv"; do
  test "$(tail -n +2 "$csv" | cut -d, -f2 | tr '\n' ' ')" = "1 2 " || { cat "$csv"; fail "$csv: expected one line for 1 and one for 2 ranks"; }
done
echo "ok real runs: both templates ran rewind-bench on 1 and 2 ranks through srun/mpiexec"

# ---- a hook that is not there stops the job by name
if (HOOK="$tmp/nosuch.sh" REWIND_DRY_RUN=1 slurm 1) > "$tmp/nohook.out" 2>&1; then fail "a missing site hook was ignored"; fi
grep -q "cannot read the site hook REWIND_SITE_HOOK=$tmp/nosuch.sh" "$tmp/nohook.out" || { cat "$tmp/nohook.out"; fail "no clear error for a missing hook"; }
echo "ok a missing site hook stops the job"
