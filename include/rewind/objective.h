/*
  RwObjective: J(u_0, ..., u_n) as a sum of terms, each with its adjoint
  source dJ/du_k.  Values are accumulated exactly and reduced once, so J is
  bitwise the same on any number of ranks.
*/
#ifndef REWIND_OBJECTIVE_H
#define REWIND_OBJECTIVE_H

#include <rewind/model.h>

/*S
  RwObjective - a sum of misfit terms over the states of one run

  Level: beginner

.seealso: RwObjectiveCreate(), RwObjectiveAddTerminalMisfit(), RwObjectiveAddSensors()
S*/
typedef struct _p_RwObjective *RwObjective;

PETSC_EXTERN PetscErrorCode RwObjectiveCreate(RwModel, RwObjective *);
PETSC_EXTERN PetscErrorCode RwObjectiveAddTerminalMisfit(RwObjective, Vec, PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveAddDefaultMisfit(RwObjective);
PETSC_EXTERN PetscErrorCode RwObjectiveAddSensors(RwObjective, PetscInt, const PetscReal[], PetscInt, const PetscInt64[], const PetscReal[], PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveSetSensorData(RwObjective, PetscInt, const PetscReal[], PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveGetNumTerms(RwObjective, PetscInt *);
PETSC_EXTERN PetscErrorCode RwObjectiveBegin(RwObjective);
PETSC_EXTERN PetscErrorCode RwObjectiveEvaluate(RwObjective, PetscInt64, Vec);
PETSC_EXTERN PetscErrorCode RwObjectiveAdjointSource(RwObjective, PetscInt64, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwObjectiveTangent(RwObjective, PetscInt64, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwObjectiveEnd(RwObjective, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwObjectiveGetTermValues(RwObjective, PetscInt, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwObjectiveGetStateSize(RwObjective, PetscInt *);
PETSC_EXTERN PetscErrorCode RwObjectiveExportState(RwObjective, PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwObjectiveImportState(RwObjective, const PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwObjectiveGetChecksum(RwObjective, uint64_t *);
PETSC_EXTERN PetscErrorCode RwObjectiveInterpolate(RwObjective, PetscInt, Vec, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwObjectiveView(RwObjective, PetscViewer);
PETSC_EXTERN PetscErrorCode RwObjectiveDestroy(RwObjective *);

/*E
  RwRegType - regularisers of a parameter field: none, l2 (distance to a
  reference), h1 (squared gradient), tv (smoothed total variation)

  Level: intermediate

.seealso: RwRegularize()
E*/
typedef enum {
  RW_REG_NONE,
  RW_REG_L2,
  RW_REG_H1,
  RW_REG_TV
} RwRegType;
PETSC_EXTERN const char *const RwRegTypes[];
PETSC_EXTERN PetscErrorCode    RwRegularize(RwModel, RwRegType, PetscReal, PetscReal, Vec, Vec, PetscReal *, Vec);

#endif
