/*
  A continuation (issue 36): the rest of a run whose first forward sweep
  stopped at x_s (the working state) with checkpoints c_1 < ... < c_h held,
  made of binomial segments reversed one after the other, top down:

    [s, n)          from x_s, stored first, with RAM slots free above c_h
    [c_h, s)        from c_h, with the slots free above it (x_s's again)
    [c_i, c_i+1)    from c_i, with the slots free above c_i
    [0, c_1)        from x_0

  Each held checkpoint is freed after its segment's last restore, so every
  segment below finds more room than the one above.  The driver's compressed
  RAM pool uses it to re-plan without giving up what it holds
  (src/adjoint/pool.c); the free slots and the RAM slot each segment's
  stores start at are the caller's (RwScheduleHeld).
*/
#include "../engine.h"

typedef struct {
  PetscInt64      s, topfree, nheld;
  RwScheduleHeld *held; /* held[0]: x_0 */
  PetscInt64      next; /* the next segment: nheld = the top one [s, n), then nheld-1 .. 0; -1 done */
  RwEngine        engine;
} RwContinuation;

/* Checkpoints including the start for l steps with m of them at most */
static PetscInt64 Capped(PetscInt64 l, PetscInt64 m)
{
  return PetscMax(PetscMin(m, l), 1);
}

/* The segment above held[i]: [held[i].step, b) */
static PetscInt64 SegEnd(const RwContinuation *c, PetscInt64 i)
{
  return i == c->nheld - 1 ? c->s : c->held[i + 1].step;
}

