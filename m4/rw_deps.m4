# rw_deps.m4 - PETSc, parallel HDF5, Check and Python for rewind.
# Every missing dependency stops configure naming the Debian package.

# RW_CHECK_PETSC
# PETSc >= 3.18 by pkg-config; PETSC_DIR/PETSC_ARCH, when set, point
# pkg-config at that installation first.  Cluster modules that set only
# PETSC_ROOT or PETSC_HOME (as some sites' modules and Spack's do) stand for
# PETSC_DIR.
AC_DEFUN([RW_CHECK_PETSC], [
AC_ARG_VAR([PETSC_DIR], [PETSc installation or source tree (optional; pkg-config is used otherwise)])
AC_ARG_VAR([PETSC_ARCH], [PETSc configuration within PETSC_DIR])
AC_ARG_VAR([PETSC_CFLAGS], [C compiler flags for PETSc, overriding pkg-config])
AC_ARG_VAR([PETSC_LIBS], [linker flags for PETSc, overriding pkg-config])
AS_IF([test -z "$PETSC_DIR" && test -n "${PETSC_ROOT:-}${PETSC_HOME:-}"], [PETSC_DIR=${PETSC_ROOT:-$PETSC_HOME}])
AS_IF([test -n "$PETSC_DIR"], [
  for rw_d in "$PETSC_DIR/$PETSC_ARCH/lib/pkgconfig" "$PETSC_DIR/lib/pkgconfig"; do
    AS_IF([test -d "$rw_d"], [PKG_CONFIG_PATH="$rw_d${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"; export PKG_CONFIG_PATH; break])
  done])
AC_MSG_CHECKING([for PETSc >= 3.18])
rw_petsc_pc=
for rw_m in PETSc petsc; do
  AS_IF([$PKG_CONFIG --exists $rw_m], [rw_petsc_pc=$rw_m; break])
done
AS_IF([test -z "$rw_petsc_pc"], [
  AC_MSG_RESULT([no])
  AC_MSG_ERROR([PETSc not found by pkg-config (PETSc.pc): install the Debian package petsc-dev, or set PETSC_DIR (and PETSC_ARCH) to a PETSc installation])])
rw_petsc_version=`$PKG_CONFIG --modversion $rw_petsc_pc`
rw_petsc_location=`$PKG_CONFIG --variable=prefix $rw_petsc_pc`
AS_IF([$PKG_CONFIG --atleast-version=3.18 $rw_petsc_pc], [AC_MSG_RESULT([$rw_petsc_version])], [
  AC_MSG_RESULT([no])
  AC_MSG_ERROR([PETSc $rw_petsc_version in $rw_petsc_location is too old: rewind needs PETSc >= 3.18 (Debian package petsc-dev)])])
AS_IF([test -z "$PETSC_CFLAGS"], [PETSC_CFLAGS=`$PKG_CONFIG --cflags $rw_petsc_pc`])
AS_IF([test -z "$PETSC_LIBS"], [PETSC_LIBS=`$PKG_CONFIG --libs $rw_petsc_pc`])
rw_save_CPPFLAGS=$CPPFLAGS; rw_save_LIBS=$LIBS
CPPFLAGS="$CPPFLAGS $PETSC_CFLAGS"; LIBS="$PETSC_LIBS $LIBS"
AC_MSG_CHECKING([whether PETSc is real, double precision and links])
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <petscsys.h>
#if defined(PETSC_USE_COMPLEX) || !defined(PETSC_USE_REAL_DOUBLE)
#error "rewind needs real double-precision PetscScalar"
#endif]], [[PetscInitializeNoArguments(); PetscFinalize();]])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([PETSc in $rw_petsc_location cannot be used: rewind needs real double-precision scalars (Debian package petsc-dev, not petsc-complex); see config.log])])
CPPFLAGS=$rw_save_CPPFLAGS; LIBS=$rw_save_LIBS
AC_SUBST([RW_PETSC_PC], [$rw_petsc_pc])
])

