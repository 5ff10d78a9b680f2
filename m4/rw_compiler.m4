# rw_compiler.m4 - compiler choice and optimisation level for rewind.

# RW_PROG_MPICC
# Choose an MPI C compiler wrapper as CC unless the user gave CC (or MPICC).
# Must run before AC_PROG_CC, which would otherwise pick a plain cc.
AC_DEFUN([RW_PROG_MPICC], [
AC_ARG_VAR([MPICC], [MPI C compiler wrapper used as CC when CC is not set])
rw_user_cflags=${CFLAGS+set}
AS_IF([test -z "$CC"], [
  AS_IF([test -n "$MPICC"], [CC=$MPICC],
        [AC_CHECK_PROGS([CC], [mpicc mpicc.openmpi mpicc.mpich mpiicc])])
  AS_IF([test -z "$CC"],
        [AC_MSG_ERROR([no MPI C compiler (mpicc) found: install the Debian package libopenmpi-dev, or set CC to your MPI compiler wrapper])])
])
])

# RW_ARG_OPTIMISATION
# --enable-debug: -O0 -g and rewind's extra run-time checks (RW_USE_DEBUG).
# Default: -O3, portable.  --enable-native adds -march=native.
# A CFLAGS given by the user is kept as it is.
AC_DEFUN([RW_ARG_OPTIMISATION], [
AC_ARG_ENABLE([debug],
  [AS_HELP_STRING([--enable-debug], [build with -O0 -g and extra run-time checks (finite states every step, schedule replay checks)])],
  [], [enable_debug=no])
AC_ARG_ENABLE([native],
  [AS_HELP_STRING([--enable-native], [optimise for the build machine's CPU (-march=native); the default is portable code])],
  [], [enable_native=no])
AS_IF([test "x$rw_user_cflags" != xset], [
  AS_IF([test "x$enable_debug" = xyes], [CFLAGS="-O0 -g"], [CFLAGS="-O3 -g"])
  AS_IF([test "x$enable_native" = xyes], [CFLAGS="$CFLAGS -march=native"])
])
AS_IF([test "x$enable_debug" = xyes],
      [AC_DEFINE([RW_USE_DEBUG], [1], [Define to enable rewind's extra run-time checks])
       rw_build_kind="debug (-O0 -g, extra checks)"],
      [rw_build_kind="optimised"])
AS_IF([test "x$enable_native" = xyes], [rw_build_kind="$rw_build_kind, native"], [rw_build_kind="$rw_build_kind, portable"])
rw_warn_cflags=
AS_IF([test "x$GCC" = xyes], [rw_warn_cflags="-Wall -Wextra -Wno-unused-parameter"])
AC_SUBST([RW_WARN_CFLAGS], [$rw_warn_cflags])
rw_cc_version=`$CC --version 2>/dev/null | sed -n 1p`
RW_KERNEL_ISA
])

# RW_KERNEL_ISA
# The stencil kernels are compiled once per instruction set (portable, AVX2,
# AVX-512) and the widest the CPU has runs (include/rewind/private/kernelisaimpl.h).
# Every variant must give the portable bits, so nothing contracts a*b+c into
# an FMA (-ffp-contract=off; GCC's AVX-512 target enables FMA): the portable
# x86-64 build has no FMA, so its results do not change.  The summary says
# which variant runs on the build machine.
AC_DEFUN([RW_KERNEL_ISA], [
rw_fp_cflags=
rw_save_CFLAGS=$CFLAGS
CFLAGS="$CFLAGS -ffp-contract=off"
AC_MSG_CHECKING([whether $CC accepts -ffp-contract=off])
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])], [rw_fp_cflags=-ffp-contract=off; AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no])])
CFLAGS=$rw_save_CFLAGS
AC_SUBST([RW_FP_CFLAGS], [$rw_fp_cflags])
AC_MSG_CHECKING([for run-time kernel dispatch (target attributes, __builtin_cpu_supports)])
rw_isa_summary="portable only (no x86-64 target attributes in $CC)"
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#if !defined(__GNUC__) || !defined(__x86_64__)
#error no dispatch
#endif
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=512"))) static double f(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i]; return s; }
__attribute__((target("avx2"))) static double g(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i]; return s; }
]], [[double x[4] = {0}; return (int)(f(x, 4) + g(x, 4)) + __builtin_cpu_supports("avx2") + __builtin_cpu_supports("avx512f");]])],
  [AC_MSG_RESULT([yes])
   rw_isa_run=portable
   AC_RUN_IFELSE([AC_LANG_PROGRAM([], [[return !__builtin_cpu_supports("avx2");]])], [rw_isa_run=avx2], [], [])
   AC_RUN_IFELSE([AC_LANG_PROGRAM([], [[return !(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"));]])], [rw_isa_run=avx512], [], [rw_isa_run="unknown (cross-compiling)"])
   rw_isa_summary="portable, avx2, avx512 chosen at run time; $rw_isa_run runs on this machine (-rw_kernel_isa)"],
  [AC_MSG_RESULT([no])])
])

# RW_ARG_SANITIZERS
# --enable-sanitizers: AddressSanitizer and UndefinedBehaviorSanitizer for the
# library, the apps and the tests (make check-sanitize builds a tree with it).
# The flags go into CFLAGS and LDFLAGS, so libtool links the shared library
# and every program with the sanitizer runtimes.
AC_DEFUN([RW_ARG_SANITIZERS], [
AC_ARG_ENABLE([sanitizers],
  [AS_HELP_STRING([--enable-sanitizers], [build with -fsanitize=address,undefined -fno-omit-frame-pointer (for testing; see make check-sanitize)])],
  [], [enable_sanitizers=no])
rw_sanitize_summary=no
AS_IF([test "x$enable_sanitizers" = xyes], [
  rw_sanitize_flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
  rw_save_CFLAGS=$CFLAGS
  rw_save_LDFLAGS=$LDFLAGS
  CFLAGS="$CFLAGS $rw_sanitize_flags"
  LDFLAGS="$LDFLAGS $rw_sanitize_flags"
  AC_MSG_CHECKING([whether $CC links with $rw_sanitize_flags])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [return 0;])], [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([--enable-sanitizers: $CC cannot link with $rw_sanitize_flags; install the sanitizer runtimes (Debian: libasan8 libubsan1, which come with gcc)])])
  rw_sanitize_summary="yes ($rw_sanitize_flags)"
])
])
