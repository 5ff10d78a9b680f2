/* Private RwSchedule structure, for rewind and for new RwSchedule types. */
#ifndef REWIND_PRIVATE_SCHEDULEIMPL_H
#define REWIND_PRIVATE_SCHEDULEIMPL_H

#include <rewind/private/rwimpl.h>

PETSC_EXTERN PetscBool RwScheduleRegisterAllCalled;

/* A level's slot count that nobody gave (neither a count nor a budget) */
#define RW_SLOTS_UNSET ((PetscInt64)-2)

/* Actions a type may emit in one go before the class hands them out */
#define RW_SCHEDULE_QUEUE 32
/* The queue has room for a fill beyond the actions RwSchedulePeek() looks at */
#define RW_SCHEDULE_RING (RW_SCHEDULE_QUEUE + RW_SCHEDULE_PEEK)

typedef struct _RwScheduleOps *RwScheduleOps;
struct _RwScheduleOps {
  PetscErrorCode (*setfromoptions)(RwSchedule, PetscOptionItems *);
  PetscErrorCode (*setup)(RwSchedule);   /* check the slots against the type's needs, plan */
  PetscErrorCode (*reset)(RwSchedule);   /* go back to the first action */
  PetscErrorCode (*fill)(RwSchedule);    /* emit at least one action (RwScheduleEmit()) */
  PetscErrorCode (*predict)(RwSchedule, RwScheduleCounts *); /* counts without replaying */
  PetscErrorCode (*view)(RwSchedule, PetscViewer);
  PetscErrorCode (*destroy)(RwSchedule);
  PetscErrorCode (*stop)(RwSchedule, PetscInt64); /* online types: the run ends at this step (RwScheduleStopAt()) */
};

struct _p_RwSchedule {
  PETSCHEADER(struct _RwScheduleOps);
  PetscBool setupcalled;
  void     *data; /* the type's own state */

  /* what the user or the driver asked for */
  PetscInt64 n;                          /* steps; 0 until RwScheduleSetSteps() */
  PetscInt64 slots[RW_NUM_LEVELS];       /* counts given, RW_SLOTS_UNSET if none */
  PetscInt64 budget[RW_NUM_LEVELS];      /* bytes given, -1 if none */
  PetscInt64 state_bytes[RW_NUM_LEVELS]; /* one state: per rank in RAM, whole job on disk; 0 unknown */
  PetscReal  uf, ub, wd, rd;             /* the cost model */
  PetscInt64 period;                     /* periodic: steps between checkpoints, 0 unset */

  /* resolved by RwScheduleSetUp(): slots from counts and budgets (the smaller) */
  PetscInt64 avail[RW_NUM_LEVELS];
  PetscInt   nlevels; /* levels the schedule stores on; set by the type's setup */
  PetscBool  online;  /* n is an upper bound: the run may stop earlier (RwScheduleStopAt()); set by the type */
  PetscBool  stopped; /* online: the run has stopped, so the rest of the stream no longer depends on it and peeks see it; set by the type */

  /* the stream */
  RwAction   queue[RW_SCHEDULE_RING];
  PetscInt   qhead, qlen;
  PetscInt64 held[RW_NUM_LEVELS]; /* checkpoints held per level; the next store takes slot held[level] */
  PetscBool  ended;
};

/* For types: queue actions (RwScheduleEmitStore/Free number the slots of a
   level as a stack, which suits nested schedules: slot = checkpoints held) */
PETSC_EXTERN PetscErrorCode RwScheduleEmit(RwSchedule, RwActionType, PetscInt64, PetscInt64, PetscInt, PetscInt64);
PETSC_EXTERN PetscErrorCode RwScheduleEmitStore(RwSchedule, PetscInt, PetscInt64, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwScheduleEmitFree(RwSchedule, PetscInt, PetscInt64, PetscInt64);
/* For types: the cost and the action count of counts whose other fields are set */
PETSC_EXTERN PetscErrorCode RwScheduleCountsComplete(RwSchedule, RwScheduleCounts *);

/* A continuation of a run from the checkpoints it holds (continuation.c, issue 36): where each is,
   the RAM slots free while it is the highest held, and the RAM slot the stores above it start at */
typedef struct {
  PetscInt   level;
  PetscInt64 slot, step; /* slot -1: x_0 */
  PetscInt64 free, base;
} RwScheduleHeld;
PETSC_EXTERN PetscErrorCode RwScheduleCreateContinuation(RwSchedule, PetscInt64, PetscInt64, PetscInt64, const RwScheduleHeld[], RwSchedule *);
PETSC_EXTERN PetscErrorCode RwScheduleContinuationSteps(PetscInt64, PetscInt64, PetscInt64, PetscInt64, const RwScheduleHeld[], PetscInt64 *);

#endif