# RW_CHECK_HDF5
# Parallel HDF5 by pkg-config (Debian's hdf5-openmpi.pc, the hdf5.pc or
# hdf5_openmpi.pc that cluster builds ship); the directory a module sets
# (HDF5_DIR, HDF5_ROOT or HDF5_HOME) is searched first, by its pkg-config
# files or else by its include and lib directories.  A serial HDF5 is refused.
AC_DEFUN([RW_CHECK_HDF5], [
AC_ARG_VAR([HDF5_CFLAGS], [C compiler flags for parallel HDF5, overriding pkg-config])
AC_ARG_VAR([HDF5_LIBS], [linker flags for parallel HDF5, overriding pkg-config])
AC_ARG_VAR([HDF5_DIR], [parallel HDF5 installation (as a cluster module sets it; HDF5_ROOT and HDF5_HOME too)])
rw_hdf5_dir=${HDF5_DIR:-${HDF5_ROOT:-${HDF5_HOME:-}}}
rw_hdf5_pcdir=
AS_IF([test -n "$rw_hdf5_dir" && test -z "$HDF5_LIBS"], [
  for rw_d in "$rw_hdf5_dir/lib/pkgconfig" "$rw_hdf5_dir/lib64/pkgconfig"; do
    AS_IF([ls "$rw_d"/hdf5*.pc >/dev/null 2>&1], [rw_hdf5_pcdir=$rw_d; PKG_CONFIG_PATH="$rw_d${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"; export PKG_CONFIG_PATH; break])
  done
  AS_IF([test -z "$rw_hdf5_pcdir" && test -f "$rw_hdf5_dir/include/hdf5.h"], [
    HDF5_CFLAGS="-I$rw_hdf5_dir/include"
    rw_l=lib; AS_IF([test -d "$rw_hdf5_dir/lib64" && test ! -d "$rw_hdf5_dir/lib"], [rw_l=lib64])
    HDF5_LIBS="-L$rw_hdf5_dir/$rw_l -Wl,-rpath,$rw_hdf5_dir/$rw_l -lhdf5"])])
AC_MSG_CHECKING([for HDF5])
rw_hdf5_module=
AS_IF([test -n "$HDF5_LIBS"], [rw_hdf5_module="HDF5_CFLAGS/HDF5_LIBS"], [
  for rw_m in hdf5-openmpi hdf5_openmpi hdf5-mpi hdf5; do
    AS_IF([$PKG_CONFIG --exists $rw_m], [rw_hdf5_module=$rw_m; break])
  done
  AS_IF([test -z "$rw_hdf5_module"], [
    AC_MSG_RESULT([no])
    AC_MSG_ERROR([parallel HDF5 not found by pkg-config (hdf5-openmpi, hdf5_openmpi, hdf5-mpi, hdf5) nor in HDF5_DIR: install the Debian package libhdf5-openmpi-dev, load your cluster's parallel HDF5 module, or set HDF5_DIR])])
  HDF5_CFLAGS=`$PKG_CONFIG --cflags $rw_hdf5_module`
  HDF5_LIBS=`$PKG_CONFIG --libs $rw_hdf5_module`])
AC_MSG_RESULT([$rw_hdf5_module])
rw_save_CPPFLAGS=$CPPFLAGS; rw_save_LIBS=$LIBS
CPPFLAGS="$CPPFLAGS $HDF5_CFLAGS"; LIBS="$HDF5_LIBS $LIBS"
AC_MSG_CHECKING([whether HDF5 is parallel])
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <hdf5.h>
#ifndef H5_HAVE_PARALLEL
#error "serial HDF5"
#endif]], [])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([the HDF5 found ($rw_hdf5_module) is serial (H5_HAVE_PARALLEL is not defined): rewind writes checkpoints collectively and needs parallel HDF5, the Debian package libhdf5-openmpi-dev])])
AC_MSG_CHECKING([for H5Pset_fapl_mpio])
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <hdf5.h>]],
  [[hid_t p = H5Pcreate(H5P_FILE_ACCESS); H5Pset_fapl_mpio(p, MPI_COMM_WORLD, MPI_INFO_NULL); H5Pclose(p);]])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([cannot link H5Pset_fapl_mpio with $HDF5_LIBS: rewind needs parallel HDF5, the Debian package libhdf5-openmpi-dev; see config.log])])
AC_COMPUTE_INT([rw_h5_major], [H5_VERS_MAJOR], [[#include <hdf5.h>]])
AC_COMPUTE_INT([rw_h5_minor], [H5_VERS_MINOR], [[#include <hdf5.h>]])
AC_COMPUTE_INT([rw_h5_release], [H5_VERS_RELEASE], [[#include <hdf5.h>]])
rw_hdf5_version="$rw_h5_major.$rw_h5_minor.$rw_h5_release"
CPPFLAGS=$rw_save_CPPFLAGS; LIBS=$rw_save_LIBS
AS_IF([test "x$rw_hdf5_module" = "xHDF5_CFLAGS/HDF5_LIBS"], [rw_hdf5_pc=; rw_pc_hdf5_libs=$HDF5_LIBS], [rw_hdf5_pc=$rw_hdf5_module; rw_pc_hdf5_libs=])
AC_SUBST([RW_PC_HDF5_LIBS], [$rw_pc_hdf5_libs])
AC_SUBST([RW_HDF5_PC], [$rw_hdf5_pc])
AC_SUBST([HDF5_CFLAGS])
AC_SUBST([HDF5_LIBS])
])

# RW_CHECK_CHECK
# The Check unit-test framework, for make check only: without it (not found,
# or --without-check) the library and apps build, and make check says what
# to install instead of running the tests.
AC_DEFUN([RW_CHECK_CHECK], [
AC_ARG_WITH([check],
  [AS_HELP_STRING([--without-check], [build without the Check unit-test framework: make check then only says what to install])],
  [], [with_check=auto])
rw_have_check=no
AS_IF([test "x$with_check" = xno], [rw_check_version="no (--without-check): make check runs no test"], [
  PKG_CHECK_MODULES([CHECK], [check >= 0.10.0], [rw_have_check=yes], [
    AS_IF([test "x$with_check" = xyes],
      [AC_MSG_ERROR([--with-check: the Check unit-test framework (>= 0.10) was not found by pkg-config: install the Debian package check])])
    AC_MSG_WARN([the Check unit-test framework (>= 0.10) was not found: the library and apps build, make check runs no test (install the Debian package check and configure again)])
    rw_check_version="no (install the Debian package check): make check runs no test"])
  AS_IF([test $rw_have_check = yes], [rw_check_version=`$PKG_CONFIG --modversion check`])])
AM_CONDITIONAL([RW_HAVE_CHECK], [test $rw_have_check = yes])
])

# RW_CHECK_PYTHON
# A Python 3 that imports h5py and matplotlib draws rewind's plots; the
# PATH's python3 is not always the distribution's, so try each candidate.
# Without one the plots and their tests are left out, and configure says so;
# --enable-plots makes a missing Python an error.
AC_DEFUN([RW_CHECK_PYTHON], [
AC_ARG_VAR([PYTHON], [Python 3 interpreter that imports h5py and matplotlib (plots)])
AC_ARG_ENABLE([plots],
  [AS_HELP_STRING([--disable-plots], [do not look for Python with h5py and matplotlib; plot scripts and their tests are left out (default: plots when such a Python is found)])],
  [], [enable_plots=auto])
rw_python_summary="disabled (--disable-plots)"
rw_have_plots=no
AS_IF([test "x$enable_plots" != xno], [
  AC_MSG_CHECKING([for a Python 3 that imports h5py and matplotlib])
  rw_found=
  for rw_p in $PYTHON /usr/bin/python3 python3 python; do
    AS_IF([$rw_p -c "import sys, h5py, matplotlib; sys.exit(sys.version_info < (3,))" >/dev/null 2>&1],
          [rw_found=`command -v $rw_p`; break])
  done
  AS_IF([test -n "$rw_found"], [
    PYTHON=$rw_found rw_have_plots=yes
    AC_MSG_RESULT([$PYTHON])
    rw_python_summary="$PYTHON (h5py, matplotlib)"], [
    AC_MSG_RESULT([no])
    AS_IF([test "x$enable_plots" = xyes],
      [AC_MSG_ERROR([--enable-plots: no Python 3 that imports h5py and matplotlib: install the Debian packages python3-h5py python3-matplotlib, or set PYTHON=/path/to/python3])])
    AC_MSG_WARN([no Python 3 that imports h5py and matplotlib: plots and their tests are left out (install the Debian packages python3-h5py python3-matplotlib, or set PYTHON=/path/to/python3)])
    PYTHON=
    rw_python_summary="no (install python3-h5py python3-matplotlib): plots and their tests left out"])])
AM_CONDITIONAL([RW_HAVE_PLOTS], [test $rw_have_plots = yes])
AC_SUBST([PYTHON])
])

# RW_CHECK_PVPYTHON
# ParaView's pvpython reads the XDMF files rewind writes as ParaView does; a
# test opens them with it.  Optional: without it that test says what to install.
AC_DEFUN([RW_CHECK_PVPYTHON], [
AC_ARG_VAR([PVPYTHON], [ParaView's pvpython (the XDMF reader test)])
AC_PATH_PROGS([PVPYTHON], [pvpython], [])
AS_IF([test -n "$PVPYTHON"], [rw_pvpython_summary=$PVPYTHON],
      [rw_pvpython_summary="no (the XDMF reader test needs the Debian packages paraview python3-paraview)"])
])
