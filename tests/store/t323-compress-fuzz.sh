#!/bin/sh
# t307's fuzz test on compressed hdf5 slots (-rw_store_compress lossless):
# damaged files are refused or resumed bit for bit, never accepted wrong and
# never crash, and runs killed inside writes (-rw_debug_kill_in_write stops
# the writer half way through a slot's kept bytes) leave only valid slots
# and resume bit for bit.  Fewer trials than t307's
# (RW_FUZZ_TRIALS overrides): the damage lands on the same metadata.  Since
# the kept bytes are a small part of the file, a second part aims at them:
# a byte changed inside a valid slot's compressed bytes is refused (or the
# slot is never read and the run resumes bit for bit), one changed in a
# part's padding beyond its length changes nothing.
RW_FUZZ_OPTIONS="-rw_store_compress lossless ${RW_FUZZ_OPTIONS:-}"
RW_FUZZ_TRIALS=${RW_FUZZ_TRIALS:-120}
export RW_FUZZ_OPTIONS RW_FUZZ_TRIALS
sh "$top_srcdir/tests/store/t307-fuzz.sh" || exit 1

app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
if test -z "${PYTHON:-}"; then echo "note: no Python with h5py (configure --disable-plots): no aimed damage"; exit 0; fi
opts="-rw_heat_dim 1 -da_grid_x 400 -rw_steps 30 -rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type hdf5 $RW_FUZZ_OPTIONS"
keys='^(J|norm2_|sum_)'
run 1 $opts -rw_store_hdf5_file "$tmp/ref.h5" | grep -E "$keys" > "$tmp/ref.keys"
if run 1 $opts -rw_store_hdf5_file "$tmp/kept.h5" -rw_debug_kill_at_step 20 > /dev/null 2>&1; then echo "FAIL: the run to kill was not killed"; exit 1; fi
# aim SEED WHERE: change one byte of a valid slot's bytes (WHERE=data) or of its padding (pad)
aim() {
  "$PYTHON" - "$tmp/ck.h5" "$1" "$2" << 'PY'
import random, sys, h5py
path, seed, where = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rnd = random.Random(seed)
with h5py.File(path, "r") as f:
    slots = [(f[n].id.get_offset(), int(f[n].attrs["lengths"][0]), f[n].shape[0]) for n in f if n.startswith("slot_") and int(f[n].attrs["valid"]) == 1]
off, n, cap = rnd.choice(slots)
at = off + (rnd.randrange(n) if where == "data" else rnd.randrange(n, cap))
with open(path, "r+b") as g:
    g.seek(at)
    b = g.read(1)[0]
    g.seek(at)
    g.write(bytes([b ^ (1 << rnd.randrange(8))]))
print("byte %d of a part of %d bytes kept in %d" % (at - off, n, cap))
PY
}
refused=0 resumed=0
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
  cp "$tmp/kept.h5" "$tmp/ck.h5"
  if test $i -lt 8; then where=data; else where=pad; fi
  what=$(aim $i $where)
  rc=0
  run 1 $opts -rw_store_hdf5_file "$tmp/ck.h5" -rw_restart > "$tmp/out" 2> "$tmp/err" || rc=$?
  if test $rc -eq 0; then
    grep -E "$keys" "$tmp/out" | cmp -s - "$tmp/ref.keys" || { echo "FAIL aimed $i ($where, $what): resumed with another J or gradient"; exit 1; }
    resumed=$((resumed + 1))
  elif test $where = data && grep -q "compressed bytes fail their checksum" "$tmp/err" && ! grep -q 'Caught signal' "$tmp/err"; then
    refused=$((refused + 1))
  else
    echo "FAIL aimed $i ($where, $what): exit $rc"; grep 'PETSC ERROR: [^-]' "$tmp/err" | head -3; exit 1
  fi
  echo "ok aimed $i: $where, $what: $(if test $rc -eq 0; then echo resumed bit for bit; else echo refused; fi)"
done
test $refused -gt 0 || { echo "FAIL: no damaged compressed bytes were refused"; exit 1; }
echo "ok: bytes changed in compressed parts: $refused refused, $resumed resumed bit for bit (4 of them in padding)"
