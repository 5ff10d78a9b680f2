#!/bin/sh
# make install prefix=DIR over a tree configured for another prefix, then,
# in a clean environment (env -i: no LD_LIBRARY_PATH, no PKG_CONFIG_PATH):
# the installed program finds the installed librewind and runs; the installed
# examples (DOCDIR/examples) build with their own Makefile against this
# install and run; the documents are installed beside README.md.
. "$top_srcdir/tests/testlib.sh"
p="$tmp/p"
echo "# make install prefix=$p"
$MAKE -C "$top_builddir" install prefix="$p" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
clean="env -i PATH=/usr/bin:/bin HOME=$tmp"
doc="$p/share/doc/rewind"
for f in README.md doc/install.md doc/testing.md doc/example-obs.h5 examples/oscillator/Makefile examples/oscillator/osc.c examples/problem/Makefile examples/problem/invert.c; do
  test -f "$doc/$f" || { echo "FAIL: make install did not install $doc/$f"; exit 1; }
done

# the installed program: its run path finds $p/lib (ldd says where, then it runs)
echo "# $clean ldd $p/bin/rewind-gradient"
# finds P: the librewind that program P loads in a clean environment is the one in $p/lib
finds() {
  lib=$($clean ldd "$1" | sed -n 's/^[[:space:]]*librewind\.so\.[0-9]* => \([^ ]*\) .*/\1/p')
  echo "$1: librewind from ${lib:-nowhere}"
  test -n "$lib" && test "$(realpath "$(dirname "$lib")")" = "$(realpath "$p/lib")"
}
finds "$p/bin/rewind-gradient" || { echo "FAIL: the installed rewind-gradient does not find $p/lib/librewind"; exit 1; }
echo "# $clean $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 2 $p/bin/rewind-gradient -rw_steps 3 -da_grid_x 8 -da_grid_y 8"
out=$($clean $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 2 "$p/bin/rewind-gradient" -rw_steps 3 -da_grid_x 8 -da_grid_y 8)
echo "$out" | grep '^J [-0-9.e+]*$' || { echo "$out"; echo "FAIL: the installed rewind-gradient printed no J"; exit 1; }

# the installed examples: copied as a user copies them, built by `make` alone
cp -R "$doc/examples" "$tmp/ex"
chmod -R u+w "$tmp/ex"
echo "# $clean make -C $tmp/ex/oscillator CC=$CC"
$clean make -C "$tmp/ex/oscillator" CC="$CC" >"$tmp/osc.log" 2>&1 || { cat "$tmp/osc.log"; exit 1; }
finds "$tmp/ex/oscillator/oscdriver" || { echo "FAIL: the installed example does not find $p/lib/librewind"; exit 1; }
out=$(cd "$tmp/ex/oscillator" && $clean $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 2 ./oscdriver -osc_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 5)
echo "$out" | grep '^taylor_min_order1 [0-9.]* PASS$' || { echo "$out"; echo "FAIL: the installed example's Taylor test"; exit 1; }
# the plugin, loaded by the installed program
out=$(cd "$tmp/ex/oscillator" && $clean $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 2 "$p/bin/rewind-gradient" -rw_model_plugin ./libosc.so -rw_model_type osc -osc_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 5)
echo "$out" | grep '^J [-0-9.e+]*$' || { echo "$out"; echo "FAIL: the installed rewind-gradient with the installed example's plugin printed no J"; exit 1; }
echo "# $clean make -C $tmp/ex/problem CC=$CC"
$clean make -C "$tmp/ex/problem" CC="$CC" >"$tmp/problem.log" 2>&1 || { cat "$tmp/problem.log"; exit 1; }
out=$(cd "$tmp/ex/problem" && $clean $RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 2 ./invert -rw_obs "$doc/doc/example-obs.h5" -rw_heat_bc neumann -rw_heat_scheme implicit -tao_max_it 1 -rw_history_view ascii)
echo "$out" | grep '^solve 0 iteration 1 J ' || { echo "$out"; echo "FAIL: the installed examples/problem did not run an iteration"; exit 1; }
# the Python package (doc/python.md), when configure found its Python: installed
# under DIR/lib/python3.X, it finds DIR/lib/librewind by itself
if test -n "${REWIND_PYTHON:-}"; then
  pkg=$(ls -d "$p"/lib/python3*/*-packages/rewind 2>/dev/null | head -1)
  test -f "$pkg/__init__.py" && test -f "$pkg/_config.py" || { echo "FAIL: make install did not install the Python package under $p/lib/python3*"; exit 1; }
  out=$($clean PYTHONPATH="$(dirname "$pkg")" "$REWIND_PYTHON" -c 'import rewind; p = rewind.Problem("-rw_steps 2 -da_grid_x 8 -da_grid_y 8"); print("J", p.gradient()[0])')
  echo "$out"
  echo "$out" | grep -q '^J [-0-9.e+]*$' || { echo "FAIL: the installed Python package computed no J"; exit 1; }
fi
echo "ok: installed with make install prefix=DIR, the program and the examples run with env -i"
