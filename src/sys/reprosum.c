/*
  Reproducible global sums.

  A double is m * 2^(e - 1074) with an integer mantissa m < 2^53 and a shift
  e in [0, 2045].  Every finite double is therefore an integer multiple of
  2^-1074 below 2^1024, and a sum of them is an integer that fits in
  RW_DIGITS base-2^32 digits with room for 2^64 terms of carries.  Adding into
  that integer is exact, so the order of the terms and their split over ranks
  cannot change it; the only rounding is the final conversion to a double,
  which rounds to nearest (ties to even).

  Digits are kept in int64_t so that up to 2^30 additions can go in before the
  carries must be propagated (each adds less than 2^32 to a digit); they are
  propagated at that point and before every reduction, then the digits are in
  [0, 2^32) and only the top one carries the sign.

  Inf and NaN terms are counted apart: any NaN, or +Inf with -Inf, gives NaN;
  otherwise an infinity wins.  A sum of zeros is +0.
*/
#include <rewind/private/rwimpl.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "reprosumimpl.h"

#define RW_DIGITS       72                  /* 2304 bits: 2^-1074 .. 2^1230 */
#define RW_SPECIALS     3                   /* NaN, +Inf, -Inf counts */
#define RW_WORDS        (RW_DIGITS + RW_SPECIALS)
#define RW_MASK32       0xffffffffULL
#define RW_BASE         4294967296LL
#define RW_ADDS_PER_RUN (1 << 30)

typedef struct {
  int64_t w[RW_WORDS];
} RwAcc;

struct _n_RwReproSum {
  PetscInt n;
  RwAcc   *acc;
  RwAcc   *total; /* receives the reduction: allocated once, with acc */
  int64_t  adds; /* additions since carries were last propagated */
};

static MPI_Datatype RwAccType = MPI_DATATYPE_NULL;
static MPI_Op       RwAccOp   = MPI_OP_NULL;

/* Propagates carries: digits end in [0, 2^32), the top one signed */
static void RwAccNormalize(RwAcc *a)
{
  for (int i = 0; i < RW_DIGITS - 1; i++) {
    int64_t low   = (int64_t)((uint64_t)a->w[i] & RW_MASK32);
    int64_t carry = (a->w[i] - low) / RW_BASE; /* exact: floor division */
    a->w[i]       = low;
    a->w[i + 1] += carry;
  }
}

static void RwAccAddDouble(RwAcc *a, double x)
{
  uint64_t bits, m;
  int      e, idx, b;
  int64_t  lo, mid, hi, neg;

  memcpy(&bits, &x, sizeof(bits));
  e = (int)((bits >> 52) & 0x7ff);
  m = bits & ((1ULL << 52) - 1);
  if (e == 0x7ff) { /* Inf or NaN */
    if (m) a->w[RW_DIGITS]++;
    else a->w[RW_DIGITS + ((bits >> 63) ? 2 : 1)]++;
    return;
  }
  if (e) m |= 1ULL << 52; /* normal: implicit leading bit */
  else e = 1;             /* subnormal: same scale as the smallest normal */
  e -= 1;                 /* x = m * 2^(e - 1074) */
  idx = e >> 5; /* e >= 0 */
  b   = e & 31;
  /* branch-free: the signs of terms are random, a branch on them mispredicts half the time */
  lo  = (int64_t)((m << b) & RW_MASK32);
  mid = (int64_t)((m >> (32 - b)) & RW_MASK32);
  hi  = (int64_t)((m >> 1) >> (63 - b)); /* m >> (64 - b), and 0 for b = 0 */
  neg = -(int64_t)(bits >> 63);            /* 0 or -1: x -> (x ^ neg) - neg negates when negative */
  lo  = (lo ^ neg) - neg;
  mid = (mid ^ neg) - neg;
  hi  = (hi ^ neg) - neg;
  a->w[idx] += lo;
  a->w[idx + 1] += mid;
  a->w[idx + 2] += hi;
}

