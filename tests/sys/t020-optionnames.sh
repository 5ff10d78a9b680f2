#!/bin/sh
# The table of rewind option names in src/sys/options.c (what misspelled
# options are compared with) is honest: every "-rw_..." option string in the
# sources of src/ and apps/ is in it, and every name in it is in the sources.
# Names built with %s ("-rw_schedule_%s_slots") must have a table entry that
# fits the pattern.
set -eu
table=$(sed -n '/rewind: begin/,/rewind: end/p' "$top_srcdir/src/sys/options.c" | grep -o '"-rw_[a-z0-9_]*"' | tr -d '"' | sort -u)
strings=$(cd "$top_srcdir" && grep -rhoE --include='*.c' --include='*.h' --exclude=options.c '"-rw_[a-z0-9_%]+' src apps | tr -d '"' | sort -u)
test -n "$table" || { echo "FAIL: no table found in src/sys/options.c"; exit 1; }
bad=0
for s in $strings; do
  case $s in
  *%*) re="^$(printf '%s' "$s" | sed 's/%s/[a-z0-9_]+/g')"
       # a pattern from snprintf ("-rw_checkpoint_%s") ends where the string does
       printf '%s\n' "$table" | grep -Eq "$re\$" || { echo "FAIL: no table entry fits $s"; bad=1; } ;;
  *)   printf '%s\n' "$table" | grep -qx -- "$s" || { echo "FAIL: option $s is in the sources but not in the table of src/sys/options.c"; bad=1; } ;;
  esac
done
for t in $table; do
  found=0
  for s in $strings; do
    case $s in
    *%*) printf '%s\n' "$t" | grep -Eq "^$(printf '%s' "$s" | sed 's/%s/[a-z0-9_]+/g')\$" && found=1 ;;
    *)   test "$s" = "$t" && found=1 ;;
    esac
  done
  test $found = 1 || { echo "FAIL: table entry $t is in no source"; bad=1; }
done
test $bad = 0
echo "ok: $(printf '%s\n' "$table" | wc -l) names in the table, all in the sources and back"
