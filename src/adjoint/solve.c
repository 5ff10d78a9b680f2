/*
  A run from begin to end: RwAdjointSolve() (J and its gradient: the
  schedule's actions one after the other, then the gradient's reductions and
  the counts) and RwAdjointForward() (J alone, one forward sweep).

  A solve runs in two parts, RwAdjointSolveForward() (the actions up to the
  first REVERSE, and the step to x_n: every state's objective terms are
  evaluated, the checkpoints kept) and RwAdjointSolveReverse() (the rest), so
  that a caller can read what the forward sweep computed (a linear term's
  outputs y) and set what only the reverse sweep reads (their cotangent)
  between the two: one forward sweep for y and ybar^T dy (python/).
*/
#include <rewind/private/adjointimpl.h>

/* A solve between its two parts: the run where RwAdjointSolveForward() left it */
struct _RwAdjointPending {
  PetscBool        active;
  RwRun            run;
  PetscInt64       f0;       /* the model's forward steps when the solve began */
  PetscLogDouble   t0;
  Vec              m, u0;    /* the solve's, referenced: the reverse sweep restores x_0 from u0 */
  PetscObjectState sm, su0;  /* their states at the end of the forward part */
  PetscInt64       steps[3]; /* the model's step counts then: any other run of the model moves them */
};

/* Drops the run a forward part left (its references), and with free its memory */
PetscErrorCode RwAdjointSolveCancel_Private(RwAdjoint adj, PetscBool free)
{
  PetscFunctionBegin;
  if (adj->pending) {
    adj->pending->active = PETSC_FALSE;
    PetscCall(VecDestroy(&adj->pending->m));
    PetscCall(VecDestroy(&adj->pending->u0));
  }
  if (free) PetscCall(PetscFree(adj->pending));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every run's start (a solve, a forward or a tangent sweep): the driver set
   up and its vectors its own, the counts zero, m given to the model and the
   objective, and x_0's terms in J; f0: the model's steps so far */
PetscErrorCode RwAdjointBeginRun_Private(RwAdjoint adj, Vec m, Vec u0, PetscInt64 *f0)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointSetUp(adj));
  PetscCall(RwAdjointSolveCancel_Private(adj, PETSC_FALSE)); /* this run overwrites a forward part's states */
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
  PetscCall(RwAdjointSolveIdentity_Private(adj, m, u0));
  PetscCall(RwAdjointCodecAutoBegin_Private(adj)); /* -rw_store_compress auto chose another codec: its store made again */
  PetscCall(RwAdjointCreateStores_Private(adj, u0)); /* a RAM budget at the compressed size is planned here */
  PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  PetscCall(RwAdjointPoolBegin_Private(adj));
  PetscCall(RwAdjointDiskPoolBegin_Private(adj, u0));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    if (!adj->store[l]) continue;
    PetscCall(RwStoreResetCounts(adj->store[l]));
    PetscCall(RwStoreSetSolve(adj->store[l], adj->solve)); /* a new solve: another's checkpoints are not valid for it */
  }
  PetscCall(RwAdjointErrestBegin_Private(adj));
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
  PetscCall(RwAdjointErrestEnd_Private(adj));
  PetscCall(RwAdjointPoolEnd_Private(adj));
  PetscCall(RwAdjointDiskPoolEnd_Private(adj));
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
  It is RwAdjointSolveForward() followed by RwAdjointSolveReverse().

