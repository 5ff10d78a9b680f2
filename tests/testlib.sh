# testlib.sh: what the shell tests share.  A test sets app (the program it
# runs) and sources this file:
#
#   app="$top_builddir/apps/rewind-gradient"
#   . "$top_srcdir/tests/testlib.sh"
#
# It stops the test at the first failing command, gives it a scratch
# directory $tmp that is removed on exit, and defines
#
#   run NP OPTIONS...   $app on NP ranks, with the launcher and flags
#                       configure found (RW_MPIEXEC, RW_MPIEXEC_FLAGS); an
#                       exit status of 77 (PETSC_ERR_PLIB) becomes 99
#                       (automake's hard error), never a skip
set -eu
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rewind-$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$tmp"' EXIT
run() {
  np=$1
  shift
  $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n "$np" "$app" "$@" || {
    rc=$?
    # 77 is PETSc's PETSC_ERR_PLIB (an internal error) and automake's "skipped": never a skip here
    if test $rc = 77; then echo "run: $app exited with 77 (PETSc's internal-error code): a hard error, not a skip" >&2; rc=99; fi
    return $rc
  }
}
