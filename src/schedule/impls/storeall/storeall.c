/* storeall: every state in RAM, each advanced once. */
#include "../../engine.h"

static PetscErrorCode SetUp_Storeall(RwSchedule s)
{
  PetscInt64 need = PetscMax(s->n - 2, 0); /* x_0 is free and x_(n-1) is reversed at once */

  PetscFunctionBegin;
  if (s->avail[RW_LEVEL_RAM] == RW_SLOTS_UNSET) s->avail[RW_LEVEL_RAM] = RW_SLOTS_UNLIMITED;
  if (s->avail[RW_LEVEL_RAM] != RW_SLOTS_UNLIMITED && s->avail[RW_LEVEL_RAM] < need) PetscCall(RwScheduleSlotsError(s, RW_LEVEL_RAM, need, "storing every state (use revolve for fewer slots)"));
  PetscCall(RwNestedScheduleSetUp(s, s->n, RW_LEVEL_RAM, 0, RW_SLOTS_UNLIMITED));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWSCHEDULESTOREALL - "storeall": stores x_1, ..., x_(n-2) in RAM on the way
  forward, then restores each once: n forward steps (the least possible),
  n-2 RAM slots.

  Options Database Key:
. -rw_schedule_ram_slots <s> - optional; an error if fewer than n-2

  Level: beginner

.seealso: RwScheduleSetType(), RWSCHEDULEREVOLVE
M*/
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Storeall(RwSchedule s)
{
  PetscFunctionBegin;
  PetscCall(RwNestedScheduleCreate(s));
  s->ops->setup = SetUp_Storeall;
  PetscFunctionReturn(PETSC_SUCCESS);
}
