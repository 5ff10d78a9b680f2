/* Private RwAdjoint structure. */
#ifndef REWIND_PRIVATE_ADJOINTIMPL_H
#define REWIND_PRIVATE_ADJOINTIMPL_H

#include <rewind/private/objectiveimpl.h>
#include <rewind/adjoint.h>

PETSC_EXTERN PetscClassId RW_ADJOINT_CLASSID;

struct _RwAdjointOps {
  PetscErrorCode (*view)(RwAdjoint, PetscViewer);
};

struct _p_RwAdjoint {
  PETSCHEADER(struct _RwAdjointOps);
  RwModel         model;
  RwObjective     obj;
  RwSchedule      sched;
  RwStore         store[RW_NUM_LEVELS];
  char            storetype[RW_NUM_LEVELS][64]; /* -rw_store_type, -rw_store_disk_type */
  PetscInt64      n;
  PetscInt64      checkinterval; /* steps between collective NaN/Inf checks */
  PetscBool       setupcalled;
  PetscBool       restart;       /* -rw_restart: resume the first forward sweep from kept checkpoints */
  PetscBool       usemeasured;   /* -rw_adjoint_measured_costs: re-plan with the costs measured */
  PetscInt64      killat;        /* -rw_debug_kill_at_step: SIGKILL itself there (tests of restart) */
  PetscInt64      solves;
  PetscInt        nattach;       /* kept with each checkpoint: [valid flag, the objective's exact state] */
  PetscInt64     *attach;
  Vec             W, N, T;       /* working state x_w, next state x_k+1, scratch */
  Vec             lam[2];        /* lambda_k+1 and lambda_k */
  Vec             dW, dT;        /* tangent states */
  RwAdjointCounts counts;
};

#endif
