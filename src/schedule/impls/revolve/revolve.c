/* revolve: Griewank and Walther's optimal binomial checkpointing in RAM. */
#include "../../engine.h"

static PetscErrorCode SetUp_Revolve(RwSchedule s)
{
  PetscInt64 ram = s->avail[RW_LEVEL_RAM];

  PetscFunctionBegin;
  if (s->n == 1 && ram == RW_SLOTS_UNSET) ram = s->avail[RW_LEVEL_RAM] = 0; /* one step needs no slot */
  if (ram == RW_SLOTS_UNSET || (ram == 0 && s->n > 1)) PetscCall(RwScheduleSlotsError(s, RW_LEVEL_RAM, 1, "reversing more than one step"));
  PetscCall(RwNestedScheduleSetUp(s, s->n, RW_LEVEL_RAM, 0, ram));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode View_Revolve(RwSchedule s, PetscViewer viewer)
{
  PetscInt64 t, B, opt, ram = s->avail[RW_LEVEL_RAM];

  PetscFunctionBegin;
  if (!s->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  if (ram == RW_SLOTS_UNLIMITED || ram >= s->n) ram = s->n;
  RwRepetition(s->n, ram + 1, &t, &B);
  PetscCall(RwOptimalForwardSteps(s->n, ram, &opt));
  PetscCall(PetscViewerASCIIPrintf(viewer, "repetition number %" PetscInt64_FMT ": no step is advanced more than %" PetscInt64_FMT " times; optimal forward steps %" PetscInt64_FMT "\n", t, t, opt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWSCHEDULEREVOLVE - "revolve": binomial checkpointing with s RAM slots, the
  fewest forward steps possible for the slots (Griewank and Walther 2000).

  With x_0 free, s slots act as Griewank and Walther's s+1 checkpoints: the
  forward steps are p(n, s+1) + 1 (RwOptimalForwardSteps()). Actions are
  generated online, O(1) amortised time per action, one frame per held
  checkpoint.

  Options Database Keys:
+ -rw_schedule_ram_slots <s> - RAM slots (required for n > 1, s >= 1)
- -rw_checkpoint_ram <bytes> - or a RAM budget per MPI rank

  Level: beginner

.seealso: RwScheduleSetType(), RwOptimalForwardSteps(), RWSCHEDULEMULTILEVEL
M*/
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Revolve(RwSchedule s)
{
  PetscFunctionBegin;
  PetscCall(RwNestedScheduleCreate(s));
  s->ops->setup = SetUp_Revolve;
  s->ops->view  = View_Revolve;
  PetscFunctionReturn(PETSC_SUCCESS);
}
