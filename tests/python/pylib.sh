# pylib.sh: what the Python tests share, after testlib.sh.  The package from
# the source tree, the library from the build tree, the Python configure found:
#
#   pyrun NP SCRIPT ARGS...   tests/python/SCRIPT (or a path) on NP ranks
PYTHONPATH="$top_srcdir/python:$top_srcdir/tests/python${PYTHONPATH:+:$PYTHONPATH}"
REWIND_LIBRARY="$top_builddir/src/.libs/librewind.so"
OMP_NUM_THREADS=1 # torch's threads would fight the ranks for the cores
export PYTHONPATH REWIND_LIBRARY OMP_NUM_THREADS
pyrun() {
  np=$1 script=$2
  shift 2
  case $script in */*) ;; *) script="$top_srcdir/tests/python/$script" ;; esac
  $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n "$np" "$REWIND_PYTHON" "$script" "$@"
}
