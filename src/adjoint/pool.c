/*
  Compressed checkpoints that gain slots (issue 36, item 2).

  A RAM budget (-rw_checkpoint_ram, or the default one) with a compressing
  memory store (-rw_store_compress lossless|zfp) and a schedule that plans
  its slot count from a budget (revolve, multilevel, online) is planned at
  the compressed size of a state: the store keeps each state at its real
  length in one pool of the budget's bytes (RwStoreSetPool()), and the
  schedule gets budget / estimate slots.  The estimate is x_0's compressed
  size, the largest over the ranks (RwStoreCompressedSize()): it costs one
  compression and no step.

  States that compress worse than x_0 fill the pool before the schedule's
  slots are used up.  A store that finds no room keeps nothing (the ranks
  agree), and the driver goes on one of two ways:
  - re-plan (in the first forward sweep of a run not stopped early): the
    slots are those the largest state measured so far allows (at least one
    fewer than before, so that a pool fragmented by states of mixed sizes
    cannot fail the same way twice).  By default (-rw_checkpoint_replan
    continue) the rest of the run is planned from the working state x_s and
    the states held (RwAdjointPoolContinue_Private(), a continuation of
    binomial segments: src/schedule/interface/continuation.c); the pool is
    full at a miss, so the latest states held are freed until x_s has room,
    as many as predict the fewest forward steps.  Where restarting predicts
    fewer, and with -rw_checkpoint_replan restart, the stores forget what
    they hold and the sweep starts again from x_0, at the price of the steps
    taken: up to a forward sweep, as the pool fills at the schedule's last
    stores.
  - stand in (-rw_checkpoint_replan 0, and in the reverse sweep): the
    schedule goes on as planned; where it restores the missing state x_k,
    the driver restores the nearest earlier state it holds (on any level, or
    x_0) and recomputes to k, each such restore costing the gap.  Cheaper
    than a re-plan when few states miss (heat, zfp: 375 forward steps
    against 561, doc/checkpoints.md); far dearer when the plan was much too
    optimistic, for then the reverse sweep misses again and again (heat,
    lossless: 1469 against 861; a wave from rest, x_0 all zeros: 1285
    against 167), hence not the default.
  Either way J and the gradient are the bits of any other schedule: the
  objective terms of the states already reached are not evaluated again
  (RwRun.reached) and recomputations are deterministic.  After a solve whose
  states were larger than planned, the solves to come plan at the largest
  state measured: in an optimisation loop only the first solve pays.  Runs
  whose checkpoints must outlive the process (-rw_restart, reverse-sweep
  keeps) keep fixed slots: a resumed run must find the schedule its killed
  run had.
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/private/scheduleimpl.h>
#include <rewind/private/storeimpl.h>

/* Whether the RAM level's store pools compressed states in the budget */
static PetscErrorCode RwAdjointPoolApplies(RwAdjoint adj, RwStore store, PetscBool *applies)
{
  RwStoreCompressType codec;
  RwScheduleType      type;
  PetscBool           memory, revolve, multilevel, online;

  PetscFunctionBegin;
  *applies = PETSC_FALSE;
  PetscCall(RwStoreGetCompress(store, &codec, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)store, RWSTOREMEMORY, &memory));
  PetscCall(RwScheduleGetType(adj->sched, &type));
  PetscCall(PetscStrcmp(type, RWSCHEDULEREVOLVE, &revolve));
  PetscCall(PetscStrcmp(type, RWSCHEDULEMULTILEVEL, &multilevel));
  PetscCall(PetscStrcmp(type, RWSCHEDULEONLINE, &online));
  if (codec == RW_STORE_COMPRESS_NONE || !memory || !(revolve || multilevel || online)) PetscFunctionReturn(PETSC_SUCCESS);
  if (adj->sched->budget[RW_LEVEL_RAM] < 0 || adj->restart || adj->keepinterval || adj->keepseconds > 0) PetscFunctionReturn(PETSC_SUCCESS);
  *applies = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a compressing RAM store would be pooled (-rw_store_compress auto's
   question: can a codec buy slots here?); the store's codec is left as it was */
