# rw_mpi.m4 - MPI compiler check and MPIEXEC detection for rewind.

# RW_CHECK_MPI
# The compiler must compile and link an MPI program; if a plain CC was given,
# take MPI's flags from pkg-config (ompi-c, mpich, mpi).
AC_DEFUN([RW_CHECK_MPI], [
AC_MSG_CHECKING([whether $CC compiles and links MPI programs])
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[MPI_Init(0, 0); MPI_Finalize();]])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   for rw_m in ompi-c mpich mpi; do
     AS_IF([$PKG_CONFIG --exists $rw_m], [
       CPPFLAGS="$CPPFLAGS `$PKG_CONFIG --cflags $rw_m`"
       LIBS="$LIBS `$PKG_CONFIG --libs $rw_m`"
       break])
   done
   AC_MSG_CHECKING([whether MPI links with flags from pkg-config])
   AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[MPI_Init(0, 0); MPI_Finalize();]])],
     [AC_MSG_RESULT([yes])],
     [AC_MSG_ERROR([$CC cannot build MPI programs: install the Debian package libopenmpi-dev, or set CC=mpicc])])])
])

# RW_CHECK_MPIEXEC
# Find mpiexec and decide, by running a real MPI program, which flags the test
# suite needs here: --allow-run-as-root when Open MPI refuses root, and
# --oversubscribe when the tests' 4 ranks exceed the cores.  A user-given
# MPIEXEC_TEST_FLAGS is taken as it is.
AC_DEFUN([RW_CHECK_MPIEXEC], [
AC_ARG_VAR([MPIEXEC], [program that launches MPI jobs (default: mpiexec or mpirun found in PATH)])
AC_ARG_VAR([MPIEXEC_TEST_FLAGS], [flags that make check passes to MPIEXEC (default: detected)])
AC_PATH_PROGS([MPIEXEC], [mpiexec mpirun])
AS_IF([test -z "$MPIEXEC"],
      [AC_MSG_ERROR([no mpiexec or mpirun found: install the Debian package openmpi-bin, or set MPIEXEC])])
rw_mpi_version=`$MPIEXEC --version 2>&1 | sed -n 1p`
AS_IF([test "x${MPIEXEC_TEST_FLAGS+set}" != xset], [
  AS_IF([test "x$cross_compiling" = xyes], [MPIEXEC_TEST_FLAGS=],
        [_RW_DETECT_MPIEXEC_FLAGS])])
AC_SUBST([MPIEXEC_TEST_FLAGS])
AC_PATH_PROG([TIMEOUT], [timeout])
])

# _RW_TRY_MPIEXEC(NP, FLAGS): success when all NP ranks took part
m4_define([_RW_TRY_MPIEXEC], [test "`$rw_to $MPIEXEC $2 -n $1 ./conftest_mpi$EXEEXT 2>>config.log`" = "ranks $1"])

# Build a program that communicates, then try flag sets until -n 4 runs.
AC_DEFUN([_RW_DETECT_MPIEXEC_FLAGS], [
AC_LANG_CONFTEST([AC_LANG_PROGRAM([[#include <mpi.h>
#include <stdio.h>]], [[
  int rank, size, sum = 0, one = 1;
  MPI_Init(0, 0);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!rank) printf("ranks %d\n", sum);
  MPI_Finalize();]])])
$CC $CPPFLAGS $CFLAGS $LDFLAGS -o conftest_mpi$EXEEXT conftest.$ac_ext $LIBS >&AS_MESSAGE_LOG_FD 2>&1 ||
  AC_MSG_ERROR([cannot build an MPI test program with $CC; see config.log])
rw_to=
AS_IF([timeout 1 true >/dev/null 2>&1], [rw_to="timeout 120"])
AC_MSG_CHECKING([flags $MPIEXEC needs to run 1 rank])
rw_flags=
AS_IF([_RW_TRY_MPIEXEC(1, [$rw_flags])], [],
      [_RW_TRY_MPIEXEC(1, [--allow-run-as-root])], [rw_flags="--allow-run-as-root"],
      [rm -f conftest_mpi$EXEEXT
       AC_MSG_ERROR([$MPIEXEC cannot run a 1-rank MPI program, even with --allow-run-as-root; see config.log])])
AC_MSG_RESULT([${rw_flags:-none}])
AC_MSG_CHECKING([flags $MPIEXEC needs to run 4 ranks (the most the tests use)])
AS_IF([_RW_TRY_MPIEXEC(4, [$rw_flags])], [],
      [_RW_TRY_MPIEXEC(4, [$rw_flags --oversubscribe])], [rw_flags="$rw_flags --oversubscribe"],
      [rm -f conftest_mpi$EXEEXT
       AC_MSG_ERROR([$MPIEXEC cannot run a 4-rank MPI program, even with --oversubscribe; set MPIEXEC_TEST_FLAGS; see config.log])])
AC_MSG_RESULT([${rw_flags:-none}])
rm -f conftest_mpi$EXEEXT
MPIEXEC_TEST_FLAGS=`echo $rw_flags`
])
