#!/bin/sh
# rewind.Model, Objective and Adjoint (tests/python/t803_objects.py) on 1 and 2 ranks
app=true
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/python/pylib.sh"
pyrun 1 t803_objects.py
pyrun 2 t803_objects.py
