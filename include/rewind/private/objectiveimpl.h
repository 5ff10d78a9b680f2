/* Private RwObjective structure and the interface of its terms. */
#ifndef REWIND_PRIVATE_OBJECTIVEIMPL_H
#define REWIND_PRIVATE_OBJECTIVEIMPL_H

#include <rewind/private/modelimpl.h>
#include <rewind/objective.h>
#include <petscdmda.h>

PETSC_EXTERN PetscClassId RW_OBJECTIVE_CLASSID;

#define RW_OBJECTIVE_MAX_TERMS 16

/* One term: its ops (public), where it is active and with which weights */
typedef struct _RwTerm RwTerm;
struct _RwTerm {
  char               name[64];
  RwObjectiveTermOps ops;
  void              *ctx;
  PetscInt           nsteps;   /* RW_OBJECTIVE_ALL_STEPS, or the number of active steps */
  PetscInt64        *given;    /* the steps as given (RW_OBJECTIVE_FINAL_STEP allowed last) */
  PetscInt64        *steps;    /* resolved for this run's n at RwObjectiveBegin(): increasing */
  PetscReal         *weights;  /* per active step; NULL: 1 */
};

struct _RwObjectiveOps {
  PetscErrorCode (*view)(RwObjective, PetscViewer);
};

struct _p_RwObjective {
  PETSCHEADER(struct _RwObjectiveOps);
  RwModel    model;
  RwTerm     terms[RW_OBJECTIVE_MAX_TERMS];
  PetscInt   nterms;
  RwReproSum acc;    /* one sum per term, then one for the tangent */
  PetscReal  values[RW_OBJECTIVE_MAX_TERMS];
  Vec        work;   /* adjoint sources for the tangent */
  Vec        m, dm;  /* the run's parameters and tangent direction (not owned) */
  PetscBool  hasgradient; /* a term depends on m directly: gf and gt exist */
  Vec       *gf;     /* per field: dJ/dm accumulated by the terms in a reverse sweep */
  Vec       *gt;     /* per field: a step's dJ/dm, for the tangent */
  PetscBool  intangent;   /* RwObjectiveAddScalarGradient() feeds the tangent, not the gradient */
};

PETSC_INTERN PetscErrorCode RwTermAddTerminal(RwObjective, Vec, PetscReal);
PETSC_INTERN PetscErrorCode RwObjectiveSetLastStep_Private(RwObjective, PetscInt64);
PETSC_INTERN PetscErrorCode RwTermAddSensors(RwObjective, PetscInt, const PetscReal[], PetscInt, const PetscInt64[], const PetscReal[], PetscReal);
PETSC_INTERN PetscErrorCode RwTermSensorsSetData(RwTerm *, const PetscReal[], PetscReal);
PETSC_INTERN PetscErrorCode RwTermSensorsSetPoints(RwObjective, RwTerm *, PetscInt, const PetscReal[], const PetscReal[], PetscReal);
PETSC_INTERN PetscErrorCode RwTermSensorsInterpolate(RwObjective, RwTerm *, Vec, PetscReal[]);
PETSC_INTERN PetscErrorCode RwTermSensorsGetPoints(RwTerm *, PetscBool *, PetscInt *, const PetscReal **, PetscInt *, const PetscInt64 **);

/* Where a term finds the observed component of this rank's owned points in
   a state array: point i at a[offset + i stride] (RwModelGetStateLayout()),
   and how many points there are */
static inline PetscErrorCode RwTermObservedLayout(RwObjective obj, PetscInt *stride, PetscInt *offset, PetscInt *npoints)
{
  PetscInt comp, n[3];

  PetscFunctionBegin;
  PetscCall(RwModelGetStateInfo(obj->model, NULL, NULL, &comp));
  PetscCall(DMDAGetCorners(obj->model->da, NULL, NULL, NULL, &n[0], &n[1], &n[2]));
  *npoints = n[0] * n[1] * n[2];
  PetscCall(RwModelGetStateLayout(obj->model, comp, *npoints, stride, offset));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif
