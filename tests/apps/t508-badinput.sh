#!/bin/sh
# Bad input to the apps stops with an error that names the option, the value
# seen and the value expected, and a nonzero exit; misspelled options are
# warned about with the name they were probably meant to be.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
small="-da_grid_x 12 -da_grid_y 12 -rw_steps 5"

fails() { # fails NAME MESSAGE NP OPTIONS...: the run exits nonzero and says MESSAGE
  name=$1 msg=$2 np=$3
  shift 3
  if run "$np" "$@" > "$tmp/$name.out" 2>&1; then
    echo "FAIL $name: exit status 0"; cat "$tmp/$name.out"; exit 1
  fi
  grep -qF -- "$msg" "$tmp/$name.out" || { echo "FAIL $name: no message \"$msg\""; cat "$tmp/$name.out"; exit 1; }
  echo "ok $name: $msg"
}

# an integer that PetscOptionsInt would wrap to 10
fails wrapped-steps "-rw_steps 4294967306: expected a whole number in [1, 2147483647]" 1 $small -rw_steps 4294967306
fails not-integer "-rw_check_finite_interval 2.5: expected a whole number in [1, 2147483647]" 1 $small -rw_check_finite_interval 2.5

# a misspelled option: the run stands (exit 0), one warning on 2 ranks before
# the solve (before J is printed), with the suggestion, and not again after it
run 2 $small -rw_restar -rw_stpes 3 > "$tmp/typo.out" 2> "$tmp/typo.err"
grep -q '^J ' "$tmp/typo.out"
test "$(grep -c 'rewind: warning: option -rw_restar is unknown; did you mean -rw_restart?' "$tmp/typo.err")" = 1 || { echo "FAIL typo"; cat "$tmp/typo.err"; exit 1; }
grep -qF 'rewind: warning: option -rw_stpes is unknown; did you mean -rw_steps?' "$tmp/typo.err"
! grep -q 'was given but never used' "$tmp/typo.err" || { echo "FAIL typo: reported again after the run"; cat "$tmp/typo.err"; exit 1; }
echo "ok typo: warned once, with the suggestion"
# -rw_options_strict: the same misspelling stops the run before it starts
fails strict "-rw_restar: no such option (-rw_options_strict); did you mean -rw_restart?" 2 $small -rw_restar -rw_options_strict
! grep -q '^J ' "$tmp/strict.out" || { echo "FAIL strict: the run went ahead"; exit 1; }
# options PETSc reads in PetscFinalize are not reported
run 1 $small -log_view ":$tmp/log.txt" -options_left no > /dev/null 2> "$tmp/quiet.err"
! grep -q 'was given but never used' "$tmp/quiet.err" || { echo "FAIL: PETSc's finalize options reported"; cat "$tmp/quiet.err"; exit 1; }

# the output file is checked before the run: no J is printed
fails missing-dir "-rw_gradient_view hdf5:$tmp/missing/g.h5: cannot create $tmp/missing/g.h5: No such file or directory" 2 $small -rw_gradient_view "hdf5:$tmp/missing/g.h5"
! grep -q '^J ' "$tmp/missing-dir.out" || { echo "FAIL missing-dir: the run went ahead"; exit 1; }

# the disk level's store type is named by the option that chose it
fails disk-type 'Unknown RwStore type "hdf55" (option -rw_store_disk_type)' 1 $small -rw_steps 20 -rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 2 -rw_store_disk_type hdf55
fails disk-tolerance '-rw_store_disk_compress_tolerance 1: expected a finite number in (0, 1)' 1 $small -rw_steps 20 -rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 2 -rw_store_disk_compress zfp -rw_store_disk_compress_tolerance 1
# issue 36 item 3: a tolerance is a number or auto; auto's rtol is in (0, 1)
fails tolerance-word '-rw_store_compress_tolerance automatic: expected a finite number in (0, 1), or auto' 2 $small -rw_schedule_type revolve -rw_schedule_ram_slots 2 -rw_store_compress zfp -rw_store_compress_tolerance automatic
fails gradient-rtol '-rw_adjoint_gradient_rtol 0: expected a finite number in (0, 1)' 1 $small -rw_schedule_type revolve -rw_schedule_ram_slots 2 -rw_store_compress zfp -rw_store_compress_tolerance auto -rw_adjoint_gradient_rtol 0
# -rw_store_compress auto (h-auto): a misspelt codec, auto with a bad tolerance, a misspelt disk codec
fails codec-autox '-rw_store_compress autox: unknown codec; expected none, lossless, zfp or auto' 1 $small -rw_schedule_type revolve -rw_checkpoint_ram 1MB -rw_store_compress autox
fails codec-auto-tolerance '-rw_store_compress_tolerance -1: expected a finite number in (0, 1), or auto' 2 $small -rw_schedule_type revolve -rw_checkpoint_ram 1MB -rw_store_compress auto -rw_store_compress_tolerance -1
fails disk-codec-autox 'autox' 1 $small -rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 2 -rw_store_disk_compress autox

# a starting conductivity outside the bounds: refused, or clipped with a warning
app="$top_builddir/apps/rewind-heat-inverse"
inv="-da_grid_x 24 -da_grid_y 24 -tao_max_it 1"
run 1 $inv -rw_invert s -rw_obs_write "$tmp/start.h5" > /dev/null # its /kappa is the truth, 0.4 to 2.5
fails kappa0 "-rw_kappa0 $tmp/start.h5: 26 values of /kappa in $tmp/start.h5 outside the bounds [0.05, 2] (-rw_kappa_min, -rw_kappa_max); the first in natural order is 2.23395 at grid point (17, 5, 0)" 2 $inv -rw_kappa0 "$tmp/start.h5" -rw_kappa_max 2
run 2 $inv -rw_kappa0 "$tmp/start.h5" -rw_kappa_max 2 -rw_kappa0_clip > "$tmp/clip.out" 2> "$tmp/clip.err"
test "$(grep -c 'rewind: warning: -rw_kappa0_clip clipped 26 values of /kappa' "$tmp/clip.err")" = 1 || { echo "FAIL clip"; cat "$tmp/clip.err"; exit 1; }
grep -q '^recovered kappa' "$tmp/clip.out"
echo "ok kappa0: refused, and clipped with a warning"

# an integer attribute of an observation file too large for the option it sets
if "${PYTHON:-false}" -c 'import h5py' 2>/dev/null; then
  run 1 $inv -rw_obs_write "$tmp/obs.h5" > /dev/null
  "$PYTHON" -c 'import h5py, sys; f = h5py.File(sys.argv[1], "r+"); f.attrs["steps"] = 4294967306.0; f.attrs["grid_y"] = 24.5' "$tmp/obs.h5"
  fails attribute "Attribute grid_y of / in $tmp/obs.h5 is 24.5: expected a whole number in [1, 2147483647]" 1 -rw_obs "$tmp/obs.h5" -tao_max_it 1
  "$PYTHON" -c 'import h5py, sys; f = h5py.File(sys.argv[1], "r+"); f.attrs["grid_y"] = 24.0' "$tmp/obs.h5"
  fails attribute "Attribute steps of / in $tmp/obs.h5 is 4294967306: expected a whole number in [1, 2147483647]" 1 -rw_obs "$tmp/obs.h5" -tao_max_it 1
else
  echo "skip attribute: no h5py"
fi
