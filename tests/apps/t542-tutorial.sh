#!/bin/sh
# doc/tutorial.md works as written: its sh blocks (a user's own observation
# file written with h5py, then rewind-gradient on it, for heat and for wave)
# run in a scratch directory, with mpirun and python3 standing for the
# launcher and the Python configure found; every result line the page
# quotes (J, a gradient norm, the Taylor test's verdict) is printed exactly
# so, and the gradient files it names are written.
. "$top_srcdir/tests/testlib.sh"
py=${PYTHON:-/usr/bin/python3}
doc="$top_srcdir/doc/tutorial.md"
awk '/^```sh$/ { on = 1; next } /^```$/ { on = 0; next } on' "$doc" > "$tmp/tutorial.sh"
test -s "$tmp/tutorial.sh" || { echo "FAIL: no sh block in $doc"; exit 1; }
sed -n 's/^    \(J [-0-9.e+]*\|norm2_[A-Za-z0-9_]* [-0-9.e+]*\|verify_taylor_min_order1 .*\)$/\1/p' "$doc" > "$tmp/quoted"
test "$(wc -l < "$tmp/quoted")" -ge 5 || { cat "$tmp/quoted"; echo "FAIL: the page quotes fewer results than expected"; exit 1; }
(
  cd "$tmp"
  PATH="$top_builddir/apps:$PATH"
  mpirun() { $RW_MPIEXEC $RW_MPIEXEC_FLAGS "$@"; }
  python3() { "$py" "$@"; }
  . ./tutorial.sh
) > "$tmp/out" 2>&1 || { cat "$tmp/out"; echo "FAIL: the tutorial's commands failed"; exit 1; }
while IFS= read -r line; do
  grep -qxF "$line" "$tmp/out" || { cat "$tmp/out"; echo "FAIL: doc/tutorial.md quotes '$line', the commands print otherwise"; exit 1; }
done < "$tmp/quoted"
for f in grad.h5 grad.xmf wgrad.h5 wgrad.xmf; do test -s "$tmp/$f" || { echo "FAIL: the tutorial wrote no $f"; exit 1; }; done
echo "ok: doc/tutorial.md's commands ran; $(wc -l < "$tmp/quoted") quoted results printed as quoted"
