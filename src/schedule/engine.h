/*
  The machinery the built-in schedule types share (not installed).

  Every built-in schedule is nested: checkpoints are freed in the reverse
  order of their stores, per level, so a level's slots are numbered as a
  stack (RwScheduleEmitStore()).  A segment [a, b) is reversed from a start
  x_a that is held somewhere (x_0, or a checkpoint) by an engine frame that
  either splits it binomially (Griewank and Walther's optimal first
  checkpoint, the smallest in the optimal range) or, once the slots suffice,
  stores every state ("storeall run").  An engine can work on a coarse grid
  (index i is step min(i*stride, n)) and hand each coarse reverse back to its
  caller: the nested schedule runs an inner engine on that coarse step's fine
  segment.  revolve, storeall and periodic are nested schedules with
  different strides and slots; multilevel uses one as its fallback.
*/
#ifndef REWIND_SCHEDULE_ENGINE_H
#define REWIND_SCHEDULE_ENGINE_H

#include <rewind/private/scheduleimpl.h>
#include <stdint.h>


/* Binomial checkpointing arithmetic (binomial.c) */
PETSC_INTERN PetscInt64     RwMulDivExact(PetscInt64, PetscInt64, PetscInt64);
PETSC_INTERN void           RwRepetition(PetscInt64, PetscInt64, PetscInt64 *, PetscInt64 *);
PETSC_INTERN PetscInt64     RwGWForward(PetscInt64, PetscInt64);

/* Options and formatting shared by the types (scheduleopts.c) */
PETSC_INTERN PetscErrorCode RwScheduleOptionsCount(PetscOptionItems *, const char[], const char[], const char[], PetscBool, PetscInt64 *, PetscBool *);
PETSC_INTERN PetscErrorCode RwActionFormat(const RwAction *, char[], size_t);
PETSC_INTERN PetscErrorCode RwParseBytesCheck(const char[], PetscInt64 *, PetscBool *, char[], size_t);

/* Where a segment's start is held */
typedef struct {
  PetscInt   level;
  PetscInt64 slot;  /* -1: x_0, the driver's input */
  PetscBool  loose; /* not on the level's stack (online's spine): freed without the stack's order check */
} RwCkpt;

typedef enum {
  RW_FRAME_BINOMIAL,
  RW_FRAME_STOREALL
} RwFrameKind;

typedef struct {
  RwFrameKind kind;
  PetscInt64  a, b;  /* reverse indices a..b-1 */
  PetscInt64  m;     /* checkpoints including the start (Griewank and Walther's s) */
  PetscInt64  t, B;  /* binomial: repetition number of b-a, B = beta(m, t-1) */
  PetscInt64  k;     /* storeall: where the run is */
  PetscInt64  slot0; /* storeall: slot of x_(a+1) */
  PetscBool   down;  /* storeall: going back down */
  RwCkpt      start;
  PetscBool   owned; /* free the start after its last restore */
  PetscBool   fresh; /* the working state is x_a: no restore before the next sweep */
} RwFrame;

typedef enum {
  RW_HAND_X0,    /* the working state is x_0 */
  RW_HAND_CKPT,  /* the working state was just restored from ckpt, which passes to the caller */
  RW_HAND_FRESH  /* the working state was reached by advancing; it is held nowhere */
} RwHandKind;

typedef struct {
  RwHandKind kind;
  PetscInt64 index; /* engine index i: the caller reverses steps [pos(i), pos(i+1)) */
  RwCkpt     ckpt;
} RwHandover;

typedef struct {
  PetscInt   level;    /* where the engine stores */
  PetscInt64 stride, n;
  PetscBool  expand;   /* hand reverses (and the release of their starts) to the caller */
  PetscInt   depth, capacity;
  RwFrame   *frames;
} RwEngine;

PETSC_INTERN PetscErrorCode RwEngineInit(RwEngine *, PetscInt, PetscInt64, PetscInt64, PetscBool);
PETSC_INTERN PetscErrorCode RwEngineDestroy(RwEngine *);
PETSC_INTERN PetscErrorCode RwEngineStart(RwEngine *, PetscInt64, PetscInt64, PetscInt64, RwCkpt, PetscBool);
PETSC_INTERN PetscErrorCode RwEngineStep(RwSchedule, RwEngine *, RwHandover *, PetscBool *);
PETSC_INTERN PetscInt64     RwEnginePos(const RwEngine *, PetscInt64);

/* What reversing a segment [a, b) costs, from its first sweep (the working
   state is x_a) to the reverse of a; the start is held by the caller */
typedef struct {
  PetscInt64 adv, advact;     /* steps advanced, ADVANCE actions */
  PetscInt64 stores;          /* checkpoints stored (and freed) inside */
  PetscInt64 own, sub;        /* restores of the start, of the checkpoints inside */
  PetscInt64 depth;           /* most checkpoints held inside at once */
} RwSegCounts;

typedef struct _n_RwSegMemo *RwSegMemo;
PETSC_INTERN PetscErrorCode RwSegMemoCreate(RwSegMemo *);
PETSC_INTERN PetscErrorCode RwSegMemoDestroy(RwSegMemo *);
PETSC_INTERN PetscErrorCode RwSegCount(RwSegMemo, PetscInt64, PetscInt64, RwSegCounts *);

/* A nested schedule: an outer engine over ceil(n/stride) coarse steps with
   outer_slots checkpoints on outer_level, an inner binomial engine with
   ram_slots RAM slots on each coarse step.  Slot counts may be
   RW_SLOTS_UNLIMITED. */
typedef struct {
  PetscInt64 n, stride, N;
  PetscInt   outer_level;
  PetscInt64 outer_slots, ram_slots;
  RwEngine   outer, inner;
} RwNested;

PETSC_INTERN PetscErrorCode RwNestedSetUp(RwNested *, PetscInt64, PetscInt64, PetscInt, PetscInt64, PetscInt64);
PETSC_INTERN PetscErrorCode RwNestedDestroy(RwNested *);
PETSC_INTERN PetscErrorCode RwNestedReset(RwNested *);
PETSC_INTERN PetscErrorCode RwNestedFill(RwSchedule, RwNested *);
PETSC_INTERN PetscErrorCode RwNestedPredict(RwSchedule, const RwNested *, RwSegMemo, RwScheduleCounts *);
PETSC_INTERN PetscErrorCode RwNestedView(const RwNested *, PetscViewer);

/* The data and the stream ops of a type that is one nested schedule; the
   type's setup calls RwNestedScheduleSetUp() */
typedef struct {
  RwNested  nest;
  RwSegMemo memo;
} RwNestedSchedule;

PETSC_INTERN PetscErrorCode RwNestedScheduleCreate(RwSchedule);
PETSC_INTERN PetscErrorCode RwNestedScheduleSetUp(RwSchedule, PetscInt64, PetscInt, PetscInt64, PetscInt64);
PETSC_INTERN PetscErrorCode RwScheduleSlotsError(RwSchedule, PetscInt, PetscInt64, const char[]);

#endif
