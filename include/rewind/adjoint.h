/*
  RwAdjoint: the driver.  It runs a checkpointing schedule over a model and the
  stores of the schedule's levels, reverses every step exactly once, and
  returns J with its exact gradient with respect to the parameters m and the
  initial state u0.  Global sums (J, global-parameter gradients) are reduced
  once per solve, reproducibly.
*/
#ifndef REWIND_ADJOINT_H
#define REWIND_ADJOINT_H

#include <rewind/model.h>
#include <rewind/objective.h>
#include <rewind/schedule.h>
#include <rewind/store.h>

/*S
  RwAdjoint - runs forward, tangent and adjoint sweeps of a model over a checkpointing schedule

  Level: beginner

.seealso: RwAdjointCreate(), RwAdjointSolve(), RwTangentSolve()
S*/
typedef struct _p_RwAdjoint *RwAdjoint;

/*S
  RwAdjointCounts - what the last solve did

  Level: intermediate
S*/
typedef struct {
  PetscInt64 forward_steps;  /* model steps, including recomputations */
  PetscInt64 reverse_steps;
  PetscInt64 tangent_steps;
  PetscInt64 stores[RW_NUM_LEVELS], restores[RW_NUM_LEVELS]; /* from the stores' counts: restores of x_0 from u0 are none */
  PetscInt64 bytes_stored[RW_NUM_LEVELS], bytes_restored[RW_NUM_LEVELS]; /* this rank */
  PetscReal  seconds_forward, seconds_reverse, seconds_total;
  PetscReal  seconds_store[RW_NUM_LEVELS], seconds_restore[RW_NUM_LEVELS];
  PetscInt64 resumed_from; /* -rw_restart: the step the forward sweep resumed from; -1 if it did not */
  PetscInt64 resumed_reverse_at; /* -rw_restart: the step whose reversal the resumed sweep had kept; -1 if none */
  PetscInt64 regenerated_steps;  /* steps recomputed to refill checkpoints a resumed reverse sweep needs */
  PetscInt64 keeps;              /* reverse-sweep keeps written (-rw_adjoint_keep_interval) */
  PetscInt64 bytes_kept;         /* their bytes, this rank */
  PetscReal  seconds_keep;
  PetscInt64 steps;              /* the steps the solve ran: n, or the step where a stop test ended it (RwAdjointSetStopTest()) */
} RwAdjointCounts;

/*E
  RwAdjointPhase - the sweep a monitor is called from

  Level: intermediate

.seealso: RwAdjointMonitorSet()
E*/
typedef enum {
  RW_PHASE_FORWARD,   /* the first time the forward sweep reaches a step */
  RW_PHASE_RECOMPUTE, /* a step recomputed from a checkpoint */
  RW_PHASE_REVERSE,   /* an adjoint step */
  RW_PHASE_TANGENT    /* a tangent step */
} RwAdjointPhase;
PETSC_EXTERN const char *const RwAdjointPhases[];

