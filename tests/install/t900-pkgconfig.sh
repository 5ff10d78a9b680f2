#!/bin/sh
# make install into a scratch DESTDIR, then build and run an external program
# with nothing but `pkg-config --cflags --libs rewind`, on 2 ranks.
. "$top_srcdir/tests/testlib.sh"
echo "# make install DESTDIR=$tmp"
if ! $MAKE -C "$top_builddir" install DESTDIR="$tmp" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"
  exit 1
fi
for f in "$includedir/rewind.h" "$includedir/rewind/version.h" "$includedir/rewind/private/rwimpl.h" \
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
echo "# pkg-config --cflags --libs rewind: $cflags $libs"
app="$tmp/example"
$CC $cflags -o "$app" "$top_srcdir/tests/install/example.c" $libs
out=$(LD_LIBRARY_PATH="$tmp$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" && export LD_LIBRARY_PATH && run 2)
echo "$out"
# each of the 2 ranks adds 1e100 + 1 - 1e100 exactly: the sum is 2
test "$out" = "rewind $(sed -n 's/^Version: //p' "$tmp/pc/rewind.pc") sum 2"
