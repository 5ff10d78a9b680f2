#!/bin/sh
# bootstrap's decisions, with fake commands in front of the real ones
# (./bootstrap --deps-only: steps 1 and 2, nothing built):
# - not root, Check missing: names the package, the sudo apt-get line, and
#   goes on with configure --without-check;
# - root but offline (apt-get fails): says so in words, never shows apt's
#   raw error, and goes on without Check;
# - PETSc missing: names petsc-dev and the configure line, and stops;
# - PETSc too old: stops at once with the version found and the one needed,
#   before apt-get is called.
. "$top_srcdir/tests/testlib.sh"
fake="$tmp/bin"
mkdir "$fake"
realpc=$(command -v "${PKG_CONFIG:-pkg-config}")
# pkg-config that hides the modules named in HIDE and reports PETSc as OLD_PETSC when set
cat > "$fake/pkg-config" <<PC
#!/bin/sh
for a in "\$@"; do
  for h in \${HIDE:-}; do test "\$a" = "\$h" && exit 1; done
done
if test -n "\${OLD_PETSC:-}"; then
  case "\$*" in
  *--atleast-version*PETSc*) exit 1 ;;
  *--modversion*PETSc*) echo "\$OLD_PETSC"; exit 0 ;;
  esac
fi
exec "$realpc" "\$@"
PC
printf '#!/bin/sh\ntest "$1" = -u && echo "${FAKE_UID:-1000}" && exit 0\nexec /usr/bin/id "$@"\n' > "$fake/id"
# apt-get as offline: what apt prints, and a trace that it was called
printf '#!/bin/sh\necho called >> "%s/apt.calls"\necho "E: Failed to fetch http://deb.debian.org/debian/pool/main/c/check/check.deb  Temporary failure resolving" >&2\nexit 100\n' "$tmp" > "$fake/apt-get"
chmod +x "$fake"/*
boot() { TMPDIR="$tmp" PATH="$fake:$PATH" PETSC_DIR= "$top_srcdir/bootstrap" --deps-only > "$tmp/out" 2>&1; }
expect() { grep -qF -- "$1" "$tmp/out" || { cat "$tmp/out"; echo "FAIL $2: expected \"$1\""; exit 1; }; }

HIDE=check FAKE_UID=1000 boot || { cat "$tmp/out"; echo "FAIL non-root: stopped although only Check is missing"; exit 1; }
expect "to run its tests:" non-root
expect "sudo apt-get install" non-root
expect " check" non-root
expect "not root" non-root
expect "next: ./configure --without-check" non-root
echo "ok non-root without Check: $(grep 'install them with' "$tmp/out")"

HIDE=check FAKE_UID=0 boot || { cat "$tmp/out"; echo "FAIL offline: stopped although only Check is missing"; exit 1; }
test -f "$tmp/apt.calls" || { echo "FAIL offline: apt-get was not tried as root"; exit 1; }
expect "apt-get could not install them (offline" offline
expect "next: ./configure --without-check" offline
if grep -q "E: Failed" "$tmp/out"; then cat "$tmp/out"; echo "FAIL offline: apt-get's raw error was shown"; exit 1; fi
echo "ok root offline: $(grep 'missing' "$tmp/out" | head -1)"

if HIDE="PETSc petsc" FAKE_UID=1000 boot; then cat "$tmp/out"; echo "FAIL: went on without PETSc"; exit 1; fi
expect "to build rewind:" no-petsc
expect "petsc-dev" no-petsc
expect "then run:             ./bootstrap" no-petsc
expect "PETSC_DIR=" no-petsc
echo "ok without PETSc: stops and says what to install and run"

rm -f "$tmp/apt.calls"
if OLD_PETSC=3.14.5 FAKE_UID=0 boot; then cat "$tmp/out"; echo "FAIL: went on with PETSc 3.14"; exit 1; fi
expect "PETSc 3.14.5 found in" old-petsc
expect "rewind needs PETSc >= 3.18" old-petsc
test ! -f "$tmp/apt.calls" || { echo "FAIL old PETSc: apt-get ran before the version was refused"; exit 1; }
echo "ok PETSc too old: $(grep 'found in' "$tmp/out")"
