/*
  The driver's default checkpoint budget: users know their memory, not a slot
  count.  Without slots or a budget, the RAM level gets a fraction
  (-rw_checkpoint_ram_fraction, default 1/2) of the memory the node has
  available (MemAvailable of /proc/meminfo, or -rw_checkpoint_node_memory),
  shared by the ranks on the node, the least over the nodes so that every rank
  plans the same schedule.  With no schedule type chosen, the driver keeps
  every state (storeall) when they fit in it (or in -rw_checkpoint_ram), and
  otherwise runs revolve in it (multilevel with a disk level given).
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/private/scheduleimpl.h>
#include <stdio.h>

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
  if (storeall && !chosen && need <= budget) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(user || budget >= per, PetscObjectComm((PetscObject)adj), PETSC_ERR_MEM, "The default checkpoint budget, %.3g of the node's available memory shared by its ranks (%" PetscInt64_FMT " bytes per rank), holds no state of %" PetscInt64_FMT " bytes: give -rw_checkpoint_ram, -rw_checkpoint_ram_fraction or -rw_schedule_ram_slots", (double)adj->ramfraction, budget, per);
  if (storeall) PetscCall(RwScheduleSetType(sched, disk ? RWSCHEDULEMULTILEVEL : RWSCHEDULEREVOLVE));
  if (user) PetscFunctionReturn(PETSC_SUCCESS); /* the schedule checks that the user's budget holds a state */
  PetscCall(RwScheduleSetBudget(sched, RW_LEVEL_RAM, budget));
  adj->defaultbudget = budget;
  PetscFunctionReturn(PETSC_SUCCESS);
}