PETSC_EXTERN PetscErrorCode RwAdjointCreate(RwModel, RwObjective, RwAdjoint *);
PETSC_EXTERN PetscErrorCode RwAdjointSetOptionsPrefix(RwAdjoint, const char[]);
PETSC_EXTERN PetscErrorCode RwAdjointAppendOptionsPrefix(RwAdjoint, const char[]);
PETSC_EXTERN PetscErrorCode RwAdjointGetOptionsPrefix(RwAdjoint, const char *[]);
PETSC_EXTERN PetscErrorCode RwAdjointSetFileTag(RwAdjoint, const char[]);
PETSC_EXTERN PetscErrorCode RwAdjointGetFileTag(RwAdjoint, const char *[]);
PETSC_EXTERN PetscErrorCode RwAdjointSetSteps(RwAdjoint, PetscInt64);
PETSC_EXTERN PetscErrorCode RwAdjointGetSteps(RwAdjoint, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwAdjointSetSchedule(RwAdjoint, RwSchedule);
PETSC_EXTERN PetscErrorCode RwAdjointGetSchedule(RwAdjoint, RwSchedule *);
PETSC_EXTERN PetscErrorCode RwAdjointGetStore(RwAdjoint, PetscInt, RwStore *);
PETSC_EXTERN PetscErrorCode RwAdjointSetFromOptions(RwAdjoint);
PETSC_EXTERN PetscErrorCode RwAdjointSetUp(RwAdjoint);
PETSC_EXTERN PetscErrorCode RwAdjointGetIdentity(RwAdjoint, char[], size_t);
PETSC_EXTERN PetscErrorCode RwAdjointSolve(RwAdjoint, Vec, Vec, PetscReal *, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwAdjointForward(RwAdjoint, Vec, Vec, PetscReal *, Vec);
/* a solve in two parts: the outputs of the forward sweep before the reverse sweep (issue 35) */
PETSC_EXTERN PetscErrorCode RwAdjointSolveForward(RwAdjoint, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwAdjointSolveIsPending(RwAdjoint, PetscBool *);
PETSC_EXTERN PetscErrorCode RwAdjointSolveReverse(RwAdjoint, PetscReal *, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwTangentSolve(RwAdjoint, Vec, Vec, Vec, Vec, PetscReal *);
PETSC_EXTERN PetscErrorCode RwTangentPropagate(RwAdjoint, Vec, Vec, PetscInt, Vec[], Vec[], PetscErrorCode (*)(RwAdjoint, PetscInt64, Vec, PetscInt, Vec[], void *), void *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwAdjointGetCounts(RwAdjoint, RwAdjointCounts *);
PETSC_EXTERN PetscErrorCode RwAdjointGetGradientErrorEstimate(RwAdjoint, PetscReal *); /* issue 36 item 3 */
PETSC_EXTERN PetscErrorCode RwAdjointGetMeasuredCosts(RwAdjoint, PetscReal[4]);
PETSC_EXTERN PetscErrorCode RwAdjointView(RwAdjoint, PetscViewer);
PETSC_EXTERN PetscErrorCode RwAdjointSetStopTest(RwAdjoint, PetscErrorCode (*)(RwAdjoint, PetscInt64, Vec, Vec, PetscBool *, void *), void *);
PETSC_EXTERN PetscErrorCode RwAdjointMonitorSet(RwAdjoint, PetscErrorCode (*)(RwAdjoint, RwAdjointPhase, PetscInt64, Vec, void *), void *, PetscErrorCode (*)(void **));
PETSC_EXTERN PetscErrorCode RwAdjointMonitorCancel(RwAdjoint);
PETSC_EXTERN PetscErrorCode RwAdjointMonitorProgress(RwAdjoint, RwAdjointPhase, PetscInt64, Vec, void *);
PETSC_EXTERN PetscErrorCode RwAdjointMonitorSolution(RwAdjoint, RwAdjointPhase, PetscInt64, Vec, void *);
PETSC_EXTERN PetscErrorCode RwAdjointDestroy(RwAdjoint *);

/*E
  RwAdjointReplanType - what a compressed state that finds no room in the RAM
  pool during the first forward sweep does (-rw_checkpoint_replan)

$ RW_ADJOINT_REPLAN_STANDIN  - nothing: it is recomputed from the nearest state held where restored (0)
$ RW_ADJOINT_REPLAN_RESTART  - the schedule re-planned at the sizes measured, the sweep started again at x_0
$ RW_ADJOINT_REPLAN_CONTINUE - the rest of the run planned from the states held (the default; 1)

  Level: intermediate
E*/
typedef enum {
  RW_ADJOINT_REPLAN_STANDIN,
  RW_ADJOINT_REPLAN_RESTART,
  RW_ADJOINT_REPLAN_CONTINUE
} RwAdjointReplanType;

/*S
  RwAdjointPoolInfo - how a RAM budget was planned at the compressed size of
  the states (-rw_checkpoint_ram with -rw_store_compress lossless or zfp and a
  revolve, multilevel or online schedule): RwAdjointGetPoolInfo()

  Level: intermediate
S*/
typedef struct {
  PetscBool  pooled;                     /* the RAM level keeps its states compressed at their real length in the budget */
  PetscInt64 pool_bytes;                 /* the pool per rank: the RAM budget, or less where no plan needs it all */
  PetscInt64 state_bytes;                /* a state per rank, uncompressed */
  PetscInt64 estimate_bytes;             /* the compressed size of x_0 (largest over the ranks): the first plan's */
  PetscInt64 planned_bytes;              /* the size the last solve's plan assumed: the estimate, or after a re-plan the largest state measured */
  PetscInt64 slots;                      /* the last solve's RAM slots */
  PetscInt64 slots_uncompressed;         /* the budget's RAM slots at the uncompressed size */
  PetscInt64 forward_steps_uncompressed; /* the schedule's forward steps with those */
  PetscInt64 forward_steps_planned;      /* the last solve's forward steps as planned: its final schedule's, plus the steps taken before it re-planned */
  PetscInt64 replans;                    /* re-plans in the last solve: a state found no room in the pool */
  PetscInt64 steps_before_replan;        /* forward steps the last solve took before its last re-plan */
  PetscInt64 misses;                     /* states of the last solve that found no room and were not re-planned for: recomputed where restored */
  PetscInt64 standin_steps;              /* forward steps the last solve took to recompute them */
  /* the re-plan (-rw_checkpoint_replan, issue 36): continue from the states held, or restart at x_0 */
  RwAdjointReplanType replan_type;       /* what a state with no room in the first forward sweep does */
  PetscInt64 continued;                  /* re-plans of the last solve that kept the states held (the others restarted at x_0) */
  PetscInt64 released;                   /* states held that those re-plans freed to make room (the latest ones) */
  PetscInt64 steps_saved_continue;       /* forward steps they saved against restarting at x_0, as predicted at each re-plan */
} RwAdjointPoolInfo;
PETSC_EXTERN PetscErrorCode RwAdjointGetPoolInfo(RwAdjoint, RwAdjointPoolInfo *);
PETSC_EXTERN PetscErrorCode RwAdjointGetDiskPoolInfo(RwAdjoint, RwAdjointPoolInfo *); /* the disk level's parts at the compressed size */

/*S
  RwAdjointCodecChoice - how -rw_store_compress auto chose a level's codec:
  RwAdjointGetCodecChoice()

  Level: intermediate
S*/
typedef struct {
  PetscBool           isauto;        /* the level's codec is auto */
  PetscBool           chosen;        /* and the driver chose it (at the level's first store) */
  PetscBool           lossy;         /* zfp was a candidate: a tolerance was given */
  PetscBool           budget;        /* a codec could buy slots (a RAM budget planned at the compressed size); if not, auto is none */
  PetscBool           measured;      /* the step costs are the last solve's, not the first solve's pilot step */
  RwStoreCompressType type;          /* the choice: the next solve's codec */
  RwStoreCompressType used;          /* the last solve's codec */
  PetscReal           seconds[3];    /* predicted seconds of a gradient, per candidate none, lossless, zfp; < 0: not a candidate */
  PetscInt64          bytes[3];      /* x_0 kept by each candidate (largest over the ranks) */
  PetscInt64          slots[3], forward_steps[3]; /* the schedule each candidate's size buys */
  PetscReal           encode[3], decode[3];       /* seconds to keep and read back a state */
  PetscReal           step, reverse; /* seconds of a forward and of a reverse step */
} RwAdjointCodecChoice;
PETSC_EXTERN PetscErrorCode RwAdjointGetCodecChoice(RwAdjoint, PetscInt, RwAdjointCodecChoice *);

#endif
