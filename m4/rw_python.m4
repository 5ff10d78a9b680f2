# RW_CHECK_PYTHON_PACKAGE
# The Python package rewind (python/) binds librewind through cffi, with
# petsc4py, mpi4py and numpy; its PyTorch part needs torch.  Look for a Python 3
# that imports them (the PATH's python3 is not always the distribution's).
# Without one the package and its tests are left out, and configure names the
# missing Debian packages; --enable-python makes that an error.
AC_DEFUN([RW_CHECK_PYTHON_PACKAGE], [
AC_ARG_VAR([REWIND_PYTHON], [Python 3 interpreter for the rewind package (imports petsc4py, mpi4py, numpy, cffi)])
AC_ARG_ENABLE([python],
  [AS_HELP_STRING([--disable-python], [do not build the Python package rewind (default: built when a Python with petsc4py, mpi4py, numpy and cffi is found)])],
  [], [enable_python=auto])
rw_pypkg_summary="disabled (--disable-python)"
rw_have_pypkg=no rw_have_torch=no rw_pypath_note= RW_LIBDIR_FROM_PYTHONDIR=.
AS_IF([test "x$enable_python" != xno], [
  AC_MSG_CHECKING([for a Python 3 that imports petsc4py, mpi4py, numpy and cffi])
  rw_found= rw_missing=
  for rw_p in $REWIND_PYTHON /usr/bin/python3 python3; do
    AS_IF([$rw_p -c "import petsc4py, mpi4py, numpy, cffi" >/dev/null 2>&1], [rw_found=`command -v $rw_p`; break])
  done
  AS_IF([test -n "$rw_found"], [
    REWIND_PYTHON=$rw_found rw_have_pypkg=yes
    AC_MSG_RESULT([$REWIND_PYTHON])
    $REWIND_PYTHON -c "import torch" >/dev/null 2>&1 && rw_have_torch=yes
    rw_pyver=`$REWIND_PYTHON -c 'import sys; print("%d.%d" % sys.version_info[[:2]])'`
    dnl Debian's python3 reads PREFIX/lib/python3.X/dist-packages for /usr/local; other prefixes need PYTHONPATH
    rw_pydir=dist-packages
    $REWIND_PYTHON -c "import sys; sys.exit(not any(p.endswith('dist-packages') for p in sys.path))" || rw_pydir=site-packages
    REWIND_PYTHONDIR="\${prefix}/lib/python$rw_pyver/$rw_pydir"
    rw_save_prefix=$prefix rw_save_exec_prefix=$exec_prefix
    test "x$prefix" = xNONE && prefix=$ac_default_prefix
    test "x$exec_prefix" = xNONE && exec_prefix=$prefix
    eval rw_pkgdir=\"$REWIND_PYTHONDIR/rewind\"; eval rw_libdir=\"$libdir\"; eval rw_libdir=\"$rw_libdir\"
    prefix=$rw_save_prefix exec_prefix=$rw_save_exec_prefix
    RW_LIBDIR_FROM_PYTHONDIR=`realpath -m --relative-to="$rw_pkgdir" "$rw_libdir" 2>/dev/null` || RW_LIBDIR_FROM_PYTHONDIR=../../../..
    $REWIND_PYTHON -c "import sys; sys.exit(\"$rw_pkgdir\".rsplit('/', 1)[[0]] not in sys.path)" >/dev/null 2>&1 ||
      rw_pypath_note="; set PYTHONPATH=`dirname $rw_pkgdir` after make install"
    AS_IF([test $rw_have_torch = yes],
      [rw_pypkg_summary="$REWIND_PYTHON (petsc4py, mpi4py, numpy, cffi, torch)"],
      [rw_pypkg_summary="$REWIND_PYTHON, without torch: rewind.torch and its tests left out (install python3-torch)"])
    rw_pypkg_summary="$rw_pypkg_summary, installed in $rw_pkgdir$rw_pypath_note"], [
    AC_MSG_RESULT([no])
    for rw_m in petsc4py mpi4py numpy cffi; do
      /usr/bin/python3 -c "import $rw_m" >/dev/null 2>&1 || rw_missing="$rw_missing python3-$rw_m"
    done
    AS_IF([test "x$enable_python" = xyes],
      [AC_MSG_ERROR([--enable-python: no Python 3 that imports petsc4py, mpi4py, numpy and cffi: install the Debian packages$rw_missing, or set REWIND_PYTHON=/path/to/python3])])
    AC_MSG_WARN([no Python 3 that imports petsc4py, mpi4py, numpy and cffi: the Python package and its tests are left out (install the Debian packages$rw_missing)])
    REWIND_PYTHON=
    rw_pypkg_summary="no (install$rw_missing): the Python package and its tests left out"])])
AM_CONDITIONAL([RW_HAVE_PYPKG], [test $rw_have_pypkg = yes])
AM_CONDITIONAL([RW_HAVE_TORCH], [test $rw_have_torch = yes])
AC_SUBST([REWIND_PYTHON])
AC_SUBST([REWIND_PYTHONDIR])
AC_SUBST([RW_LIBDIR_FROM_PYTHONDIR])
AC_CONFIG_FILES([python/rewind/_config.py])
])
