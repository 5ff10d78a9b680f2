# Shared by jobs/slurm/*.sbatch, jobs/pbs/*.pbs and jobs/local/scaling (POSIX sh).
#
# A scaling study runs rewind-bench with an options file on a list of rank
# counts, one CSV and one log per run, then gathers the CSVs into one.  The
# options file says everything about the problem and the schedule; the
# scripts add only -options_file and -rw_bench_output.
#
# The caller defines rw_launch NP COMMAND...: run COMMAND on NP ranks (srun,
# mpiexec, ...) through rw_exec, and sets REWIND_JOBS to the jobs/ directory.
# REWIND_BENCH names the program (default: rewind-bench from PATH).
#
# Sourcing this file sources the site hook first: REWIND_SITE_HOOK if set
# (it must exist), else $REWIND_JOBS/site.sh if there is one.  That is the
# place for a site's `module load` lines and exports (jobs/site.sh.example).
# REWIND_DRY_RUN=1 prints every command a template would run, one a line
# after "+ ", and runs none of them (the hook is still sourced: it decides
# what the commands are).

# rw_exec COMMAND...: run it, or print it under REWIND_DRY_RUN=1
rw_exec() {
  if [ "${REWIND_DRY_RUN:-0}" = 1 ]; then
    printf '+'
    printf ' %s' "$@"
    printf '\n'
  else
    "$@"
  fi
}

rw_site_hook() {
  if [ -n "${REWIND_SITE_HOOK:-}" ]; then
    if [ ! -r "$REWIND_SITE_HOOK" ]; then
      echo "rewind jobs: cannot read the site hook REWIND_SITE_HOOK=$REWIND_SITE_HOOK" >&2
      return 1
    fi
    # shellcheck disable=SC1090 # the site's own file
    . "$REWIND_SITE_HOOK"
  elif [ -r "$REWIND_JOBS/site.sh" ]; then
    # shellcheck disable=SC1091
    . "$REWIND_JOBS/site.sh"
  fi
}
rw_site_hook

# 1 2 4 ... below max, then max
rw_powers_of_two() {
  rw_p=1
  while [ "$rw_p" -lt "$1" ]; do
    echo "$rw_p"
    rw_p=$((rw_p * 2))
  done
  echo "$1"
}

# rw_study STUDY OPTIONS_FILE OUTDIR "RANK COUNTS" [more rewind-bench options]
# writes OUTDIR/STUDY-npP.csv and .txt for each P, then OUTDIR/STUDY.csv
rw_study() {
  rw_name=$1 rw_opts=$2 rw_out=$3 rw_counts=$4
  shift 4
  if [ ! -r "$rw_opts" ]; then
    echo "rw_study: cannot read the options file $rw_opts" >&2
    return 1
  fi
  if [ "${REWIND_DRY_RUN:-0}" = 1 ]; then
    for rw_np in $rw_counts; do
      rw_launch "$rw_np" "${REWIND_BENCH:-rewind-bench}" -options_file "$rw_opts" "$@" -rw_bench_output "$rw_out/$rw_name-np$rw_np.csv"
    done
    rw_exec "${PYTHON:-python3}" "$REWIND_JOBS/collect" "$rw_out/$rw_name-np*.csv"
    return 0
  fi
  mkdir -p "$rw_out"
  for rw_np in $rw_counts; do
    echo "# $rw_name scaling: $rw_np ranks, options $rw_opts $*"
    rw_launch "$rw_np" "${REWIND_BENCH:-rewind-bench}" -options_file "$rw_opts" "$@" \
      -rw_bench_output "$rw_out/$rw_name-np$rw_np.csv" > "$rw_out/$rw_name-np$rw_np.txt"
  done
  "${PYTHON:-python3}" "$REWIND_JOBS/collect" "$rw_out/$rw_name"-np*.csv > "$rw_out/$rw_name.csv"
  echo "# $rw_name scaling: $rw_out/$rw_name.csv"
}

# rw_python: the Python that draws, found as configure finds it: PYTHON,
# then /usr/bin/python3, then python3 on PATH, the first that imports
# matplotlib (the PATH's python3 is not always the distribution's)
rw_python() {
  for rw_py in ${PYTHON:-} /usr/bin/python3 python3; do
    if "$rw_py" -c "import matplotlib" 2> /dev/null; then
      echo "$rw_py"
      return 0
    fi
  done
  return 1
}

# rw_plot STUDY OUTDIR: OUTDIR/STUDY.png, with rw_python; without one it says how to plot later
rw_plot() {
  if [ "${REWIND_DRY_RUN:-0}" = 1 ]; then
    rw_exec "${PYTHON:-python3}" "$REWIND_JOBS/plot_scaling.py" "$2/$1.csv" "$2/$1.png"
    return 0
  fi
  if rw_py=$(rw_python); then
    "$rw_py" "$REWIND_JOBS/plot_scaling.py" "$2/$1.csv" "$2/$1.png"
  else
    echo "# no plot: no Python with matplotlib (tried ${PYTHON:+$PYTHON, }/usr/bin/python3, python3; install python3-matplotlib or set PYTHON): plot later with jobs/plot_scaling.py $2/$1.csv $2/$1.png" >&2
  fi
}
