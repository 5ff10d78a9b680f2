#!/bin/sh
# python/examples at a small size, on 1 and 2 ranks: the periodic heat step's
# du0 equals torch.roll autograd to 1e-13, the neural field and the network
# inside the physics train (each script checks and says PASS); the neural
# field's losses are those of the same problem in PyTorch alone (torch.roll)
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
# the same training in PyTorch alone ends at the same loss (to 1e-10)
pyrun 1 "$ex/neural_field.py" --epochs 25 --n 16 --impl torch | tee "$tmp/torch"
last() { sed -n 's/.*(\([-0-9.e+]*\)): PASS$/\1/p' "$1"; }
"$REWIND_PYTHON" -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-10 * abs(b))" "$(last "$tmp/field1")" "$(last "$tmp/torch")" ||
  { echo "FAIL: the neural field's loss through rewind, $(last "$tmp/field1"), is not PyTorch's alone, $(last "$tmp/torch")"; exit 1; }
echo "ok: the neural field's last loss through rewind $(last "$tmp/field1"), in PyTorch alone $(last "$tmp/torch")"
