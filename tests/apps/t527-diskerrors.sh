#!/bin/sh
# HDF5 writes onto a full file system (a 64 kB tmpfs) and into a read-only
# one (a tmpfs remounted read-only) stop with the file and the system's
# reason, and leave nothing partial behind: no -rw_gradient_view file (a
# file kept under that name, replaced or appended to, stays as it was, its
# XDMF file too), no rewind-heat-inverse result file, no lock file; a
# checkpoint file that fills the disk is named with the reason.  The mounts need root, which the CI has;
# without it the test runs itself in a user namespace (unshare -rm).
if [ "$(id -u)" != 0 ] && [ -z "${RW_T520_NS:-}" ]; then
  RW_T520_NS=1 exec unshare -rm sh "$0" "$@"
fi
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
full="$tmp/full" ro="$tmp/ro"
mkdir "$full" "$ro"
trap 'umount "$full" 2> /dev/null; umount "$ro" 2> /dev/null; rm -rf "$tmp"' EXIT
mount -t tmpfs -o size=64k tmpfs "$full" || fail "cannot mount a 64 kB tmpfs on $full"
mount -t tmpfs -o size=64k tmpfs "$ro" && mount -o remount,ro "$ro" || fail "cannot mount a read-only tmpfs on $ro"

# the gradient field alone (120 x 120 doubles, 115 kB) does not fit in 64 kB
big="-da_grid_x 120 -da_grid_y 120 -rw_steps 3"
fails() { # fails NAME MESSAGE NP OPTIONS...: the run exits nonzero and says MESSAGE
  name=$1 msg=$2 np=$3
  shift 3
  if run "$np" "$@" > "$tmp/$name.out" 2>&1; then cat "$tmp/$name.out"; fail "$name: exit status 0"; fi
  grep -qF -- "$msg" "$tmp/$name.out" || { cat "$tmp/$name.out"; fail "$name: no message \"$msg\""; }
  ! grep -q 'Status -1$' "$tmp/$name.out" || { cat "$tmp/$name.out"; fail "$name: an HDF5 status without the file"; }
}
only() { # only DIR FILES...: DIR holds exactly FILES
  want=$(shift; printf '%s\n' "$@" | sort)
  got=$(ls -A "$1" | sort)
  test "$got" = "$want" || fail "$1 holds [$got], expected [$want]"
}

fails full-new "writing -rw_gradient_view file $full/g.h5 failed: No space left on device" 2 $big -rw_gradient_view "hdf5:$full/g.h5"
only "$full"
echo "ok full disk, new gradient file: named with the reason, nothing left"

# a small gradient file the user keeps, then a write that replaces it and one that appends to it
run 1 -da_grid_x 6 -da_grid_y 6 -rw_steps 2 -rw_gradient_view "hdf5:$full/g.h5" > /dev/null
cp "$full/g.h5" "$tmp/kept.h5"
cp "$full/g.xmf" "$tmp/kept.xmf"
fails full-replace "writing -rw_gradient_view file $full/g.h5 failed: No space left on device" 2 $big -rw_gradient_view "hdf5:$full/g.h5"
cmp -s "$full/g.h5" "$tmp/kept.h5" && cmp -s "$full/g.xmf" "$tmp/kept.xmf" || fail "full-replace: the files the user kept were changed"
only "$full" g.h5 g.xmf
fails full-append "$full/g.h5" 1 $big -rw_gradient_view "hdf5:$full/g.h5::append"
grep -qF "No space left on device" "$tmp/full-append.out" || { cat "$tmp/full-append.out"; fail "full-append: no reason"; }
cmp -s "$full/g.h5" "$tmp/kept.h5" && cmp -s "$full/g.xmf" "$tmp/kept.xmf" || fail "full-append: the files the user kept were changed"
only "$full" g.h5 g.xmf
echo "ok full disk, kept gradient file replaced or appended to: named with the reason, the kept file as it was"
rm "$full/g.h5" "$full/g.xmf"

# checkpoints that do not fit: the failed write is named with its file and
# reason; the file is kept (its valid marks say which checkpoints a resume
# may use, as after a kill), and the next run takes the dead run's lock over
store="-da_grid_x 120 -da_grid_y 120 -rw_steps 20 -rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type hdf5 -rw_store_hdf5_file $full/ck.h5"
fails full-store "in file $full/ck.h5 (step" 2 $store
grep -qF "No space left on device" "$tmp/full-store.out" || { cat "$tmp/full-store.out"; fail "full-store: no reason"; }
fails full-store-again "in file $full/ck.h5 (step" 2 $store -rw_store_overwrite
! grep -q "is in use by" "$tmp/full-store-again.out" || { cat "$tmp/full-store-again.out"; fail "full-store-again: refused as in use by a dead run"; }
rm -f "$full/ck.h5" "$full/ck.h5.lock"
echo "ok full disk, checkpoint file: named with the reason; the dead run's lock taken over"

# an app's result file: rewind-heat-inverse's -rw_output (fields and history)
app="$top_builddir/apps/rewind-heat-inverse"
fails full-output "writing -rw_output file $full/inv.h5 failed: No space left on device" 2 -da_grid_x 64 -da_grid_y 64 -rw_steps 4 -tao_max_it 1 -rw_output "$full/inv" -rw_journal none
only "$full"
echo "ok full disk, rewind-heat-inverse's result file: named with the reason, nothing left"
app="$top_builddir/apps/rewind-gradient"

# read-only: the gradient file is checked before the run, the checkpoint file's lock cannot be made
fails ro-view "cannot create $ro/g.h5: Read-only file system" 2 -da_grid_x 6 -da_grid_y 6 -rw_steps 2 -rw_gradient_view "hdf5:$ro/g.h5"
fails ro-store "Checkpoint file $ro/ck.h5 (-rw_store_hdf5_file): cannot create its lock file $ro/ck.h5.lock: Read-only file system" 2 -da_grid_x 6 -da_grid_y 6 -rw_steps 8 -rw_schedule_type revolve -rw_schedule_ram_slots 2 -rw_store_type hdf5 -rw_store_hdf5_file "$ro/ck.h5"
only "$ro"
echo "ok read-only file system: gradient and checkpoint files named with the reason"
