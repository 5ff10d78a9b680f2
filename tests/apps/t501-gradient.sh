#!/bin/sh
# rewind-gradient end to end: for explicit schemes, J and every gradient are
# bitwise identical on 1, 2, 3 and 4 ranks (printed with %.17g, and the
# fields written to HDF5, compared bit for bit); the
# verification passes on 2 ranks; implicit schemes agree across ranks to
# the solver tolerance.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"

# same_h5 A B: every dataset and root attribute bitwise equal, but the
# metadata that names the run (its options, its date)
same_h5() {
  "$PYTHON" - "$1" "$2" <<'PY'
import sys, h5py, numpy
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
assert sorted(a) == sorted(b), (list(a), list(b))
for k in a:
    x, y = a[k][()], b[k][()]
    assert x.shape == y.shape and x.tobytes() == y.tobytes(), k
skip = {"options", "date"}
assert sorted(set(a.attrs) - skip) == sorted(set(b.attrs) - skip)
for k in set(a.attrs) - skip:
    assert numpy.asarray(a.attrs[k]).tobytes() == numpy.asarray(b.attrs[k]).tobytes(), k
PY
}

check_ranks() { # check_ranks NAME OPTIONS...: bitwise the same on 1..4 ranks
  name=$1
  shift
  for np in 1 2 3 4; do
    run "$np" "$@" -rw_gradient_view "hdf5:$tmp/$name-$np.h5" > "$tmp/$name-$np.txt"
  done
  for np in 2 3 4; do
    if ! cmp -s "$tmp/$name-1.txt" "$tmp/$name-$np.txt"; then
      echo "FAIL $name: output on $np ranks differs from 1 rank"
      diff "$tmp/$name-1.txt" "$tmp/$name-$np.txt"
      exit 1
    fi
    same_h5 "$tmp/$name-1.h5" "$tmp/$name-$np.h5" || { echo "FAIL $name: gradient fields on $np ranks differ"; exit 1; }
  done
  echo "ok $name: identical on 1, 2, 3, 4 ranks: $(grep '^J ' "$tmp/$name-1.txt")"
}

check_ranks 1d-periodic -rw_heat_dim 1 -da_grid_x 101 -rw_steps 40
check_ranks 2d-default -da_grid_x 37 -da_grid_y 29 -rw_steps 30
check_ranks 2d-dirichlet-neumann -da_grid_x 24 -da_grid_y 20 -rw_heat_bc dirichlet,neumann -rw_steps 25
check_ranks 3d-mixed -rw_heat_dim 3 -da_grid_x 9 -da_grid_y 8 -da_grid_z 7 -rw_heat_bc neumann,periodic,dirichlet -rw_steps 12

# the keys the app promises
for key in J norm2_dJdkappa sum_dJdkappa norm2_dJds sum_dJds norm2_dJdr sum_dJdr norm2_dJdu0 sum_dJdu0; do
  grep -q "^$key " "$tmp/2d-default-1.txt" || { echo "FAIL: key $key missing"; exit 1; }
done
h5dump -H "$tmp/2d-default-2.h5" | grep -q 'DATASET "dJdkappa"' || { echo "FAIL: no dJdkappa dataset"; exit 1; }
h5dump -A "$tmp/2d-default-2.h5" | grep -q 'ATTRIBUTE "dJdr"' || { echo "FAIL: no dJdr attribute"; exit 1; }

# verification passes on 2 ranks and says so
run 2 -da_grid_x 24 -da_grid_y 24 -rw_steps 20 -rw_verify taylor,dot,fd > "$tmp/verify.txt"
cat "$tmp/verify.txt"
test "$(grep -c ' PASS$' "$tmp/verify.txt")" = 4 || { echo "FAIL: verification did not pass"; exit 1; }
! grep -q ' FAIL$' "$tmp/verify.txt"

# Crank-Nicolson: the same J to the solver's tolerance on 1 and 3 ranks
for np in 1 3; do
  run "$np" -da_grid_x 20 -da_grid_y 20 -rw_steps 10 -rw_heat_theta 0.5 -ksp_rtol 1e-13 > "$tmp/cn-$np.txt"
