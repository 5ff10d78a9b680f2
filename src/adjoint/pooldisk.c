/*
  A disk budget bought at the compressed size (issue 36).

  The hdf5 store keeps a compressed state in a fixed part of its slot on each
  rank (src/store/impls/hdf5/h5packed.c): parallel HDF5 1.10 writes no
  filtered data collectively, so a slot cannot shrink to each state's length.
  By default a part is the codec's full capacity, and -rw_checkpoint_disk
  turns into slots of the uncompressed size.  Here, with a disk budget, a
  compressing hdf5 disk store and multilevel, every rank's part is sized at
  x_0's compressed size (the largest over the ranks; one compression, no
  step: RwStoreCompressedSize()), and the schedule gets budget / (part x
  ranks) disk slots, as the RAM pool (pool.c) plans its slots.

  A state that compresses to more than its part on some rank is kept nowhere
  (RwStoreTryWrite(): every rank agrees), and the driver follows pool.c's
  rules: in the first forward sweep of a run not stopped early, and unless
  -rw_checkpoint_replan 0, it re-plans (parts at the largest state measured,
  at least one disk slot fewer; the disk store made again with the new
  parts, the RAM store emptied; the sweep starts again from x_0); otherwise
  the state stands in: where the schedule restores it, the nearest earlier
  state held (or x_0) is advanced to it.  J and the gradient keep their bits
  either way.  The parts chosen are kept for later solves (the file was made
  with them).  Runs whose checkpoints must outlive the process (-rw_restart,
  reverse-sweep keeps) keep the full capacity, and the file records the part
  ("part" on its root), so a restart with other parts is refused by name.
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/private/scheduleimpl.h>
#include <rewind/private/storeimpl.h>

/* Re-plans of the disk level in one sweep before its parts go back to the
   full capacity: a state that grows step after step (a wave from rest,
   whose x_0 compresses to almost nothing) would otherwise re-plan a little
   further each time, each restart costing the steps taken and the disk
   store made again (78 re-plans for one gradient were measured) */
#define RW_DISK_MAX_REPLANS 2

/* Whether the disk level's store gets parts at the compressed size */
static PetscErrorCode RwAdjointDiskPoolApplies(RwAdjoint adj, RwStore store, PetscBool *applies)
{
  RwStoreCompressType codec;
  RwScheduleType      type;
  PetscBool           hdf5, multilevel;

  PetscFunctionBegin;
  *applies = PETSC_FALSE;
  PetscCall(RwStoreGetCompress(store, &codec, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)store, RWSTOREHDF5, &hdf5));
  PetscCall(RwScheduleGetType(adj->sched, &type));
  PetscCall(PetscStrcmp(type, RWSCHEDULEMULTILEVEL, &multilevel));
  if (codec == RW_STORE_COMPRESS_NONE || !hdf5 || !multilevel) PetscFunctionReturn(PETSC_SUCCESS);
  if (adj->sched->budget[RW_LEVEL_DISK] < 0 || adj->restart || adj->keepinterval || adj->keepseconds > 0) PetscFunctionReturn(PETSC_SUCCESS);
  *applies = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule planned for disk parts of part bytes a rank (and slots disk slots at most, if > 0); its prediction */
static PetscErrorCode RwAdjointDiskPoolSchedule(RwAdjoint adj, PetscInt64 part, PetscInt64 slots, RwScheduleCounts *pred)
{
  RwSchedule  sched = adj->sched;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)adj), &size));
  PetscCall(RwScheduleSetStateBytes(sched, sched->state_bytes[RW_LEVEL_RAM], part * size)); /* the disk budget is the job's */
  if (slots > 0) PetscCall(RwScheduleSetSlots(sched, RW_LEVEL_DISK, slots));
  PetscCall(RwScheduleSetUp(sched));
  PetscCall(RwScheduleGetPrediction(sched, pred));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A disk budget that holds no state of part compressed bytes a rank: the error names both */
