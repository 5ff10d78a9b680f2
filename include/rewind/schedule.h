/*
  RwSchedule: a pure, deterministic generator of checkpointing actions.

  A schedule knows nothing of Vecs, files or MPI: given the number of steps n,
  the slots of each level and the costs, it emits the actions that let the
  driver (RwAdjoint) reverse steps n-1, ..., 0 exactly once each.  Every rank
  runs its own copy and gets the same stream.

  Conventions (doc/schedules.md has the full statement):
  - Levels: 0 = RAM, 1 = disk.
  - x_0 is the driver's input u0, always restorable without a slot: a
    schedule never stores step 0, and "restore ram 0" (slot -1) is always
    valid.  s RAM slots therefore act like Griewank and Walther's s+1.
  - REVERSE k: the adjoint of step k -> k+1; precondition: the working state
    is x_k.  The adjoint kernels take x_k and x_{k+1} directly, so no step is
    re-run ("taped") to reverse it: the driver keeps x_{k+1} from the previous
    REVERSE (k+1), and for the first one, k = n-1, takes the single step
    x_{n-1} -> x_n itself.  After a REVERSE the working state is undefined
    until the next RESTORE.
  - forward steps = sum of ADVANCE lengths + 1 (that step to x_n).
  - A checkpoint is freed right after its last restore.
*/
#ifndef REWIND_SCHEDULE_H
#define REWIND_SCHEDULE_H

#include <petscsys.h>
#include <petscviewer.h>

/*S
  RwSchedule - a pure generator of checkpointing actions

  Level: beginner

.seealso: RwScheduleCreate(), RwScheduleSetType(), RwScheduleType, RwAction
S*/
typedef struct _p_RwSchedule *RwSchedule;

/*J
  RwScheduleType - name of a schedule, chosen with -rw_schedule_type

  Level: beginner

.seealso: RwScheduleSetType(), RwScheduleRegister()
J*/
typedef const char *RwScheduleType;
#define RWSCHEDULESTOREALL   "storeall"
#define RWSCHEDULEPERIODIC   "periodic"
#define RWSCHEDULEREVOLVE    "revolve"
#define RWSCHEDULEMULTILEVEL "multilevel"
#define RWSCHEDULEONLINE     "online"

/*E
  RwActionType - what the driver must do next

  Level: beginner

.seealso: RwAction, RwScheduleNext()
E*/
typedef enum {
  RW_ACTION_ADVANCE, /* step the working state from a to b */
  RW_ACTION_STORE,   /* copy the working state x_k into (level, slot) */
  RW_ACTION_RESTORE, /* copy checkpoint (level, slot) holding x_k into the working state */
  RW_ACTION_FREE,    /* release (level, slot), which held x_k */
  RW_ACTION_REVERSE, /* adjoint of step k -> k+1; working state is x_k */
  RW_ACTION_END      /* all steps reversed, every checkpoint freed */
} RwActionType;
PETSC_EXTERN const char *const RwActionTypes[];

#define RW_LEVEL_RAM  0
#define RW_LEVEL_DISK 1
#define RW_NUM_LEVELS 2

/* Slot count meaning "as many as needed" (disk level) */
#define RW_SLOTS_UNLIMITED ((PetscInt64)-1)

/*S
  RwAction - one action of a schedule

  Fields:
+ type  - the action
. a, b  - ADVANCE: from step a to step b > a; other actions: the step k is a (b = a)
. level - STORE, RESTORE, FREE: RW_LEVEL_RAM or RW_LEVEL_DISK
- slot  - STORE, RESTORE, FREE: the slot within the level, 0 <= slot < slots
          of that level; -1 for x_0 (the input, restorable without a slot)

  Level: beginner

.seealso: RwScheduleNext()
S*/
typedef struct {
  RwActionType type;
  PetscInt64   a, b;
  PetscInt     level;
  PetscInt64   slot;
} RwAction;

/*S
  RwScheduleCounts - what a schedule does over one reversal, from
  RwScheduleValidate() (replayed) or predicted by the type

  Level: intermediate
S*/
typedef struct {
  PetscInt64 forward_steps; /* sum of ADVANCE lengths + 1 */
  PetscInt64 reverse_steps; /* n */
  PetscInt64 stores[RW_NUM_LEVELS], restores[RW_NUM_LEVELS], frees[RW_NUM_LEVELS];
  PetscInt64 max_slots_used[RW_NUM_LEVELS];
  PetscInt64 actions;
  PetscReal  cost; /* uf*forward + ub*reverse + wd*stores[disk] + rd*restores[disk] */
} RwScheduleCounts;

PETSC_EXTERN PetscFunctionList RwScheduleList;
PETSC_EXTERN PetscErrorCode    RwScheduleRegister(const char[], PetscErrorCode (*)(RwSchedule));
PETSC_EXTERN PetscErrorCode    RwScheduleRegisterAll(void);

