/* Private RwSchedule structure, for rewind and for new RwSchedule types. */
#ifndef REWIND_PRIVATE_SCHEDULEIMPL_H
#define REWIND_PRIVATE_SCHEDULEIMPL_H

#include <rewind/private/rwimpl.h>

PETSC_EXTERN PetscBool RwScheduleRegisterAllCalled;

typedef struct _RwScheduleOps *RwScheduleOps;
struct _RwScheduleOps {
  PetscErrorCode (*setfromoptions)(RwSchedule, PetscOptionItems *);
  PetscErrorCode (*setup)(RwSchedule);
  PetscErrorCode (*view)(RwSchedule, PetscViewer);
  PetscErrorCode (*destroy)(RwSchedule);
};

struct _p_RwSchedule {
  PETSCHEADER(struct _RwScheduleOps);
  PetscBool setupcalled;
  void     *data; /* the type's own state */
};

#endif
