#!/bin/sh
# rewind.torch.simulate (tests/python/t801_torch.py): gradcheck for heat (kappa,
# u0, theta) and wave (m) under every schedule type on one rank; on two ranks
# the same gradients, bit for bit; the backward reuses the forward's run
# (step counts, the bits of a VJP from nothing); bad input refused on every rank
app=true
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/python/pylib.sh"
pyrun 1 t801_torch.py "$tmp"
pyrun 2 t801_torch.py "$tmp"
