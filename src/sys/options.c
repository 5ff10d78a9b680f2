/*
  Options that cannot go wrong quietly: integers parsed as 64-bit numbers and
  checked against their range before they are narrowed (PetscOptionsInt wraps
  -rw_steps 4294967306 to 10 on a 32-bit PetscInt), and a warning at the end
  of a run about options that nothing read, with the known name a misspelled
  one was probably meant to be.
*/
#include <rewind/private/rwimpl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/*@C
  RwParseInt64 - parses a whole decimal number and checks it lies in [lo, hi]

  Not collective

  Input Parameters:
+ str    - the text
. lo, hi - the range accepted

  Output Parameters:
+ value - the number (unchanged unless ok)
. ok    - whether str is a whole number in range
- why   - when not ok, what was expected, of length len

  Level: developer

.seealso: RwOptionsInt64()
@*/
PetscErrorCode RwParseInt64(const char str[], PetscInt64 lo, PetscInt64 hi, PetscInt64 *value, PetscBool *ok, char why[], size_t len)
{
  char     *end;
  long long v;

  PetscFunctionBegin;
  errno = 0;
  v     = strtoll(str, &end, 10);
  *ok   = (PetscBool)(end != str && !*end && errno != ERANGE && v >= lo && v <= hi);
  if (*ok) *value = (PetscInt64)v;
  else PetscCall(PetscSNPrintf(why, len, "expected a whole number in [%" PetscInt64_FMT ", %" PetscInt64_FMT "]", lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsInt64 - a 64-bit integer option with a range, inside a PetscOptionsBegin() block;
  -help shows the range, and hides testing options (-rw_debug_*) unless -help_debug

  Synopsis:
  PetscErrorCode RwOptionsInt64(const char opt[], const char text[], const char man[], PetscInt64 current, PetscInt64 *value, PetscBool *set, PetscInt64 lo, PetscInt64 hi)

  Collective (on the options block's communicator)

  Notes:
  The text is parsed as a 64-bit number with strtoll and refused, naming the
  option, the text and the range, when it is not a whole number or lies
  outside [lo, hi]; -help lists the option with its current value. Use
  RwOptionsInt() for a PetscInt.

  Level: intermediate

.seealso: RwOptionsInt(), PetscOptionsInt()
@*/
PetscErrorCode RwOptionsInt64_Private(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscInt64 current, PetscInt64 *value, PetscBool *set, PetscInt64 lo, PetscInt64 hi)
{
  char      str[256], cur[32], why[128], full[512];
  PetscBool given, ok, hidden;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(cur, sizeof(cur), "%" PetscInt64_FMT, current));
  PetscCall(PetscStrncpy(str, cur, sizeof(str)));
  PetscCall(RwOptionsHidden(PetscOptionsObject, opt, &hidden));
  /* the range belongs in -help: PETSc shows only the current value */
  if (hi == PETSC_MAX_INT || hi == RW_INT64_MAX) PetscCall(PetscSNPrintf(full, sizeof(full), "%s (whole number >= %" PetscInt64_FMT ")", text, lo));
  else PetscCall(PetscSNPrintf(full, sizeof(full), "%s (whole number in [%" PetscInt64_FMT ", %" PetscInt64_FMT "])", text, lo, hi));
  if (hidden) PetscCall(PetscOptionsGetString(PetscOptionsObject->options, PetscOptionsObject->prefix, opt, str, sizeof(str), &given));
  else PetscCall(PetscOptionsString(opt, full, man, cur, str, sizeof(str), &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwParseInt64(str, lo, hi, value, &ok, why, sizeof(why)));
  PetscCheck(ok, PetscOptionsObject->comm, PETSC_ERR_ARG_OUTOFRANGE, "-%s%s %s: %s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1, str[0] ? str : "(no value)", why);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwHelpPrintf - what -help prints, from rank 0 of PETSC_COMM_WORLD alone: objects
  that each rank creates on PETSC_COMM_SELF (a rank's schedule, an index set)
  would otherwise print their help from every rank at once, interleaved

  Not collective

  Level: developer

.seealso: RwInitializePackage()
@*/
PetscErrorCode RwHelpPrintf(MPI_Comm comm, const char format[], ...)
{
  PetscMPIInt rank;
  va_list     args;

  PetscFunctionBegin;
  (void)comm;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS);
  va_start(args, format);
  PetscCall((*PetscVFPrintf)(PETSC_STDOUT, format, args));
  va_end(args);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsHelpOnce - inside an options block of an object that may live on
  PETSC_COMM_SELF: -help is printed by rank 0 of PETSC_COMM_WORLD only (PETSc
  prints type lists with PetscFPrintf() on the object's own communicator,
  which RwHelpPrintf() cannot filter)

  Not collective

  Level: developer

.seealso: RwHelpPrintf()
@*/
PetscErrorCode RwOptionsHelpOnce(PetscOptionItems *PetscOptionsObject)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank) PetscOptionsObject->printhelp = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsHidden - whether an option stays out of -help: the testing options
  (-rw_debug_*) do, unless -help_debug is given too

  Not collective

  Level: developer

.seealso: RwOptionsInt64(), RwOptionsBool()
@*/
PetscErrorCode RwOptionsHidden(PetscOptionItems *PetscOptionsObject, const char opt[], PetscBool *hidden)
{
  PetscBool debug = PETSC_FALSE;

  PetscFunctionBegin;
  *hidden = PETSC_FALSE;
  if (strncmp(opt, "-rw_debug_", 10)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsHasName(PetscOptionsObject->options, NULL, "-help_debug", &debug));
  *hidden = (PetscBool)!debug;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsBool - PetscOptionsBool() that keeps testing options (-rw_debug_*) out of -help unless -help_debug

  Synopsis:
  PetscErrorCode RwOptionsBool(const char opt[], const char text[], const char man[], PetscBool current, PetscBool *value, PetscBool *set)

  Level: developer

.seealso: RwOptionsHidden()
@*/
PetscErrorCode RwOptionsBool_Private(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscBool current, PetscBool *value, PetscBool *set)
{
  PetscBool hidden;

  PetscFunctionBegin;
  PetscCall(RwOptionsHidden(PetscOptionsObject, opt, &hidden));
  if (hidden) PetscCall(PetscOptionsGetBool(PetscOptionsObject->options, PetscOptionsObject->prefix, opt, value, set));
  else PetscCall(PetscOptionsBool(opt, text, man, current, value, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsInt - RwOptionsInt64() for a PetscInt: the range is also clipped to PetscInt's

  Synopsis:
  PetscErrorCode RwOptionsInt(const char opt[], const char text[], const char man[], PetscInt current, PetscInt *value, PetscBool *set, PetscInt lo, PetscInt hi)

  Level: intermediate

.seealso: RwOptionsInt64()
@*/
PetscErrorCode RwOptionsInt_Private(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscInt current, PetscInt *value, PetscBool *set, PetscInt lo, PetscInt hi)
{
  PetscInt64 v = *value;
  PetscBool  given;

  PetscFunctionBegin;
  PetscCall(RwOptionsInt64_Private(PetscOptionsObject, opt, text, man, current, &v, &given, lo, hi));
  if (set) *set = given;
  if (given) *value = (PetscInt)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The range as text: "[0, 1]", "(0, inf)", or "" when any finite number will do */
static PetscErrorCode RwRangeText(PetscReal lo, PetscReal hi, RwRange range, char text[], size_t len)
{
  char l[32], h[32];

  PetscFunctionBegin;
  text[0] = 0;
  if (lo <= -PETSC_MAX_REAL && hi >= PETSC_MAX_REAL) PetscFunctionReturn(PETSC_SUCCESS);
  /* snprintf, not PetscSNPrintf, which writes 0 as "0." */
  if (lo <= -PETSC_MAX_REAL) PetscCall(PetscStrncpy(l, "-inf", sizeof(l)));
  else snprintf(l, sizeof(l), "%g", (double)lo);
  if (hi >= PETSC_MAX_REAL) PetscCall(PetscStrncpy(h, "inf", sizeof(h)));
  else snprintf(h, sizeof(h), "%g", (double)hi);
  PetscCall(PetscSNPrintf(text, len, "%c%s, %s%c", (range & RW_RANGE_OPEN_LO) || lo <= -PETSC_MAX_REAL ? '(' : '[', l, h, (range & RW_RANGE_OPEN_HI) || hi >= PETSC_MAX_REAL ? ')' : ']'));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwParseReal - parses a finite number and checks it lies in the range given

  Not collective

  Input Parameters:
+ str    - the text
. lo, hi - the ends of the range (-PETSC_MAX_REAL, PETSC_MAX_REAL: none)
- range  - which ends are open: RW_RANGE_CLOSED, RW_RANGE_OPEN_LO, RW_RANGE_OPEN_HI, RW_RANGE_OPEN

  Output Parameters:
+ value - the number (unchanged unless ok)
. ok    - whether str is a finite number in range
- why   - when not ok, what was expected, of length len

  Notes:
  NaN and Inf are refused, so is any text after the number ("1e-3x").

  Level: developer

.seealso: RwOptionsReal(), RwParseInt64()
@*/
PetscErrorCode RwParseReal(const char str[], PetscReal lo, PetscReal hi, RwRange range, PetscReal *value, PetscBool *ok, char why[], size_t len)
{
  char  *end, r[96];
  double v;

  PetscFunctionBegin;
  errno = 0;
  v     = strtod(str, &end);
  *ok   = (PetscBool)(end != str && !*end && !PetscIsInfOrNanReal((PetscReal)v) && errno != ERANGE);
  if (*ok) *ok = (PetscBool)((range & RW_RANGE_OPEN_LO ? v > lo : v >= lo) && (range & RW_RANGE_OPEN_HI ? v < hi : v <= hi));
  if (*ok) *value = (PetscReal)v;
  else {
    PetscCall(RwRangeText(lo, hi, range, r, sizeof(r)));
    if (r[0]) PetscCall(PetscSNPrintf(why, len, "expected a finite number in %s", r));
    else PetscCall(PetscSNPrintf(why, len, "expected a finite number"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The text of an option of an options block: -help lists it with its range
   and current value (unless hidden); *str is NULL when the option is given
   without a value */
static PetscErrorCode RwOptionsText(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char range[], const char man[], const char cur[], const char **str, PetscBool *given)
{
  char      full[512], ignored[8];
  PetscBool hidden;

  PetscFunctionBegin;
  PetscCall(RwOptionsHidden(PetscOptionsObject, opt, &hidden));
  if (!hidden) {
    if (range[0]) PetscCall(PetscSNPrintf(full, sizeof(full), "%s (%s)", text, range));
    else PetscCall(PetscStrncpy(full, text, sizeof(full)));
    /* for -help only: the value is read whole below, never cut to a buffer */
    PetscCall(PetscOptionsString(opt, full, man, cur, ignored, sizeof(ignored), NULL));
  }
  PetscCall(PetscOptionsFindPair(PetscOptionsObject->options, PetscOptionsObject->prefix, opt, str, given));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsReal - a real option with a range, inside a PetscOptionsBegin() block: NaN, Inf,
  trailing text and values outside the range are refused, naming the option

  Synopsis:
  PetscErrorCode RwOptionsReal(const char opt[], const char text[], const char man[], PetscReal current, PetscReal *value, PetscBool *set, PetscReal lo, PetscReal hi, RwRange range)

  Collective (on the options block's communicator)

  Notes:
  lo = -PETSC_MAX_REAL and hi = PETSC_MAX_REAL accept any finite number;
  range says which ends are open (RW_RANGE_OPEN_LO for a positive number
  with lo = 0). -help lists the option with its range and current value.

  Level: intermediate

.seealso: RwOptionsInt64(), RwOptionsRealArray(), RwParseReal()
@*/
PetscErrorCode RwOptionsReal_Private(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscReal current, PetscReal *value, PetscBool *set, PetscReal lo, PetscReal hi, RwRange range)
{
  char        cur[32], r[96], what[128], why[160];
  const char *str;
  PetscBool   given, ok;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(cur, sizeof(cur), "%g", (double)current));
  PetscCall(RwRangeText(lo, hi, range, r, sizeof(r)));
  PetscCall(PetscSNPrintf(what, sizeof(what), "a finite number%s%s", r[0] ? " in " : "", r));
  PetscCall(RwOptionsText(PetscOptionsObject, opt, text, what, man, cur, &str, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwParseReal(str ? str : "", lo, hi, range, value, &ok, why, sizeof(why)));
  PetscCheck(ok, PetscOptionsObject->comm, PETSC_ERR_ARG_OUTOFRANGE, "-%s%s %s: %s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1, str && str[0] ? str : "(no value)", why);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsGetInt - PetscOptionsGetInt() with a range: read as a 64-bit number and checked
  against [lo, hi] before it is narrowed, for options read outside an options block

  Collective

  Input Parameters:
+ comm   - the communicator of the reader (for the error)
. prefix - the options prefix, or NULL
. name   - the option
- lo, hi - the range accepted

  Output Parameters:
+ value - the value (unchanged unless given)
- set   - whether given

  Level: developer

.seealso: RwOptionsInt()
@*/
PetscErrorCode RwOptionsGetInt(MPI_Comm comm, const char prefix[], const char name[], PetscInt *value, PetscBool *set, PetscInt lo, PetscInt hi)
{
  const char *str;
  char        why[160];
  PetscInt64  v;
  PetscBool   given, ok;

  PetscFunctionBegin;
  PetscCall(PetscOptionsFindPair(NULL, prefix, name, &str, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwParseInt64(str ? str : "", lo, hi, &v, &ok, why, sizeof(why)));
  PetscCheck(ok, comm, PETSC_ERR_ARG_OUTOFRANGE, "-%s%s %s: %s", prefix ? prefix : "", name + 1, str && str[0] ? str : "(no value)", why);
  *value = (PetscInt)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Splits "a,b,c" into at most nmax items, refusing more (PETSc would drop them in silence) */
static PetscErrorCode RwOptionsSplit(PetscOptionItems *PetscOptionsObject, const char opt[], const char str[], PetscInt nmax, int *n, char ***items)
{
  PetscFunctionBegin;
  PetscCheck(str && str[0], PetscOptionsObject->comm, PETSC_ERR_ARG_WRONG, "-%s%s: no value given: expected up to %" PetscInt_FMT " values separated by commas", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1, nmax);
  PetscCall(PetscStrToArray(str, ',', n, items));
  if (*n > nmax) PetscCall(PetscStrToArrayDestroy(*n, *items));
  PetscCheck(*n <= nmax, PetscOptionsObject->comm, PETSC_ERR_ARG_SIZ, "-%s%s %s: %d values: expected at most %" PetscInt_FMT, PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1, str, *n, nmax);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsIntArray - integers separated by commas, each a 64-bit number checked against
  [lo, hi] before it is narrowed, inside a PetscOptionsBegin() block

  Synopsis:
  PetscErrorCode RwOptionsIntArray(const char opt[], const char text[], const char man[], PetscInt values[], PetscInt *n, PetscBool *set, PetscInt lo, PetscInt hi)

  Collective (on the options block's communicator)

  Notes:
  On entry *n is the room in values; on return, the number given. More values
  than the room, a missing value, or one out of range are refused, naming the option.

  Level: intermediate

.seealso: RwOptionsInt(), RwOptionsRealArray()
@*/
PetscErrorCode RwOptionsIntArray_Private(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscInt values[], PetscInt *n, PetscBool *set, PetscInt lo, PetscInt hi)
{
  char        r[96], why[160];
  const char *str;
  char      **items;
  int         m;
  PetscBool   given, ok;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(r, sizeof(r), "whole numbers in [%" PetscInt_FMT ", %" PetscInt_FMT "], separated by commas", lo, hi));
  PetscCall(RwOptionsText(PetscOptionsObject, opt, text, r, man, "", &str, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwOptionsSplit(PetscOptionsObject, opt, str, *n, &m, &items));
  for (int i = 0; i < m; i++) {
    PetscInt64 v = 0;

    PetscCall(RwParseInt64(items[i], lo, hi, &v, &ok, why, sizeof(why)));
    if (!ok) PetscCall(PetscStrToArrayDestroy(m, items));
    PetscCheck(ok, PetscOptionsObject->comm, PETSC_ERR_ARG_OUTOFRANGE, "-%s%s %s: value %d: %s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1, str, i + 1, why);
    values[i] = (PetscInt)v;
  }
  *n = m;
  PetscCall(PetscStrToArrayDestroy(m, items));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsRealArray - reals separated by commas, each finite and in the range, inside a
  PetscOptionsBegin() block

  Synopsis:
  PetscErrorCode RwOptionsRealArray(const char opt[], const char text[], const char man[], const char now[], PetscReal values[], PetscInt *n, PetscBool *set, PetscReal lo, PetscReal hi, RwRange range)

  Collective (on the options block's communicator)

  Notes:
  On entry *n is the room in values; on return, the number given. As RwOptionsReal() for each value.
  now, if not NULL, is what -help shows as the value that will be used ("10,10", "one source near
  the centre"): PETSc would show the first element of values, which for an option with a computed
  default is not what the run uses.

  Level: intermediate

.seealso: RwOptionsReal(), RwOptionsIntArray()
@*/
PetscErrorCode RwOptionsRealArray_Private(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], const char now[], PetscReal values[], PetscInt *n, PetscBool *set, PetscReal lo, PetscReal hi, RwRange range)
{
  char        r[96], what[160], why[160];
  const char *str;
  char      **items;
  int         m;
  PetscBool   given, ok;

  PetscFunctionBegin;
  PetscCall(RwRangeText(lo, hi, range, r, sizeof(r)));
  PetscCall(PetscSNPrintf(what, sizeof(what), "finite numbers%s%s, separated by commas", r[0] ? " in " : "", r));
  PetscCall(RwOptionsText(PetscOptionsObject, opt, text, what, man, now ? now : "", &str, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwOptionsSplit(PetscOptionsObject, opt, str, *n, &m, &items));
  for (int i = 0; i < m; i++) {
    PetscCall(RwParseReal(items[i], lo, hi, range, &values[i], &ok, why, sizeof(why)));
    if (!ok) PetscCall(PetscStrToArrayDestroy(m, items));
    PetscCheck(ok, PetscOptionsObject->comm, PETSC_ERR_ARG_OUTOFRANGE, "-%s%s %s: value %d: %s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1, str, i + 1, why);
  }
  *n = m;
  PetscCall(PetscStrToArrayDestroy(m, items));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's own options that rewind's programs use, with their least value:
   PETSc parses them as plain integers (-da_grid_x 4294967328 runs 32 points)
   or accepts NaN, so rewind checks their text first */
static const struct {
  const char *name;
  PetscReal   lo;
  PetscBool   whole;
} RwPetscOptions[] = {
  {"da_grid_x", 1, PETSC_TRUE}, {"da_grid_y", 1, PETSC_TRUE}, {"da_grid_z", 1, PETSC_TRUE}, {"da_processors_x", 1, PETSC_TRUE}, {"da_processors_y", 1, PETSC_TRUE}, {"da_processors_z", 1, PETSC_TRUE}, {"da_refine", 0, PETSC_TRUE}, {"da_overlap", 0, PETSC_TRUE},
  {"ksp_max_it", 0, PETSC_TRUE}, {"ksp_gmres_restart", 1, PETSC_TRUE}, {"tao_max_it", 0, PETSC_TRUE}, {"tao_max_funcs", -1, PETSC_TRUE}, {"tao_ls_max_funcs", 1, PETSC_TRUE},
  {"ksp_rtol", 0, PETSC_FALSE}, {"ksp_atol", 0, PETSC_FALSE}, {"ksp_divtol", 0, PETSC_FALSE}, {"tao_gatol", 0, PETSC_FALSE}, {"tao_grtol", 0, PETSC_FALSE}, {"tao_gttol", 0, PETSC_FALSE}, {"tao_steptol", 0, PETSC_FALSE}, {"tao_fmin", -PETSC_MAX_REAL, PETSC_FALSE},
};

/* Whether a token of the options text is an option's name rather than a value (-1, -.5) */
static PetscBool RwIsOptionName(const char tok[])
{
  return (PetscBool)(tok[0] == '-' && tok[1] && !(tok[1] >= '0' && tok[1] <= '9') && tok[1] != '.');
}

/* Checks one given option against its entry of RwPetscOptions, if it has one */
static PetscErrorCode RwOptionsCheckPetscOne(MPI_Comm comm, const char prefix[], const char name[], const char value[])
{
  char      full[256], why[160];
  PetscBool ok, same;

  PetscFunctionBegin;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(RwPetscOptions); i++) {
    PetscInt64 n;
    PetscReal  x;

    PetscCall(PetscSNPrintf(full, sizeof(full), "-%s%s", prefix ? prefix : "", RwPetscOptions[i].name));
    PetscCall(PetscStrcasecmp(full, name, &same));
    if (!same) continue;
    if (RwPetscOptions[i].whole) PetscCall(RwParseInt64(value, (PetscInt64)RwPetscOptions[i].lo, PETSC_MAX_INT, &n, &ok, why, sizeof(why)));
    else PetscCall(RwParseReal(value, RwPetscOptions[i].lo, PETSC_MAX_REAL, RW_RANGE_CLOSED, &x, &ok, why, sizeof(why)));
    PetscCheck(ok, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s %s: %s", full, value[0] ? value : "(no value)", why);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsCheckPetsc - checks the text of PETSc's own size options (-da_grid_x, -tao_max_it, ...)
  and tolerances (-ksp_rtol, -tao_gatol, ...) under a prefix, before PETSc parses them

  Collective

  Input Parameters:
+ comm   - the communicator of the object about to read them
- prefix - its options prefix, or NULL

  Notes:
  PETSc reads them with a plain integer conversion, so 4294967328 becomes 32;
  they are refused here, naming the option, when not a whole number in
  [least, PETSC_MAX_INT], and tolerances when not finite or negative. Objects
  call it before DMSetFromOptions(), KSPSetFromOptions() and TaoSetFromOptions().
  It reads the options' text without marking them used.

  Level: developer

.seealso: RwOptionsInt(), RwOptionsReal()
@*/
PetscErrorCode RwOptionsCheckPetsc(MPI_Comm comm, const char prefix[])
{
  char  *all, **tok;
  int    n;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetAll(NULL, &all));
  PetscCall(PetscStrToArray(all, ' ', &n, &tok));
  PetscCall(PetscFree(all));
  for (int k = 0; k < n; k++) {
    PetscErrorCode ierr;

    if (!RwIsOptionName(tok[k])) continue;
    ierr = RwOptionsCheckPetscOne(comm, prefix, tok[k], k + 1 < n && !RwIsOptionName(tok[k + 1]) ? tok[k + 1] : "");
    if (ierr) PetscCall(PetscStrToArrayDestroy(n, tok));
    PetscCall(ierr);
  }
  PetscCall(PetscStrToArrayDestroy(n, tok));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every option rewind reads, one a line in sorted order (a new option adds a
   line here); tests/sys/t020-optionnames.sh keeps this list honest against
   the sources.  A few PETSc options users type often are
   here too, so that their misspellings get a suggestion. */
static const char *const RwOptionNames[] = {
  /* rewind: begin */
  "-rw_adjoint_active",
  "-rw_adjoint_keep_file",
  "-rw_adjoint_keep_interval",
  "-rw_adjoint_keep_seconds",
  "-rw_adjoint_measured_costs",
  "-rw_adjoint_monitor",
  "-rw_adjoint_monitor_seconds",
  "-rw_adjoint_monitor_solution",
  "-rw_adjoint_monitor_solution_every",
  "-rw_adjoint_stop_steady",
  "-rw_adjoint_view",
  "-rw_bench_dir",
  "-rw_bench_gradient_cases",
  "-rw_bench_gradient_grid",
  "-rw_bench_gradient_steps",
  "-rw_bench_hybrid_grid",
  "-rw_bench_hybrid_hidden",
  "-rw_bench_hybrid_python",
  "-rw_bench_hybrid_script",
  "-rw_bench_hybrid_steps",
  "-rw_bench_io_grid",
  "-rw_bench_io_slots",
  "-rw_bench_kernel_dims",
  "-rw_bench_kernel_grid",
  "-rw_bench_kernel_implicit_grid_max",
  "-rw_bench_kernel_schemes",
  "-rw_bench_output",
  "-rw_bench_peer_grid",
  "-rw_bench_peer_steps",
  "-rw_bench_repeat",
  "-rw_bench_revolve_slots",
  "-rw_bench_seconds",
  "-rw_bench_sections",
  "-rw_bench_size",
  "-rw_bench_stream_size",
  "-rw_bench_sum_reduce_repeat",
  "-rw_bench_sum_repeat",
  "-rw_bench_sum_terms",
  "-rw_bench_wave_gradient_grid",
  "-rw_bench_wave_gradient_steps",
  "-rw_bench_wave_gradient_grid3",
  "-rw_bench_wave_fwi3d_grid",
  "-rw_bench_wave_fwi3d_steps",
  "-rw_bench_compression_parts",
  "-rw_bench_wave_grid",
  "-rw_bench_wave_grid3",
  "-rw_bench_wave_orders",
  "-rw_bench_wave_record",
  "-rw_bench_weak",
  "-rw_bench_weak_grid",
  "-rw_check_finite_interval",
  "-rw_checkpoint_disk",
  "-rw_checkpoint_node_memory",
  "-rw_checkpoint_ram",
  "-rw_checkpoint_ram_fraction",
  "-rw_checkpoint_replan",
  "-rw_checkpoint_share_planes",
  "-rw_control_alpha",
  "-rw_control_beta",
  "-rw_control_levels",
  "-rw_control_max",
  "-rw_control_min",
  "-rw_debug_kill_at_action",
  "-rw_debug_kill_at_evaluation",
  "-rw_debug_kill_at_reverse",
  "-rw_debug_kill_at_step",
  "-rw_debug_kill_before_mark",
  "-rw_debug_kill_in_keep",
  "-rw_debug_kill_in_write",
  "-rw_debug_kill_solve",
  "-rw_debug_kill_torn",
  "-rw_design_continuation",
  "-rw_design_filter_radius",
  "-rw_design_kmax",
  "-rw_design_kmin",
  "-rw_design_load_power",
  "-rw_design_projection_beta",
  "-rw_design_projection_eta",
  "-rw_design_simp_p",
  "-rw_design_volume",
  "-rw_dt",
  "-rw_ensemble_groups",
  "-rw_ensemble_view",
  "-rw_fwi_bands",
  "-rw_fwi_cmax",
  "-rw_fwi_cmin",
  "-rw_fwi_dim",
  "-rw_fwi_grid",
  "-rw_fwi_iterations",
  "-rw_fwi_noise",
  "-rw_fwi_obs",
  "-rw_fwi_offset_max",
  "-rw_fwi_origin",
  "-rw_fwi_receiver_spacing",
  "-rw_fwi_record",
  "-rw_fwi_shot_groups",
  "-rw_fwi_shots",
  "-rw_fwi_smooth",
  "-rw_fwi_spacing",
  "-rw_fwi_start",
  "-rw_fwi_state",
  "-rw_fwi_state_keep",
  "-rw_fwi_state_overwrite",
  "-rw_fwi_true",
  "-rw_fwi_water",
  "-rw_gradient_view",
  "-rw_heat_bc",
  "-rw_heat_control_nodes",
  "-rw_heat_dim",
  "-rw_heat_flux_sides",
  "-rw_heat_heater_width",
  "-rw_heat_heaters",
  "-rw_heat_nn",
  "-rw_heat_scheme",
  "-rw_heat_source_amplitude",
  "-rw_heat_theta",
  "-rw_history_view",
  "-rw_hugepages",
  "-rw_hybrid_dt",
  "-rw_hybrid_epochs",
  "-rw_hybrid_grid",
  "-rw_hybrid_kappa",
  "-rw_hybrid_kappa0",
  "-rw_hybrid_lr",
  "-rw_hybrid_lr_decay",
  "-rw_hybrid_observe_every",
  "-rw_hybrid_optimizer",
  "-rw_hybrid_rho",
  "-rw_hybrid_seed",
  "-rw_hybrid_steps",
  "-rw_hybrid_train_kappa",
  "-rw_hybrid_trajectories",
  "-rw_inv_discrepancy",
  "-rw_inv_experiments",
  "-rw_inv_noise",
  "-rw_inv_observe_every",
  "-rw_inv_sensors",
  "-rw_inverse_state",
  "-rw_inverse_state_keep",
  "-rw_inverse_state_overwrite",
  "-rw_invert",
  "-rw_journal",
  "-rw_journal_keep",
  "-rw_journal_overwrite",
  "-rw_kappa0",
  "-rw_kappa0_clip",
  "-rw_kappa_max",
  "-rw_kappa_min",
  "-rw_kernel_isa",
  "-rw_kernel_stream_stores",
  "-rw_model_plugin",
  "-rw_model_step_block",
  "-rw_model_type",
  "-rw_model_view",
  "-rw_nn_activation",
  "-rw_nn_layers",
  "-rw_nn_output_activation",
  "-rw_nn_seed",
  "-rw_nn_weights",
  "-rw_objective_terminal",
  "-rw_objective_terminal_weight",
  "-rw_objective_view",
  "-rw_obs",
  "-rw_obs_member",
  "-rw_obs_shot",
  "-rw_obs_write",
  "-rw_output",
  "-rw_output_png",
  "-rw_parameter",
  "-rw_problem_view",
  "-rw_reg_alpha",
  "-rw_reg_parameter",
  "-rw_reg_tv_eps",
  "-rw_reg_type",
  "-rw_restart",
  "-rw_schedule_costs",
  "-rw_schedule_disk_slots",
  "-rw_schedule_multilevel_max_work",
  "-rw_schedule_period",
  "-rw_schedule_ram_slots",
  "-rw_schedule_type",
  "-rw_schedule_validate",
  "-rw_schedule_view",
  "-rw_schedule_view_actions",
  "-rw_schedule_view_draw",
  "-rw_state_bytes",
  "-rw_stencil_block_rows",
  "-rw_stencil_block_tile",
  "-rw_stencil_halo_all",
  "-rw_steps",
  "-rw_store_compress",
  "-rw_store_compress_tolerance",
  "-rw_store_disk_type",
  "-rw_store_hdf5_alignment",
  "-rw_store_hdf5_async",
  "-rw_store_hdf5_comm",
  "-rw_store_hdf5_fail_read",
  "-rw_store_hdf5_fail_write",
  "-rw_store_hdf5_file",
  "-rw_store_hdf5_prefetch",
  "-rw_store_keep",
  "-rw_store_overwrite",
  "-rw_store_type",
  "-rw_verify",
  "-rw_verify_dot_tol",
  "-rw_wave_dim",
  "-rw_wave_dt_safety",
  "-rw_wave_f0",
  "-rw_wave_nbl",
  "-rw_wave_origin",
  "-rw_wave_receivers",
  "-rw_wave_sources",
  "-rw_wave_space_order",
  "-rw_wave_spacing",
  "-rw_wave_t0",
  "-rw_wave_velocity",
  "-rw_wave_velocity_range",
  /* issue 34: Lorenz-96, time averages, horizon */
  "-rw_adjoint_horizon",
  "-rw_adjoint_horizon_warn",
  "-rw_l96_forcing",
  "-rw_objective_time_average",
  /* issue 34: rewind-4dvar, rewind-horizon */
  "-rw_4dvar_obs_every",
  "-rw_4dvar_obs_points",
  "-rw_4dvar_seed",
  "-rw_4dvar_sigma_b",
  "-rw_4dvar_sigma_o",
  "-rw_4dvar_spinup",
  "-rw_horizon_exponents",
  "-rw_horizon_exponents_block",
  "-rw_horizon_exponents_blocks",
  "-rw_horizon_members",
  "-rw_horizon_parameter",
  "-rw_horizon_spacing",
  "-rw_horizon_spinup",
  "-rw_horizon_windows",
  "-rw_horizon_shadowing",
  "-rw_horizon_shadowing_runs",
  "-rw_horizon_shadowing_segment",
  "-rw_horizon_shadowing_time",
  /* issue 36: the disk level's own codec */
  "-rw_store_disk_compress",
  "-rw_store_disk_compress_tolerance",
  /* issue 36 item 3: the gradient error of lossy checkpoints, tolerance auto */
  "-rw_adjoint_gradient_rtol",
  /* issue 37: the wave kernels' instruction sets */
  "-rw_wave_kernel_choice",
  /* issue 34 (h-shoot): an unknown per member, multiple shooting in rewind-4dvar */
  "-rw_problem_unknown_per_member",
  "-rw_4dvar_segments",
  "-rw_4dvar_matching_weight",
  /* issue 36 (h-auto): -rw_store_compress auto's test hook */
  "-rw_debug_auto_step_seconds",
  /* rewind: end */
  "-da_grid_x", "-da_grid_y", "-da_grid_z", "-da_processors_x", "-da_processors_y", "-da_processors_z", "-ksp_type", "-ksp_rtol", "-ksp_atol", "-ksp_max_it", "-ksp_monitor", "-pc_type",
  "-tao_type", "-tao_monitor", "-tao_max_it", "-tao_gatol", "-tao_grtol", "-tao_view", "-log_view", "-help", "-options_left"};

/* Options PETSc reads after the application's last chance to look, in PetscFinalize() */
static const char *const RwFinalizeOptions[] = {"help_debug", "log_view", "log_all", "log_trace", "log_summary", "options_left", "options_view", "malloc_dump", "malloc_view", "memory_view", "objects_dump", "mpi_linear_solver_server", "viewfromoptions", "saws_options", "citations"};

/* Edit distance of a and b (insertions, deletions, substitutions), or more than cap */
static PetscErrorCode RwEditDistance(const char a[], const char b[], PetscInt cap, PetscInt *dist)
{
  size_t    m, n;
  PetscInt *prev, *row;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(a, &m));
  PetscCall(PetscStrlen(b, &n));
  *dist = cap + 1;
  if ((PetscInt)(m > n ? m - n : n - m) > cap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(n + 1, &prev, n + 1, &row));
  for (size_t j = 0; j <= n; j++) prev[j] = (PetscInt)j;
  for (size_t i = 1; i <= m; i++) {
    row[0] = (PetscInt)i;
    for (size_t j = 1; j <= n; j++) row[j] = PetscMin(PetscMin(prev[j] + 1, row[j - 1] + 1), prev[j - 1] + (a[i - 1] != b[j - 1]));
    for (size_t j = 0; j <= n; j++) prev[j] = row[j];
  }
  *dist = prev[n];
  PetscCall(PetscFree2(prev, row));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How close a given name is to a known one, lower is closer: twice the edit
   distance when it is at most 2, then 5 when the given name is a prefix of
   the known one (cut short), 6 when the known one is a prefix of it; 7: not close */
static PetscErrorCode RwNameCloseness(const char given[], const char known[], PetscInt *score)
{
  size_t    lg, lk;
  PetscInt  e = 3;
  PetscBool pre = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(RwEditDistance(given, known, 2, &e));
  *score = e <= 2 ? 2 * e : 7;
  if (*score < 7) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrlen(given, &lg));
  PetscCall(PetscStrlen(known, &lk));
  /* a prefix counts only when it is more than the class part ("-rw_", "-rw_store_") */
  if (PetscMin(lg, lk) >= 8) PetscCall(PetscStrncmp(given, known, PetscMin(lg, lk), &pre));
  if (pre) *score = lg < lk ? 5 : 6;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The closest known name: the table's and those of the options this run used */
static PetscErrorCode RwSuggestOption(const char given[], char **used, PetscInt nused, char best[], size_t len)
{
  PetscInt bestd = 7, d;

  PetscFunctionBegin;
  best[0] = 0;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(RwOptionNames); i++) {
    PetscCall(RwNameCloseness(given, RwOptionNames[i], &d));
    if (d < bestd) PetscCall(PetscStrncpy(best, RwOptionNames[i], len));
    bestd = PetscMin(bestd, d);
  }
  for (PetscInt i = 0; i < nused; i++) {
    PetscCall(RwNameCloseness(given, used[i], &d));
    if (d < bestd) PetscCall(PetscStrncpy(best, used[i], len));
    bestd = PetscMin(bestd, d);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The options of the database that this run read, as "-name" */
static PetscErrorCode RwOptionsUsedNames(PetscInt *n, char ***names)
{
  char       *all, *tok;
  size_t      len;
  PetscToken  t;

  PetscFunctionBegin;
  *n = 0;
  PetscCall(PetscOptionsGetAll(NULL, &all));
  PetscCall(PetscStrlen(all, &len));
  PetscCall(PetscMalloc1(len / 2 + 1, names));
  PetscCall(PetscTokenCreate(all, ' ', &t));
  while (1) {
    PetscBool used;

    PetscCall(PetscTokenFind(t, &tok));
    if (!tok) break;
    if (tok[0] != '-' || !tok[1] || (tok[1] >= '0' && tok[1] <= '9') || tok[1] == '.') continue; /* a value, not a name */
    PetscCall(PetscOptionsUsed(NULL, tok + 1, &used));
    if (used) PetscCall(PetscStrallocpy(tok, &(*names)[(*n)++]));
  }
  PetscCall(PetscTokenDestroy(&t));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool RwIsFinalizeOption(const char name[])
{
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(RwFinalizeOptions); i++) {
    size_t l = strlen(RwFinalizeOptions[i]);
    if (!strncmp(name, RwFinalizeOptions[i], l) && (!name[l] || name[l] == '_')) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* Whether name is in the table of rewind's options */
static PetscBool RwIsKnownOption(const char name[])
{
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(RwOptionNames); i++)
    if (!strcmp(name, RwOptionNames[i])) return PETSC_TRUE;
  return PETSC_FALSE;
}

/*@C
  RwOptionsCheckUnknown - before the first solve: reports every given -rw_* option that is no
  option of rewind and that nothing has read, with the known name it is closest to;
  -rw_options_strict makes it an error

  Collective

  Input Parameter:
. comm - the communicator of the caller (every rank has the same options, so all agree)

  Notes:
  RwProblemSetUp(), RwAdjointSetUp() and the programs call it once their objects have read
  their options; it reports once a process (rank 0 of PETSC_COMM_WORLD prints), and marks
  what it reported as read, so RwOptionsWarnUnused() does not repeat it after the run.

  Level: intermediate

.seealso: RwOptionsWarnUnused()
@*/
PetscErrorCode RwOptionsCheckUnknown(MPI_Comm comm)
{
  static PetscBool reported = PETSC_FALSE;
  PetscBool        strict   = PETSC_FALSE;
  PetscInt         nused;
  char            *all, **tok, **used, best[256];
  int              n;
  PetscMPIInt      rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-rw_options_strict", &strict, NULL));
  if (reported && !strict) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsGetAll(NULL, &all));
  PetscCall(PetscStrToArray(all, ' ', &n, &tok));
  PetscCall(PetscFree(all));
  PetscCall(RwOptionsUsedNames(&nused, &used));
  for (int k = 0; k < n; k++) {
    PetscBool read;

    if (strncmp(tok[k], "-rw_", 4) || RwIsKnownOption(tok[k])) continue;
    PetscCall(PetscOptionsUsed(NULL, tok[k] + 1, &read));
    if (read) continue;
    PetscCall(RwSuggestOption(tok[k], used, nused, best, sizeof(best)));
    PetscCheck(!strict, comm, PETSC_ERR_ARG_WRONG, "%s: no such option (-rw_options_strict)%s%s%s", tok[k], best[0] ? "; did you mean " : "", best, best[0] ? "?" : "");
    if (!rank) PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDERR, "rewind: warning: option %s is unknown%s%s%s\n", tok[k], best[0] ? "; did you mean " : "", best, best[0] ? "?" : ""));
    PetscCall(PetscOptionsHasName(NULL, NULL, tok[k], &read)); /* reported: not again after the run */
  }
  reported = PETSC_TRUE;
  for (PetscInt i = 0; i < nused; i++) PetscCall(PetscFree(used[i]));
  PetscCall(PetscFree(used));
  PetscCall(PetscStrToArrayDestroy(n, tok));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsWarnUnused - warns, once on stderr, about every option that was
  given but never read, and names the known option a misspelled one is close
  to (edit distance at most 2, or a prefix)

  Collective

  Input Parameter:
. comm - the communicator whose rank 0 prints

  Notes:
  Call it last before PetscFinalize(); options PETSc itself reads during
  PetscFinalize() (-log_view, -options_left, ...) are not reported. It is a
  warning, not an error: the run's results stand.

  Level: intermediate

.seealso: PetscOptionsLeftGet(), RwOptionsInt64()
@*/
PetscErrorCode RwOptionsWarnUnused(MPI_Comm comm)
{
  PetscInt n, nused;
  char   **names, **values, **used, name[256], best[256];

  PetscFunctionBegin;
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  PetscCall(RwOptionsUsedNames(&nused, &used));
  for (PetscInt i = 0; i < n; i++) {
    const char *bare = names[i][0] == '-' ? names[i] + 1 : names[i];

    if (RwIsFinalizeOption(bare)) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "-%s", bare));
    PetscCall(RwSuggestOption(name, used, nused, best, sizeof(best)));
    if (best[0]) PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: option %s was given but never used; did you mean %s?\n", name, best));
    else PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: option %s was given but never used\n", name));
  }
  for (PetscInt i = 0; i < nused; i++) PetscCall(PetscFree(used[i]));
  PetscCall(PetscFree(used));
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscFunctionReturn(PETSC_SUCCESS);
}
