#!/bin/sh
# A Python-built problem's life (tests/python/t805_life.py), on 1 and 2
# ranks: -help lists its options under its prefix and says nothing was
# solved, then SystemExit on every rank; views after destroy(); problems
# created in different orders on different ranks refused on every rank
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/python/pylib.sh"
for np in 1 2; do
  pyrun $np t805_life.py > "$tmp/out$np" 2>&1 || { cat "$tmp/out$np"; exit 1; }
  cat "$tmp/out$np"
  grep -q "^  -rwpy0_rw_steps <" "$tmp/out$np" || { echo "FAIL: -help did not list -rw_steps under the problem's prefix"; exit 1; }
  grep -q "^t805_life.py -help: .*nothing was solved" "$tmp/out$np" || { echo "FAIL: -help did not end with the program's closing line"; exit 1; }
done
