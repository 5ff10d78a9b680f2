#!/bin/sh
# python/examples at a small size, on 1 and 2 ranks: the periodic heat step's
# du0 equals torch.roll autograd to 1e-13, the neural field and the network
# inside the physics train (each script checks and says PASS)
app=true
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/python/pylib.sh"
ex="$top_srcdir/python/examples"
for np in 1 2; do
  pyrun $np "$ex/heat1d.py" --steps 20 | tee "$tmp/heat$np"
  grep -q '^PASS' "$tmp/heat$np"
  pyrun $np "$ex/neural_field.py" --epochs 25 --n 16 | tee "$tmp/field$np"
  grep -q 'PASS$' "$tmp/field$np"
  pyrun $np "$ex/theta.py" --epochs 20 | tee "$tmp/theta$np"
  grep -q 'PASS$' "$tmp/theta$np"
done
