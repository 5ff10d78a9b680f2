/* Parsing what users type (memory sizes, counts) and printing actions. */
#include "../engine.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

static const struct {
  const char *unit;
  double      bytes;
} units[] = {
  {"",    1.0                },
  {"B",   1.0                },
  {"kB",  1e3                },
  {"MB",  1e6                },
  {"GB",  1e9                },
  {"TB",  1e12               },
  {"PB",  1e15               },
  {"KiB", 1024.0             },
  {"MiB", 1048576.0          },
  {"GiB", 1073741824.0       },
  {"TiB", 1099511627776.0    },
  {"PiB", 1125899906842624.0 }
};

/*
  RwParseBytesCheck - parses a memory size like RwParseBytes(); instead of an
  error it says in why what is wrong, so the caller can name its option
*/
PetscErrorCode RwParseBytesCheck(const char str[], PetscInt64 *bytes, PetscBool *ok, char why[], size_t len)
{
  char       *end;
  double      x;
  const char *u;
  PetscBool   same;

  PetscFunctionBegin;
  *ok    = PETSC_FALSE;
  *bytes = 0;
  errno  = 0;
  x      = strtod(str, &end);
  if (end == str) {
    PetscCall(PetscSNPrintf(why, len, "not a memory size; expected a number with an optional unit, e.g. 4GiB, 512MiB, 200GB, 1.5e9"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (u = end; *u && isspace((unsigned char)*u); u++) { }
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(units); i++) {
    PetscCall(PetscStrcasecmp(u, units[i].unit, &same));
    if (!same) continue;
    x *= units[i].bytes;
    if (!(x >= 0 && x < 9.2e18) || errno == ERANGE) PetscCall(PetscSNPrintf(why, len, "expected a size >= 0 and below 9.2e18 bytes"));
    else {
      *bytes = (PetscInt64)x;
      *ok    = PETSC_TRUE;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSNPrintf(why, len, "unknown unit \"%s\"; expected B, kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024)", u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwParseBytes - parses a memory size: "4GiB", "512MiB", "200GB", "1.5e9", "4096"

  Not collective

  Input Parameter:
. str - a number, optionally followed by a unit: B, kB, MB, GB, TB, PB (powers
        of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024); case does not matter

  Output Parameter:
. bytes - the size in bytes, rounded down

  Level: intermediate

.seealso: RwScheduleSetBudget()
@*/
PetscErrorCode RwParseBytes(const char str[], PetscInt64 *bytes)
{
  PetscBool ok;
  char      why[256];

  PetscFunctionBegin;
  PetscValidCharPointer(str, 1);
  PetscValidPointer(bytes, 2);
  PetscCall(RwParseBytesCheck(str, bytes, &ok, why, sizeof(why)));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Memory size \"%s\": %s", str, why);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A whole number >= 0 ("1000000000", "1e9"), or "inf" when allowed */
static PetscBool ParseCount(const char str[], PetscBool allow_inf, PetscInt64 *value)
{
  char     *end;
  long long i;
  double    x;
  PetscBool inf = PETSC_FALSE, unl = PETSC_FALSE;

  if (PetscStrcasecmp(str, "inf", &inf) || PetscStrcasecmp(str, "unlimited", &unl)) return PETSC_FALSE;
  if (inf || unl) {
    *value = RW_SLOTS_UNLIMITED;
    return allow_inf;
  }
  errno = 0;
  i     = strtoll(str, &end, 10);
  if (end != str && !*end && !errno) {
    *value = (PetscInt64)i;
    return i >= 0;
  }
  x = strtod(str, &end);
  if (end == str || *end || !(x >= 0 && x < 9.2e18) || x != (double)(PetscInt64)x) return PETSC_FALSE;
  *value = (PetscInt64)x;
  return PETSC_TRUE;
}

/*
  RwScheduleOptionsCount - a 64-bit count option (or inf) inside a PetscOptionsBegin block
  (PETSc 3.18 has none); -help shows it with its current value
*/
PetscErrorCode RwScheduleOptionsCount(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscBool allow_inf, PetscInt64 *value, PetscBool *set)
{
  char str[64], cur[64];

  PetscFunctionBegin;
  if (*value == RW_SLOTS_UNLIMITED) PetscCall(PetscStrncpy(cur, "inf", sizeof(cur)));
  else if (*value < 0) PetscCall(PetscStrncpy(cur, "none", sizeof(cur)));
  else PetscCall(PetscSNPrintf(cur, sizeof(cur), "%" PetscInt64_FMT, *value));
  PetscCall(PetscOptionsString(opt, text, man, cur, str, sizeof(str), set));
  if (!*set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(ParseCount(str, allow_inf, value), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s %s: expected a whole number >= 0%s", opt, str, allow_inf ? " or inf" : "");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One action as rewind-schedule prints it */
PetscErrorCode RwActionFormat(const RwAction *act, char line[], size_t len)
{
  const char *lv = act->level == RW_LEVEL_RAM ? "ram" : act->level == RW_LEVEL_DISK ? "disk" : "?";

  PetscFunctionBegin;
  switch (act->type) {
  case RW_ACTION_ADVANCE:
    PetscCall(PetscSNPrintf(line, len, "advance %" PetscInt64_FMT " %" PetscInt64_FMT, act->a, act->b));
    break;
  case RW_ACTION_STORE:
  case RW_ACTION_RESTORE:
  case RW_ACTION_FREE:
    PetscCall(PetscSNPrintf(line, len, "%s %s %" PetscInt64_FMT, RwActionTypes[act->type], lv, act->a));
    break;
  case RW_ACTION_REVERSE:
    PetscCall(PetscSNPrintf(line, len, "reverse %" PetscInt64_FMT, act->a));
    break;
  case RW_ACTION_END:
    PetscCall(PetscSNPrintf(line, len, "end"));
    break;
  default:
    PetscCall(PetscSNPrintf(line, len, "unknown action %d", (int)act->type));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
