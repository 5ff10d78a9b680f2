/*
  A run from begin to end: RwAdjointSolve() (J and its gradient: the
  schedule's actions one after the other, then the gradient's reductions and
  the counts) and RwAdjointForward() (J alone, one forward sweep).
*/
#include <rewind/private/adjointimpl.h>

/* Every run's start (a solve, a forward or a tangent sweep): the driver set
   up and its vectors its own, the counts zero, m given to the model and the
   objective, and x_0's terms in J; f0: the model's steps so far */
PetscErrorCode RwAdjointBeginRun_Private(RwAdjoint adj, Vec m, Vec u0, PetscInt64 *f0)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointSetUp(adj));
  RwAdjointOwnAll_Private(adj); /* a solve that stopped on an error may have left a handle lent */
  PetscCall(PetscMemzero(&adj->counts, sizeof(adj->counts)));
  PetscCall(RwModelSetParameters(adj->model, m));
  PetscCall(RwModelGetStepCounts(adj->model, f0, NULL, NULL));
  adj->model->firstbad[0] = adj->model->firstbad[1] = -1;
  PetscCall(RwObjectiveSetParameters(adj->obj, m));
  PetscCall(RwObjectiveBegin(adj->obj));
  PetscCall(RwObjectiveEvaluate(adj->obj, 0, u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the stores did in this solve: they count it themselves */
static PetscErrorCode RwAdjointStoreCounts(RwAdjoint adj)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    RwStoreCounts s;

    if (!adj->store[l]) continue;
    PetscCall(RwStoreGetCounts(adj->store[l], &s));
    adj->counts.stores[l]          = s.writes;
    adj->counts.restores[l]        = s.reads;
    adj->counts.bytes_stored[l]    = s.bytes_written;
    adj->counts.bytes_restored[l]  = s.bytes_read;
    adj->counts.seconds_store[l]   = s.seconds_write;
    adj->counts.seconds_restore[l] = s.seconds_read;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The steps and seconds of a run that began with f0 model steps at time t0 */
static PetscErrorCode RwAdjointEndRun(RwAdjoint adj, PetscInt64 f0, PetscLogDouble t0)
{
  PetscInt64     f1;
  PetscLogDouble t1;

  PetscFunctionBegin;
  PetscCall(RwModelGetStepCounts(adj->model, &f1, NULL, NULL));
  adj->counts.forward_steps = f1 - f0;
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_total = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A run that may stop early needs a schedule that does not plan for a known n */
static PetscErrorCode RwAdjointCheckOnline(RwAdjoint adj)
{
  PetscBool      online;
  RwScheduleType type;
  MPI_Comm       comm = PetscObjectComm((PetscObject)adj);

  PetscFunctionBegin;
  PetscCall(RwScheduleIsOnline(adj->sched, &online));
  PetscCall(RwScheduleGetType(adj->sched, &type));
  PetscCheck(online || (!adj->stoptest && !(adj->stopsteady > 0)), comm, PETSC_ERR_ARG_INCOMP, "A stop test (%s) ends the run at a step found while it runs, but schedule %s plans for the known n = %" PetscInt64_FMT ": use -rw_schedule_type online (-rw_steps is then an upper bound)", adj->stoptest ? "RwAdjointSetStopTest()" : "-rw_adjoint_stop_steady", type, adj->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A solve's run set up after RwAdjointBeginRun_Private(): the schedule's
   prediction to the monitors, the solve's identity to the stores (made at
   the first solve), and, with -rw_restart in the first solve, the run moved
   to where a killed one can be resumed from */
static PetscErrorCode RwAdjointSolveBegin(RwAdjoint adj, RwRun *run, Vec m, Vec u0)
{
  RwScheduleCounts pred;
  PetscBool        resumed = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(RwAdjointCheckOnline(adj));
  run->n         = adj->n;
  run->scheduled = PETSC_TRUE;
  PetscCall(RwAdjointChooseByTime_Private(adj, u0)); /* first solve of a default store-all: keep it if not slower */
  PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  PetscCall(RwAdjointSolveIdentity_Private(adj, m, u0));
  PetscCall(RwAdjointCreateStores_Private(adj));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    if (!adj->store[l]) continue;
    PetscCall(RwStoreResetCounts(adj->store[l]));
    PetscCall(RwStoreSetSolve(adj->store[l], adj->solve)); /* a new solve: another's checkpoints are not valid for it */
  }
  /* the progress clock starts with the steps, after the stores' set-up (its own
     log event, RwStoreSetUp): the time a step takes is what the estimate scales */
  PetscCall(RwAdjointMonitorBegin_Private(adj, pred.forward_steps + adj->n));
  PetscCall(RwAdjointKeepBegin_Private(adj));
  adj->counts.resumed_from = adj->counts.resumed_reverse_at = -1;
  PetscCall(VecCopy(u0, adj->W)); /* the run starts at x_0 */
  PetscCall(RwScheduleReset(adj->sched));
  if (adj->restart && !adj->solves) {
    PetscCall(RwAdjointKeepResume_Private(adj, run, &resumed));
    if (!resumed) PetscCall(RwAdjointResume_Private(adj, run));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the schedule's END: every step reversed once, the gradient reduced,
   J summed, the stores told the solve is complete, their counts taken */
static PetscErrorCode RwAdjointSolveEnd(RwAdjoint adj, RwRun *run, PetscReal *J, Vec dJdm, Vec dJdu0)
{
  PetscFunctionBegin;
  RwAdjointOwnAll_Private(adj);
  PetscCheck(adj->counts.reverse_steps == run->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The schedule ended after reversing %" PetscInt64_FMT " of %" PetscInt64_FMT " steps", adj->counts.reverse_steps, run->n);
  adj->counts.steps = run->n;
  PetscCall(RwModelCheckFinite(adj->model));
  PetscCall(RwModelAdjointEnd(adj->model, dJdm));
  PetscCall(RwObjectiveAddParameterGradient(adj->obj, dJdm));
  if (dJdu0) PetscCall(VecCopy(adj->lam[0], dJdu0));
  PetscCall(RwObjectiveEnd(adj->obj, J, NULL));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (adj->store[l]) PetscCall(RwStoreSetComplete(adj->store[l]));
  PetscCall(RwAdjointKeepEnd_Private(adj));
  PetscCall(RwAdjointStoreCounts(adj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSolve - J and its gradient with respect to the parameters and the initial state

  Collective

  Input Parameters:
+ adj - the driver
. m   - the parameters
- u0  - the initial state

  Output Parameters:
+ J     - the objective (may be NULL)
. dJdm  - the gradient with respect to m, a parameter vector
- dJdu0 - the gradient with respect to u0 (may be NULL)

  Level: beginner

  Notes:
  The gradient is the same, bit for bit, whatever the schedule and, for
  explicit schemes, whatever the number of ranks.  The schedule is replayed
  from its start each time, so the driver can be called in an optimisation loop.

.seealso: RwTangentSolve(), RwAdjointForward(), RwAdjointView()
@*/
PetscErrorCode RwAdjointSolve(RwAdjoint adj, Vec m, Vec u0, PetscReal *J, Vec dJdm, Vec dJdu0)
{
  RwRun          run = {.u0 = u0}; /* the rest zero: nothing reached, no look-ahead */
  RwAction       act;
  PetscInt64     f0;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscValidHeaderSpecific(m, VEC_CLASSID, 2);
  PetscValidHeaderSpecific(u0, VEC_CLASSID, 3);
  PetscValidHeaderSpecific(dJdm, VEC_CLASSID, 5);
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointBeginRun_Private(adj, m, u0, &f0));
  PetscCall(RwAdjointSolveBegin(adj, &run, m, u0));
  do PetscCall(RwAdjointExecuteNext_Private(adj, &run, &act));
  while (act.type != RW_ACTION_END);
  PetscCall(RwAdjointSolveEnd(adj, &run, J, dJdm, dJdu0));
  PetscCall(RwAdjointEndRun(adj, f0, t0));
  PetscCall(RwAdjointRentOrBuy_Private(adj));
  if (!adj->solves++ && adj->usemeasured) PetscCall(RwAdjointReplan_Private(adj));
  PetscCall(PetscObjectViewFromOptions((PetscObject)adj, NULL, "-rw_adjoint_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointForward - J alone: one forward sweep, nothing stored

  Collective

  Input Parameters:
+ adj - the driver
. m   - the parameters
- u0  - the initial state

  Output Parameters:
+ J  - the objective (may be NULL)
- un - the final state u_n (may be NULL)

  Level: beginner

.seealso: RwAdjointSolve()
@*/
PetscErrorCode RwAdjointForward(RwAdjoint adj, Vec m, Vec u0, PetscReal *J, Vec un)
{
  RwRun          run = {.u0 = u0}; /* the rest zero: nothing reached, no look-ahead */
  PetscInt64     f0;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointBeginRun_Private(adj, m, u0, &f0));
  PetscCall(RwAdjointMonitorBegin_Private(adj, adj->n));
  PetscCall(VecCopy(u0, adj->W));
  run.n = adj->n;
  PetscCall(RwAdjointAdvance_Private(adj, &run, 0, adj->n));
  adj->counts.steps = run.n;
  PetscCall(RwModelCheckFinite(adj->model));
  if (un) PetscCall(VecCopy(adj->W, un));
  PetscCall(RwObjectiveEnd(adj->obj, J, NULL));
  PetscCall(RwAdjointEndRun(adj, f0, t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
