/* periodic: a checkpoint every k steps, every state stored inside a period. */
#include "../../engine.h"

static PetscErrorCode SetFromOptions_Periodic(RwSchedule s, PetscOptionItems *PetscOptionsObject)
{
  PetscInt64 k = s->period ? s->period : -1;
  PetscBool  set;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Periodic schedule options");
  PetscCall(RwScheduleOptionsCount(PetscOptionsObject, "-rw_schedule_period", "Steps between checkpoints", "RwScheduleSetPeriod", PETSC_FALSE, &k, &set));
  if (set) PetscCall(RwScheduleSetPeriod(s, k));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every state of the current period in RAM; the period's checkpoints on disk when it has slots */
static PetscErrorCode SetUp_Periodic(RwSchedule s)
{
  PetscInt64       *avail = s->avail;
  PetscInt          level = avail[RW_LEVEL_DISK] > 0 || avail[RW_LEVEL_DISK] == RW_SLOTS_UNLIMITED ? RW_LEVEL_DISK : RW_LEVEL_RAM;
  RwScheduleCounts  c;
  char              why[128];

  PetscFunctionBegin;
  PetscCheck(s->period >= 1, PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_WRONGSTATE, "periodic needs its period: give -rw_schedule_period <k> (or call RwScheduleSetPeriod())");
  PetscCall(RwNestedScheduleSetUp(s, s->period, level, RW_SLOTS_UNLIMITED, RW_SLOTS_UNLIMITED));
  s->nlevels = level + 1;
  PetscUseTypeMethod(s, predict, &c);
  PetscCall(PetscSNPrintf(why, sizeof(why), "a checkpoint every %" PetscInt64_FMT " steps", s->period));
  for (PetscInt lv = 0; lv < s->nlevels; lv++) {
    if (avail[lv] == RW_SLOTS_UNSET) avail[lv] = RW_SLOTS_UNLIMITED;
    if (avail[lv] != RW_SLOTS_UNLIMITED && avail[lv] < c.max_slots_used[lv]) PetscCall(RwScheduleSlotsError(s, lv, c.max_slots_used[lv], why));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode View_Periodic(RwSchedule s, PetscViewer viewer)
{
  RwNestedSchedule *ns = (RwNestedSchedule *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "period: %" PetscInt64_FMT "\n", s->period));
  if (s->setupcalled) PetscCall(RwNestedView(&ns->nest, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWSCHEDULEPERIODIC - "periodic": stores x_k, x_2k, ... on the way forward;
  reverses each period from its checkpoint by storing every state inside it
  in RAM. Forward steps n + (periods - 1)(k - 1) at most, about 2n.

  The period checkpoints go to disk when the disk level has slots
  (-rw_schedule_disk_slots, -rw_checkpoint_disk), otherwise to RAM; a disk
  checkpoint is read once and copied into RAM for its period.

  Options Database Keys:
+ -rw_schedule_period <k> - the period (required)
- -rw_schedule_ram_slots <s>, -rw_schedule_disk_slots <d> - optional; an error if too few

  Level: beginner

.seealso: RwScheduleSetPeriod(), RWSCHEDULEREVOLVE
M*/
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Periodic(RwSchedule s)
{
  PetscFunctionBegin;
  PetscCall(RwNestedScheduleCreate(s));
  s->ops->setup          = SetUp_Periodic;
  s->ops->setfromoptions = SetFromOptions_Periodic;
  s->ops->view           = View_Periodic;
  PetscFunctionReturn(PETSC_SUCCESS);
}
