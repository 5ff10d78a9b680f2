/*
  Resuming a killed run's first forward sweep (-rw_restart; keep.c resumes a
  reverse sweep).  Every checkpoint of the first forward sweep keeps, beside
  its state, the exact partial sum of J up to its step.  With -rw_restart and
  a store that keeps its file (hdf5), a solve replays the schedule's first
  sweep without executing it as far as the kept checkpoints agree with it,
  reads the last of them and carries on; the sums are exact, so J and the
  gradient come out bit for bit as in an uninterrupted run.
*/
#include <rewind/private/adjointimpl.h>

/* A STORE or FREE of the first sweep, replayed: where the stream had it and,
   for a STORE, whether the sweep gives its checkpoint up (FREE) later */
typedef struct {
  PetscInt64 i;
  RwAction   act;
  PetscBool  freed, intact;
} RwResumeEvent;

/* Whether the stores hold the checkpoint of a replayed STORE as the first sweep kept it */
static PetscErrorCode RwAdjointStoreIntact(RwAdjoint adj, PetscInt64 *valid[], const RwAction *act, PetscBool *intact)
{
  PetscFunctionBegin;
  *intact = PETSC_FALSE;
  if (valid[act->level][act->slot] != act->a) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreGetAttachment(adj->store[act->level], act->slot, adj->attach));
  *intact = (PetscBool)(adj->attach[0] == 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A checkpoint held at some point of the replay that the resumed run could not do without: damaged, and not given up unread later */
static inline PetscBool RwResumeBad(const RwResumeEvent *e)
{
  return (PetscBool)(!e->intact && !e->freed);
}

/* Event e (a STORE, or a FREE) changes what its slot holds; bad counts the held checkpoints that are bad */
static void RwResumeHold(PetscInt64 *held[], const RwResumeEvent ev[], PetscInt64 e, PetscInt64 *bad)
{
  const RwAction *a    = &ev[e].act;
  PetscInt64     *slot = &held[a->level][a->slot];

  if (*slot >= 0 && RwResumeBad(&ev[*slot])) (*bad)--;
  *slot = a->type == RW_ACTION_FREE ? -1 : e;
  if (*slot >= 0 && RwResumeBad(&ev[*slot])) (*bad)++;
}

/*
  The first sweep's checkpoint a resumed run starts from.  The sweep's
  STOREs and FREEs are replayed; the run resumes at the last STORE whose
  checkpoint the stores hold, as that sweep kept it, while each other
  checkpoint held at that point is intact too or given up later in the sweep
  without being read.  An online schedule thins its spine so: the killed run
  may have written that slot again already, and the resumed one never reads
  it.  An offline schedule frees nothing in its first sweep, so this is the
  last of its stores up to which all reached the stores.
*/
static PetscErrorCode RwAdjointFindResume(RwAdjoint adj, PetscInt64 *upto, RwAction *last)
{
  PetscInt64    *valid[RW_NUM_LEVELS] = {NULL, NULL}, *held[RW_NUM_LEVELS] = {NULL, NULL}, slots[RW_NUM_LEVELS] = {0, 0}, n = 0, cap = 64;
  RwResumeEvent *ev;
  RwAction       act;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    if (!adj->store[l]) continue;
    PetscCall(RwStoreGetSlots(adj->store[l], &slots[l]));
    PetscCall(PetscMalloc2(slots[l], &valid[l], slots[l], &held[l]));
    PetscCall(RwStoreGetValidSteps(adj->store[l], valid[l]));
    for (PetscInt64 s = 0; s < slots[l]; s++) held[l][s] = -1;
  }
  PetscCall(PetscMalloc1(cap, &ev));
  PetscCall(RwScheduleReset(adj->sched));
  for (PetscInt64 i = 0;; i++) { /* the first sweep: which of its checkpoints it gives up */
    PetscCall(RwScheduleNext(adj->sched, &act));
    if (act.type == RW_ACTION_ADVANCE) continue;
    if ((act.type != RW_ACTION_STORE && act.type != RW_ACTION_FREE) || !held[act.level]) break;
    if (n == cap) PetscCall(PetscRealloc(sizeof(*ev) * (size_t)(cap *= 2), &ev));
    ev[n].i = i, ev[n].act = act, ev[n].freed = PETSC_FALSE, ev[n].intact = PETSC_FALSE;
    if (act.type == RW_ACTION_FREE) {
      if (held[act.level][act.slot] >= 0) ev[held[act.level][act.slot]].freed = PETSC_TRUE;
      held[act.level][act.slot] = -1;
    } else {
      PetscCall(RwAdjointStoreIntact(adj, valid, &act, &ev[n].intact));
      held[act.level][act.slot] = n;
    }
    n++;
  }
  *upto = -1;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    for (PetscInt64 s = 0; held[l] && s < slots[l]; s++) held[l][s] = -1;
  for (PetscInt64 e = 0, bad = 0; e < n; e++) { /* again, each STORE with what is held after it */
    RwResumeHold(held, ev, e, &bad);
    if (ev[e].act.type == RW_ACTION_STORE && ev[e].intact && !bad) *upto = ev[e].i, *last = ev[e].act;
  }
  PetscCall(PetscFree(ev));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) PetscCall(PetscFree2(valid[l], held[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_restart: positions the schedule and the run after the last usable kept checkpoint */
PetscErrorCode RwAdjointResume_Private(RwAdjoint adj, RwRun *run)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)adj);
  PetscInt64 upto = -1;
  RwAction   last = {RW_ACTION_END, 0, 0, 0, 0}, act;

  PetscFunctionBegin;
  PetscCall(RwAdjointFindResume(adj, &upto, &last));
  PetscCall(RwScheduleReset(adj->sched));
  if (upto < 0) {
    PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: -rw_restart found no kept checkpoint of this problem's forward sweep; starting from step 0\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt64 i = 0; i <= upto; i++) PetscCall(RwScheduleNext(adj->sched, &act));
  run->action = upto + 1;
  PetscCall(RwStoreRead(adj->store[last.level], last.slot, last.a, adj->W));
  PetscCall(RwStoreGetAttachment(adj->store[last.level], last.slot, adj->attach));
  PetscCall(RwObjectiveImportState(adj->obj, adj->attach + 1));
  run->w = run->reached    = last.a;
  PetscCall(RwAdjointMonitorSkip_Private(adj, last.a));
  adj->counts.resumed_from = last.a;
  PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: -rw_restart resumes the forward sweep at step %" PetscInt64_FMT " of %" PetscInt64_FMT " from a kept checkpoint\n", last.a, adj->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}