static PetscErrorCode RwAdjointDiskPoolCheckFits(RwAdjoint adj, PetscInt64 part, const char what[])
{
  PetscMPIInt size;
  const char *prefix;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)adj), &size));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
  PetscCheck(adj->sched->budget[RW_LEVEL_DISK] >= part * size, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "-%srw_checkpoint_disk = %" PetscInt64_FMT " bytes holds no compressed state: %s %" PetscInt64_FMT " bytes per MPI rank, %" PetscInt64_FMT " for the job's %d ranks (%" PetscInt64_FMT " uncompressed); give at least %" PetscInt64_FMT " bytes", prefix ? prefix : "", adj->sched->budget[RW_LEVEL_DISK], what, part, part * size, (int)size, adj->disk.state_bytes, part * size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The stand-in table: per disk slot, the step of the state it should hold but could not (-1: none) */
static PetscErrorCode RwAdjointDiskPoolMissTable(RwAdjoint adj, PetscInt64 slots)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(adj->diskmiss)); /* made here, not in the time loop */
  adj->diskslots = slots;
  PetscCall(PetscMalloc1(slots, &adj->diskmiss));
  for (PetscInt64 i = 0; i < slots; i++) adj->diskmiss[i] = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The RAM store, made before the disk level's plan, made again if the new plan uses more of its slots */
