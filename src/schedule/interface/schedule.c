/* RwSchedule: the class interface. Types live in src/schedule/impls/<type>/. */
#include "../engine.h"

PetscFunctionList RwScheduleList              = NULL;
PetscBool         RwScheduleRegisterAllCalled = PETSC_FALSE;

const char *const RwActionTypes[] = {"advance", "store", "restore", "free", "reverse", "end", "RwActionType", "RW_ACTION_", NULL};

PETSC_EXTERN PetscErrorCode RwScheduleCreate_Storeall(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Periodic(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Revolve(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Online(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Multilevel(RwSchedule);

/*@C
  RwScheduleRegister - adds a schedule type under a name usable with -rw_schedule_type

  Not collective

  Input Parameters:
+ name   - the type's name
- create - the constructor, which fills sched->ops and sched->data

  Level: advanced

.seealso: RwScheduleRegisterAll(), RwScheduleSetType()
@*/
PetscErrorCode RwScheduleRegister(const char name[], PetscErrorCode (*create)(RwSchedule))
{
  PetscFunctionBegin;
  PetscCall(RwInitializePackage());
  PetscCall(PetscFunctionListAdd(&RwScheduleList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleRegisterAll - registers the schedule types built into rewind

  Not collective

  Level: advanced

.seealso: RwScheduleRegister()
@*/
PetscErrorCode RwScheduleRegisterAll(void)
{
  PetscFunctionBegin;
  if (RwScheduleRegisterAllCalled) PetscFunctionReturn(PETSC_SUCCESS);
  RwScheduleRegisterAllCalled = PETSC_TRUE;
  PetscCall(RwScheduleRegister(RWSCHEDULESTOREALL, RwScheduleCreate_Storeall));
  PetscCall(RwScheduleRegister(RWSCHEDULEPERIODIC, RwScheduleCreate_Periodic));
  PetscCall(RwScheduleRegister(RWSCHEDULEREVOLVE, RwScheduleCreate_Revolve));
  PetscCall(RwScheduleRegister(RWSCHEDULEMULTILEVEL, RwScheduleCreate_Multilevel));
  PetscCall(RwScheduleRegister(RWSCHEDULEONLINE, RwScheduleCreate_Online));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleCreate - creates a schedule; choose its type with RwScheduleSetType() or -rw_schedule_type

  Collective

  Input Parameter:
. comm - the communicator (schedules are pure and replicated on every rank; PETSC_COMM_SELF is usual)

  Output Parameter:
. sched - the new schedule

  Level: beginner

  Notes:
  The conventions every type follows:
+ levels - RW_LEVEL_RAM (0) and RW_LEVEL_DISK (1)
. x_0 - the driver's input, restorable without a slot: no schedule stores
        step 0, "restore ram 0" (slot -1) is always valid, so s RAM slots act
        like Griewank and Walther's s+1 checkpoints
. REVERSE k - the adjoint of step k -> k+1, with the working state x_k; the
        driver keeps x_(k+1) from REVERSE k+1 and takes the one step
        x_(n-1) -> x_n itself before REVERSE n-1; after a REVERSE the working
        state is undefined until the next RESTORE
. counting - forward steps = sum of ADVANCE lengths + 1 (that step to x_n)
- FREE - follows immediately the last RESTORE of a checkpoint; at END nothing is held

  Costs default to uf = ub = wd = rd = 1 (see RwScheduleSetCosts()).

.seealso: RwScheduleSetType(), RwScheduleSetFromOptions(), RwScheduleNext(), RwScheduleDestroy()
@*/
PetscErrorCode RwScheduleCreate(MPI_Comm comm, RwSchedule *sched)
{
  RwSchedule obj;

  PetscFunctionBegin;
  PetscValidPointer(sched, 2);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(obj, RW_SCHEDULE_CLASSID, "RwSchedule", "Checkpointing schedule", "RwSchedule", comm, RwScheduleDestroy, RwScheduleView));
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) {
    obj->slots[lv]  = RW_SLOTS_UNSET;
    obj->budget[lv] = -1;
  }
  obj->uf = obj->ub = obj->wd = obj->rd = 1.0;
  obj->nlevels                          = 1;
  *sched                                = obj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleSetType - chooses the checkpointing strategy

  Collective

  Input Parameters:
+ sched - the schedule
- type  - a registered type name: RWSCHEDULESTOREALL, RWSCHEDULEPERIODIC, RWSCHEDULEREVOLVE, RWSCHEDULEMULTILEVEL

  Options Database Key:
. -rw_schedule_type <type> - the schedule type

  Level: beginner

.seealso: RwScheduleGetType(), RwScheduleRegister()
@*/
PetscErrorCode RwScheduleSetType(RwSchedule sched, RwScheduleType type)
{
  PetscErrorCode (*create)(RwSchedule) = NULL;
  PetscBool same;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidCharPointer(type, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)sched, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwScheduleRegisterAll());
  PetscCall(RwTypeFind((PetscObject)sched, RwScheduleList, "-rw_schedule_type", type, (void (**)(void)) & create));
  PetscTryTypeMethod(sched, destroy);
  PetscCall(PetscMemzero(sched->ops, sizeof(struct _RwScheduleOps)));
  sched->data        = NULL;
  sched->setupcalled = PETSC_FALSE;
  sched->online      = PETSC_FALSE;
  PetscCall(PetscObjectChangeTypeName((PetscObject)sched, type));
  PetscCall((*create)(sched));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleGetType - the schedule's type name

  Not collective

  Level: beginner

.seealso: RwScheduleSetType()
@*/
PetscErrorCode RwScheduleGetType(RwSchedule sched, RwScheduleType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidPointer(type, 2);
  *type = ((PetscObject)sched)->type_name;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetSteps - sets n, the number of time steps to reverse (steps 0 -> 1, ..., n-1 -> n)

  Logically collective

  Input Parameters:
+ sched - the schedule
- n     - the number of steps, n >= 1 (64-bit: n may exceed 2^31)

  Level: beginner

.seealso: RwScheduleGetSteps(), RwScheduleSetSlots()
@*/
PetscErrorCode RwScheduleSetSteps(RwSchedule sched, PetscInt64 n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_OUTOFRANGE, "Number of steps n = %" PetscInt64_FMT "; expected n >= 1", n);
  sched->n           = n;
  sched->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleGetSteps - the number of steps n

  Not collective

  Level: beginner

.seealso: RwScheduleSetSteps()
@*/
PetscErrorCode RwScheduleGetSteps(RwSchedule sched, PetscInt64 *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidPointer(n, 2);
  *n = sched->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *LevelName(PetscInt level)
{
  return level == RW_LEVEL_RAM ? "RAM" : "disk";
}

static PetscErrorCode CheckLevel(RwSchedule sched, PetscInt level)
{
  PetscFunctionBegin;
  PetscCheck(level >= 0 && level < RW_NUM_LEVELS, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_OUTOFRANGE, "Level %" PetscInt_FMT "; expected RW_LEVEL_RAM (0) or RW_LEVEL_DISK (1)", level);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetSlots - sets how many checkpoints a level can hold at once

  Logically collective

  Input Parameters:
+ sched - the schedule
. level - RW_LEVEL_RAM or RW_LEVEL_DISK
- s     - the slots, s >= 0, or RW_SLOTS_UNLIMITED; x_0 needs no slot

  Options Database Keys:
+ -rw_schedule_ram_slots <s|inf>  - RAM slots
- -rw_schedule_disk_slots <d|inf> - disk slots

  Level: beginner

  Notes:
  A memory budget (RwScheduleSetBudget(), -rw_checkpoint_ram, -rw_checkpoint_disk)
  gives slots too; with both, the schedule uses the smaller number.

.seealso: RwScheduleGetSlots(), RwScheduleSetBudget(), RwScheduleSetStateBytes()
@*/
PetscErrorCode RwScheduleSetSlots(RwSchedule sched, PetscInt level, PetscInt64 s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCall(CheckLevel(sched, level));
  PetscCheck(s >= 0 || s == RW_SLOTS_UNLIMITED, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_OUTOFRANGE, "%s slots %" PetscInt64_FMT " (-rw_schedule_%s_slots); expected a count >= 0 or RW_SLOTS_UNLIMITED", LevelName(level), s, level == RW_LEVEL_RAM ? "ram" : "disk");
  sched->slots[level] = s;
  sched->setupcalled  = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleGetSlots - the slots of a level the schedule may use, after budgets are resolved

  Not collective

  Input Parameters:
+ sched - the schedule, set up
- level - RW_LEVEL_RAM or RW_LEVEL_DISK

  Output Parameter:
. s - the slots (RW_SLOTS_UNLIMITED if unbounded, 0 for a level the schedule does not use);
      the store for that level needs this many buffers (RwScheduleGetPrediction()
      gives the most it will actually hold)

  Level: beginner

.seealso: RwScheduleSetSlots(), RwScheduleSetUp()
@*/
PetscErrorCode RwScheduleGetSlots(RwSchedule sched, PetscInt level, PetscInt64 *s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidPointer(s, 3);
  PetscCall(CheckLevel(sched, level));
  PetscCheck(sched->setupcalled, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() before RwScheduleGetSlots()");
  *s = sched->avail[level];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetBudget - gives a level's memory budget, from which the slots follow

  Logically collective

  Input Parameters:
+ sched - the schedule
. level - RW_LEVEL_RAM (bytes per MPI rank) or RW_LEVEL_DISK (bytes for the whole job)
- bytes - the budget

  Options Database Keys:
+ -rw_checkpoint_ram <bytes>  - e.g. 4GiB, per rank
- -rw_checkpoint_disk <bytes> - e.g. 200GiB, for the job

  Level: intermediate

  Notes:
  At RwScheduleSetUp() the slots are floor(bytes / bytes per state) with the
  sizes from RwScheduleSetStateBytes(); a budget below one state is an error.

.seealso: RwScheduleSetStateBytes(), RwScheduleSetSlots(), RwParseBytes()
@*/
PetscErrorCode RwScheduleSetBudget(RwSchedule sched, PetscInt level, PetscInt64 bytes)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCall(CheckLevel(sched, level));
  PetscCheck(bytes >= 0, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_OUTOFRANGE, "Budget of %" PetscInt64_FMT " bytes (-rw_checkpoint_%s); expected bytes >= 0", bytes, level == RW_LEVEL_RAM ? "ram" : "disk");
  sched->budget[level] = bytes;
  sched->setupcalled   = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetStateBytes - the size of one state on each level, which turns budgets into slots

  Logically collective

  Input Parameters:
+ sched - the schedule
. ram   - bytes of one state per MPI rank (the RAM budget is per rank)
- disk  - bytes of one state for the whole job (the disk budget is for the job)

  Level: intermediate

  Notes:
  The driver calls this before RwScheduleSetFromOptions() and RwScheduleSetUp().

.seealso: RwScheduleSetBudget()
@*/
PetscErrorCode RwScheduleSetStateBytes(RwSchedule sched, PetscInt64 ram, PetscInt64 disk)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCheck(ram >= 0 && disk >= 0, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_OUTOFRANGE, "State sizes %" PetscInt64_FMT " (RAM) and %" PetscInt64_FMT " (disk) bytes; expected sizes >= 0", ram, disk);
  sched->state_bytes[RW_LEVEL_RAM]  = ram;
  sched->state_bytes[RW_LEVEL_DISK] = disk;
  sched->setupcalled                = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetCosts - the cost model: cost = uf*forward steps + ub*reverse steps + wd*disk writes + rd*disk reads

  Logically collective

  Input Parameters:
+ sched - the schedule
. uf    - cost of one forward step
. ub    - cost of one reverse (adjoint) step
. wd    - cost of writing one state to disk
- rd    - cost of reading one state from disk

  Options Database Key:
. -rw_schedule_costs <uf,ub,wd,rd> - the four costs, e.g. measured seconds

  Level: intermediate

  Notes:
  RAM copies are free. All costs must be >= 0; the defaults are 1.
  Only multilevel chooses its actions by the costs; every type reports its cost.

.seealso: RwScheduleGetCosts(), RWSCHEDULEMULTILEVEL
@*/
PetscErrorCode RwScheduleSetCosts(RwSchedule sched, PetscReal uf, PetscReal ub, PetscReal wd, PetscReal rd)
{
  const PetscReal c[4]    = {uf, ub, wd, rd};
  const char     *name[4] = {"uf", "ub", "wd", "rd"};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  for (int i = 0; i < 4; i++) PetscCheck(c[i] >= 0 && !PetscIsInfOrNanReal(c[i]), PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_OUTOFRANGE, "Cost %s = %.6g (-rw_schedule_costs uf,ub,wd,rd); expected a finite cost >= 0", name[i], (double)c[i]);
  sched->uf          = uf;
  sched->ub          = ub;
  sched->wd          = wd;
  sched->rd          = rd;
  sched->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleGetCosts - the cost model

  Not collective

  Level: intermediate

.seealso: RwScheduleSetCosts()
@*/
PetscErrorCode RwScheduleGetCosts(RwSchedule sched, PetscReal *uf, PetscReal *ub, PetscReal *wd, PetscReal *rd)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  if (uf) *uf = sched->uf;
  if (ub) *ub = sched->ub;
  if (wd) *wd = sched->wd;
  if (rd) *rd = sched->rd;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetPeriod - the steps between checkpoints of a periodic schedule

  Logically collective

  Input Parameters:
+ sched - the schedule
- k     - the period, k >= 1

  Options Database Key:
. -rw_schedule_period <k> - the period

  Level: intermediate

.seealso: RWSCHEDULEPERIODIC
@*/
PetscErrorCode RwScheduleSetPeriod(RwSchedule sched, PetscInt64 k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCheck(k >= 1, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_OUTOFRANGE, "Period %" PetscInt64_FMT " (-rw_schedule_period); expected k >= 1", k);
  sched->period      = k;
  sched->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleGetNumLevels - how many levels the schedule stores on: 1 (RAM) or 2 (RAM and disk)

  Not collective

  Level: intermediate

.seealso: RwScheduleGetSlots()
@*/
PetscErrorCode RwScheduleGetNumLevels(RwSchedule sched, PetscInt *nlevels)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidPointer(nlevels, 2);
  PetscCheck(sched->setupcalled, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() before RwScheduleGetNumLevels()");
  *nlevels = sched->nlevels;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_schedule_<level>_slots and -rw_checkpoint_<level> */
static PetscErrorCode SetLevelFromOptions(PetscOptionItems *PetscOptionsObject, RwSchedule sched, PetscInt level)
{
  const char *lv = level == RW_LEVEL_RAM ? "ram" : "disk";
  char        opt[64], text[128], str[256] = "";
  PetscInt64  s = sched->slots[level], bytes;
  PetscBool   set;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-rw_schedule_%s_slots", lv));
  PetscCall(PetscSNPrintf(text, sizeof(text), "Checkpoints the %s level holds at once (a number or inf)", LevelName(level)));
  PetscCall(RwScheduleOptionsCount(PetscOptionsObject, opt, text, "RwScheduleSetSlots", PETSC_TRUE, &s, &set));
  if (set) PetscCall(RwScheduleSetSlots(sched, level, s));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-rw_checkpoint_%s", lv));
  PetscCall(PetscSNPrintf(text, sizeof(text), level == RW_LEVEL_RAM ? "RAM for checkpoints per MPI rank (e.g. 4GiB)" : "Disk for checkpoints, whole job (e.g. 200GiB)"));
  PetscCall(PetscOptionsString(opt, text, "RwScheduleSetBudget", str, str, sizeof(str), &set));
  if (set) {
    PetscBool ok;
    char      why[256];

    PetscCall(RwParseBytesCheck(str, &bytes, &ok, why, sizeof(why)));
    PetscCheck(ok, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONG, "%s %s: %s", opt, str, why);
    PetscCall(RwScheduleSetBudget(sched, level, bytes));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleSetOptionsPrefix - the prefix of every option of the schedule

  Logically collective; before RwScheduleSetFromOptions()

  Level: intermediate

.seealso: RwScheduleAppendOptionsPrefix(), RwScheduleGetOptionsPrefix()
@*/
PetscErrorCode RwScheduleSetOptionsPrefix(RwSchedule obj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_SCHEDULE_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleAppendOptionsPrefix - appends to the schedule's options prefix

  Logically collective; before RwScheduleSetFromOptions()

  Level: intermediate

.seealso: RwScheduleSetOptionsPrefix()
@*/
PetscErrorCode RwScheduleAppendOptionsPrefix(RwSchedule obj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_SCHEDULE_CLASSID, 1);
  PetscCall(PetscObjectAppendOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleGetOptionsPrefix - the schedule's options prefix (NULL: none)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwScheduleGetOptionsPrefix(RwSchedule obj, const char *prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_SCHEDULE_CLASSID, 1);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetFromOptions - sets the schedule's type, slots, budgets and costs from the options database

  Collective

  Options Database Keys:
+ -rw_schedule_type <revolve>        - storeall, periodic, revolve (the default) or multilevel
. -rw_schedule_ram_slots <s|inf>     - RAM slots
. -rw_schedule_disk_slots <d|inf>    - disk slots
. -rw_checkpoint_ram <bytes>         - RAM budget per MPI rank (4GiB, 512MiB, 200GB, 1.5e9, ...)
. -rw_checkpoint_disk <bytes>        - disk budget for the whole job
- -rw_schedule_costs <uf,ub,wd,rd>   - costs of a forward step, a reverse step, a disk write, a disk read

  Level: beginner

.seealso: RwScheduleSetType(), RwScheduleSetSlots(), RwScheduleSetBudget(), RwScheduleSetCosts()
@*/
PetscErrorCode RwScheduleSetFromOptions(RwSchedule sched)
{
  char      type[256];
  PetscReal c[4]  = {sched->uf, sched->ub, sched->wd, sched->rd};
  PetscInt  nc    = 4;
  PetscBool set;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCall(RwScheduleRegisterAll());
  PetscObjectOptionsBegin((PetscObject)sched);
  PetscCall(RwOptionsHelpOnce(PetscOptionsObject)); /* a rank's own schedule prints its help once, not from every rank */
  PetscCall(PetscOptionsFList("-rw_schedule_type", "Schedule type", "RwScheduleSetType", RwScheduleList, ((PetscObject)sched)->type_name ? ((PetscObject)sched)->type_name : RWSCHEDULEREVOLVE, type, sizeof(type), &set));
  if (set) PetscCall(RwScheduleSetType(sched, type));
  else if (!((PetscObject)sched)->type_name) PetscCall(RwScheduleSetType(sched, RWSCHEDULEREVOLVE));
  PetscCall(SetLevelFromOptions(PetscOptionsObject, sched, RW_LEVEL_RAM));
  PetscCall(SetLevelFromOptions(PetscOptionsObject, sched, RW_LEVEL_DISK));
  PetscCall(RwOptionsRealArray("-rw_schedule_costs", "Costs uf,ub,wd,rd: forward step, reverse step, disk write, disk read", "RwScheduleSetCosts", NULL, c, &nc, &set, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  if (set) {
    PetscCheck(nc == 4, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_SIZ, "-rw_schedule_costs takes 4 costs uf,ub,wd,rd; got %" PetscInt_FMT, nc);
    PetscCall(RwScheduleSetCosts(sched, c[0], c[1], c[2], c[3]));
  }
  PetscTryTypeMethod(sched, setfromoptions, PetscOptionsObject);
  PetscCall(PetscObjectProcessOptionsHandlers((PetscObject)sched, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Slots of a level from its count and its budget: the smaller */
static PetscErrorCode ResolveSlots(RwSchedule sched, PetscInt level)
{
  PetscInt64  s = sched->slots[level], per = sched->state_bytes[level], fit;
  const char *lv = level == RW_LEVEL_RAM ? "ram" : "disk", *unit = level == RW_LEVEL_RAM ? "per MPI rank" : "for the whole job";

  PetscFunctionBegin;
  if (sched->budget[level] >= 0) {
    PetscCheck(per > 0, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "-rw_checkpoint_%s gives a budget, but the size of a state is unknown: call RwScheduleSetStateBytes() first", lv);
    fit = sched->budget[level] / per;
    PetscCheck(fit >= 1, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_OUTOFRANGE, "-rw_checkpoint_%s = %" PetscInt64_FMT " bytes holds no state: one state is %" PetscInt64_FMT " bytes %s; give at least %" PetscInt64_FMT " bytes", lv, sched->budget[level], per, unit, per);
    s = (s == RW_SLOTS_UNSET || s == RW_SLOTS_UNLIMITED) ? fit : PetscMin(s, fit);
  }
  sched->avail[level] = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetUp - resolves the slots from counts and budgets and plans the schedule; later calls do nothing until a setting changes

  Collective

  Level: advanced

  Notes:
  Errors here name the options to give: a revolve or multilevel schedule
  without RAM slots, a budget smaller than one state, too few slots for a
  storeall or periodic schedule.

.seealso: RwScheduleSetFromOptions(), RwScheduleNext()
@*/
PetscErrorCode RwScheduleSetUp(RwSchedule sched)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  if (sched->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(((PetscObject)sched)->type_name, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "RwSchedule has no type: call RwScheduleSetType() or RwScheduleSetFromOptions() first");
  PetscCheck(sched->n >= 1, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "RwSchedule has no steps: call RwScheduleSetSteps() with n >= 1 first");
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) PetscCall(ResolveSlots(sched, lv));
  sched->nlevels = 1;
  PetscTryTypeMethod(sched, setup);
  for (PetscInt lv = sched->nlevels; lv < RW_NUM_LEVELS; lv++) sched->avail[lv] = 0;
  sched->setupcalled = PETSC_TRUE;
  PetscCall(RwScheduleReset(sched));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleReset - goes back to the first action; the stream that follows is the same, action for action

  Not collective

  Level: intermediate

.seealso: RwScheduleNext()
@*/
PetscErrorCode RwScheduleReset(RwSchedule sched)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCheck(sched->setupcalled, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() before RwScheduleReset()");
  sched->qhead = sched->qlen = 0;
  sched->ended               = PETSC_FALSE;
  sched->stopped             = PETSC_FALSE;
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) sched->held[lv] = 0;
  PetscUseTypeMethod(sched, reset);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleNext - the next action for the driver

  Not collective

  Input Parameter:
. sched - the schedule, set up

  Output Parameter:
. action - the action (see RwAction); after END, END again until RwScheduleReset()

  Level: beginner

  Notes:
  Every rank generates the same stream without communication; a built-in type
  spends O(1) amortised time per action and memory proportional to the
  checkpoints held.

.seealso: RwScheduleReset(), RwActionView(), RwScheduleValidate()
@*/
PetscErrorCode RwScheduleNext(RwSchedule sched, RwAction *action)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidPointer(action, 2);
  PetscCheck(sched->setupcalled, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() before RwScheduleNext()");
  if (!sched->qlen && sched->ended) {
    PetscCall(PetscMemzero(action, sizeof(*action)));
    action->type = RW_ACTION_END;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  while (!sched->qlen) PetscUseTypeMethod(sched, fill);
  *action      = sched->queue[sched->qhead];
  sched->qhead = (sched->qhead + 1) % RW_SCHEDULE_RING;
  sched->qlen--;
  if (action->type == RW_ACTION_END) sched->ended = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwSchedulePeek - an action the driver will be given later, without taking it:
  the i-th after the next one RwScheduleNext() returns (i = 0: that one)

  Not collective

  Input Parameters:
+ sched - the schedule, set up
- i     - how far ahead, 0 <= i

  Output Parameters:
+ action - the action, if known
- known  - PETSC_FALSE when the schedule cannot tell yet: i >= RW_SCHEDULE_PEEK,
           or an online schedule before its run has stopped (its actions
           depend on where it stops; once stopped, its reverse sweep is known)

  Level: developer

  Notes:
  The stream is deterministic, so what a peek sees is what RwScheduleNext()
  returns later.  After END, END.  The driver peeks at the next RESTORE to
  let its store read it ahead (RwStorePrefetch()).

.seealso: RwScheduleNext()
@*/
PetscErrorCode RwSchedulePeek(RwSchedule sched, PetscInt i, RwAction *action, PetscBool *known)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidPointer(action, 3);
  PetscCheck(sched->setupcalled, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() before RwSchedulePeek()");
  *known = PETSC_FALSE;
  if (i < 0 || i >= RW_SCHEDULE_PEEK || (sched->online && !sched->stopped)) PetscFunctionReturn(PETSC_SUCCESS);
  /* fill only below RW_SCHEDULE_PEEK queued actions, so that a fill of up to RW_SCHEDULE_QUEUE fits */
  while (sched->qlen <= i && !sched->ended) {
    if (sched->qlen && sched->queue[(sched->qhead + sched->qlen - 1) % RW_SCHEDULE_RING].type == RW_ACTION_END) break;
    PetscUseTypeMethod(sched, fill);
  }
  if (sched->qlen > i) *action = sched->queue[(sched->qhead + i) % RW_SCHEDULE_RING];
  else { /* the stream ended before */
    PetscCall(PetscMemzero(action, sizeof(*action)));
    action->type = RW_ACTION_END;
  }
  *known = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleEmit - for types: queues an action (RwScheduleNext() hands them out in order)

  Not collective

  Input Parameters:
+ sched - the schedule
. type  - the action
. a, b  - the steps (ADVANCE a -> b; otherwise the step k = a = b)
. level - STORE, RESTORE, FREE: the level
- slot  - STORE, RESTORE, FREE: the slot, -1 for x_0

  Level: developer

.seealso: RwScheduleEmitStore(), RwScheduleEmitFree()
@*/
PetscErrorCode RwScheduleEmit(RwSchedule sched, RwActionType type, PetscInt64 a, PetscInt64 b, PetscInt level, PetscInt64 slot)
{
  RwAction *act;

  PetscFunctionBegin;
  PetscCheck(sched->qlen < RW_SCHEDULE_RING, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule type emitted more than %d actions at once", RW_SCHEDULE_QUEUE);
  act        = &sched->queue[(sched->qhead + sched->qlen++) % RW_SCHEDULE_RING];
  act->type  = type;
  act->a     = a;
  act->b     = type == RW_ACTION_ADVANCE ? b : a;
  act->level = level;
  act->slot  = slot;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleEmitStore - for types: queues the store of x_step on level in the next free slot of a stack

  Not collective

  Output Parameter:
. slot - the slot: the number of checkpoints the level held before

  Level: developer

.seealso: RwScheduleEmitFree()
@*/
PetscErrorCode RwScheduleEmitStore(RwSchedule sched, PetscInt level, PetscInt64 step, PetscInt64 *slot)
{
  PetscFunctionBegin;
  *slot = sched->held[level]++;
  PetscCall(RwScheduleEmit(sched, RW_ACTION_STORE, step, step, level, *slot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleEmitFree - for types: queues the free of the last checkpoint stored on level

  Not collective

  Level: developer

.seealso: RwScheduleEmitStore()
@*/
PetscErrorCode RwScheduleEmitFree(RwSchedule sched, PetscInt level, PetscInt64 slot, PetscInt64 step)
{
  PetscFunctionBegin;
  PetscCheck(slot == sched->held[level] - 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Checkpoint of step %" PetscInt64_FMT " freed out of order: slot %" PetscInt64_FMT " of %" PetscInt64_FMT " held on %s", step, slot, sched->held[level], LevelName(level));
  sched->held[level]--;
  PetscCall(RwScheduleEmit(sched, RW_ACTION_FREE, step, step, level, slot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleCountsComplete - for types: sets counts->cost from the other fields and the schedule's costs

  Not collective

  Level: developer

.seealso: RwScheduleGetPrediction()
@*/
PetscErrorCode RwScheduleCountsComplete(RwSchedule sched, RwScheduleCounts *c)
{
  PetscFunctionBegin;
  c->cost = sched->uf * (PetscReal)c->forward_steps + sched->ub * (PetscReal)c->reverse_steps + sched->wd * (PetscReal)c->stores[RW_LEVEL_DISK] + sched->rd * (PetscReal)c->restores[RW_LEVEL_DISK];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleGetPrediction - what the schedule will do, computed by the type without replaying it

  Not collective

  Input Parameter:
. sched - the schedule, set up

  Output Parameter:
. counts - forward and reverse steps, stores, restores and frees per level,
           the most slots held per level, the number of actions, the cost

  Level: intermediate

  Notes:
  storeall, periodic and revolve count in closed form or from memoized
  segment counts (n = 1e9 takes milliseconds); multilevel's cost is its
  dynamic programme's optimum. RwScheduleValidate() replays the stream and
  must agree.

.seealso: RwScheduleValidate(), RwOptimalForwardSteps()
@*/
PetscErrorCode RwScheduleGetPrediction(RwSchedule sched, RwScheduleCounts *counts)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidPointer(counts, 2);
  PetscCheck(sched->setupcalled, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() before RwScheduleGetPrediction()");
  PetscUseTypeMethod(sched, predict, counts);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ViewSlots(RwSchedule sched, PetscInt level, PetscViewer viewer)
{
  PetscInt64 s = sched->setupcalled ? sched->avail[level] : sched->slots[level];

  PetscFunctionBegin;
  if (s == RW_SLOTS_UNLIMITED) PetscCall(PetscViewerASCIIPrintf(viewer, "%s slots: unlimited\n", LevelName(level)));
  else if (s == RW_SLOTS_UNSET) PetscCall(PetscViewerASCIIPrintf(viewer, "%s slots: not given\n", LevelName(level)));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "%s slots: %" PetscInt64_FMT "\n", LevelName(level), s));
  if (sched->budget[level] >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  budget %" PetscInt64_FMT " bytes, %" PetscInt64_FMT " bytes a state\n", sched->budget[level], sched->state_bytes[level]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleView - prints the schedule's configuration and, once set up, its predicted counts

  Collective

  Input Parameters:
+ sched  - the schedule
- viewer - an ASCII viewer, or NULL for stdout

  Level: beginner

.seealso: RwScheduleCreate(), RwScheduleGetPrediction()
@*/
PetscErrorCode RwScheduleView(RwSchedule sched, PetscViewer viewer)
{
  PetscBool        isascii;
  RwScheduleCounts c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)sched), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)sched, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "steps: %" PetscInt64_FMT "\n", sched->n));
  for (PetscInt lv = 0; lv < (sched->setupcalled ? sched->nlevels : RW_NUM_LEVELS); lv++) PetscCall(ViewSlots(sched, lv, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "costs: uf %.6g, ub %.6g, wd %.6g, rd %.6g\n", (double)sched->uf, (double)sched->ub, (double)sched->wd, (double)sched->rd));
  PetscTryTypeMethod(sched, view, viewer);
  if (sched->setupcalled) {
    PetscCall(RwScheduleGetPrediction(sched, &c));
    PetscCall(PetscViewerASCIIPrintf(viewer, "forward steps: %" PetscInt64_FMT " (%.4g per step), reverse steps: %" PetscInt64_FMT "\n", c.forward_steps, (double)c.forward_steps / (double)sched->n, c.reverse_steps));
    PetscCall(PetscViewerASCIIPrintf(viewer, "RAM: %" PetscInt64_FMT " stores, %" PetscInt64_FMT " restores, at most %" PetscInt64_FMT " held\n", c.stores[RW_LEVEL_RAM], c.restores[RW_LEVEL_RAM], c.max_slots_used[RW_LEVEL_RAM]));
    if (sched->nlevels > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "disk: %" PetscInt64_FMT " writes, %" PetscInt64_FMT " reads, at most %" PetscInt64_FMT " held\n", c.stores[RW_LEVEL_DISK], c.restores[RW_LEVEL_DISK], c.max_slots_used[RW_LEVEL_DISK]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "predicted cost: %.6g\n", (double)c.cost));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwActionView - prints one action as a line: advance A B, store ram K, restore disk K, free ram K, reverse K, end

  Not collective

  Input Parameters:
+ action - the action
- viewer - an ASCII viewer, or NULL for PETSC_VIEWER_STDOUT_SELF

  Level: beginner

  Notes:
  K is the step the checkpoint holds (the slot is not shown); restore ram 0
  is x_0, the driver's input.

.seealso: RwScheduleNext()
@*/
PetscErrorCode RwActionView(const RwAction *action, PetscViewer viewer)
{
  char line[128];

  PetscFunctionBegin;
  PetscValidPointer(action, 1);
  if (!viewer) viewer = PETSC_VIEWER_STDOUT_SELF;
  PetscCall(RwActionFormat(action, line, sizeof(line)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s\n", line));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleIsOnline - whether the schedule's n is only an upper bound: the
  run may end earlier, at a step decided while it runs (RwScheduleStopAt())

  Not collective

  Level: intermediate

.seealso: RwScheduleStopAt(), RWSCHEDULEONLINE
@*/
PetscErrorCode RwScheduleIsOnline(RwSchedule sched, PetscBool *online)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  *online = sched->online;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleStopAt - the run ends at step n: the last action handed out was
  the forward sweep's ADVANCE (n-1) n, and the stream goes on with the
  reversal of n steps, the same actions as a schedule set up for n steps

  Not collective

  Input Parameters:
+ sched - an online schedule, in its first forward sweep
- n     - the run's last step, 1 <= n <= the schedule's steps

  Level: intermediate

.seealso: RwScheduleIsOnline(), RwAdjointSetStopTest()
@*/
PetscErrorCode RwScheduleStopAt(RwSchedule sched, PetscInt64 n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCheck(sched->setupcalled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() before RwScheduleStopAt()");
  PetscCheck(sched->online && sched->ops->stop, PETSC_COMM_SELF, PETSC_ERR_SUP, "Schedule type %s plans for a known number of steps and cannot stop a run early: use -rw_schedule_type online", ((PetscObject)sched)->type_name);
  PetscCheck(n >= 1 && n <= sched->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Run stopped at step %" PetscInt64_FMT "; expected 1 <= n <= %" PetscInt64_FMT " (-rw_steps, the upper bound)", n, sched->n);
  PetscCheck(!sched->qlen, PETSC_COMM_SELF, PETSC_ERR_ORDER, "RwScheduleStopAt(): %" PetscInt_FMT " actions of the stream are still queued; stop right after the ADVANCE that reached step %" PetscInt64_FMT, sched->qlen, n);
  PetscUseTypeMethod(sched, stop, n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleDestroy - frees a schedule; safe on NULL and on an already destroyed schedule

  Collective

  Level: beginner

.seealso: RwScheduleCreate()
@*/
PetscErrorCode RwScheduleDestroy(RwSchedule *sched)
{
  PetscFunctionBegin;
  if (!sched || !*sched) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*sched, RW_SCHEDULE_CLASSID, 1);
  if (--((PetscObject)(*sched))->refct > 0) {
    *sched = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscTryTypeMethod(*sched, destroy);
  PetscCall(PetscHeaderDestroy(sched));
  PetscFunctionReturn(PETSC_SUCCESS);
}
