/* rewind system layer: package registration, class ids, reproducible sums. */
#ifndef REWIND_SYS_H
#define REWIND_SYS_H

#include <petscsys.h>
#include <petscviewer.h>
#include <petscvec.h>

#include <stdint.h>

/* The splitmix64 finaliser (Steele, Lea and Flood 2014): a strong 64-bit mix */
static inline uint64_t RwSplitMix64(uint64_t z)
{
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* FNV-1a over n bytes, from h: a hash of a text or a small array (identities, descriptions) */
static inline uint64_t RwHashBytes(uint64_t h, const void *p, size_t n)
{
  const unsigned char *c = (const unsigned char *)p;

  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001B3ULL;
  return h;
}

/* A number uniform in [0, 1) drawn from (seed, index) alone: random fields
   and noise that are the same on any number of ranks */
static inline double RwHashUniform01(int64_t seed, int64_t index)
{
  return (double)(RwSplitMix64(RwSplitMix64((uint64_t)seed) ^ (uint64_t)index) >> 11) * 0x1p-53;
}

/* A standard normal number drawn from (seed, index) alone: Box-Muller on two
   of those uniforms (synthetic noise, RwObservationsSynthesize()) */
static inline PetscReal RwHashNormal(int64_t seed, int64_t index)
{
  PetscReal u0 = RwHashUniform01(seed, 2 * index) + 0x1p-54, u1 = RwHashUniform01(seed, 2 * index + 1);

  return PetscSqrtReal(-2 * PetscLogReal(u0)) * PetscCosReal(2 * PETSC_PI * u1);
}

PETSC_EXTERN uint64_t       RwChecksumBlock(const PetscInt[3], const PetscInt[3], const PetscInt[3], PetscInt, const PetscScalar[]);
PETSC_EXTERN PetscErrorCode RwVecChecksum(Vec, uint64_t *);

/* The largest 64-bit step or index, a "none" marker for minimum reductions */
#define RW_INT64_MAX ((PetscInt64)9223372036854775807LL)

/* PETSc 3.19 names the success code; 3.18 uses a plain 0 */
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS ((PetscErrorCode)0)
#endif

PETSC_EXTERN PetscClassId RW_MODEL_CLASSID;
PETSC_EXTERN PetscClassId RW_SCHEDULE_CLASSID;
PETSC_EXTERN PetscClassId RW_STORE_CLASSID;

/* One rank's error raised on every rank alike (src/sys/agree.c): root is a
   rank, or RW_AGREE_ANY for the lowest rank whose message is not empty */
#define RW_AGREE_ANY (-1)
PETSC_EXTERN PetscErrorCode RwErrorAgree(MPI_Comm, PetscMPIInt, PetscErrorCode, char[], size_t);
PETSC_EXTERN PetscErrorCode RwErrorAgreeTest(MPI_Comm, PetscMPIInt, char[], size_t, PetscBool *);

/* A file in use by this run (src/sys/filelock.c): FILE.lock names the run
   that holds it; a second run is refused, a dead run's lock taken over */
typedef struct _n_RwFileLock *RwFileLock;
PETSC_EXTERN PetscErrorCode RwFileLockAcquire(MPI_Comm, PetscBool, const char[], const char[], RwFileLock *);
PETSC_EXTERN PetscErrorCode RwFileLockRemoveAtExit(RwFileLock, const char[]);
PETSC_EXTERN void           RwFileLockDrop(RwFileLock);
PETSC_EXTERN PetscErrorCode RwFileLockRelease(RwFileLock *);

PETSC_EXTERN PetscErrorCode RwInitializePackage(void);
PETSC_EXTERN PetscErrorCode RwFinalizePackage(void);
PETSC_EXTERN PetscErrorCode RwGetVersion(char[], size_t);

/*S
  RwReproSum - exact accumulators for sums whose result does not depend on the
  order of the terms or on how they are split across MPI ranks.

  Each of the n accumulators holds its sum exactly (a fixed-point number wide
  enough for every finite double); RwReproSumAllreduce() adds the accumulators
  of all ranks exactly with a user-defined MPI_Op and rounds once, to nearest.
  The result is the correctly rounded exact sum, bitwise the same for any order
  and any number of ranks.

  Level: intermediate

.seealso: RwReproSumCreate(), RwReproSumAdd(), RwReproSumAllreduce(), RwGlobalSum()
S*/
typedef struct _n_RwReproSum *RwReproSum;

PETSC_EXTERN PetscErrorCode RwReproSumCreate(PetscInt, RwReproSum *);
PETSC_EXTERN PetscErrorCode RwReproSumReset(RwReproSum);
PETSC_EXTERN PetscErrorCode RwReproSumAdd(RwReproSum, PetscInt, PetscReal);
PETSC_EXTERN PetscErrorCode RwReproSumAddArray(RwReproSum, PetscInt, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwReproSumAllreduce(RwReproSum, MPI_Comm, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwReproSumDestroy(RwReproSum *);
PETSC_EXTERN PetscErrorCode RwGlobalSum(MPI_Comm, PetscInt, const PetscReal[], PetscReal *);
PETSC_EXTERN PetscErrorCode RwReproSumGetStateSize(RwReproSum, PetscInt *);
PETSC_EXTERN PetscErrorCode RwReproSumExport(RwReproSum, MPI_Comm, PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwReproSumImport(RwReproSum, MPI_Comm, const PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwVecDotRepro(Vec, Vec, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwVecSumRepro(Vec, PetscReal *);
PETSC_EXTERN PetscErrorCode RwVecNormRepro(Vec, PetscReal *);
PETSC_EXTERN PetscErrorCode RwVecGetFirstRankValues(Vec, PetscInt, PetscReal[]);

/* Integer options checked for range before they are narrowed, and a warning
   about options given but never used (see src/sys/options.c) */
PETSC_EXTERN PetscErrorCode RwParseInt64(const char[], PetscInt64, PetscInt64, PetscInt64 *, PetscBool *, char[], size_t);
PETSC_EXTERN PetscErrorCode RwOptionsInt64_Private(PetscOptionItems *, const char[], const char[], const char[], PetscInt64, PetscInt64 *, PetscBool *, PetscInt64, PetscInt64);
PETSC_EXTERN PetscErrorCode RwOptionsInt_Private(PetscOptionItems *, const char[], const char[], const char[], PetscInt, PetscInt *, PetscBool *, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode RwOptionsBool_Private(PetscOptionItems *, const char[], const char[], const char[], PetscBool, PetscBool *, PetscBool *);
/* which ends of an option's range are open: RwOptionsReal(..., 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO) is a positive number */
typedef enum {
  RW_RANGE_CLOSED  = 0,
  RW_RANGE_OPEN_LO = 1,
  RW_RANGE_OPEN_HI = 2,
  RW_RANGE_OPEN    = 3
} RwRange;
PETSC_EXTERN PetscErrorCode RwParseReal(const char[], PetscReal, PetscReal, RwRange, PetscReal *, PetscBool *, char[], size_t);
PETSC_EXTERN PetscErrorCode RwOptionsReal_Private(PetscOptionItems *, const char[], const char[], const char[], PetscReal, PetscReal *, PetscBool *, PetscReal, PetscReal, RwRange);
PETSC_EXTERN PetscErrorCode RwOptionsIntArray_Private(PetscOptionItems *, const char[], const char[], const char[], PetscInt[], PetscInt *, PetscBool *, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode RwOptionsRealArray_Private(PetscOptionItems *, const char[], const char[], const char[], const char[], PetscReal[], PetscInt *, PetscBool *, PetscReal, PetscReal, RwRange);
PETSC_EXTERN PetscErrorCode RwCheckArraySize(MPI_Comm, const char[], PetscReal, size_t, const char[]);
PETSC_EXTERN PetscErrorCode RwOptionsGetInt(MPI_Comm, const char[], const char[], PetscInt *, PetscBool *, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode RwOptionsCheckPetsc(MPI_Comm, const char[]);
PETSC_EXTERN PetscErrorCode RwOptionsCheckUnknown(MPI_Comm);
PETSC_EXTERN PetscErrorCode RwOptionsHidden(PetscOptionItems *, const char[], PetscBool *);
PETSC_EXTERN PetscErrorCode RwHelpPrintf(MPI_Comm, const char[], ...);
PETSC_EXTERN PetscErrorCode RwOptionsHelpOnce(PetscOptionItems *);
PETSC_EXTERN PetscErrorCode RwOptionsWarnUnused(MPI_Comm);
/* -help that stops before the first solve; a missing required option in one line (src/sys/help.c) */
PETSC_EXTERN PetscErrorCode RwHelpStop(MPI_Comm, PetscBool *);
PETSC_EXTERN PetscErrorCode RwOptionsRequired(MPI_Comm, const char[], const char[], PetscBool, PetscBool *);
/* inside a PetscOptionsBegin() block, like PetscOptionsRangeInt(): opt, text, man, current, value, set, lo, hi */
#define RwOptionsInt64(opt, text, man, cur, value, set, lo, hi) RwOptionsInt64_Private(PetscOptionsObject, opt, text, man, cur, value, set, lo, hi)
#define RwOptionsInt(opt, text, man, cur, value, set, lo, hi)   RwOptionsInt_Private(PetscOptionsObject, opt, text, man, cur, value, set, lo, hi)
#define RwOptionsReal(opt, text, man, cur, value, set, lo, hi, range)   RwOptionsReal_Private(PetscOptionsObject, opt, text, man, cur, value, set, lo, hi, range)
#define RwOptionsIntArray(opt, text, man, values, n, set, lo, hi)         RwOptionsIntArray_Private(PetscOptionsObject, opt, text, man, values, n, set, lo, hi)
#define RwOptionsRealArray(opt, text, man, now, values, n, set, lo, hi, range) RwOptionsRealArray_Private(PetscOptionsObject, opt, text, man, now, values, n, set, lo, hi, range)
#define RwOptionsBool(opt, text, man, cur, value, set)           RwOptionsBool_Private(PetscOptionsObject, opt, text, man, cur, value, set)

#endif
