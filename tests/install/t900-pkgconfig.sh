#!/bin/sh
# make install into a scratch DESTDIR, then build and run an external program
# with nothing but `pkg-config --cflags --libs rewind`, on 2 ranks; then a
# user's model (examples/oscillator) the same way, its Taylor test, and the
# installed rewind-gradient with the model loaded as a plugin.
. "$top_srcdir/tests/testlib.sh"
echo "# make install DESTDIR=$tmp"
if ! $MAKE -C "$top_builddir" install DESTDIR="$tmp" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"
  exit 1
fi
for f in "$includedir/rewind.h" "$includedir/rewind/version.h" "$includedir/rewind/hdf5.h" "$includedir/rewind/private/rwimpl.h" \
         "$libdir/librewind.a" "$libdir/pkgconfig/rewind.pc"; do
  test -f "$tmp$f" || { echo "not installed: $f"; exit 1; }
done
ls "$tmp$libdir"/librewind.so* >/dev/null || { echo "no shared librewind installed"; exit 1; }
# the installed rewind.pc, its absolute paths moved under DESTDIR
mkdir "$tmp/pc"
sed -e "s#^\(prefix\|exec_prefix\|libdir\|includedir\)=/#\1=$tmp/#" "$tmp$libdir/pkgconfig/rewind.pc" > "$tmp/pc/rewind.pc"
PKG_CONFIG_PATH="$tmp/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
cflags=$($PKG_CONFIG --cflags rewind)
libs=$($PKG_CONFIG --libs rewind)
# the example also calls HDF5 itself (through <rewind/hdf5.h>), so it links HDF5: --static adds rewind's private requirements
hlibs=$($PKG_CONFIG --libs --static rewind)
echo "# pkg-config --cflags --libs rewind: $cflags $libs"
app="$tmp/example"
$CC $cflags -o "$app" "$top_srcdir/tests/install/example.c" $hlibs
out=$(LD_LIBRARY_PATH="$tmp$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" && export LD_LIBRARY_PATH && run 2)
echo "$out"
# each of the 2 ranks adds 1e100 + 1 - 1e100 exactly: the sum is 2
test "$out" = "rewind $(sed -n 's/^Version: //p' "$tmp/pc/rewind.pc") sum 2"

# ---- a user's model out of tree: examples/oscillator, built by its own
# Makefile with nothing but pkg-config against the installed library
echo "# examples/oscillator against the installed rewind"
cp -R "$top_srcdir/examples/oscillator" "$tmp/osc"
chmod -R u+w "$tmp/osc"
$MAKE -C "$tmp/osc" CC="$CC" PKG_CONFIG="$PKG_CONFIG" libosc.so oscdriver >"$tmp/osc/build.log" 2>&1 || { cat "$tmp/osc/build.log"; exit 1; }
LD_LIBRARY_PATH="$tmp$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
grid="-osc_dim 2 -da_grid_x 24 -da_grid_y 20 -osc_block_size 6 -rw_steps 10"
# the model compiled into a program: its gradient passes the Taylor test (exit 0)
app="$tmp/osc/oscdriver"
drv=$(run 2 $grid)
echo "$drv"
echo "$drv" | grep -q '^taylor_min_order1 [0-9.]* PASS$'
# the model as a plugin of the installed rewind-gradient: J and every gradient printed
app="$tmp$bindir/rewind-gradient"
out=$(run 2 -rw_model_plugin "$tmp/osc/libosc.so" -rw_model_type osc $grid -rw_verify taylor)
echo "$out"
for key in J norm2_dJdc sum_dJdc norm2_dJdw sum_dJdw norm2_dJdu0; do
  echo "$out" | grep -q "^$key [-0-9.e+]*$" || { echo "rewind-gradient with the plugin printed no $key"; exit 1; }
done
echo "$out" | grep -q '^verify_taylor_min_order1 [0-9.]* PASS$'
# the plugin computes what the compiled-in model does, to the last digit printed
test "$(echo "$out" | sed -n 's/^J //p')" = "$(echo "$drv" | sed -n 's/^J //p')"

# ---- your own inverse problem (examples/problem, doc/problem.md): built by
# its Makefile against the installed library, run on the shipped data
echo "# examples/problem against the installed rewind"
cp -R "$top_srcdir/examples/problem" "$tmp/problem"
chmod -R u+w "$tmp/problem"
$MAKE -C "$tmp/problem" CC="$CC" PKG_CONFIG="$PKG_CONFIG" invert >"$tmp/problem/build.log" 2>&1 || { cat "$tmp/problem/build.log"; exit 1; }
app="$tmp/problem/invert"
out=$(cd "$tmp/problem" && run 2 -rw_obs "$top_srcdir/doc/example-obs.h5" -rw_heat_bc neumann -rw_heat_scheme implicit -tao_max_it 2 -rw_history_view ascii)
echo "$out"
j0=$(echo "$out" | sed -n 's/^solve 0 iteration 0 J \([0-9.e+-]*\) .*/\1/p')
j2=$(echo "$out" | sed -n 's/^solve 0 iteration 2 J \([0-9.e+-]*\) .*/\1/p')
awk -v a="$j0" -v b="$j2" 'BEGIN { if (!(a > 0 && b > 0 && b < a)) { print "FAIL: examples/problem: J " a " -> " b; exit 1 } }'
test -s "$tmp/problem/invert.h5" && test ! -e "$tmp/problem/invert.state" || { echo "FAIL: examples/problem: no invert.h5, or the journal of a completed run was left"; exit 1; }
echo "ok examples/problem/invert.c built with pkg-config alone: J $j0 -> $j2 in 2 iterations on the shipped example-obs.h5"

# ---- make install prefix=DIR: the installed rewind.pc points at DIR (it is
# written at install time, not at configure time), and a program builds and
# runs with nothing but it
echo "# make install prefix=$tmp/p2"
if ! $MAKE -C "$top_builddir" install prefix="$tmp/p2" >"$tmp/install2.log" 2>&1; then
  cat "$tmp/install2.log"
  exit 1
fi
pc2="$tmp/p2/lib/pkgconfig/rewind.pc"
grep -q "^prefix=$tmp/p2\$" "$pc2" || { echo "FAIL: rewind.pc of make install prefix=DIR says $(grep '^prefix=' "$pc2")"; exit 1; }
grep -q "^libdir=$tmp/p2/lib\$" "$pc2" || { echo "FAIL: rewind.pc of make install prefix=DIR says $(grep '^libdir=' "$pc2")"; exit 1; }
cflags=$(PKG_CONFIG_PATH="$tmp/p2/lib/pkgconfig" $PKG_CONFIG --cflags rewind)
libs=$(PKG_CONFIG_PATH="$tmp/p2/lib/pkgconfig" $PKG_CONFIG --libs rewind)
app="$tmp/example2"
$CC $cflags -o "$app" "$top_srcdir/tests/install/example.c" $hlibs
out=$(LD_LIBRARY_PATH="$tmp/p2/lib" && export LD_LIBRARY_PATH && run 2)
test "$out" = "rewind $(sed -n 's/^Version: //p' "$pc2") sum 2" || { echo "FAIL: the program built against make install prefix=DIR printed: $out"; exit 1; }
echo "ok make install prefix=DIR: rewind.pc points at DIR; $out"
