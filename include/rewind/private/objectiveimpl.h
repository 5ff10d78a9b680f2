/* Private RwObjective structure and the interface of its terms. */
#ifndef REWIND_PRIVATE_OBJECTIVEIMPL_H
#define REWIND_PRIVATE_OBJECTIVEIMPL_H

#include <rewind/private/modelimpl.h>
#include <rewind/objective.h>

PETSC_EXTERN PetscClassId RW_OBJECTIVE_CLASSID;

#define RW_OBJECTIVE_MAX_TERMS 16

/* One term: its value and adjoint source at the steps where it is active */
typedef struct _RwTerm RwTerm;
struct _RwTerm {
  char name[64];
  PetscBool (*active)(RwObjective, RwTerm *, PetscInt64);
  /* adds this rank's share of the term at step k, term by term, into acc[i] */
  PetscErrorCode (*value)(RwObjective, RwTerm *, PetscInt64, Vec, RwReproSum, PetscInt);
  /* lambda += dJ/du_k, in gather form (each owned point sums its own contributions) */
  PetscErrorCode (*adjoint)(RwObjective, RwTerm *, PetscInt64, Vec, Vec);
  PetscErrorCode (*check)(RwObjective, RwTerm *); /* optional: before a run, once n is known */
  PetscErrorCode (*checksum)(RwObjective, RwTerm *, uint64_t *); /* of its data, decomposition-independent; collective */
  PetscErrorCode (*view)(RwTerm *, PetscViewer);
  PetscErrorCode (*destroy)(RwTerm *);
  void *ctx;
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
  Vec        uloc;   /* a ghosted state, for terms that interpolate */
};

PETSC_INTERN PetscErrorCode RwObjectiveAddTerm_Private(RwObjective, RwTerm **);
PETSC_INTERN PetscErrorCode RwTermCreate_Terminal(RwObjective, RwTerm *, Vec, PetscReal);
PETSC_INTERN PetscErrorCode RwTermCreate_Sensors(RwObjective, RwTerm *, PetscInt, const PetscReal[], PetscInt, const PetscInt64[], const PetscReal[], PetscReal);
PETSC_INTERN PetscErrorCode RwTermSensorsSetData(RwTerm *, const PetscReal[], PetscReal);
PETSC_INTERN PetscErrorCode RwTermSensorsInterpolate(RwObjective, RwTerm *, Vec, PetscReal[]);

#endif