/* The exact integer held in a normalised accumulator, rounded to the nearest double */
static double RwAccRound(const RwAcc *in)
{
  RwAcc    a = *in;
  int      neg = 0, t, nb;
  uint64_t d2, d1, d0, top, keep, rem;
  int      sticky = 0;

  if (a.w[RW_DIGITS] || (a.w[RW_DIGITS + 1] && a.w[RW_DIGITS + 2])) return NAN;
  if (a.w[RW_DIGITS + 1]) return INFINITY;
  if (a.w[RW_DIGITS + 2]) return -INFINITY;
  RwAccNormalize(&a);
  if (a.w[RW_DIGITS - 1] < 0) { /* magnitude and sign */
    neg = 1;
    for (int i = 0; i < RW_DIGITS; i++) a.w[i] = -a.w[i];
    RwAccNormalize(&a);
  }
  for (t = RW_DIGITS - 1; t >= 0 && !a.w[t]; t--) { }
  if (t < 0) return 0.0;
  if (a.w[t] >= RW_BASE) return neg ? -INFINITY : INFINITY; /* beyond 2^1230 */
  d2 = (uint64_t)a.w[t];
  d1 = t >= 1 ? (uint64_t)a.w[t - 1] : 0;
  d0 = t >= 2 ? (uint64_t)a.w[t - 2] : 0;
  for (int i = 0; i < t - 2; i++) sticky |= a.w[i] != 0;
  for (nb = 32; !(d2 >> (nb - 1)); nb--) { }
  /* top: the 64 leading bits, leading one at bit 63; what falls off is sticky */
  top = (d2 << (64 - nb)) | (d1 << (32 - nb)) | (nb < 32 ? d0 >> nb : 0);
  if (nb < 32) sticky |= (d0 & ((1ULL << nb) - 1)) != 0;
  keep = top >> 11;
  rem  = top & 0x7ff;
  if (rem > 0x400 || (rem == 0x400 && (sticky || (keep & 1)))) keep++;
  {
    double r = ldexp((double)keep, 32 * t + nb - 1127);
    return neg ? -r : r;
  }
}

static void MPIAPI RwAccSum(void *in, void *inout, int *len, MPI_Datatype *type)
{
  RwAcc *a = (RwAcc *)in, *b = (RwAcc *)inout;

  for (int k = 0; k < *len; k++) {
    for (int i = 0; i < RW_WORDS; i++) b[k].w[i] += a[k].w[i];
    RwAccNormalize(&b[k]);
  }
}

PetscErrorCode RwReproSumInitialize_Private(void)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Type_contiguous(RW_WORDS, MPI_INT64_T, &RwAccType));
  PetscCallMPI(MPI_Type_commit(&RwAccType));
  PetscCallMPI(MPI_Op_create(RwAccSum, 1, &RwAccOp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwReproSumFinalize_Private(void)
{
  PetscFunctionBegin;
  if (RwAccOp != MPI_OP_NULL) PetscCallMPI(MPI_Op_free(&RwAccOp));
  if (RwAccType != MPI_DATATYPE_NULL) PetscCallMPI(MPI_Type_free(&RwAccType));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwReproSumCreate - creates n exact accumulators, all zero

  Not collective

  Input Parameter:
. n - the number of independent sums

  Output Parameter:
. rs - the accumulators

  Level: intermediate

  Notes:
  Each accumulator is 600 bytes; allocate them once, outside time loops.

.seealso: RwReproSumAdd(), RwReproSumAllreduce(), RwReproSumDestroy()
@*/
PetscErrorCode RwReproSumCreate(PetscInt n, RwReproSum *rs)
{
  RwReproSum s;

  PetscFunctionBegin;
  PetscValidPointer(rs, 2);
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of sums %" PetscInt_FMT " must be >= 0", n);
  PetscCall(RwInitializePackage());
  PetscCall(PetscNew(&s));
  s->n = n;
  PetscCall(PetscCalloc2(n, &s->acc, n, &s->total));
  *rs = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwReproSumReset - sets every accumulator back to zero

  Not collective

  Level: intermediate

.seealso: RwReproSumCreate()
@*/
PetscErrorCode RwReproSumReset(RwReproSum rs)
{
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(rs->acc, rs->n));
  rs->adds = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called before every addition: keeps digits far from overflow */
static inline void RwReproSumCount(RwReproSum rs, PetscInt k)
{
  if (rs->adds + k < RW_ADDS_PER_RUN) {
    rs->adds += k;
    return;
  }
  for (PetscInt i = 0; i < rs->n; i++) RwAccNormalize(&rs->acc[i]);
  rs->adds = k;
}

/*@C
  RwReproSumAdd - adds one term, exactly, to accumulator i

  Not collective

  Input Parameters:
+ rs - the accumulators
. i  - which sum, 0 <= i < n
- x  - the term

  Level: intermediate

.seealso: RwReproSumAddArray(), RwReproSumAllreduce()
@*/
PetscErrorCode RwReproSumAdd(RwReproSum rs, PetscInt i, PetscReal x)
{
  PetscFunctionBegin;
  PetscAssert(i >= 0 && i < rs->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Sum %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", i, rs->n);
  RwReproSumCount(rs, 1);
  RwAccAddDouble(&rs->acc[i], x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwReproSumAddArray - adds m terms, exactly, to accumulator i

  Not collective

  Input Parameters:
+ rs - the accumulators
. i  - which sum, 0 <= i < n
. m  - the number of terms
- x  - the terms

  Level: intermediate

.seealso: RwReproSumAdd(), RwReproSumAllreduce()
@*/
PetscErrorCode RwReproSumAddArray(RwReproSum rs, PetscInt i, PetscInt m, const PetscReal x[])
{
  PetscFunctionBegin;
  PetscAssert(i >= 0 && i < rs->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Sum %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", i, rs->n);
  for (PetscInt j = 0; j < m; j += RW_ADDS_PER_RUN / 2) {
    PetscInt chunk = PetscMin(m - j, RW_ADDS_PER_RUN / 2);

    RwReproSumCount(rs, chunk);
    for (PetscInt k = 0; k < chunk; k++) RwAccAddDouble(&rs->acc[i], x[j + k]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwReproSumAllreduce - sums the accumulators of all ranks exactly and rounds
  each total once; the accumulators themselves are left unchanged

  Collective

  Input Parameters:
+ rs   - the accumulators; every rank must have the same n
- comm - the communicator

  Output Parameter:
. sum - n totals, identical on every rank, bitwise the same for any split of
        the terms over any number of ranks

  Level: intermediate

  Notes:
  The message is 600 bytes per sum instead of 8; for the handful of sums an
  adjoint run needs, the reduction costs about the latency of one
  MPI_Allreduce (rewind-bench reports the measured ratio).

.seealso: RwReproSumCreate(), RwGlobalSum()
@*/
PetscErrorCode RwReproSumAllreduce(RwReproSum rs, MPI_Comm comm, PetscReal sum[])
{
  PetscMPIInt n;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(RW_Reduce, 0, 0, 0, 0));
  PetscCall(PetscMPIIntCast(rs->n, &n));
  for (PetscInt i = 0; i < rs->n; i++) RwAccNormalize(&rs->acc[i]);
  rs->adds = 0;
  PetscCallMPI(MPI_Allreduce(rs->acc, rs->total, n, RwAccType, RwAccOp, comm));
  for (PetscInt i = 0; i < rs->n; i++) sum[i] = RwAccRound(&rs->total[i]);
  PetscCall(PetscLogEventEnd(RW_Reduce, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwReproSumDestroy - frees the accumulators; safe on NULL

  Not collective

  Level: intermediate

.seealso: RwReproSumCreate()
@*/
PetscErrorCode RwReproSumDestroy(RwReproSum *rs)
{
  PetscFunctionBegin;
  if (!rs || !*rs) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree2((*rs)->acc, (*rs)->total));
  PetscCall(PetscFree(*rs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwGlobalSum - the reproducible sum of every rank's local terms

  Collective

  Input Parameters:
+ comm - the communicator
. n    - the number of local terms
- x    - the local terms

  Output Parameter:
. sum - the correctly rounded exact sum of all terms on all ranks, bitwise
        independent of their order and of the number of ranks

  Level: beginner

.seealso: RwReproSumCreate()
@*/
PetscErrorCode RwGlobalSum(MPI_Comm comm, PetscInt n, const PetscReal x[], PetscReal *sum)
{
  RwReproSum rs;

  PetscFunctionBegin;
  PetscCall(RwReproSumCreate(1, &rs));
  PetscCall(RwReproSumAddArray(rs, 0, n, x));
  PetscCall(RwReproSumAllreduce(rs, comm, sum));
  PetscCall(RwReproSumDestroy(&rs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwReproSumGetStateSize - the number of 64-bit integers that hold the exact
  state of the accumulators (RwReproSumExport())

  Not collective

  Level: developer
@*/
PetscErrorCode RwReproSumGetStateSize(RwReproSum rs, PetscInt *n)
{
  PetscFunctionBegin;
  *n = rs->n * RW_WORDS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwReproSumExport - the exact sums of all ranks so far, as integers, the same
  on every rank; the accumulators are unchanged

  Collective

  Output Parameter:
. state - RwReproSumGetStateSize() integers

  Level: developer

  Notes:
  Importing the state on any number of ranks and adding the remaining terms
  gives bitwise the same totals as one uninterrupted run: the sums are exact.

.seealso: RwReproSumImport()
@*/
PetscErrorCode RwReproSumExport(RwReproSum rs, MPI_Comm comm, PetscInt64 state[])
{
  PetscMPIInt n;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(rs->n, &n));
  for (PetscInt i = 0; i < rs->n; i++) RwAccNormalize(&rs->acc[i]);
  rs->adds = 0;
  PetscCallMPI(MPI_Allreduce(rs->acc, rs->total, n, RwAccType, RwAccOp, comm));
  for (PetscInt i = 0; i < rs->n; i++) memcpy(state + i * RW_WORDS, rs->total[i].w, sizeof(rs->total[i].w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwReproSumImport - sets the accumulators to an exported state: rank 0 holds
  it, the other ranks start from zero, so the next reduction adds it once

  Collective

  Level: developer

.seealso: RwReproSumExport()
@*/
PetscErrorCode RwReproSumImport(RwReproSum rs, MPI_Comm comm, const PetscInt64 state[])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(RwReproSumReset(rs));
  if (!rank)
    for (PetscInt i = 0; i < rs->n; i++) memcpy(rs->acc[i].w, state + i * RW_WORDS, sizeof(rs->acc[i].w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
