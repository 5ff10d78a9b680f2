/* RwSchedule: a pure generator of checkpointing actions. */
#ifndef REWIND_SCHEDULE_H
#define REWIND_SCHEDULE_H

#include <petscsys.h>

/*S
  RwSchedule - a pure generator of checkpointing actions.

  Level: beginner

.seealso: RwScheduleCreate(), RwScheduleSetType(), RwScheduleType
S*/
typedef struct _p_RwSchedule *RwSchedule;

/*J
  RwScheduleType - name of a RwSchedule implementation, chosen with -rw_schedule_type

  Level: beginner

.seealso: RwScheduleSetType(), RwScheduleRegister()
J*/
typedef const char *RwScheduleType;

PETSC_EXTERN PetscFunctionList RwScheduleList;
PETSC_EXTERN PetscErrorCode    RwScheduleRegister(const char[], PetscErrorCode (*)(RwSchedule));
PETSC_EXTERN PetscErrorCode    RwScheduleRegisterAll(void);

PETSC_EXTERN PetscErrorCode RwScheduleCreate(MPI_Comm, RwSchedule *);
PETSC_EXTERN PetscErrorCode RwScheduleSetType(RwSchedule, RwScheduleType);
PETSC_EXTERN PetscErrorCode RwScheduleGetType(RwSchedule, RwScheduleType *);
PETSC_EXTERN PetscErrorCode RwScheduleSetFromOptions(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleSetUp(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleView(RwSchedule, PetscViewer);
PETSC_EXTERN PetscErrorCode RwScheduleDestroy(RwSchedule *);

#endif
