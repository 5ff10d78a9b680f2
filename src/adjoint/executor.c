/*
  The executor: the driver carries out the actions of a schedule:

    ADVANCE a b     step the working state W from x_a to x_b; the first time a
                    state is reached its objective terms are evaluated
    STORE l s k     keep W = x_k in slot s of level l's store: the memory store
                    takes W's vector itself and gives a free one for it, which
                    replaces W's handle before the driver next writes into it
                    (RwAdjointOwn()); other stores copy
    RESTORE l s k   W := x_k from the store, or from the input u0 when k = 0
                    (by exchanging W's vector for one of the store's where it can)
    FREE l s        release the slot
    REVERSE k       W = x_k, N = x_k+1: lambda_k = A_k^T lambda_k+1 + dJ/du_k,
                    dJ/dm += (du_k+1/dm)^T lambda_k+1; then N := x_k (a swap of
                    handles, no copy), so the next REVERSE finds its x_k+1.
                    The first REVERSE (k = n-1) takes the one step to x_n into N.

  Nothing is allocated during a solve; the stores, made at the first solve,
  hold exactly the slots the schedule predicts it will use.
*/
#include <rewind/private/adjointimpl.h>

/* The handle *x (W, N or T) may be on a vector a memory slot holds since a
   STORE took it (adj->lent): before the driver writes into *x or hands it to a
   store, the free vector the store gave for it takes its place; its values are
   undefined, as a scratch vector's */
static void RwAdjointOwn(RwAdjoint adj, Vec *x)
{
  if (!adj->lent || *x != adj->lent) return;
  *x         = adj->spare;
  adj->lent  = NULL;
  adj->spare = NULL;
}

/* Every handle on the driver's own vectors again: between solves, before destroying them */
void RwAdjointOwnAll_Private(RwAdjoint adj)
{
  RwAdjointOwn(adj, &adj->W);
  RwAdjointOwn(adj, &adj->N);
  RwAdjointOwn(adj, &adj->T);
  for (PetscInt i = 0; i < adj->block - 1; i++) RwAdjointOwn(adj, &adj->X[i]);
}

