/*
  RwEnsemble: many independent solves (FWI shots, inverse-problem experiments,
  ensemble members) on groups of the ranks of a communicator, with J and the
  gradient summed in member order, so that the sum is bitwise the same for any
  split of the ranks into groups.  doc/ensemble.md explains the rules.
*/
#ifndef REWIND_ENSEMBLE_H
#define REWIND_ENSEMBLE_H

#include <petscdm.h>
#include <rewind/adjoint.h>

/*S
  RwEnsemble - members solved on sub-communicators and summed in member order

  Level: intermediate

.seealso: RwEnsembleCreate(), RwEnsembleSetSize(), RwEnsembleSetUp(), RwEnsembleSum()
S*/
typedef struct _p_RwEnsemble *RwEnsemble;

PETSC_EXTERN PetscClassId RW_ENSEMBLE_CLASSID;

PETSC_EXTERN PetscErrorCode RwEnsembleCreate(MPI_Comm, RwEnsemble *);
PETSC_EXTERN PetscErrorCode RwEnsembleSetSize(RwEnsemble, PetscInt);
PETSC_EXTERN PetscErrorCode RwEnsembleSetGroups(RwEnsemble, PetscInt);
PETSC_EXTERN PetscErrorCode RwEnsembleSetFromOptions(RwEnsemble);
PETSC_EXTERN PetscErrorCode RwEnsembleSetUp(RwEnsemble);
PETSC_EXTERN PetscErrorCode RwEnsembleGetSubComm(RwEnsemble, MPI_Comm *);
PETSC_EXTERN PetscErrorCode RwEnsembleGetGroup(RwEnsemble, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode RwEnsembleGetMembers(RwEnsemble, PetscInt *, const PetscInt **);
PETSC_EXTERN PetscErrorCode RwEnsembleGetRounds(RwEnsemble, PetscInt *);
PETSC_EXTERN PetscErrorCode RwEnsembleGetRoundMember(RwEnsemble, PetscInt, PetscInt *);
PETSC_EXTERN PetscErrorCode RwEnsembleGetMemberPrefix(RwEnsemble, PetscInt, char[], size_t);
PETSC_EXTERN PetscErrorCode RwEnsembleGetMemberFileName(RwEnsemble, PetscInt, const char[], char[], size_t);
PETSC_EXTERN PetscErrorCode RwEnsembleSetMemberFiles(RwEnsemble, PetscInt, RwAdjoint);
PETSC_EXTERN PetscErrorCode RwEnsembleSetDM(RwEnsemble, DM, DM);
PETSC_EXTERN PetscErrorCode RwEnsembleSetDMPlanes(RwEnsemble, DM, PetscBool);
PETSC_EXTERN PetscErrorCode RwEnsembleScatterToGroups(RwEnsemble, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwEnsembleGatherMember(RwEnsemble, PetscInt, PetscReal, Vec, PetscReal *, Vec);
PETSC_EXTERN PetscErrorCode RwEnsembleSumBegin(RwEnsemble, Vec);
PETSC_EXTERN PetscErrorCode RwEnsembleSumAdd(RwEnsemble, PetscReal, Vec);
PETSC_EXTERN PetscErrorCode RwEnsembleSumEnd(RwEnsemble, PetscReal *);
PETSC_EXTERN PetscErrorCode RwEnsembleSum(RwEnsemble, const PetscReal[], const Vec[], PetscReal *, Vec);
PETSC_EXTERN PetscErrorCode RwEnsembleGetMemberValues(RwEnsemble, const PetscReal **);
PETSC_EXTERN PetscErrorCode RwEnsembleView(RwEnsemble, PetscViewer);
PETSC_EXTERN PetscErrorCode RwEnsembleDestroy(RwEnsemble *);

#endif
