/*
  The driver's default checkpoint budget: users know their memory, not a slot
  count.  Without slots or a budget, the RAM level gets a fraction
  (-rw_checkpoint_ram_fraction, default 1/2) of the memory the node has
  available (MemAvailable of /proc/meminfo, or -rw_checkpoint_node_memory),
  shared by the ranks on the node, the least over the nodes so that every rank
  plans the same schedule.  With no schedule type chosen, the driver keeps
  every state (storeall) when they fit in it (or in -rw_checkpoint_ram), and
  otherwise runs revolve in it (multilevel with a disk level given).

  That every state fits does not make keeping them all the fastest: a state
  written into memory never touched before pays for its pages' first touch,
  which on some machines (virtual ones above all) costs ten times a forward
  step, while revolve with a few dozen slots touches its slots once and
  recomputes a little.  So at the first solve the driver times a forward step
  and a state's copy into fresh and into used memory, predicts both, and keeps
  store-all only when it is not the slower (RwAdjointChooseByTime_Private()).
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/private/scheduleimpl.h>
#include <stdio.h>
#include <sys/mman.h>

/* MemAvailable in bytes, 0 when the system does not say */
static PetscInt64 RwNodeAvailableMemory(void)
{
  FILE     *f = fopen("/proc/meminfo", "r");
  char      line[256];
  long long kb = 0;

  if (!f) return 0;
  while (fgets(line, sizeof(line), f))
    if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) break;
  fclose(f);
  return (PetscInt64)kb * 1024;
}