done
"$PYTHON" - "$tmp/cn-1.txt" "$tmp/cn-3.txt" <<'PY'
import sys
a = dict(l.split() for l in open(sys.argv[1]))
b = dict(l.split() for l in open(sys.argv[2]))
for k in a:
    x, y = float(a[k]), float(b[k])
    assert abs(x - y) <= 1e-10 * max(abs(x), 1e-30), (k, x, y)
print("ok crank-nicolson: 1 and 3 ranks agree to 1e-10")
PY

# -rw_adjoint_monitor: progress lines on rank 0 only, the last one when the solve is done,
# counting every forward, recomputed and reverse step the driver took
run 2 -da_grid_x 40 -da_grid_y 40 -rw_steps 60 -rw_schedule_type revolve -rw_schedule_ram_slots 4 \
  -rw_adjoint_monitor -rw_adjoint_monitor_seconds 0 -rw_adjoint_view > "$tmp/monitor.txt"
taken=$(sed -n 's/.*last solve: \([0-9]*\) forward steps.*/\1/p' "$tmp/monitor.txt")
grep -q "^rewind: solve 0 done: $((taken + 60)) steps in " "$tmp/monitor.txt" || { echo "FAIL: no final progress line for $taken + 60 steps"; grep '^rewind:' "$tmp/monitor.txt" | tail -3; exit 1; }
lines=$(grep -c '^rewind: solve 0, ' "$tmp/monitor.txt")
test "$lines" -eq $((taken + 60 - 1)) || { echo "FAIL: $lines progress lines with -rw_adjoint_monitor_seconds 0, expected one a step"; exit 1; }
grep -q '^rewind: solve 0, reverse step 0' "$tmp/monitor.txt" && { echo "FAIL: the last reversal printed a progress line instead of the final one"; exit 1; }
echo "ok -rw_adjoint_monitor: $lines progress lines and the final one"

# -rw_model_view: the model shows itself once it is set up, through PETSc's viewer options
run 1 -rw_steps 5 -rw_model_view ascii:"$tmp/model.txt" > /dev/null
grep -q 'heat' "$tmp/model.txt" || { echo "FAIL: -rw_model_view ascii:FILE wrote no model view"; exit 1; }
echo "ok -rw_model_view ascii:FILE: $(head -1 "$tmp/model.txt")"

# -rw_gradient_view takes PETSc's viewer syntax: hdf5:FILE truncates, hdf5:FILE::append adds
"$PYTHON" -c "import h5py; f = h5py.File('$tmp/append.h5', 'w'); f['kept'] = [1.0, 2.0]; f.close()"
run 2 -rw_steps 5 -rw_gradient_view "hdf5:$tmp/append.h5::append" > /dev/null
"$PYTHON" -c "import h5py; f = h5py.File('$tmp/append.h5', 'r'); assert 'kept' in f and 'dJdkappa' in f and 'J' in f.attrs, list(f)" || { echo "FAIL: hdf5:FILE::append did not keep the file's datasets and add the gradient"; exit 1; }
run 2 -rw_steps 5 -rw_gradient_view "hdf5:$tmp/append.h5" > /dev/null
"$PYTHON" -c "import h5py; f = h5py.File('$tmp/append.h5', 'r'); assert 'kept' not in f and 'dJdkappa' in f, list(f)" || { echo "FAIL: hdf5:FILE did not start the file afresh"; exit 1; }
"$PYTHON" -c "import h5py; a = h5py.File('$tmp/append.h5', 'r').attrs; assert a['steps'] == 5 and a['grid_x'] == 64 and a['model'] == b'heat' and b'-rw_steps 5' in a['options'], dict(a)" || { echo "FAIL: the gradient file lacks its metadata"; exit 1; }
echo "ok -rw_gradient_view: hdf5:FILE::append adds to a file, hdf5:FILE starts it afresh; metadata attributes present"
