#!/bin/sh
# Every integer and real option of rewind is read through the checked helpers
# of src/sys/options.c (RwOptionsInt, RwOptionsReal, their arrays,
# RwOptionsGetInt): PETSc's own readers wrap 4294967298 to 2 and accept NaN.
# A raw PETSc numeric option read anywhere else in src/, apps/ or examples/ fails here.
set -eu
raw='PetscOptions(Get)?(Int|Int64|Real|Scalar|BoundedInt|RangeInt|BoundedReal|RangeReal)(Array)?[[:space:]]*\('
hits=$(cd "$top_srcdir" && grep -rnE --include='*.c' --include='*.h' "$raw" src apps examples | grep -v '^src/sys/options.c:' || true)
if test -n "$hits"; then
  echo "FAIL: raw PETSc numeric option reads; use RwOptionsInt/RwOptionsReal/RwOptionsIntArray/RwOptionsRealArray/RwOptionsGetInt (src/sys/options.c):"
  printf '%s\n' "$hits"
  exit 1
fi
# and the guard itself sees a raw read when there is one
printf 'PetscCall(PetscOptionsGetInt(NULL, NULL, "-x", &x, NULL));\n' | grep -qE "$raw" || { echo "FAIL: the pattern misses a raw read"; exit 1; }
echo "ok: no raw PETSc integer or real option reads outside src/sys/options.c"