/* The per-rank RAM budget: a fraction of the node's memory over its ranks, the least over the nodes; 0 if unknown */
static PetscErrorCode RwAdjointNodeBudget(RwAdjoint adj, PetscInt64 *budget)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)adj), node;
  PetscMPIInt nrank, nsize;
  PetscInt64  mem = adj->nodememory, mine;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_rank(node, &nrank));
  PetscCallMPI(MPI_Comm_size(node, &nsize));
  if (mem <= 0) { /* the node's own figure, read once per node */
    mem = nrank ? 0 : RwNodeAvailableMemory();
    PetscCallMPI(MPI_Bcast(&mem, 1, MPIU_INT64, 0, node));
  }
  PetscCallMPI(MPI_Comm_free(&node));
  mine = (PetscInt64)(adj->ramfraction * (double)mem / nsize);
  PetscCallMPI(MPI_Allreduce(&mine, budget, 1, MPIU_INT64, MPI_MIN, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointDefaultBudget_Private - without RAM slots, chooses the schedule
  from a RAM budget: the user's (-rw_checkpoint_ram) or, without one, the
  node's default.  chosen says whether a schedule type was chosen (by the
  options or the API): if not, storeall when every state fits, otherwise
  revolve in the budget, or multilevel when a disk level is given too
  (-rw_schedule_disk_slots, -rw_checkpoint_disk), so a budget too small for
  every state still runs.  A chosen type uses the user's budget itself; a
  chosen revolve, multilevel or online without one gets the node's.  After the
  schedule's options, with the state's size known.
*/
PetscErrorCode RwAdjointDefaultBudget_Private(RwAdjoint adj, PetscBool chosen)
{
  RwSchedule  sched;
  const char *type;
  PetscInt64  budget, per, need;
  PetscBool   storeall, revolve, multilevel, online, user, disk;

  PetscFunctionBegin;
  PetscCall(RwAdjointGetSchedule(adj, &sched));
  if (sched->slots[RW_LEVEL_RAM] != RW_SLOTS_UNSET) PetscFunctionReturn(PETSC_SUCCESS);
  user = (PetscBool)(sched->budget[RW_LEVEL_RAM] >= 0);
  disk = (PetscBool)(sched->slots[RW_LEVEL_DISK] != RW_SLOTS_UNSET || sched->budget[RW_LEVEL_DISK] >= 0);
  PetscCall(RwScheduleGetType(sched, &type));
  PetscCall(PetscStrcmp(type, RWSCHEDULESTOREALL, &storeall));
  PetscCall(PetscStrcmp(type, RWSCHEDULEREVOLVE, &revolve));
  PetscCall(PetscStrcmp(type, RWSCHEDULEMULTILEVEL, &multilevel));
  PetscCall(PetscStrcmp(type, RWSCHEDULEONLINE, &online));
  if (!(storeall && !chosen) && (user || (!revolve && !multilevel && !online))) PetscFunctionReturn(PETSC_SUCCESS); /* a chosen type plans its own slots */
  if (user) budget = sched->budget[RW_LEVEL_RAM];
  else PetscCall(RwAdjointNodeBudget(adj, &budget));
  per = sched->state_bytes[RW_LEVEL_RAM];
  if (budget <= 0 || per <= 0) PetscFunctionReturn(PETSC_SUCCESS); /* unknown: the schedule's own rules apply */
  need = PetscMax(adj->n - 2, 0) * per; /* what storeall keeps */
  if (storeall && !chosen && need <= budget) {
    adj->bytime.pending  = (PetscBool)!adj->bytime.measured;
    adj->bytime.maxslots = budget / per;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(user || budget >= per, PetscObjectComm((PetscObject)adj), PETSC_ERR_MEM, "The default checkpoint budget, %.3g of the node's available memory shared by its ranks (%" PetscInt64_FMT " bytes per rank), holds no state of %" PetscInt64_FMT " bytes: give -rw_checkpoint_ram, -rw_checkpoint_ram_fraction or -rw_schedule_ram_slots", (double)adj->ramfraction, budget, per);
  if (storeall) PetscCall(RwScheduleSetType(sched, disk ? RWSCHEDULEMULTILEVEL : RWSCHEDULEREVOLVE));
  if (user) PetscFunctionReturn(PETSC_SUCCESS); /* the schedule checks that the user's budget holds a state */
  PetscCall(RwScheduleSetBudget(sched, RW_LEVEL_RAM, budget));
  adj->defaultbudget = budget;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Below this many bytes of states per rank, store-all's first touches cost at
   most a fraction of a second even at the slowest rate seen (0.27 GB/s):
   nothing to gain, and the choice stays the same from run to run */
#define RW_TIME_CHOICE_MIN_BYTES (64 * 1048576.0)

/* Seconds to copy a state into memory never touched (fresh) and into memory
   just written (warm), the mean over a sample of states (at least 16 MiB:
   first touches vary from state to state by ten times): a store's first
   write into a slot pays the first, later writes the second.  mmap() gives
   untouched pages, as the memory store's one large block gets them from
   malloc(). */
static PetscErrorCode RwTimeStateCopies(Vec W, PetscReal *fresh, PetscReal *warm)
{
  const PetscScalar *a;
  PetscInt           nl;
  size_t             bytes, k;
  char              *p;
  PetscLogDouble     t0, t1, t2;

  PetscFunctionBegin;
  *fresh = *warm = PETSC_MAX_REAL;
  PetscCall(VecGetLocalSize(W, &nl));
  bytes = (size_t)PetscMax(nl, 1) * sizeof(PetscScalar);
  k     = PetscMax(4, (16 * 1048576 + bytes - 1) / bytes);
  p     = (char *)mmap(NULL, k * bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == (char *)MAP_FAILED) PetscFunctionReturn(PETSC_SUCCESS); /* no figure: the caller keeps store-all */
  PetscCall(VecGetArrayRead(W, &a));
  PetscCall(PetscTime(&t0));
  for (size_t i = 0; i < k; i++) PetscCall(PetscMemcpy(p + i * bytes, a, (size_t)nl * sizeof(PetscScalar)));
  PetscCall(PetscTime(&t1));
  for (size_t i = 0; i < k; i++) PetscCall(PetscMemcpy(p + i * bytes, a, (size_t)nl * sizeof(PetscScalar)));
  PetscCall(PetscTime(&t2));
  PetscCall(VecRestoreArrayRead(W, &a));
  munmap(p, k * bytes);
  *fresh = (PetscReal)(t1 - t0) / (PetscReal)k;
  *warm  = (PetscReal)(t2 - t1) / (PetscReal)k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds of a forward step from u0, the second of two (the first may set a
   solver up or touch work vectors for the first time); neither is counted */
static PetscErrorCode RwTimeForwardStep(RwAdjoint adj, Vec u0, PetscReal *step)
{
  PetscReal first;

  PetscFunctionBegin;
  PetscCall(RwModelTimeStep_Private(adj->model, 0, u0, adj->N, &first));
  PetscCall(RwModelTimeStep_Private(adj->model, 0, u0, adj->N, step));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Predicted seconds of the forward sweeps with s slots (s = n - 2: store-all).
   Store-all writes n - 2 states, each into fresh memory; revolve advances
   F(n, s) steps, touches its s slots once, and its other stores and restores
   are about one per recomputed step, into used memory.  The reverse steps are
   the same either way. */
static PetscErrorCode RwPredictForward(RwAdjointTimeChoice *c, PetscInt64 n, PetscInt64 s, PetscReal *t)
{
  PetscInt64 F;

  PetscFunctionBegin;
  if (s >= n - 2) {
    *t = n * c->step + (n - 2) * c->fresh;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwOptimalForwardSteps(n, s, &F));
  *t = F * c->step + s * c->fresh + (F - n) * c->warm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointChooseByTime_Private - at the first solve of a default store-all
  (RwAdjointDefaultBudget_Private()), keeps it or runs revolve with the slot
  count predicted fastest, whichever is predicted faster by a margin (a
  quarter: timings of a few steps are noisy).  The figures are the largest
  over the ranks, so that every rank plans the same schedule.  Not for runs
  whose checkpoints must outlive the process (-rw_restart, keeps, a disk
  store), whose schedule must not depend on a timing, nor for states too small
  to matter.  The gradient is the same bit for bit either way.
*/
PetscErrorCode RwAdjointChooseByTime_Private(RwAdjoint adj, Vec u0)
{
  RwAdjointTimeChoice *c = &adj->bytime;
  PetscReal            t[3], best = PETSC_MAX_REAL;
  PetscInt64           n = adj->n, per, smax;
  PetscBool            memory, storeall;
  RwScheduleType       type;

  PetscFunctionBegin;
  if (!c->pending) PetscFunctionReturn(PETSC_SUCCESS);
  c->pending  = PETSC_FALSE;
  c->measured = PETSC_TRUE;
  per         = adj->sched->state_bytes[RW_LEVEL_RAM];
  PetscCall(RwScheduleGetType(adj->sched, &type));
  PetscCall(PetscStrcmp(type, RWSCHEDULESTOREALL, &storeall));
  PetscCall(PetscStrcmp(adj->storetype[RW_LEVEL_RAM], RWSTOREMEMORY, &memory));
  if (!storeall || adj->sched->slots[RW_LEVEL_RAM] != RW_SLOTS_UNSET || !memory || adj->restart || adj->keepinterval || adj->keepseconds > 0 || (double)(n - 2) * (double)per < RW_TIME_CHOICE_MIN_BYTES) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwTimeForwardStep(adj, u0, &t[0]));
  PetscCall(RwTimeStateCopies(adj->W, &t[1], &t[2]));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t, 3, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)adj)));
  if (t[1] == PETSC_MAX_REAL) PetscFunctionReturn(PETSC_SUCCESS);
  c->step  = t[0];
  c->fresh = t[1];
  c->warm  = t[2];
  PetscCall(RwPredictForward(c, n, n - 2, &c->storeall));
  smax = PetscMin(c->maxslots, n - 3);
  for (PetscInt64 s = 1; s <= smax; s = PetscMax(s + 1, (s * 9) / 8)) { /* slot counts 12% apart */
    PetscReal ts;

    PetscCall(RwPredictForward(c, n, s, &ts));
    if (ts < best) {
      best     = ts;
      c->slots = s;
    }
  }
  if (!c->slots) PetscFunctionReturn(PETSC_SUCCESS);
  c->best    = best;
  c->revolve = (PetscBool)(1.25 * best < c->storeall);
  if (!c->revolve) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwScheduleSetType(adj->sched, RWSCHEDULEREVOLVE));
  PetscCall(RwScheduleSetSlots(adj->sched, RW_LEVEL_RAM, c->slots));
  PetscCall(RwScheduleSetUp(adj->sched));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointRentOrBuy_Private - after each solve of a revolve that replaced
  store-all by predicted time: store-all's touches are paid once, and its
  later solves run on memory already touched, so an optimisation loop of many
  solves would gain by buying them.  How many solves come is unknown, so the
  driver rents (revolve) until the seconds spent recomputing add up to the
  predicted price of the touches, then buys (store-all, for the solves after):
  never more than about twice the time of the better choice made knowing the
  number of solves.  Collective: the seconds are the largest over the ranks.
*/
PetscErrorCode RwAdjointRentOrBuy_Private(RwAdjoint adj)
{
  RwAdjointTimeChoice *c = &adj->bytime;
  RwAdjointCounts     *k = &adj->counts;
  PetscReal            recomputed;

  PetscFunctionBegin;
  if (!c->revolve || c->bought || !k->forward_steps) PetscFunctionReturn(PETSC_SUCCESS);
  recomputed = k->seconds_forward * (PetscReal)(k->forward_steps - k->steps) / (PetscReal)k->forward_steps;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &recomputed, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)adj)));
  c->rent += recomputed;
  if (c->rent < (adj->n - 2) * c->fresh) PetscFunctionReturn(PETSC_SUCCESS);
  c->bought = PETSC_TRUE;
  PetscCall(RwScheduleSetType(adj->sched, RWSCHEDULESTOREALL));
  PetscCall(RwScheduleSetSlots(adj->sched, RW_LEVEL_RAM, RW_SLOTS_UNLIMITED));
  PetscCall(RwScheduleSetUp(adj->sched));
  PetscCall(RwStoreDestroy(&adj->store[RW_LEVEL_RAM])); /* made again, with a slot per state, at the next solve */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The choice in RwAdjointView(): what was measured and predicted, and how to override it */
PetscErrorCode RwAdjointViewTimeChoice_Private(RwAdjoint adj, PetscViewer viewer)
{
  RwAdjointTimeChoice *c = &adj->bytime;

  PetscFunctionBegin;
  if (!c->measured || !c->slots) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "default schedule by predicted time: %s (forward sweeps %.3g s with revolve in %" PetscInt64_FMT " slots, %.3g s with store-all; a step %.3g ms, a state into untouched memory %.3g ms, into used memory %.3g ms; -rw_schedule_type storeall keeps every state)\n", c->revolve ? "revolve" : "store-all", (double)c->best, c->slots, (double)c->storeall, 1e3 * (double)c->step, 1e3 * (double)c->fresh, 1e3 * (double)c->warm));
  if (c->bought) PetscCall(PetscViewerASCIIPrintf(viewer, "  then store-all, since revolve's recomputations (%.3g s over the solves) reached the predicted cost of store-all's first touches\n", (double)c->rent));
  PetscFunctionReturn(PETSC_SUCCESS);
}