static PetscErrorCode RwAdjointDiskPoolRamFits(RwAdjoint adj, const RwScheduleCounts *pred, Vec u0)
{
  PetscInt64 held;

  PetscFunctionBegin;
  if (!adj->store[RW_LEVEL_RAM]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreGetSlots(adj->store[RW_LEVEL_RAM], &held));
  if (held >= pred->max_slots_used[RW_LEVEL_RAM]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreDestroy(&adj->store[RW_LEVEL_RAM]));
  PetscCall(RwAdjointStoreMake_Private(adj, RW_LEVEL_RAM, pred->max_slots_used[RW_LEVEL_RAM], u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointDiskPoolPlan_Private - at the disk store's making (its options
  read, not set up): where it applies, the store's parts and the schedule's
  disk slots at x_0's compressed size (u0; NULL after the first plan, whose
  parts are kept); what the budget would give uncompressed, for the view
*/
PetscErrorCode RwAdjointDiskPoolPlan_Private(RwAdjoint adj, RwStore store, Vec u0)
{
  RwAdjointPoolInfo *p = &adj->disk;
  RwScheduleCounts   pred;
  PetscBool          applies;

  PetscFunctionBegin;
  PetscCall(RwAdjointDiskPoolApplies(adj, store, &applies));
  if (!applies) {
    p->pooled = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!u0) u0 = adj->diskx0; /* a re-plan of the RAM level that first needs the disk level */
  if (!p->pooled) { /* the first plan */
    PetscCheck(u0, PetscObjectComm((PetscObject)adj), PETSC_ERR_PLIB, "The disk level's first plan at the compressed size needs x_0");
    p->pooled      = PETSC_TRUE;
    p->pool_bytes  = adj->sched->budget[RW_LEVEL_DISK];
    p->state_bytes = adj->sched->state_bytes[RW_LEVEL_DISK];
    PetscCall(RwStoreCompressedSize(store, u0, &p->estimate_bytes));
    p->planned_bytes = p->estimate_bytes;
    PetscCall(RwScheduleSetUp(adj->sched));
    PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
    p->slots_uncompressed         = adj->sched->avail[RW_LEVEL_DISK];
    p->forward_steps_uncompressed = pred.forward_steps;
  }
  if (!adj->diskfull) {
    PetscCall(RwAdjointDiskPoolCheckFits(adj, p->planned_bytes, "the first state x_0 compresses to"));
    PetscCall(RwAdjointDiskPoolSchedule(adj, p->planned_bytes, 0, &pred));
  } else PetscCall(RwScheduleGetPrediction(adj->sched, &pred)); /* a re-plan fell back to the uncompressed plan */
  p->slots = adj->sched->avail[RW_LEVEL_DISK];
  /* every slot the budget buys: a plan re-made for the RAM level's pool may use more of them */
  PetscCall(RwStoreSetSlots(store, p->slots));
  PetscCall(RwStoreSetPartCapacity(store, adj->diskfull ? 0 : p->planned_bytes));
  PetscCall(RwAdjointDiskPoolMissTable(adj, p->slots));
  PetscCall(RwAdjointDiskPoolRamFits(adj, &pred, u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointDiskPoolMissed_Private - a STORE on the disk level found its
  state larger than its part: re-plan (replan) or stand in.  Collective.
*/
PetscErrorCode RwAdjointDiskPoolMissed_Private(RwAdjoint adj, const RwAction *act, PetscBool canreplan, PetscBool *replan)
{
  PetscFunctionBegin;
  PetscCheck(act->level == RW_LEVEL_DISK && act->slot < adj->diskslots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A store of level %" PetscInt_FMT " slot %" PetscInt64_FMT " was refused by a disk part", act->level, act->slot);
  *replan = (PetscBool)(canreplan && adj->poolreplan && adj->disk.slots > 1);
  if (*replan) PetscFunctionReturn(PETSC_SUCCESS);
  adj->diskmiss[act->slot] = act->a;
  adj->disk.misses++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The disk slot's stand-in entry for act (NULL: none kept), for the executor's STORE, RESTORE and FREE */
PetscInt64 *RwAdjointDiskPoolMiss_Private(RwAdjoint adj, const RwAction *act)
{
  if (act->level != RW_LEVEL_DISK || !adj->diskmiss || act->slot < 0 || act->slot >= adj->diskslots) return NULL;
  return &adj->diskmiss[act->slot];
}

/*
  RwAdjointDiskPoolReplan_Private - a disk part refused a state in the first
  forward sweep: parts at the largest compressed state so far, at least one
  disk slot fewer, the disk store made again with them and the RAM store
  emptied; the caller restarts the sweep from x_0.  Collective.
*/
PetscErrorCode RwAdjointDiskPoolReplan_Private(RwAdjoint adj)
{
  RwAdjointPoolInfo *p = &adj->disk;
  RwStoreCounts      c;
  RwScheduleCounts   pred;
  PetscInt64         per, slots, f, held;
  PetscMPIInt        size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)adj), &size));
  PetscCall(RwStoreGetCounts(adj->store[RW_LEVEL_DISK], &c)); /* the refused state's length is counted */
  per = c.kept_max;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)adj)));
  per = PetscMax(per, p->planned_bytes);
  PetscCall(RwAdjointDiskPoolCheckFits(adj, per, "the states compress to up to"));
  slots = PetscMin(adj->sched->budget[RW_LEVEL_DISK] / (per * size), p->slots - 1);
  if (slots > p->slots_uncompressed && p->replans < RW_DISK_MAX_REPLANS) {
    p->planned_bytes = per;
    PetscCall(RwAdjointDiskPoolSchedule(adj, per, slots, &pred));
  } else { /* no gain left, or states that kept growing: parts of the full capacity (the largest over the ranks), which refuse no state, in the uncompressed plan */
    per = (PetscInt64)adj->store[RW_LEVEL_DISK]->codec.cap;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)adj)));
    p->planned_bytes = per;
    adj->diskfull    = PETSC_TRUE;
    PetscCall(RwScheduleSetStateBytes(adj->sched, adj->sched->state_bytes[RW_LEVEL_RAM], p->state_bytes));
    PetscCall(RwScheduleSetSlots(adj->sched, RW_LEVEL_DISK, p->slots_uncompressed));
    PetscCall(RwScheduleSetUp(adj->sched));
    PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  }
  p->slots = adj->sched->avail[RW_LEVEL_DISK];
  PetscCall(RwScheduleDestroy(&adj->poolcont)); /* a continuation the RAM pool took earlier in this sweep: the restart follows the schedule again, as after the RAM pool's own restart */
  PetscCall(RwStoreDestroy(&adj->store[RW_LEVEL_DISK])); /* its parts are the old size: made again below */
  if (adj->store[RW_LEVEL_RAM]) {
    PetscCall(RwStoreGetSlots(adj->store[RW_LEVEL_RAM], &held));
    if (held < pred.max_slots_used[RW_LEVEL_RAM]) PetscCall(RwStoreDestroy(&adj->store[RW_LEVEL_RAM]));
    else
      for (PetscInt64 s = 0; s < held; s++) PetscCall(RwStoreFree(adj->store[RW_LEVEL_RAM], s));
  }
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (!adj->store[l] && pred.max_slots_used[l]) PetscCall(RwAdjointStoreMake_Private(adj, l, pred.max_slots_used[l], NULL));
  for (PetscInt64 i = 0; i < adj->poolslots; i++) adj->poolmiss[i] = -1; /* the old schedule's stand-ins */
  PetscCall(RwAdjointErrestSlots_Private(adj));
  p->misses        = 0;
  p->standin_steps = 0;
  PetscCall(RwModelGetStepCounts(adj->model, &f, NULL, NULL));
  p->replans++;
  p->steps_before_replan = f - adj->poolf0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A solve from x_0 = u0 begins: nothing re-planned or missed yet */