.seealso: RwTangentSolve(), RwAdjointForward(), RwAdjointView(), RwAdjointSolveForward()
@*/
PetscErrorCode RwAdjointSolve(RwAdjoint adj, Vec m, Vec u0, PetscReal *J, Vec dJdm, Vec dJdu0)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscValidHeaderSpecific(dJdm, VEC_CLASSID, 5);
  PetscCall(RwAdjointSolveForward(adj, m, u0));
  PetscCall(RwAdjointSolveReverse(adj, J, dJdm, dJdu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSolveForward - the first part of RwAdjointSolve(): the forward
  sweep to x_n through the schedule, its checkpoints kept, every state's
  objective terms evaluated (a linear term's outputs are then known:
  RwObjectiveGetLinearOutputs())

  Collective

  Input Parameters:
+ adj - the driver
. m   - the parameters
- u0  - the initial state

  Level: advanced

  Notes:
  RwAdjointSolveReverse() continues the run.  In between, m and u0 must not
  change and the model must run no other steps (the reverse part checks
  both); what only the reverse sweep reads may change (a linear term's
  weights, RwObjectiveSetLinearWeights()).  Any other run of the driver drops
  the forward part.

.seealso: RwAdjointSolveReverse(), RwAdjointSolveIsPending(), RwAdjointSolve()
@*/
PetscErrorCode RwAdjointSolveForward(RwAdjoint adj, Vec m, Vec u0)
{
  struct _RwAdjointPending *p;
  PetscInt64                f0;
  PetscLogDouble            t0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscValidHeaderSpecific(m, VEC_CLASSID, 2);
  PetscValidHeaderSpecific(u0, VEC_CLASSID, 3);
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointBeginRun_Private(adj, m, u0, &f0));
  if (!adj->pending) PetscCall(PetscNew(&adj->pending));
  p      = adj->pending;
  p->run = (RwRun){.u0 = u0}; /* the rest zero: nothing reached, no look-ahead */
  PetscCall(RwAdjointSolveBegin(adj, &p->run, m, u0));
  for (;;) { /* up to the first REVERSE, which a resumed reverse sweep may have passed */
    RwAction act;

    PetscCall(RwAdjointPeekNext_Private(adj, &p->run));
    if (p->run.next.type == RW_ACTION_REVERSE || p->run.next.type == RW_ACTION_END) break;
    PetscCall(RwAdjointExecuteNext_Private(adj, &p->run, &act));
  }
  if (p->run.next.type == RW_ACTION_REVERSE && !p->run.reversing) PetscCall(RwAdjointReachEnd_Private(adj, &p->run, p->run.next.a));
  p->f0 = f0;
  p->t0 = t0;
  PetscCall(PetscObjectReference((PetscObject)m));
  PetscCall(PetscObjectReference((PetscObject)u0));
  p->m  = m;
  p->u0 = u0;
  PetscCall(PetscObjectStateGet((PetscObject)m, &p->sm));
  PetscCall(PetscObjectStateGet((PetscObject)u0, &p->su0));
  PetscCall(RwModelGetStepCounts(adj->model, &p->steps[0], &p->steps[1], &p->steps[2]));
  p->active = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSolveIsPending - whether a forward part (RwAdjointSolveForward())
  waits for its reverse part and can still be continued: its m and u0 have
  not changed (their PETSc object state) and the model has run no step since

  Collective

  Output Parameter:
. pending - the same on every rank

  Level: advanced

.seealso: RwAdjointSolveForward(), RwAdjointSolveReverse()
@*/
PetscErrorCode RwAdjointSolveIsPending(RwAdjoint adj, PetscBool *pending)
{
  struct _RwAdjointPending *p  = adj->pending;
  PetscBool                 ok = (PetscBool)(p && p->active);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  if (ok) {
    PetscObjectState sm, su0;
    PetscInt64       steps[3];

    PetscCall(PetscObjectStateGet((PetscObject)p->m, &sm));
    PetscCall(PetscObjectStateGet((PetscObject)p->u0, &su0));
    PetscCall(RwModelGetStepCounts(adj->model, &steps[0], &steps[1], &steps[2]));
    ok = (PetscBool)(sm == p->sm && su0 == p->su0 && steps[0] == p->steps[0] && steps[1] == p->steps[1] && steps[2] == p->steps[2]);
  }
  PetscCall(MPIU_Allreduce(&ok, pending, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)adj)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSolveReverse - the second part of RwAdjointSolve(): the reverse
  sweep of the run RwAdjointSolveForward() left, from its checkpoints

  Collective

  Output Parameters:
+ J     - the objective, as the forward sweep evaluated it (may be NULL)
. dJdm  - the gradient with respect to m, a parameter vector
- dJdu0 - the gradient with respect to u0 (may be NULL)

  Level: advanced

  Notes:
  The gradient is RwAdjointSolve()'s bit for bit, with the objective's data
  as the reverse sweep finds them.  Each forward part serves one reverse part.

.seealso: RwAdjointSolveForward(), RwAdjointSolve()
@*/
PetscErrorCode RwAdjointSolveReverse(RwAdjoint adj, PetscReal *J, Vec dJdm, Vec dJdu0)
{
  struct _RwAdjointPending *p;
  PetscBool                 ok;
  RwAction                  act;
  MPI_Comm                  comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscValidHeaderSpecific(dJdm, VEC_CLASSID, 3);
  comm = PetscObjectComm((PetscObject)adj);
  p    = adj->pending;
  PetscCheck(p && p->active, comm, PETSC_ERR_ORDER, "Call RwAdjointSolveForward() first: each reverse part continues the forward part before it");
  PetscCall(RwAdjointSolveIsPending(adj, &ok));
  if (!ok) PetscCall(RwAdjointSolveCancel_Private(adj, PETSC_FALSE));
  PetscCheck(ok, comm, PETSC_ERR_ARG_WRONGSTATE, "The parameters or the initial state given to RwAdjointSolveForward() changed since, or the model ran other steps: the checkpoints are not this run's; call RwAdjointSolveForward() again");
  p->active = PETSC_FALSE; /* a reverse sweep stopped by an error cannot be continued */
  do PetscCall(RwAdjointExecuteNext_Private(adj, &p->run, &act));
  while (act.type != RW_ACTION_END);
  PetscCall(RwAdjointSolveEnd(adj, &p->run, J, dJdm, dJdu0));
  PetscCall(RwAdjointEndRun(adj, p->f0, p->t0));
  PetscCall(RwAdjointSolveCancel_Private(adj, PETSC_FALSE));
  PetscCall(RwAdjointRentOrBuy_Private(adj));
  PetscCall(RwAdjointCodecAutoEnd_Private(adj)); /* -rw_store_compress auto: chosen again from the costs measured */
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
