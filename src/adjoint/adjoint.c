/*
  RwAdjoint: the driver.  It runs the actions of a schedule over a model and
  its stores to give J and its gradient; the class is split by concern, as
  SLEPc splits EPS:

    adjoint.c   the object: create, the schedule and stores it holds, destroy
    setup.c     options, prefixes, the number of steps, set-up, the stores
    identity.c  the problem and the solve a kept checkpoint belongs to
    executor.c  the schedule's actions: ADVANCE, STORE, RESTORE, FREE, REVERSE
    solve.c     RwAdjointSolve() and RwAdjointForward(), from begin to end
    resume.c    -rw_restart: a killed run's first forward sweep resumed
    keep.c      the reverse-sweep keep, from which a killed reverse sweep resumes
    tangent.c   tangent sweeps: RwTangentSolve(), RwTangentPropagate()
    view.c      counts, measured costs, RwAdjointView()
    budget.c, stop.c, monitor.c: the default budget, stop tests, monitors
*/
#include <rewind/private/adjointimpl.h>

PetscClassId RW_ADJOINT_CLASSID;

/*@
  RwAdjointCreate - a driver for a model and an objective

  Collective

  Input Parameters:
+ model - the model (set up, or set up here)
- obj   - the objective

  Output Parameter:
. adj - the driver

  Level: beginner

.seealso: RwAdjointSetFromOptions(), RwAdjointSolve(), RwTangentSolve()
@*/
PetscErrorCode RwAdjointCreate(RwModel model, RwObjective obj, RwAdjoint *adj)
{
  RwAdjoint a;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidPointer(adj, 3);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(a, RW_ADJOINT_CLASSID, "RwAdjoint", "Adjoint driver", "RwAdjoint", PetscObjectComm((PetscObject)model), RwAdjointDestroy, RwAdjointView));
  PetscCall(PetscObjectReference((PetscObject)model));
  PetscCall(PetscObjectReference((PetscObject)obj));
  a->model         = model;
  a->obj           = obj;
  a->checkinterval = 50;
  a->ramfraction   = 0.5;
  a->errest.rtol   = 1e-6; /* -rw_adjoint_gradient_rtol */
  a->poolreplan    = PETSC_TRUE;
  a->poolcontinue  = PETSC_TRUE;
  a->shareplanes   = PETSC_TRUE;
  a->killat        = -1;
  a->killreverse   = -1;
  a->killaction    = -1;
  a->killkeep      = -1;
  PetscCall(PetscStrncpy(a->storetype[RW_LEVEL_RAM], RWSTOREMEMORY, sizeof(a->storetype[0])));
  PetscCall(PetscStrncpy(a->storetype[RW_LEVEL_DISK], RWSTOREHDF5, sizeof(a->storetype[0])));
  a->diskcompress = -1;
  *adj = a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSetSchedule - the checkpointing schedule; by default the driver
  creates one from the options (-rw_schedule_type, storeall if not given)

  Logically collective

  Level: intermediate

.seealso: RwAdjointGetSchedule()
@*/
PetscErrorCode RwAdjointSetSchedule(RwAdjoint adj, RwSchedule sched)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(!adj->setupcalled, PetscObjectComm((PetscObject)adj), PETSC_ERR_ORDER, "Set the schedule before RwAdjointSetUp()");
  PetscCall(PetscObjectReference((PetscObject)sched));
  PetscCall(RwScheduleDestroy(&adj->sched));
  adj->sched = sched;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetSchedule - the schedule (created if there is none yet)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwAdjointGetSchedule(RwAdjoint adj, RwSchedule *sched)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  if (!adj->sched) {
    const char *prefix;
    PetscCall(RwScheduleCreate(PETSC_COMM_SELF, &adj->sched));
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)adj->sched, prefix));
  }
  *sched = adj->sched;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetStore - the store of a level (after set-up; NULL if the schedule does not use it)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwAdjointGetStore(RwAdjoint adj, PetscInt level, RwStore *store)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(level >= 0 && level < RW_NUM_LEVELS, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "Level %" PetscInt_FMT " must be 0 (RAM) or 1 (disk)", level);
  *store = adj->store[level];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointDestroy - frees the driver; safe on NULL

  Collective

  Level: beginner
@*/
PetscErrorCode RwAdjointDestroy(RwAdjoint *adj)
{
  PetscFunctionBegin;
  if (!adj || !*adj) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*adj, RW_ADJOINT_CLASSID, 1);
  if (--((PetscObject)(*adj))->refct > 0) {
    *adj = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwAdjointSolveCancel_Private(*adj, PETSC_TRUE));
  RwAdjointOwnAll_Private(*adj); /* the slots' vectors are the stores' to destroy */
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) PetscCall(RwStoreDestroy(&(*adj)->store[l]));
  for (PetscInt l = 0; l < 2; l++) PetscCall(RwStoreDestroy(&(*adj)->keep[l]));
  PetscCall(RwAdjointMonitorCancel(*adj));
  PetscCall(PetscFree((*adj)->keepattach));
  PetscCall(PetscFree((*adj)->problem));
  PetscCall(RwScheduleDestroy(&(*adj)->sched));
  PetscCall(RwScheduleDestroy(&(*adj)->poolcont));
  PetscCall(VecDestroy(&(*adj)->W));
  PetscCall(VecDestroy(&(*adj)->N));
  PetscCall(VecDestroy(&(*adj)->T));
  for (PetscInt i = 0; i < RW_MODEL_MAX_STEP_BLOCK - 1; i++) PetscCall(VecDestroy(&(*adj)->X[i]));
  PetscCall(VecDestroy(&(*adj)->lam[0]));
  PetscCall(VecDestroy(&(*adj)->lam[1]));
  PetscCall(VecDestroy(&(*adj)->dW));
  PetscCall(VecDestroy(&(*adj)->dT));
  PetscCall(PetscFree((*adj)->attach));
  PetscCall(PetscFree((*adj)->scalars));
  PetscCall(RwReproSumDestroy(&(*adj)->horizonacc));
  PetscCall(RwAdjointErrestDestroy_Private(*adj));
  PetscCall(PetscFree((*adj)->poolmiss));
  PetscCall(PetscFree((*adj)->diskmiss));
  PetscCall(RwObjectiveDestroy(&(*adj)->obj));
  PetscCall(RwModelDestroy(&(*adj)->model));
  PetscCall(PetscHeaderDestroy(adj));
  PetscFunctionReturn(PETSC_SUCCESS);
}
