#!/bin/sh
# rewind.Problem.component(): a state's component c in natural order, in both layouts (tests/python/t114_state_components.py), on 1 and 2 ranks
app=true
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/python/pylib.sh"
pyrun 1 t114_state_components.py
pyrun 2 t114_state_components.py