PetscErrorCode RwAdjointPoolWouldApply_Private(RwAdjoint adj, RwStore store, PetscBool *applies)
{
  RwStoreCompressType type;
  PetscReal           tol;

  PetscFunctionBegin;
  PetscCall(RwStoreGetCompress(store, &type, &tol));
  PetscCall(RwStoreSetCompress(store, RW_STORE_COMPRESS_LOSSLESS, tol));
  PetscCall(RwAdjointPoolApplies(adj, store, applies));
  PetscCall(RwStoreSetCompress(store, type, tol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule planned for RAM states of per bytes (and slots RAM slots at most, if > 0); its prediction */
static PetscErrorCode RwAdjointPoolSchedule(RwAdjoint adj, PetscInt64 per, PetscInt64 slots, RwScheduleCounts *pred)
{
  RwSchedule sched = adj->sched;

  PetscFunctionBegin;
  PetscCall(RwScheduleSetStateBytes(sched, per, sched->state_bytes[RW_LEVEL_DISK]));
  if (slots > 0) PetscCall(RwScheduleSetSlots(sched, RW_LEVEL_RAM, slots));
  PetscCall(RwScheduleSetUp(sched));
  PetscCall(RwScheduleGetPrediction(sched, pred));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's prediction with RAM states of per bytes (its slots in adj->sched->avail); the schedule is left planned so */
PetscErrorCode RwAdjointPoolPredict_Private(RwAdjoint adj, PetscInt64 per, RwScheduleCounts *pred)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointPoolSchedule(adj, per, 0, pred));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A budget that holds no state of per compressed bytes: the error names both */
static PetscErrorCode RwAdjointPoolCheckFits(RwAdjoint adj, PetscInt64 per, const char what[])
{
  RwAdjointPoolInfo *p = &adj->pool;
  const char        *prefix;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
  PetscCheck(adj->sched->budget[RW_LEVEL_RAM] >= per, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "-%srw_checkpoint_ram = %" PetscInt64_FMT " bytes holds no compressed state: %s %" PetscInt64_FMT " bytes per MPI rank (%" PetscInt64_FMT " uncompressed); give at least %" PetscInt64_FMT " bytes", prefix ? prefix : "", adj->sched->budget[RW_LEVEL_RAM], what, per, p->state_bytes, per);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plan made at the end of the last solve (RwAdjointPoolEnd_Private()) becomes the current one */
static void RwAdjointPoolTakeNext(RwAdjoint adj)
{
  if (!adj->poolnext[0]) return;
  adj->pool.slots         = adj->poolnext[0];
  adj->pool.planned_bytes = adj->poolnext[1];
  adj->poolnext[0] = adj->poolnext[1] = 0;
}

/*
  RwAdjointPoolPlan_Private - at the RAM store's making (its options read, not
  set up): where the pool applies, the schedule's slots at x_0's compressed
  size and the store's pool; what the budget would give uncompressed, for the view
*/
PetscErrorCode RwAdjointPoolPlan_Private(RwAdjoint adj, RwStore store, Vec u0)
{
  RwAdjointPoolInfo *p = &adj->pool;
  RwScheduleCounts   pred;
  PetscBool          applies;
  PetscInt64         budget = adj->sched->budget[RW_LEVEL_RAM], cap;

  PetscFunctionBegin;
  RwAdjointPoolTakeNext(adj);
  PetscCall(RwAdjointPoolApplies(adj, store, &applies));
  if (!applies) { /* fixed slots (store-all bought by RwAdjointRentOrBuy_Private(), say) */
    p->pooled = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!p->pooled) { /* the first plan; a store made again (new objective terms, measured costs) keeps the sizes planned */
    PetscCheck(u0, PetscObjectComm((PetscObject)adj), PETSC_ERR_PLIB, "The RAM level's first plan at the compressed size needs x_0");
    p->pooled      = PETSC_TRUE;
    p->state_bytes = adj->sched->state_bytes[RW_LEVEL_RAM];
    PetscCall(RwStoreCompressedSize(store, u0, &p->estimate_bytes));
    p->planned_bytes = p->estimate_bytes;
    PetscCall(RwAdjointPoolSchedule(adj, p->state_bytes, 0, &pred)); /* the schedule's set-up checked that the budget holds a state */
    p->slots_uncompressed         = adj->sched->avail[RW_LEVEL_RAM];
    p->forward_steps_uncompressed = pred.forward_steps;
  }
  PetscCall(RwAdjointPoolCheckFits(adj, p->planned_bytes, "the first state x_0 compresses to"));
  PetscCall(RwAdjointPoolSchedule(adj, p->planned_bytes, 0, &pred));
  p->slots = adj->sched->avail[RW_LEVEL_RAM];
  /* no plan needs more than its most held states at the uncompressed size (plus the codec's header) */
  cap = (PetscInt64)(store->bytes + 64) * pred.max_slots_used[RW_LEVEL_RAM];
  PetscCall(RwStoreSetSlots(store, pred.max_slots_used[RW_LEVEL_RAM]));
  PetscCall(RwStoreSetPool(store, PetscMin(budget, cap)));
  p->pool_bytes = PetscMin(budget, cap);
  PetscCall(PetscFree(adj->poolmiss)); /* the states missing from the pool, slot by slot: made here, not in the time loop */
  adj->poolslots = pred.max_slots_used[RW_LEVEL_RAM];
  PetscCall(PetscMalloc1(adj->poolslots, &adj->poolmiss));
  for (PetscInt64 i = 0; i < adj->poolslots; i++) adj->poolmiss[i] = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointPoolNearest_Private - the latest state at or before step k that
  the stores hold: its level and slot (level -1: x_0, the input) and step
*/
PetscErrorCode RwAdjointPoolNearest_Private(RwAdjoint adj, PetscInt64 k, PetscInt *level, PetscInt64 *slot, PetscInt64 *step)
{
  PetscFunctionBegin;
  *level = -1;
  *slot  = -1;
  *step  = 0;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    RwStore store = adj->store[l];

    if (!store) continue;
    for (PetscInt64 s = 0; s < store->slots; s++) /* the class's step table: what each slot validly holds */
      if (store->step[s] > *step && store->step[s] <= k) {
        *level = (PetscInt)l;
        *slot  = s;
        *step  = store->step[s];
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointPoolMissed_Private - the STORE act found no room: stand in for it
  (recompute where it is restored) or re-plan (see above); replan says
  which.  Collective: every rank decides alike from the same step tables.
*/
PetscErrorCode RwAdjointPoolMissed_Private(RwAdjoint adj, const RwAction *act, PetscBool canreplan, PetscBool *replan)
{
  PetscFunctionBegin;
  PetscCheck(act->level == RW_LEVEL_RAM && act->slot < adj->poolslots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A store of level %" PetscInt_FMT " slot %" PetscInt64_FMT " found no room in a pool", act->level, act->slot);
  *replan = (PetscBool)(canreplan && adj->poolreplan);
  if (*replan) PetscFunctionReturn(PETSC_SUCCESS);
  adj->poolmiss[act->slot] = act->a;
  adj->pool.misses++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A solve begins: nothing re-planned yet */
PetscErrorCode RwAdjointPoolBegin_Private(RwAdjoint adj)
{
  PetscFunctionBegin;
  adj->pool.replans             = 0;
  adj->pool.steps_before_replan = 0;
  adj->pool.misses              = 0;
  adj->pool.standin_steps       = 0;
  adj->pool.continued           = 0;
  adj->pool.released            = 0;
  adj->pool.steps_saved_continue = 0;
  adj->pool.replan_type         = !adj->poolreplan ? RW_ADJOINT_REPLAN_STANDIN : adj->poolcontinue ? RW_ADJOINT_REPLAN_CONTINUE : RW_ADJOINT_REPLAN_RESTART;
  PetscCall(RwScheduleDestroy(&adj->poolcont)); /* the solve follows its schedule until a re-plan continues it */
  for (PetscInt64 i = 0; i < adj->poolslots; i++) adj->poolmiss[i] = -1;
  RwAdjointPoolTakeNext(adj);
  PetscCall(RwModelGetStepCounts(adj->model, &adj->poolf0, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A solve ended: the forward steps its plan accounts for; after misses, the
   solves to come plan at the largest state measured (fewer slots, no misses) */
PetscErrorCode RwAdjointPoolEnd_Private(RwAdjoint adj)
{
  RwAdjointPoolInfo *p = &adj->pool;
  RwScheduleCounts   pred;
  RwStoreCounts      c;
  PetscInt64         per;

  PetscFunctionBegin;
  if (!p->pooled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  p->forward_steps_planned = p->steps_before_replan + (adj->poolcont ? adj->poolcontsteps : pred.forward_steps) + p->standin_steps;
  PetscCall(RwStoreGetCounts(adj->store[RW_LEVEL_RAM], &c));
  per = c.kept_max;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)adj)));
  if (!(p->replans || p->misses) || per <= p->planned_bytes || adj->sched->budget[RW_LEVEL_RAM] / per < 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAdjointPoolSchedule(adj, per, PetscMin(adj->sched->budget[RW_LEVEL_RAM] / per, p->slots), &pred));
  adj->poolnext[0] = adj->sched->avail[RW_LEVEL_RAM]; /* the info describes the last solve until the next begins */
  adj->poolnext[1] = per;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointPoolReplan_Private - the RAM store found no room for a state:
  the schedule re-planned with the slots the largest compressed state so far
  allows, the stores emptied (and made again where the new plan holds more
  on a level); the caller restarts the sweep from x_0.  Collective.
*/
PetscErrorCode RwAdjointPoolReplan_Private(RwAdjoint adj, PetscBool reversing)
{
  RwAdjointPoolInfo *p = &adj->pool;
  RwStoreCounts      c;
  RwScheduleCounts   pred;
  PetscInt64         per, slots, f, held;
  const char        *prefix;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
  PetscCall(RwStoreGetCounts(adj->store[RW_LEVEL_RAM], &c));
  per = c.kept_max;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)adj)));
  PetscCheck(!reversing, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The reverse sweep cannot re-plan from x_0");
  per = PetscMax(per, p->planned_bytes);
  PetscCall(RwAdjointPoolCheckFits(adj, per, "the states compress to up to"));
  slots = PetscMin(adj->sched->budget[RW_LEVEL_RAM] / per, p->slots - 1);
  PetscCheck(slots >= 1, PetscObjectComm((PetscObject)adj), PETSC_ERR_MEM, "The compressed RAM pool of %" PetscInt64_FMT " bytes per rank holds no plan: states compress to up to %" PetscInt64_FMT " bytes and %" PetscInt64_FMT " slot(s) did not fit; give a larger -%srw_checkpoint_ram", p->pool_bytes, per, p->slots, prefix ? prefix : "");
  p->planned_bytes = per;
  PetscCall(RwAdjointPoolSchedule(adj, per, slots, &pred));
  PetscCall(RwScheduleDestroy(&adj->poolcont)); /* a continuation taken earlier in this sweep: the run follows the schedule again */
  p->slots = adj->sched->avail[RW_LEVEL_RAM];
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    if (!adj->store[l]) continue;
    PetscCall(RwStoreGetSlots(adj->store[l], &held));
    if (held < pred.max_slots_used[l]) PetscCall(RwStoreDestroy(&adj->store[l])); /* made again below, larger */
    else
      for (PetscInt64 s = 0; s < held; s++) PetscCall(RwStoreFree(adj->store[l], s)); /* the pool's ranges free for the new plan */
  }
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (!adj->store[l] && pred.max_slots_used[l]) PetscCall(RwAdjointStoreMake_Private(adj, l, pred.max_slots_used[l], NULL));
  for (PetscInt64 i = 0; i < adj->poolslots; i++) adj->poolmiss[i] = -1; /* the stand-ins of the old schedule */
  PetscCall(RwAdjointErrestSlots_Private(adj)); /* the errors the old schedule's states carried, forgotten with them */
  p->misses        = 0;
  p->standin_steps = 0;
  PetscCall(RwModelGetStepCounts(adj->model, &f, NULL, NULL));
  p->replans++;
  p->steps_before_replan = f - adj->poolf0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetPoolInfo - how the RAM budget was planned at the compressed size
  of the states, and what the last solve re-planned

  Not collective

  Output Parameter:
. info - pooled is PETSC_FALSE where the budget was planned at the uncompressed size

  Level: intermediate

.seealso: RwAdjointView(), RwStoreSetPool(), RwAdjointGetCounts()
@*/
PetscErrorCode RwAdjointGetPoolInfo(RwAdjoint adj, RwAdjointPoolInfo *info)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  *info = adj->pool;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The view's lines: the ratio the plan assumed, the slots gained, the forward steps saved */
PetscErrorCode RwAdjointPoolView_Private(RwAdjoint adj, PetscViewer viewer)
{
  RwAdjointPoolInfo *p = &adj->pool;
  PetscInt64         f = adj->counts.forward_steps;

  PetscFunctionBegin;
  if (!p->pooled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "RAM budget at the compressed size: %" PetscInt64_FMT " bytes per rank, states of %" PetscInt64_FMT " bytes planned at %" PetscInt64_FMT " (ratio %.3g; x_0 compressed to %" PetscInt64_FMT "): %" PetscInt64_FMT " slots against %" PetscInt64_FMT " uncompressed (%+" PetscInt64_FMT " slots)\n", adj->sched->budget[RW_LEVEL_RAM], p->state_bytes, p->planned_bytes, (double)p->state_bytes / (double)p->planned_bytes, p->estimate_bytes, p->slots, p->slots_uncompressed, p->slots - p->slots_uncompressed));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  forward steps: %" PetscInt64_FMT " against %" PetscInt64_FMT " predicted uncompressed in the same budget (%" PetscInt64_FMT " saved)\n", f, p->forward_steps_uncompressed, p->forward_steps_uncompressed - f));
  if (p->replans && p->continued) { /* one line: the viewer indents each print */
    char restarted[96] = "";

    if (p->replans > p->continued) PetscCall(PetscSNPrintf(restarted, sizeof(restarted), "; %" PetscInt64_FMT " restarted at x_0, which predicted fewer steps", p->replans - p->continued));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  re-planned %" PetscInt64_FMT " time(s) (-rw_checkpoint_replan continue): states compressed worse than planned; %" PetscInt64_FMT " continued from the states held (%" PetscInt64_FMT " of them freed to make room), %" PetscInt64_FMT " forward steps saved against restarting at x_0 (predicted)%s; %" PetscInt64_FMT " forward steps before the last re-plan\n", p->replans, p->continued, p->released, p->steps_saved_continue, restarted, p->steps_before_replan));
  } else if (p->replans) PetscCall(PetscViewerASCIIPrintf(viewer, "  re-planned %" PetscInt64_FMT " time(s) (-rw_checkpoint_replan %s): states compressed worse than planned; %" PetscInt64_FMT " forward steps were taken before the last re-plan, from which the sweep started again at x_0\n", p->replans, p->replan_type == RW_ADJOINT_REPLAN_CONTINUE ? "continue, where restarting predicted fewer steps" : "restart", p->steps_before_replan));
  if (p->misses) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt64_FMT " state(s) found no room: recomputed from the nearest state held where restored (%" PetscInt64_FMT " forward steps)\n", p->misses, p->standin_steps));
  if (adj->poolnext[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "  later solves plan %" PetscInt64_FMT " slots at %" PetscInt64_FMT " bytes a state, the largest measured\n", adj->poolnext[0], adj->poolnext[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the continuation re-plan (issue 36): keep the states held ---------- */

/* -rw_checkpoint_replan continue|restart|0 (1 and true: continue, the default; 0 and false: stand in) */
PetscErrorCode RwAdjointPoolReplanFromOptions_Private(RwAdjoint adj, PetscOptionItems *PetscOptionsObject)
{
  const char *names[]  = {"continue", "1", "true", "yes", "restart", "0", "false", "no"};
  const int   values[] = {RW_ADJOINT_REPLAN_CONTINUE, RW_ADJOINT_REPLAN_CONTINUE, RW_ADJOINT_REPLAN_CONTINUE, RW_ADJOINT_REPLAN_CONTINUE, RW_ADJOINT_REPLAN_RESTART, RW_ADJOINT_REPLAN_STANDIN, RW_ADJOINT_REPLAN_STANDIN, RW_ADJOINT_REPLAN_STANDIN};
  char        v[32];
  const char *prefix;
  PetscBool   set, match;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(v, !adj->poolreplan ? "0" : adj->poolcontinue ? "continue" : "restart", sizeof(v)));
  PetscCall(PetscOptionsString("-rw_checkpoint_replan", "Compressed states in a RAM budget: a state that finds no room in the first forward sweep re-plans the rest of the run from the states held (continue, or 1), re-plans from x_0 (restart), or is recomputed from the nearest state held where restored (0)", "RwAdjointGetPoolInfo", v, v, sizeof(v), &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(names); i++) {
    PetscCall(PetscStrcasecmp(v, names[i], &match));
    if (!match) continue;
    adj->poolreplan   = (PetscBool)(values[i] != RW_ADJOINT_REPLAN_STANDIN);
    adj->poolcontinue = (PetscBool)(values[i] == RW_ADJOINT_REPLAN_CONTINUE);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
  SETERRQ(PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "-%srw_checkpoint_replan %s: not continue, restart, 1, true, 0 or false", prefix ? prefix : "", v);
}

/* The size the top segment's states (not measured yet) are planned at: the
   uncompressed state and the codec's header, so that they find room */
#define RW_POOL_TOP_BYTES(adj, per) PetscMax((per), (adj)->pool.state_bytes + 64)

/* The schedule the solve follows: the continuation after a re-plan that kept the states held */
RwSchedule RwAdjointPoolSchedule_Private(RwAdjoint adj)
{
  return adj->poolcont ? adj->poolcont : adj->sched;
}

/* The states the stores hold after x_0, by step (held[0] is x_0): a re-plan's rare moment, not the time loop */
static PetscErrorCode RwAdjointPoolHeld(RwAdjoint adj, PetscInt64 s, RwScheduleHeld **held, PetscInt64 *nheld)
{
  PetscInt64 n = 1;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    for (PetscInt64 i = 0; adj->store[l] && i < adj->store[l]->slots; i++) n += adj->store[l]->step[i] > 0 && adj->store[l]->step[i] < s;
  PetscCall(PetscCalloc1(n, held));
  (*held)[0].slot = -1;
  *nheld          = 1;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    for (PetscInt64 i = 0; adj->store[l] && i < adj->store[l]->slots; i++) {
      PetscInt64 k = adj->store[l]->step[i], j = *nheld;

      if (k <= 0 || k >= s) continue;
      for (; j > 1 && (*held)[j - 1].step > k; j--) (*held)[j] = (*held)[j - 1]; /* insertion by step */
      (*held)[j].level = l;
      (*held)[j].slot  = i;
      (*held)[j].step  = k;
      (*nheld)++;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each held[j]'s free RAM slots of per bytes with held[0..j] kept (the fewest over the ranks;
   the pool's room beyond the RAM states kept, as if in one range), and the slot its stores start at;
   top[j]: the same at pertop bytes a state */
static PetscErrorCode RwAdjointPoolFree(RwAdjoint adj, PetscInt64 per, PetscInt64 pertop, RwScheduleHeld held[], PetscInt64 nheld, PetscInt64 top[])
{
  RwStore    ram = adj->store[RW_LEVEL_RAM];
  PetscInt64 pool, other = 0, sum = 0, base = 0, len, *room;

  PetscFunctionBegin;
  PetscCall(RwStoreGetPool(ram, &pool));
  for (PetscInt64 i = 0; i < ram->slots; i++) { /* every state in the pool */
    PetscCall(RwStorePoolLength_Memory(ram, i, &len));
    other += len;
  }
  for (PetscInt64 j = 1; j < nheld; j++)
    if (held[j].level == RW_LEVEL_RAM) {
      PetscCall(RwStorePoolLength_Memory(ram, held[j].slot, &len));
      other -= len; /* left: states held but not listed (a copy of x_0) */
    }
  PetscCall(PetscMalloc1(2 * nheld, &room)); /* a re-plan's rare moment, not the time loop */
  for (PetscInt64 j = 0; j < nheld; j++) {
    if (j && held[j].level == RW_LEVEL_RAM) {
      PetscCall(RwStorePoolLength_Memory(ram, held[j].slot, &len));
      sum += len;
      base = PetscMax(base, held[j].slot + 1);
    }
    held[j].base     = base;
    room[j]          = (pool - other - sum) / per;
    room[nheld + j]  = (pool - other - sum) / pertop;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, room, (PetscMPIInt)(2 * nheld), MPIU_INT64, MPI_MIN, PetscObjectComm((PetscObject)adj)));
  for (PetscInt64 j = 0; j < nheld; j++) {
    held[j].free = PetscMax(PetscMin(room[j], ram->slots - held[j].base), 0);
    top[j]       = PetscMax(PetscMin(room[nheld + j], ram->slots - held[j].base), 0);
  }
  PetscCall(PetscFree(room));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointPoolContinue_Private - the STORE act found no room in the first
  forward sweep, and -rw_checkpoint_replan continue: plan the rest of the run
  from the working state x_s and the states held (RwScheduleCreateContinuation()).
  A miss leaves the pool full, so x_s needs room: the latest states held are
  freed until it has some; how many is chosen by the forward steps each
  choice predicts, and the continuation is taken only where it predicts fewer
  than restarting at x_0 (*cont PETSC_FALSE: the caller restarts).  The slots
  are those of the largest state measured, as a restart's; the schedule of
  later solves is the restart's.  Collective.
*/
PetscErrorCode RwAdjointPoolContinue_Private(RwAdjoint adj, const RwAction *act, PetscBool *cont)
{
  RwAdjointPoolInfo *p = &adj->pool;
  RwStoreCounts      c;
  RwScheduleCounts   pred;
  RwScheduleHeld    *held;
  PetscInt64        *top, per, pertop, slots, nheld = 0, s = act->a, keep = -1, best = 0, steps, f;

  PetscFunctionBegin;
  *cont = PETSC_FALSE;
  if (!adj->poolcontinue || adj->stoptest || adj->stopsteady > 0 || s >= adj->n) PetscFunctionReturn(PETSC_SUCCESS); /* a run that may stop early: its online schedule's stop */
  PetscCall(RwStoreGetCounts(adj->store[RW_LEVEL_RAM], &c));
  per = c.kept_max; /* the state that found no room counts */
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)adj)));
  per   = PetscMax(per, p->planned_bytes);
  slots = PetscMin(adj->sched->budget[RW_LEVEL_RAM] / per, p->slots - 1);
  if (slots < 1) PetscFunctionReturn(PETSC_SUCCESS); /* the restart names the cause */
  PetscCall(RwAdjointPoolSchedule(adj, per, slots, &pred)); /* a restart's plan: the later solves', and the steps to beat */
  PetscCall(RwAdjointPoolHeld(adj, s, &held, &nheld));
  PetscCall(PetscMalloc1(nheld, &top));
  pertop = RW_POOL_TOP_BYTES(adj, per);
  PetscCall(RwAdjointPoolFree(adj, per, pertop, held, nheld, top));
  for (PetscInt64 j = nheld - 1; j >= 0; j--) { /* keep held[0..j]; ties keep more */
    if (top[j] < 1 && s < adj->n - 1) continue;
    PetscCall(RwScheduleContinuationSteps(adj->n, s, top[j], j + 1, held, &steps));
    if (keep < 0 || steps < best) {
      keep = j;
      best = steps;
    }
  }
  if (keep < 0 || best >= pred.forward_steps) {
    PetscCall(PetscFree(held));
    PetscCall(PetscFree(top));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt64 j = keep + 1; j < nheld; j++) PetscCall(RwStoreFree(adj->store[held[j].level], held[j].slot)); /* room for x_s and its segment */
  PetscCall(RwScheduleDestroy(&adj->poolcont));
  PetscCall(RwScheduleCreateContinuation(adj->sched, s, top[keep], keep + 1, held, &adj->poolcont));
  PetscCall(PetscFree(held));
  PetscCall(PetscFree(top));
  *cont            = PETSC_TRUE;
  p->planned_bytes = per;
  p->slots         = adj->sched->avail[RW_LEVEL_RAM];
  p->continued++;
  p->released += nheld - 1 - keep;
  p->steps_saved_continue += pred.forward_steps - best;
  adj->poolcontsteps = best;
  for (PetscInt64 i = 0; i < adj->poolslots; i++) adj->poolmiss[i] = -1;
  p->misses        = 0;
  p->standin_steps = 0;
  PetscCall(RwModelGetStepCounts(adj->model, &f, NULL, NULL));
  p->replans++;
  p->steps_before_replan = f - adj->poolf0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