PetscErrorCode RwAdjointDiskPoolBegin_Private(RwAdjoint adj, Vec u0)
{
  PetscFunctionBegin;
  adj->diskx0                   = u0;
  adj->disk.replans             = 0;
  adj->disk.steps_before_replan = 0;
  adj->disk.misses              = 0;
  adj->disk.standin_steps       = 0;
  for (PetscInt64 i = 0; i < adj->diskslots; i++) adj->diskmiss[i] = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A solve ended: the forward steps its plan accounts for */
PetscErrorCode RwAdjointDiskPoolEnd_Private(RwAdjoint adj)
{
  RwAdjointPoolInfo *p = &adj->disk;
  RwScheduleCounts   pred;

  PetscFunctionBegin;
  adj->diskx0 = NULL; /* the caller's */
  if (!p->pooled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  p->forward_steps_planned = p->steps_before_replan + pred.forward_steps + p->standin_steps + (adj->pool.pooled ? adj->pool.steps_before_replan + adj->pool.standin_steps : 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetDiskPoolInfo - how a disk budget was planned at the compressed
  size of the states (-rw_checkpoint_disk with a compressing hdf5 disk store
  and multilevel), and what the last solve re-planned

  Not collective

  Output Parameter:
. info - pooled is PETSC_FALSE where the budget was planned at the
         uncompressed size; pool_bytes is the budget (for the job) and
         state_bytes a state's bytes for the job, planned_bytes and
         estimate_bytes are per rank (a part of a slot)

  Level: intermediate

.seealso: RwAdjointGetPoolInfo(), RwStoreSetPartCapacity(), RwAdjointView()
@*/
PetscErrorCode RwAdjointGetDiskPoolInfo(RwAdjoint adj, RwAdjointPoolInfo *info)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  *info = adj->disk;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The view's lines: the ratio the plan assumed, the slots gained, the forward steps saved */
PetscErrorCode RwAdjointDiskPoolView_Private(RwAdjoint adj, PetscViewer viewer)
{
  RwAdjointPoolInfo *p = &adj->disk;
  PetscInt64         f = adj->counts.forward_steps;
  PetscMPIInt        size;

  PetscFunctionBegin;
  if (!p->pooled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)adj), &size));
  PetscCall(PetscViewerASCIIPrintf(viewer, "disk budget at the compressed size: %" PetscInt64_FMT " bytes for the job, states of %" PetscInt64_FMT " bytes planned at %" PetscInt64_FMT " (parts of %" PetscInt64_FMT " bytes a rank; ratio %.3g; x_0 compressed to %" PetscInt64_FMT " a rank): %" PetscInt64_FMT " disk slots against %" PetscInt64_FMT " uncompressed (%+" PetscInt64_FMT " slots)\n", p->pool_bytes, p->state_bytes, p->planned_bytes * size, p->planned_bytes, (double)p->state_bytes / (double)(p->planned_bytes * size), p->estimate_bytes, p->slots, p->slots_uncompressed, p->slots - p->slots_uncompressed));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  forward steps: %" PetscInt64_FMT " against %" PetscInt64_FMT " predicted with the disk level uncompressed (%" PetscInt64_FMT " saved; %" PetscInt64_FMT " as planned)\n", f, p->forward_steps_uncompressed, p->forward_steps_uncompressed - f, p->forward_steps_planned));
  if (p->replans) PetscCall(PetscViewerASCIIPrintf(viewer, "  disk re-planned %" PetscInt64_FMT " time(s): states compressed worse than planned; %" PetscInt64_FMT " forward steps were taken before the last re-plan, from which the sweep started again at x_0\n", p->replans, p->steps_before_replan));
  if (adj->diskfull) PetscCall(PetscViewerASCIIPrintf(viewer, "  the states compressed too little to gain a slot, or grew through %d re-plans: the disk level went back to parts of the full capacity and the uncompressed plan\n", RW_DISK_MAX_REPLANS + 1));
  if (p->misses) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt64_FMT " state(s) larger than their disk part: recomputed from the nearest state held where restored (%" PetscInt64_FMT " forward steps)\n", p->misses, p->standin_steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}
