/* rewind system layer: package registration, class ids, reproducible sums. */
#ifndef REWIND_SYS_H
#define REWIND_SYS_H

#include <petscsys.h>
#include <petscviewer.h>
#include <petscvec.h>

/* The largest 64-bit step or index, a "none" marker for minimum reductions */
#define RW_INT64_MAX ((PetscInt64)9223372036854775807LL)

/* PETSc 3.19 names the success code; 3.18 uses a plain 0 */
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS ((PetscErrorCode)0)
#endif

PETSC_EXTERN PetscClassId RW_MODEL_CLASSID;
PETSC_EXTERN PetscClassId RW_SCHEDULE_CLASSID;
PETSC_EXTERN PetscClassId RW_STORE_CLASSID;

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
PETSC_EXTERN PetscErrorCode RwVecDotRepro(Vec, Vec, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwVecSumRepro(Vec, PetscReal *);
PETSC_EXTERN PetscErrorCode RwVecNormRepro(Vec, PetscReal *);

#endif
