#!/bin/sh
# t307's fuzz test on compressed hdf5 slots (-rw_store_compress lossless):
# damaged files are refused or resumed bit for bit, never accepted wrong and
# never crash, and runs killed inside writes (synchronous for compressed
# slots: -rw_debug_kill_in_write stops half way through a slot's bytes)
# leave only valid slots and resume bit for bit.  Fewer trials than t307's
# (RW_FUZZ_TRIALS overrides): the damage lands on the same metadata, and the
# compressed bytes' own check is what is new.
RW_FUZZ_OPTIONS="-rw_store_compress lossless ${RW_FUZZ_OPTIONS:-}"
RW_FUZZ_TRIALS=${RW_FUZZ_TRIALS:-120}
export RW_FUZZ_OPTIONS RW_FUZZ_TRIALS
exec sh "$top_srcdir/tests/store/t307-fuzz.sh"