/* The top segment [s, n): x_s into the first slot free above the held checkpoints */
static PetscErrorCode StartTop(RwSchedule sched, RwContinuation *c)
{
  const RwScheduleHeld *top = &c->held[c->nheld - 1];
  RwCkpt                start;
  PetscInt64            slot;

  PetscFunctionBegin;
  if (sched->n - c->s == 1) { /* one step: the working state is x_(n-1), held nowhere */
    PetscCall(RwScheduleEmit(sched, RW_ACTION_REVERSE, c->s, c->s, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  sched->held[RW_LEVEL_RAM] = top->base;
  PetscCall(RwScheduleEmitStore(sched, RW_LEVEL_RAM, c->s, &slot));
  start.level = RW_LEVEL_RAM;
  start.slot  = slot;
  start.loose = PETSC_FALSE;
  PetscCall(RwEngineStart(&c->engine, c->s, sched->n, Capped(sched->n - c->s, c->topfree), start, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The segment above held[i], from its restore; the held checkpoint is freed after its last */
static PetscErrorCode StartBelow(RwSchedule sched, RwContinuation *c, PetscInt64 i)
{
  const RwScheduleHeld *h = &c->held[i];
  PetscInt64            a = h->step, b = SegEnd(c, i);
  RwCkpt                start;

  PetscFunctionBegin;
  start.level = h->level;
  start.slot  = h->slot;
  start.loose = PETSC_TRUE; /* not on the stack of this schedule's stores */
  sched->held[RW_LEVEL_RAM] = h->base;
  PetscCall(RwScheduleEmit(sched, RW_ACTION_RESTORE, a, a, h->level, h->slot));
  if (b - a > 1) {
    PetscCall(RwEngineStart(&c->engine, a, b, Capped(b - a, h->free + 1), start, (PetscBool)(h->slot >= 0)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->slot >= 0) PetscCall(RwScheduleEmit(sched, RW_ACTION_FREE, a, a, h->level, h->slot));
  PetscCall(RwScheduleEmit(sched, RW_ACTION_REVERSE, a, a, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContinuationFill(RwSchedule sched)
{
  RwContinuation *c = (RwContinuation *)sched->data;
  RwHandover      h;
  PetscBool       handed;

  PetscFunctionBegin;
  if (c->engine.depth) PetscCall(RwEngineStep(sched, &c->engine, &h, &handed));
  else if (c->next == c->nheld) {
    PetscCall(StartTop(sched, c));
    c->next--;
  } else if (c->next >= 0) {
    PetscCall(StartBelow(sched, c, c->next));
    c->next--;
  } else PetscCall(RwScheduleEmit(sched, RW_ACTION_END, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContinuationDestroy(RwSchedule sched)
{
  RwContinuation *c = (RwContinuation *)sched->data;

  PetscFunctionBegin;
  PetscCall(RwEngineDestroy(&c->engine));
  PetscCall(PetscFree(c->held));
  PetscCall(PetscFree(sched->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleContinuationSteps - the forward steps of a continuation (see
  RwScheduleCreateContinuation()), from x_s to the end of the reverse sweep,
  the driver's step to x_n included

  Not collective

  Input Parameters:
+ n     - the run's steps
. s       - the working state's step
. topfree - the RAM slots of the top segment [s, n), x_s's included
. nheld   - entries of held
- held  - held[0] x_0 (slot -1, step 0), then the checkpoints held, by step

  Output Parameter:
. steps - forward steps

  Level: developer
@*/
PetscErrorCode RwScheduleContinuationSteps(PetscInt64 n, PetscInt64 s, PetscInt64 topfree, PetscInt64 nheld, const RwScheduleHeld held[], PetscInt64 *steps)
{
  RwSegMemo   memo;
  RwSegCounts sc;

  PetscFunctionBegin;
  *steps = 1; /* x_(n-1) -> x_n, by the driver */
  PetscCall(RwSegMemoCreate(&memo));
  if (n - s > 1) {
    PetscCall(RwSegCount(memo, n - s, Capped(n - s, topfree), &sc));
    *steps += sc.adv;
  }
  for (PetscInt64 i = 0; i < nheld; i++) {
    PetscInt64 l = (i == nheld - 1 ? s : held[i + 1].step) - held[i].step;

    if (l < 2) continue;
    PetscCall(RwSegCount(memo, l, Capped(l, held[i].free + 1), &sc));
    *steps += sc.adv;
  }
  PetscCall(RwSegMemoDestroy(&memo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleCreateContinuation - a schedule for the rest of a run from the
  working state x_s and the checkpoints held (file comment above)

  Collective on PETSC_COMM_SELF

  Input Parameters:
+ parent - the schedule the run followed until x_s (its steps and levels)
. s       - the working state's step, 0 < s < n
. topfree - the RAM slots of the top segment [s, n), x_s's included (at least 1 where s < n - 1): its
            states are not known yet, so the caller may count them at a larger size than the rest
. nheld   - entries of held, at least 1
- held   - held[0] x_0 (slot -1, step 0), then the checkpoints held, by
           increasing step: where each is (level, slot), the RAM slots free
           while it is the highest held (free) and the RAM slot the stores
           above it start at (base)

  Output Parameter:
. cont - the schedule, set up and at its first action

  Level: developer

.seealso: RwScheduleContinuationSteps()
@*/
PetscErrorCode RwScheduleCreateContinuation(RwSchedule parent, PetscInt64 s, PetscInt64 topfree, PetscInt64 nheld, const RwScheduleHeld held[], RwSchedule *cont)
{
  RwSchedule      sched;
  RwContinuation *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(parent, RW_SCHEDULE_CLASSID, 1);
  PetscCheck(s > 0 && s < parent->n && nheld >= 1 && held[0].slot < 0 && held[0].step == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A continuation needs 0 < s = %" PetscInt64_FMT " < n = %" PetscInt64_FMT " and x_0 first among the held", s, parent->n);
  PetscCheck(s == parent->n - 1 || topfree >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A continuation from x_%" PetscInt64_FMT " needs a free RAM slot for it", s);
  for (PetscInt64 i = 1; i < nheld; i++) PetscCheck(held[i].step > held[i - 1].step && held[i].step < s, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Held checkpoints must be by increasing step below s");
  PetscCall(RwScheduleCreate(PETSC_COMM_SELF, &sched));
  PetscCall(PetscNew(&c));
  PetscCall(PetscMalloc1(nheld, &c->held));
  PetscCall(PetscArraycpy(c->held, held, nheld));
  c->s       = s;
  c->topfree = topfree;
  c->nheld   = nheld;
  c->next  = nheld;
  PetscCall(RwEngineInit(&c->engine, RW_LEVEL_RAM, 1, parent->n, PETSC_FALSE));
  sched->data         = c;
  sched->ops->fill    = ContinuationFill;
  sched->ops->destroy = ContinuationDestroy;
  sched->n            = parent->n;
  sched->nlevels      = parent->nlevels;
  sched->setupcalled  = PETSC_TRUE; /* planned here: no type, no options */
  *cont               = sched;
  PetscFunctionReturn(PETSC_SUCCESS);
}
