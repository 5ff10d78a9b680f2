#!/bin/sh
# Without Check and without Python the library and the apps still build:
# a copy of the sources (make distdir) configured with a pkg-config that
# hides Check and with --disable-plots says in its summary what it left out,
# builds, runs an app (installed with its --prefix too, started with env -i),
# and its make check says what to install instead of running tests.
. "$top_srcdir/tests/testlib.sh"
realpc=$(command -v "${PKG_CONFIG:-pkg-config}")
mkdir "$tmp/bin" "$tmp/build"
printf '#!/bin/sh\nfor a in "$@"; do test "$a" = check && exit 1; case "$a" in check*) exit 1 ;; esac; done\nexec "%s" "$@"\n' "$realpc" > "$tmp/bin/pkg-config"
chmod +x "$tmp/bin/pkg-config"
$MAKE -C "$top_builddir" distdir distdir="$tmp/src" > "$tmp/distdir.log" 2>&1 || { cat "$tmp/distdir.log"; exit 1; }
cd "$tmp/build"
# the outer make's command line (TESTS=... of make check TESTS=...) must not reach this build
unset MAKEFLAGS MFLAGS MAKELEVEL
# -O0: this test is about what builds, not how fast it runs
"$tmp/src/configure" --prefix="$tmp/inst" PKG_CONFIG="$tmp/bin/pkg-config" --disable-plots CFLAGS=-O0 > configure.out 2>&1 || { cat configure.out; echo "FAIL: configure stopped without Check"; exit 1; }
grep -q "Check  *no (install the Debian package check): make check runs no test" configure.out || { tail -20 configure.out; echo "FAIL: the summary does not say that Check was left out"; exit 1; }
grep -q "Python (plots)  disabled" configure.out || { tail -20 configure.out; echo "FAIL: the summary does not say that plots were left out"; exit 1; }
grep -q "WARNING: the Check unit-test framework (>= 0.10) was not found" configure.out || { echo "FAIL: configure gave no warning about Check"; exit 1; }
sed -n '/rewind .* configured/,$p' configure.out
$MAKE -j2 > make.out 2>&1 || { tail -30 make.out; echo "FAIL: the build without Check failed"; exit 1; }
app="$tmp/build/apps/rewind-gradient"
run 1 -rw_steps 2 -da_grid_x 8 -da_grid_y 8 | grep -q "^J " || { echo "FAIL: the app built without Check does not run"; exit 1; }
# ./configure --prefix=DIR && make install: the installed program starts in a clean environment
$MAKE install > install.out 2>&1 || { tail -30 install.out; echo "FAIL: make install of ./configure --prefix=DIR"; exit 1; }
env -i PATH=/usr/bin:/bin $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 1 "$tmp/inst/bin/rewind-gradient" -rw_steps 2 -da_grid_x 8 -da_grid_y 8 | grep -q "^J " || { echo "FAIL: the program installed by ./configure --prefix=DIR && make install does not run with env -i"; exit 1; }
$MAKE check > check.out 2>&1 || { cat check.out; echo "FAIL: make check failed instead of saying what to install"; exit 1; }
grep -q "SKIP: rewind's tests need the Check unit-test framework" check.out && grep -q "install the Debian package check" check.out || { cat check.out; echo "FAIL: make check did not say what to install"; exit 1; }
grep "SKIP" check.out
echo "ok: built and ran without Check and Python"
