/*
  RwObjective: J(u_0, ..., u_n, m) as a sum of terms, each with its adjoint
  source dJ/du_k and, where it depends on the parameters, its direct dJ/dm;
  the terminal misfit and the sensors are terms like any a user adds with
  RwObjectiveAddTerm().  Values are accumulated exactly and reduced once, so J is
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

/*S
  RwObjectiveTermOps - what a term of J = sum_k w_k J_k(u_k, m) provides; the
  driver calls each op at the term's active steps k with the step's weight w

  Level: intermediate

  Notes:
  value adds w J_k as terms of this rank into sum slot of acc (RwReproSumAdd():
  each rank adds only its own points' terms, so J is exact and the same on any
  number of ranks); adjoint adds w dJ_k/du_k into lambda at this rank's points
  (gather form); gradient (optional) adds w dJ_k/dm directly: field f's part
  into g[f] (field-grid vectors) at this rank's points, a global scalar's with
  RwObjectiveAddScalarGradient(); setup (optional) checks the term once n is
  known, before each run; checksum covers the term's data, the same on any
  number of ranks (a restart's identity needs it).

.seealso: RwObjectiveAddTerm()
S*/
typedef struct {
  PetscErrorCode (*setup)(RwObjective, void *);
  PetscErrorCode (*value)(RwObjective, PetscInt64, PetscReal, Vec, RwReproSum, PetscInt, void *);
  PetscErrorCode (*adjoint)(RwObjective, PetscInt64, PetscReal, Vec, Vec, void *);
  PetscErrorCode (*gradient)(RwObjective, PetscInt64, PetscReal, Vec, Vec[], void *);
  PetscErrorCode (*checksum)(RwObjective, uint64_t *, void *);
  PetscErrorCode (*view)(RwObjective, PetscViewer, void *);
  PetscErrorCode (*destroy)(void *);
} RwObjectiveTermOps;

#define RW_OBJECTIVE_ALL_STEPS  (-1) /* nsteps of a term active at every step 0..n */
#define RW_OBJECTIVE_FINAL_STEP (-1) /* in a term's steps: the last step n, whatever n is */

PETSC_EXTERN PetscErrorCode RwObjectiveCreate(RwModel, RwObjective *);
PETSC_EXTERN PetscErrorCode RwObjectiveAddTerm(RwObjective, const char[], const RwObjectiveTermOps *, PetscInt, const PetscInt64[], const PetscReal[], void *);
PETSC_EXTERN PetscErrorCode RwObjectiveAddScalarGradient(RwObjective, PetscInt, PetscInt, PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveSetParameters(RwObjective, Vec);
PETSC_EXTERN PetscErrorCode RwObjectiveGetParameters(RwObjective, Vec *);
PETSC_EXTERN PetscErrorCode RwObjectiveSetDirection(RwObjective, Vec);
PETSC_EXTERN PetscErrorCode RwObjectiveAddParameterGradient(RwObjective, Vec);
PETSC_EXTERN PetscErrorCode RwObjectiveGetAccumulators(RwObjective, PetscInt *, Vec *[]);
PETSC_EXTERN PetscErrorCode RwObjectiveGetModel(RwObjective, RwModel *);
PETSC_EXTERN PetscErrorCode RwObjectiveSetOptionsPrefix(RwObjective, const char[]);
PETSC_EXTERN PetscErrorCode RwObjectiveAppendOptionsPrefix(RwObjective, const char[]);
PETSC_EXTERN PetscErrorCode RwObjectiveGetOptionsPrefix(RwObjective, const char *[]);
PETSC_EXTERN PetscErrorCode RwObjectiveAddTerminalMisfit(RwObjective, Vec, PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveAddDefaultMisfit(RwObjective);
PETSC_EXTERN PetscErrorCode RwObjectiveSetFromOptions(RwObjective);
PETSC_EXTERN PetscErrorCode RwObjectiveAddTimeAverage(RwObjective, PetscReal); /* issue 34, doc/chaos.md */
PETSC_EXTERN PetscErrorCode RwObjectiveAddFieldObservations(RwObjective, PetscInt, const PetscInt64[], const Vec[], PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveSetFieldObservationData(RwObjective, PetscInt, const Vec[], PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveAddSensors(RwObjective, PetscInt, const PetscReal[], PetscInt, const PetscInt64[], const PetscReal[], PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveSetSensorData(RwObjective, PetscInt, const PetscReal[], PetscReal);
/* control costs on a block of amplitudes (h-control, issue 33) */
PETSC_EXTERN PetscErrorCode RwObjectiveAddControlEffort(RwObjective, const char[], PetscInt, PetscReal);
PETSC_EXTERN PetscErrorCode RwObjectiveAddControlSmoothness(RwObjective, const char[], PetscInt, PetscReal);
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
/* linear terms <ybar, y> of a run's outputs: vector-Jacobian products (src/objective/terms/linear.c) */
PETSC_EXTERN PetscErrorCode RwObjectiveAddLinearPoints(RwObjective, PetscInt, const PetscReal[], PetscInt, const PetscInt64[], PetscInt *);
PETSC_EXTERN PetscErrorCode RwObjectiveAddLinearState(RwObjective, PetscInt, const PetscInt64[], PetscInt *);
PETSC_EXTERN PetscErrorCode RwObjectiveAddOutputs(RwObjective, RwObjective, PetscInt *);
PETSC_EXTERN PetscErrorCode RwObjectiveGetLinearSize(RwObjective, PetscInt, PetscInt *);
PETSC_EXTERN PetscErrorCode RwObjectiveSetLinearWeights(RwObjective, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwObjectiveGetLinearOutputs(RwObjective, PetscInt, PetscReal[]);
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