PETSC_EXTERN PetscErrorCode RwScheduleCreate(MPI_Comm, RwSchedule *);
PETSC_EXTERN PetscErrorCode RwScheduleSetType(RwSchedule, RwScheduleType);
PETSC_EXTERN PetscErrorCode RwScheduleGetType(RwSchedule, RwScheduleType *);
PETSC_EXTERN PetscErrorCode RwScheduleSetSteps(RwSchedule, PetscInt64);
PETSC_EXTERN PetscErrorCode RwScheduleGetSteps(RwSchedule, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwScheduleSetSlots(RwSchedule, PetscInt, PetscInt64);
PETSC_EXTERN PetscErrorCode RwScheduleGetSlots(RwSchedule, PetscInt, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwScheduleSetCosts(RwSchedule, PetscReal, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode RwScheduleGetCosts(RwSchedule, PetscReal *, PetscReal *, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwScheduleSetStateBytes(RwSchedule, PetscInt64, PetscInt64);
PETSC_EXTERN PetscErrorCode RwScheduleSetBudget(RwSchedule, PetscInt, PetscInt64);
PETSC_EXTERN PetscErrorCode RwScheduleSetPeriod(RwSchedule, PetscInt64);
PETSC_EXTERN PetscErrorCode RwScheduleGetNumLevels(RwSchedule, PetscInt *);
PETSC_EXTERN PetscErrorCode RwScheduleSetFromOptions(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleSetOptionsPrefix(RwSchedule, const char[]);
PETSC_EXTERN PetscErrorCode RwScheduleAppendOptionsPrefix(RwSchedule, const char[]);
PETSC_EXTERN PetscErrorCode RwScheduleGetOptionsPrefix(RwSchedule, const char *[]);
PETSC_EXTERN PetscErrorCode RwScheduleSetUp(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleNext(RwSchedule, RwAction *);
PETSC_EXTERN PetscErrorCode RwSchedulePeek(RwSchedule, PetscInt, RwAction *, PetscBool *);
#define RW_SCHEDULE_PEEK 16 /* how far RwSchedulePeek() looks ahead */
PETSC_EXTERN PetscErrorCode RwScheduleReset(RwSchedule);
PETSC_EXTERN PetscErrorCode RwScheduleGetPrediction(RwSchedule, RwScheduleCounts *);
PETSC_EXTERN PetscErrorCode RwScheduleValidate(RwSchedule, RwScheduleCounts *);
PETSC_EXTERN PetscErrorCode RwScheduleView(RwSchedule, PetscViewer);
PETSC_EXTERN PetscErrorCode RwScheduleViewSVG(RwSchedule, const char[]);
PETSC_EXTERN PetscErrorCode RwScheduleDestroy(RwSchedule *);

PETSC_EXTERN PetscErrorCode RwScheduleIsOnline(RwSchedule, PetscBool *);
PETSC_EXTERN PetscErrorCode RwScheduleStopAt(RwSchedule, PetscInt64);
PETSC_EXTERN PetscErrorCode RwScheduleOnlineGetSlots(RwSchedule, PetscInt64 *, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwScheduleOnlineBound(PetscInt64, PetscInt64, PetscInt64 *);

PETSC_EXTERN PetscErrorCode RwScheduleMultilevelSetMaxWork(RwSchedule, PetscReal);
PETSC_EXTERN PetscErrorCode RwScheduleMultilevelGetExact(RwSchedule, PetscBool *);

PETSC_EXTERN PetscErrorCode RwActionView(const RwAction *, PetscViewer);
PETSC_EXTERN PetscErrorCode RwOptimalForwardSteps(PetscInt64, PetscInt64, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwParseBytes(const char[], PetscInt64 *);

/*S
  RwScheduleValidator - replays any action stream for n steps and the slots
  of each level, and checks it (only stored checkpoints restored, no level
  over its slots, every step reversed once in the order n-1..0 with the
  working state at x_k, every checkpoint freed right after its last restore)

  Level: developer
S*/
typedef struct _n_RwScheduleValidator *RwScheduleValidator;
PETSC_EXTERN PetscErrorCode RwScheduleValidatorCreate(PetscInt64, const PetscInt64[], RwScheduleValidator *);
PETSC_EXTERN PetscErrorCode RwScheduleValidatorSetOnline(RwScheduleValidator, PetscBool);
PETSC_EXTERN PetscErrorCode RwScheduleValidatorSetCosts(RwScheduleValidator, PetscReal, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode RwScheduleValidatorCheck(RwScheduleValidator, const RwAction *);
PETSC_EXTERN PetscErrorCode RwScheduleValidatorGetCounts(RwScheduleValidator, RwScheduleCounts *);
PETSC_EXTERN PetscErrorCode RwScheduleValidatorDestroy(RwScheduleValidator *);

#endif
