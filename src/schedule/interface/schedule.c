/* RwSchedule: the class interface. Types live in src/schedule/impls/<type>/. */
#include <rewind/private/scheduleimpl.h>

PetscFunctionList RwScheduleList              = NULL;
PetscBool         RwScheduleRegisterAllCalled = PETSC_FALSE;

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

.seealso: RwScheduleSetType(), RwScheduleSetFromOptions(), RwScheduleDestroy()
@*/
PetscErrorCode RwScheduleCreate(MPI_Comm comm, RwSchedule *sched)
{
  RwSchedule obj;

  PetscFunctionBegin;
  PetscValidPointer(sched, 2);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(obj, RW_SCHEDULE_CLASSID, "RwSchedule", "Checkpointing schedule", "RwSchedule", comm, RwScheduleDestroy, RwScheduleView));
  *sched = obj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleSetType - chooses the checkpointing strategy

  Collective

  Input Parameters:
+ sched - the schedule
- type  - a registered type name

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
  RwScheduleSetFromOptions - sets the schedule's type and the type's options from the options database

  Collective

  Options Database Key:
. -rw_schedule_type <type> - the schedule type

  Level: beginner

.seealso: RwScheduleSetType()
@*/
PetscErrorCode RwScheduleSetFromOptions(RwSchedule sched)
{
  char      type[256];
  PetscBool set;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCall(RwScheduleRegisterAll());
  PetscObjectOptionsBegin((PetscObject)sched);
  PetscCall(PetscOptionsFList("-rw_schedule_type", "Schedule type", "RwScheduleSetType", RwScheduleList, ((PetscObject)sched)->type_name, type, sizeof(type), &set));
  if (set) PetscCall(RwScheduleSetType(sched, type));
  PetscCheck(((PetscObject)sched)->type_name, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "RwSchedule has no type: call RwScheduleSetType() or give -rw_schedule_type");
  PetscTryTypeMethod(sched, setfromoptions, PetscOptionsObject);
  PetscCall(PetscObjectProcessOptionsHandlers((PetscObject)sched, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleSetUp - prepares the schedule for its steps and slots; called once, later calls do nothing

  Collective

  Level: advanced

.seealso: RwScheduleSetFromOptions()
@*/
PetscErrorCode RwScheduleSetUp(RwSchedule sched)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  if (sched->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(((PetscObject)sched)->type_name, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "RwSchedule has no type: call RwScheduleSetType() or RwScheduleSetFromOptions() first");
  PetscTryTypeMethod(sched, setup);
  sched->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleView - prints the schedule's configuration

  Collective

  Level: beginner

.seealso: RwScheduleCreate()
@*/
PetscErrorCode RwScheduleView(RwSchedule sched, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)sched), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) {
    PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)sched, viewer));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscTryTypeMethod(sched, view, viewer);
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
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