/* The collective NaN/Inf check of the states, every -rw_check_finite_interval steps */
PetscErrorCode RwAdjointCheckFiniteEvery_Private(RwAdjoint adj, PetscInt64 k)
{
  PetscFunctionBegin;
  if (k % adj->checkinterval == 0) PetscCall(RwModelCheckFinite(adj->model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first sweep reached x_k (W; T = x_(k-1)): a stop test may end the run there */
static PetscErrorCode RwAdjointMaybeStop(RwAdjoint adj, RwRun *run, PetscInt64 k)
{
  PetscBool stop;

  PetscFunctionBegin;
  if (k >= run->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAdjointStopCheck_Private(adj, k, &stop));
  if (!stop) PetscFunctionReturn(PETSC_SUCCESS);
  run->n = k;
  PetscCall(RwObjectiveSetLastStep_Private(adj->obj, k));
  if (run->scheduled) PetscCall(RwScheduleStopAt(adj->sched, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Steps k .. k+T-1 from W = x_k in one pass (RwModelStepBlock()): x_k+1
   into T, x_k+1+i into X[i-1].  A slot may hold T or an X (states before
   x_k, read no more): they are owned back first */
static PetscErrorCode RwAdjointStepFrom(RwAdjoint adj, PetscInt64 k, PetscInt T)
{
  Vec out[RW_MODEL_MAX_STEP_BLOCK];

  PetscFunctionBegin;
  RwAdjointOwn(adj, &adj->T);
  if (T == 1) {
    PetscCall(RwModelStep(adj->model, k, adj->W, adj->T));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  out[0] = adj->T;
  for (PetscInt i = 1; i < T; i++) {
    RwAdjointOwn(adj, &adj->X[i - 1]);
    out[i] = adj->X[i - 1];
  }
  PetscCall(RwModelStepBlock(adj->model, k, T, adj->W, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The most steps a forward pass takes: what the model fuses, but one under
   a stop test, which may end the run inside a block */
static PetscInt RwAdjointBlock(RwAdjoint adj)
{
  return adj->stoptest || adj->stopsteady > 0 ? 1 : adj->block;
}

/* The state of step t of a pass into W, the one before it into T: the
   first, x_k+1 from T; step t > 0 from X[t-1], which takes the older
   state T held (read no more) */
static void RwAdjointTakeState(RwAdjoint adj, PetscInt t)
{
  Vec old = adj->T;

  if (t == 0) {
    RwVecSwap(adj->W, adj->T);
    return;
  }
  adj->T        = adj->W;
  adj->W        = adj->X[t - 1];
  adj->X[t - 1] = old;
}

/* W holds x_k+1: the stop test, the objective and the monitors in a first
   sweep (a recomputation's monitors otherwise), the NaN check */
static PetscErrorCode RwAdjointStepDone(RwAdjoint adj, RwRun *run, PetscInt64 k)
{
  PetscFunctionBegin;
  if (k + 1 > run->reached) {
    PetscCall(RwAdjointMaybeStop(adj, run, k + 1));
    PetscCall(RwObjectiveEvaluate(adj->obj, k + 1, adj->W));
    run->reached = k + 1;
    PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_FORWARD, k + 1, adj->W));
    RwAdjointMaybeKill(adj, adj->killat, run->reached);
  } else PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_RECOMPUTE, k + 1, adj->W));
  PetscCall(RwAdjointCheckFiniteEvery_Private(adj, k + 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The steps of a pass, forward sweep or recomputation: blocks where the
   model fuses them (RwAdjointStepFrom(), RwAdjointBlock()); each step's state
   then goes through the same bookkeeping, in order, as if it had been taken alone */
PetscErrorCode RwAdjointAdvance_Private(RwAdjoint adj, RwRun *run, PetscInt64 a, PetscInt64 b)
{
  const PetscInt  block = RwAdjointBlock(adj);
  PetscLogDouble  t0, t1;
  PetscInt        T = 0, t = 0; /* the pass's steps, and which of them k is */

  PetscFunctionBegin;
  PetscCheck(run->w == a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule asks to advance from step %" PetscInt64_FMT " but the working state is step %" PetscInt64_FMT, a, run->w);
  PetscCall(PetscTime(&t0));
  for (PetscInt64 k = a; k < b; k++, t++) {
    if (t == T) { /* a new pass */
      T = (PetscInt)PetscMin((PetscInt64)block, b - k);
      t = 0;
      PetscCall(RwAdjointStepFrom(adj, k, T));
    }
    RwAdjointTakeState(adj, t);
    PetscCall(RwAdjointStepDone(adj, run, k));
    if (k + 1 == run->n) b = k + 1; /* stopped, or at the end */
  }
  run->w = b;
  if (run->scheduled && b == run->n) { /* an online sweep ended at x_n: REVERSE n-1 finds x_(n-1) in W and x_n in N */
    RwVecSwap(adj->N, adj->W);
    RwVecSwap(adj->W, adj->T);
    run->w        = b - 1;
    run->lastkept = PETSC_TRUE;
  }
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_forward += t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W into the slot: the memory store keeps W's vector itself, which the
   driver goes on reading as the next step's input (no copy). One vector is
   lent at a time: a lent T (x_(k-1), read no more) takes its spare first;
   while W or N is lent (a slot holds it and the driver still reads it: N is
   the next REVERSE's x_k+1) the state is copied */
static PetscErrorCode RwAdjointStoreW(RwAdjoint adj, RwStore store, const RwAction *act, PetscBool *kept)
{
  Vec        spare;
  PetscInt64 pool;

  PetscFunctionBegin;
  *kept = PETSC_TRUE;
  RwAdjointOwn(adj, &adj->T);
  PetscCall(RwStoreGetPool(store, &pool));
  if (!pool) PetscCall(RwStoreGetPartCapacity(store, &pool)); /* or parts of a planned size (pooldisk.c) */
  if (pool) { /* compressed at its real length, if it finds room (copies: nothing is lent) */
    PetscCall(RwStoreTryWrite(store, act->slot, act->a, adj->W, kept));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (adj->lent) {
    PetscCall(RwStoreWrite(store, act->slot, act->a, adj->W));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwStoreWriteTake(store, act->slot, act->a, adj->W, &spare));
  if (spare) {
    adj->lent  = adj->W;
    adj->spare = spare;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwAdjointStore_Private(RwAdjoint adj, RwRun *run, const RwAction *act)
{
  RwStore   store = adj->store[act->level];
  PetscBool persistent, kept;

  PetscFunctionBegin;
  PetscCheck(run->w == act->a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule asks to store step %" PetscInt64_FMT " but the working state is step %" PetscInt64_FMT, act->a, run->w);
  /* the first sweep keeps J so far with each checkpoint a later run can resume
     from (a store that keeps them across runs); any other is marked unusable */
  PetscCall(RwStoreIsPersistent(store, &persistent));
  adj->attach[0] = !run->reversing && persistent ? 1 : 0;
  if (adj->attach[0]) PetscCall(RwObjectiveExportState(adj->obj, adj->attach + 1));
  PetscCall(RwStoreSetAttachment(store, adj->attach));
  PetscCall(RwAdjointStoreW(adj, store, act, &kept));
  run->replanned = PETSC_FALSE;
  if (act->level == RW_LEVEL_RAM && adj->poolmiss && act->slot < adj->poolslots) adj->poolmiss[act->slot] = -1;
  if (RwAdjointDiskPoolMiss_Private(adj, act)) *RwAdjointDiskPoolMiss_Private(adj, act) = -1;
  if (kept) {
    PetscCall(RwAdjointErrestStore_Private(adj, act));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the compressed RAM pool was full (pool.c): recompute the state where it
     is restored, or re-plan (only in the first sweep of a run that was not
     stopped early): the RAM pool from the states held, or from x_0; a disk
     part too small (pooldisk.c) from x_0; J keeps the terms of the states
     reached */
  if (act->level == RW_LEVEL_DISK) PetscCall(RwAdjointDiskPoolMissed_Private(adj, act, (PetscBool)(!run->reversing && run->n == adj->n), &run->replanned));
  else PetscCall(RwAdjointPoolMissed_Private(adj, act, (PetscBool)(!run->reversing && run->n == adj->n && adj->pool.slots > 1), &run->replanned));
  if (!run->replanned) PetscFunctionReturn(PETSC_SUCCESS);
  if (act->level == RW_LEVEL_DISK) PetscCall(RwAdjointDiskPoolReplan_Private(adj));
  else {
    PetscBool cont;

    PetscCall(RwAdjointPoolContinue_Private(adj, act, &cont)); /* the rest from the states held: W stays x_s */
    if (cont) {
      run->hasnext = PETSC_FALSE; /* what was looked at belongs to the old schedule */
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(RwAdjointPoolReplan_Private(adj, run->reversing));
  }
  RwAdjointOwn(adj, &adj->W);
  PetscCall(VecCopy(run->u0, adj->W));
  run->w       = 0;
  run->hasnext = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RESTORE of a state that found no room in the compressed pool: the nearest
   earlier state held (or x_0), advanced to it; the slot holds nothing to free */
static PetscErrorCode RwAdjointStandIn(RwAdjoint adj, RwRun *run, const RwAction *act)
{
  PetscInt   level;
  PetscInt64 slot, from;

  PetscFunctionBegin;
  PetscCall(RwAdjointPoolNearest_Private(adj, act->a, &level, &slot, &from));
  RwAdjointOwn(adj, &adj->W);
  if (level < 0) PetscCall(VecCopy(run->u0, adj->W));
  else PetscCall(RwStoreRead(adj->store[level], slot, from, adj->W));
  run->w = from;
  PetscCall(RwAdjointAdvance_Private(adj, run, from, act->a));
  if (act->level == RW_LEVEL_DISK) adj->disk.standin_steps += act->a - from;
  else adj->pool.standin_steps += act->a - from;
  {
    RwAction held = *act; /* the error the stand-in carries is that of the state it was advanced from */

    held.level = level < 0 ? act->level : level;
    held.slot  = level < 0 ? -1 : slot;
    RwAdjointErrestRestore_Private(adj, &held);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's next action, or the one the driver already looked at */
static PetscErrorCode RwAdjointNextAction(RwAdjoint adj, RwRun *run, RwAction *act)
{
  PetscFunctionBegin;
  if (run->hasnext) *act = run->next;
  else PetscCall(RwScheduleNext(RwAdjointPoolSchedule_Private(adj), act));
  run->hasnext = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's next action into run->next, looked at and kept for the executor to take */
PetscErrorCode RwAdjointPeekNext_Private(RwAdjoint adj, RwRun *run)
{
  PetscFunctionBegin;
  if (!run->hasnext) PetscCall(RwScheduleNext(RwAdjointPoolSchedule_Private(adj), &run->next));
  run->hasnext = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the action after act frees act's slot: then its state can move
   into W instead of being copied (the FREE is still taken as usual) */
static PetscErrorCode RwAdjointFreedNext(RwAdjoint adj, RwRun *run, const RwAction *act, PetscBool *freed)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointPeekNext_Private(adj, run));
  *freed = (PetscBool)(run->next.type == RW_ACTION_FREE && run->next.level == act->level && run->next.slot == act->slot);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwAdjointRestore(RwAdjoint adj, RwRun *run, const RwAction *act)
{
  PetscBool freed = PETSC_FALSE;

  PetscFunctionBegin;
  if (act->slot >= 0 && act->level == RW_LEVEL_RAM && adj->poolmiss && act->slot < adj->poolslots && adj->poolmiss[act->slot] >= 0) {
    PetscCheck(adj->poolmiss[act->slot] == act->a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule restores step %" PetscInt64_FMT " from RAM slot %" PetscInt64_FMT ", which was to hold step %" PetscInt64_FMT, act->a, act->slot, adj->poolmiss[act->slot]);
    PetscCall(RwAdjointStandIn(adj, run, act));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (RwAdjointDiskPoolMiss_Private(adj, act) && *RwAdjointDiskPoolMiss_Private(adj, act) >= 0) { /* a state larger than its disk part (pooldisk.c) */
    PetscCheck(*RwAdjointDiskPoolMiss_Private(adj, act) == act->a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule restores step %" PetscInt64_FMT " from disk slot %" PetscInt64_FMT ", which was to hold another step", act->a, act->slot);
    PetscCall(RwAdjointStandIn(adj, run, act));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  RwAdjointOwn(adj, &adj->W); /* written or given to a slot below */
  if (act->slot < 0) { /* x_0 is the input: it takes no slot */
    PetscCheck(act->a == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule restores step %" PetscInt64_FMT " from no slot; only x_0 can be", act->a);
    PetscCall(VecCopy(run->u0, adj->W));
  } else {
    PetscCall(RwAdjointFreedNext(adj, run, act, &freed));
    if (freed) PetscCall(RwStoreReadAndFree(adj->store[act->level], act->slot, act->a, &adj->W));
    else PetscCall(RwStoreReadSwap(adj->store[act->level], act->slot, act->a, &adj->W)); /* the hdf5 store's prefetch buffer, without a copy */
  }
  run->w = act->a;
  RwAdjointErrestRestore_Private(adj, act);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's action i after the one just taken (0: the next), without taking it */
static PetscErrorCode RwAdjointPeekAction(RwAdjoint adj, RwRun *run, PetscInt i, RwAction *act, PetscBool *known)
{
  PetscFunctionBegin;
  *known = PETSC_TRUE;
  if (run->hasnext && i == 0) *act = run->next;
  else PetscCall(RwSchedulePeek(RwAdjointPoolSchedule_Private(adj), run->hasnext ? i - 1 : i, act, known));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's next action taken, as the executor counts it: the
   debugging kill at this action's index first, then the action */
static PetscErrorCode RwAdjointTakeAction(RwAdjoint adj, RwRun *run, RwAction *act)
{
  PetscFunctionBegin;
  RwAdjointMaybeKill(adj, adj->killaction, run->action);
  PetscCall(RwAdjointNextAction(adj, run, act));
  run->action++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a STORE or a RESTORE of a level whose store can read ahead: the
   level's next RESTORE, looked up in the schedule, is prefetched, unless a
   STORE to its slot comes first (then that STORE's own look-up posts it) */
static PetscErrorCode RwAdjointPrefetchNext(RwAdjoint adj, RwRun *run, const RwAction *act)
{
  RwStore    store = act->type == RW_ACTION_STORE || act->type == RW_ACTION_RESTORE ? adj->store[act->level] : NULL;
  PetscInt64 stored[RW_SCHEDULE_PEEK + 1];
  PetscInt   nstored = 0;
  PetscBool  known   = PETSC_TRUE, can = PETSC_FALSE;
  RwAction   next;

  PetscFunctionBegin;
  if (store) PetscCall(RwStoreCanPrefetch(store, &can));
  if (!can) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < RW_SCHEDULE_PEEK + (run->hasnext ? 1 : 0); i++) {
    PetscCall(RwAdjointPeekAction(adj, run, i, &next, &known));
    if (!known || next.type == RW_ACTION_END) break;
    if ((next.type != RW_ACTION_STORE && next.type != RW_ACTION_RESTORE) || next.level != act->level) continue;
    if (next.type == RW_ACTION_STORE) {
      stored[nstored++] = next.slot;
      continue;
    }
    if (next.slot < 0) break; /* x_0: no slot */
    for (PetscInt j = 0; j < nstored; j++)
      if (stored[j] == next.slot) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(RwStorePrefetch(store, next.slot, next.a));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before the first REVERSE k = n-1 (W = x_(n-1)): the last step to x_n into N,
   unless the sweep ended there (run->lastkept); a solve in two parts takes it
   at the end of its first (RwAdjointSolveForward()), so that every output is known */
PetscErrorCode RwAdjointReachEnd_Private(RwAdjoint adj, RwRun *run, PetscInt64 k)
{
  PetscFunctionBegin;
  PetscCheck(k == run->n - 1 && run->w == k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule reverses step %" PetscInt64_FMT " first, not the last step %" PetscInt64_FMT, k, run->n - 1);
  if (run->lastkept) PetscFunctionReturn(PETSC_SUCCESS);
  RwAdjointOwn(adj, &adj->N);
  PetscCall(RwModelStep(adj->model, k, adj->W, adj->N));
  if (run->n > run->reached) {
    PetscCall(RwObjectiveEvaluate(adj->obj, run->n, adj->N));
    run->reached = run->n;
    PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_FORWARD, run->n, adj->N));
  } else PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_RECOMPUTE, run->n, adj->N));
  run->lastkept = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lambda_k = A_k^T lambda_k+1 + dJ/du_k, with W = x_k and N = x_k+1 */
static PetscErrorCode RwAdjointReverse(RwAdjoint adj, RwRun *run, PetscInt64 k)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCheck(run->w == k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule asks to reverse step %" PetscInt64_FMT " but the working state is step %" PetscInt64_FMT, k, run->w);
  PetscCall(PetscTime(&t0));
  if (!run->reversing) { /* the first: from x_n, where lambda_n starts */
    PetscCall(RwAdjointReachEnd_Private(adj, run, k));
    PetscCall(RwModelCheckFinite(adj->model));
    PetscCall(VecSet(adj->lam[0], 0));
    PetscCall(RwModelAdjointBegin(adj->model)); /* first: the objective's direct dJ/dm may add to the model's sums */
    PetscCall(RwObjectiveAdjointSource(adj->obj, run->n, adj->N, adj->lam[0]));
    if (adj->horizonon) PetscCall(RwAdjointHorizonBegin_Private(adj));
    run->reversing = PETSC_TRUE;
  }
  PetscCall(RwAdjointErrestReverse_Private(adj));
  PetscCall(RwModelStepAdjoint(adj->model, k, adj->W, adj->N, adj->lam[0], adj->lam[1]));
  if (adj->horizonon) PetscCall(RwAdjointHorizonRecord_Private(adj, k, adj->lam[0], adj->lam[1]));
  PetscCall(RwObjectiveAdjointSource(adj->obj, k, adj->W, adj->lam[1]));
  RwVecSwap(adj->lam[0], adj->lam[1]); /* lam[0] = lambda_k */
  RwVecSwap(adj->N, adj->W);           /* N = x_k for the next reversal */
  run->w = -1;
  PetscCall(RwAdjointCheckFiniteEvery_Private(adj, k));
  PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_REVERSE, k, adj->lam[0]));
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_reverse += t1 - t0;
  adj->counts.reverse_steps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ADVANCE k -> k+1, then up to T - 1 times STORE x_k+i, ADVANCE k+i -> k+i+1,
  as one block of T steps (store-all's sweep, and any stretch that keeps
  every state): the states come from one pass, and the actions' effects
  follow in their order (each state's bookkeeping, then its STORE), the kill
  hooks counting the actions as the loop does.  Not where an ADVANCE would
  end the run, whose last steps the sweep ends specially.  fused says
  whether it did; act is the ADVANCE just taken
*/
static PetscErrorCode RwAdjointAdvanceStoring(RwAdjoint adj, RwRun *run, const RwAction *act, PetscBool *fused)
{
  const PetscInt block = RwAdjointBlock(adj);
  RwAction       store, next;
  PetscBool      known[2];
  PetscInt       T = 1;
  PetscLogDouble t0, t1, s0, s1, stored = 0;

  PetscFunctionBegin;
  *fused = PETSC_FALSE;
  if (block < 2 || act->b != act->a + 1) PetscFunctionReturn(PETSC_SUCCESS);
  for (; T < block && act->a + T + 1 < run->n; T++) { /* the pattern's T-th STORE and ADVANCE, looked at */
    PetscCall(RwAdjointPeekAction(adj, run, 2 * (T - 1), &store, &known[0]));
    PetscCall(RwAdjointPeekAction(adj, run, 2 * (T - 1) + 1, &next, &known[1]));
    if (!known[0] || !known[1] || store.type != RW_ACTION_STORE || store.a != act->a + T || next.type != RW_ACTION_ADVANCE || next.a != act->a + T || next.b != act->a + T + 1) break;
  }
  if (T < 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(run->w == act->a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule asks to advance from step %" PetscInt64_FMT " but the working state is step %" PetscInt64_FMT, act->a, run->w);
  *fused = PETSC_TRUE;
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointStepFrom(adj, act->a, T));
  for (PetscInt t = 0; t < T; t++) {
    if (t) {
      PetscCall(PetscTime(&s0));
      PetscCall(RwAdjointTakeAction(adj, run, &store));
      PetscCall(RwAdjointStore_Private(adj, run, &store));
      if (!run->replanned) PetscCall(RwAdjointPrefetchNext(adj, run, &store));
      PetscCall(PetscTime(&s1));
      stored += s1 - s0;
      if (run->replanned) break; /* the block's later states belong to the old schedule: the sweep starts again at x_0 */
      PetscCall(RwAdjointTakeAction(adj, run, &next));
    }
    RwAdjointTakeState(adj, t);
    PetscCall(RwAdjointStepDone(adj, run, act->a + t));
    run->w = act->a + t + 1;
  }
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_forward += (t1 - t0) - stored;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's next action, taken and carried out; act says which it was
   (RW_ACTION_END: the run is over).  After a STORE or a RESTORE the level's
   next read is prefetched where the store can */
PetscErrorCode RwAdjointExecuteNext_Private(RwAdjoint adj, RwRun *run, RwAction *act)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointTakeAction(adj, run, act));
  switch (act->type) {
  case RW_ACTION_ADVANCE: {
    PetscBool fused;

    PetscCall(RwAdjointAdvanceStoring(adj, run, act, &fused));
    if (!fused) PetscCall(RwAdjointAdvance_Private(adj, run, act->a, act->b));
  } break;
  case RW_ACTION_STORE: PetscCall(RwAdjointStore_Private(adj, run, act)); break;
  case RW_ACTION_RESTORE: PetscCall(RwAdjointRestore(adj, run, act)); break;
  case RW_ACTION_FREE:
    PetscCall(RwStoreFree(adj->store[act->level], act->slot));
    if (act->level == RW_LEVEL_RAM && adj->poolmiss && act->slot < adj->poolslots) adj->poolmiss[act->slot] = -1;
    if (RwAdjointDiskPoolMiss_Private(adj, act)) *RwAdjointDiskPoolMiss_Private(adj, act) = -1;
    break;
  case RW_ACTION_REVERSE:
    PetscCall(RwAdjointReverse(adj, run, act->a));
    PetscCall(RwAdjointKeepStep_Private(adj, run, act->a));
    RwAdjointMaybeKill(adj, adj->killreverse, act->a);
    break;
  case RW_ACTION_END: break;
  }
  PetscCall(RwAdjointPrefetchNext(adj, run, act));
  PetscFunctionReturn(PETSC_SUCCESS);
}
