/*
  online: checkpointing for a run whose length is decided while it runs.

  The schedule's n is an upper bound (-rw_steps); the driver may end the run
  at any step n' <= n (RwScheduleStopAt()), and the stream then reverses n'
  steps.  Until the stop the stream does not depend on n' at all, so the
  stream of a run stopped at n' is the stream of a schedule set up for n'
  steps, action for action (tested).

  The s RAM slots are split in two: a "spine" of q = floor(s/2) slots kept
  during the forward sweep and r = s - q slots for reversing the segments
  between spine checkpoints afterwards.  The spine holds the multiples of a
  spacing h (a power of two): x_h, x_2h, ... When a multiple arrives and the
  spine is full, h doubles and the odd multiples are given up (freed without
  a restore: the validator allows that in an online stream's first sweep).
  The forward sweep advances one step at a time so the driver can test the
  stop after each.  Once stopped at n', the segments between spine
  checkpoints, [c_i, c_i+1) and the top one [c_J, n'-1), are reversed from
  the top down, each by binomial checkpointing (the shared engine) with the
  r slots.

  Bound (doc/schedules.md has the proof): the forward steps F of a run
  stopped at n satisfy optimal(n, s) <= F <= n + p(n-1, r+1) <= optimal(n, r) + n - 1,
  for every n: the offline optimum with r = ceil(s/2) slots plus one forward
  sweep.  There is no capacity beyond which it degrades: h keeps doubling.
*/
#include "../../engine.h"

typedef enum {
  ONLINE_FORWARD,
  ONLINE_REVERSE,
  ONLINE_DONE
} Phase;

typedef struct {
  PetscInt64  q, r;        /* spine checkpoints, inner slots (the engine's stack, above the spine's slots) */
  PetscInt64  qcap;        /* spine entries that can exist within n steps: min(q, n-1) */
  PetscInt64 *step, *slot; /* the spine, steps increasing */
  PetscInt64  cnt;
  PetscInt64 *freeslots, nfree; /* the spine's free slots, the next on top; fresh ones in increasing order */
  PetscInt64  used;        /* 1 + the highest slot the spine has used: the base of the engine's stack */
  PetscInt64  h;           /* the spine's spacing */
  PetscInt64  k;           /* forward: the working state x_k */
  PetscInt64  stop;        /* the run's last step: RwScheduleStopAt() or the schedule's n */
  PetscInt64  thin, kept;  /* thinning in progress: the next spine entry to look at, entries kept; thin < 0: none */
  PetscInt64  top;         /* reverse: steps [0, top) remain */
  Phase       phase;
  RwEngine    inner;
  RwSegMemo   memo;
} Online;

/* Frees given up per fill while thinning: the queue holds RW_SCHEDULE_QUEUE actions */
#define THIN_CHUNK (RW_SCHEDULE_QUEUE / 2)

/* The slots of each part for s RAM slots: they do not depend on n, so that a run
   stopped at n' gives the stream of a schedule for n'; unlimited: keep every state */
static void SplitSlots(PetscInt64 s, PetscInt64 *q, PetscInt64 *r)
{
  if (s == RW_SLOTS_UNLIMITED) {
    *q = RW_INT64_MAX;
    *r = 0;
  } else {
    *q = s / 2;
    *r = s - *q;
  }
}

static PetscErrorCode Reset_Online(RwSchedule s)
{
  Online *on = (Online *)s->data;

  PetscFunctionBegin;
  on->cnt   = 0;
  on->used  = 0;
  on->nfree = on->qcap;
  for (PetscInt64 i = 0; i < on->qcap; i++) on->freeslots[i] = on->qcap - 1 - i; /* the lowest slot first: the numbering does not depend on qcap */
  on->h     = 1;
  on->k     = 0;
  on->stop  = s->n;
  on->thin  = -1;
  on->phase = ONLINE_FORWARD;
  on->inner.depth = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUp_Online(RwSchedule s)
{
  Online    *on  = (Online *)s->data;
  PetscInt64 ram = s->avail[RW_LEVEL_RAM];

  PetscFunctionBegin;
  if (s->n == 1 && ram == RW_SLOTS_UNSET) ram = s->avail[RW_LEVEL_RAM] = 0; /* one step needs no slot */
  if (ram == RW_SLOTS_UNSET || (ram == 0 && s->n > 1)) PetscCall(RwScheduleSlotsError(s, RW_LEVEL_RAM, 1, "reversing more than one step"));
  SplitSlots(ram, &on->q, &on->r);
  on->qcap = PetscMin(on->q, s->n - 1);
  PetscCall(PetscFree2(on->step, on->slot));
  PetscCall(PetscFree(on->freeslots));
  PetscCall(PetscMalloc2(on->qcap, &on->step, on->qcap, &on->slot));
  PetscCall(PetscMalloc1(on->qcap, &on->freeslots));
  PetscCall(RwEngineInit(&on->inner, RW_LEVEL_RAM, 1, s->n, PETSC_FALSE));
  if (!on->memo) PetscCall(RwSegMemoCreate(&on->memo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Stop_Online(RwSchedule s, PetscInt64 n)
{
  Online *on = (Online *)s->data;

  PetscFunctionBegin;
  PetscCheck(on->phase == ONLINE_FORWARD && on->k == n, PETSC_COMM_SELF, PETSC_ERR_ORDER, "RwScheduleStopAt(%" PetscInt64_FMT "): the online schedule's forward sweep is at step %" PetscInt64_FMT "%s; stop right after the ADVANCE that reached the last step", n, on->k, on->phase == ONLINE_FORWARD ? "" : " and already reversing");
  on->stop = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gives up the spine's odd multiples of h, a chunk per call; true when done (h doubled) */
static PetscErrorCode Thin(RwSchedule s, Online *on, PetscBool *done)
{
  PetscInt64 end;

  PetscFunctionBegin;
  if (on->thin < 0) on->thin = on->kept = 0;
  end = PetscMin(on->cnt, on->thin + THIN_CHUNK);
  for (; on->thin < end; on->thin++) {
    PetscInt64 i = on->thin;

    if (on->step[i] % (2 * on->h) == 0) {
      on->step[on->kept] = on->step[i];
      on->slot[on->kept] = on->slot[i];
      on->kept++;
    } else {
      PetscCall(RwScheduleEmit(s, RW_ACTION_FREE, on->step[i], on->step[i], RW_LEVEL_RAM, on->slot[i]));
      on->freeslots[on->nfree++] = on->slot[i];
    }
  }
  *done = (PetscBool)(on->thin == on->cnt);
  if (*done) {
    on->cnt  = on->kept;
    on->h   *= 2;
    on->thin = -1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* At x_k: keep it on the spine if it is a multiple of h, then advance one step */
static PetscErrorCode FillForward(RwSchedule s, Online *on)
{
  PetscInt64 k = on->k;

  PetscFunctionBegin;
  if (k >= 1 && on->q && k % on->h == 0) {
    if (on->cnt == on->q || on->thin >= 0) {
      PetscBool done;

      PetscCall(Thin(s, on, &done));
      if (!done) PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (k % on->h == 0) {
      PetscInt64 slot = on->freeslots[--on->nfree];

      PetscCall(RwScheduleEmit(s, RW_ACTION_STORE, k, k, RW_LEVEL_RAM, slot));
      on->used          = PetscMax(on->used, slot + 1);
      on->step[on->cnt] = k;
      on->slot[on->cnt] = slot;
      on->cnt++;
    }
  }
  PetscCall(RwScheduleEmit(s, RW_ACTION_ADVANCE, k, k + 1, 0, 0));
  on->k = k + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* At x_n, with x_(n-1) kept by the driver: reverse n-1 at once */
static PetscErrorCode FillStopped(RwSchedule s, Online *on)
{
  PetscInt64 n = on->stop;

  PetscFunctionBegin;
  if (on->cnt && on->step[on->cnt - 1] == n - 1) { /* the driver keeps x_(n-1) itself */
    on->cnt--;
    PetscCall(RwScheduleEmit(s, RW_ACTION_FREE, n - 1, n - 1, RW_LEVEL_RAM, on->slot[on->cnt]));
  }
  PetscCall(RwScheduleEmit(s, RW_ACTION_REVERSE, n - 1, n - 1, 0, 0));
  s->held[RW_LEVEL_RAM] = on->used; /* the engine stacks its checkpoints above the spine's slots */
  on->top               = n - 1;
  on->phase = ONLINE_REVERSE;
  s->stopped = PETSC_TRUE; /* from here on the stream is the reversal of [0, n]: the driver may peek (its store reads ahead) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The next segment [c, top) from the highest spine checkpoint c (or x_0), by the engine with r slots */
static PetscErrorCode FillReverse(RwSchedule s, Online *on)
{
  RwHandover h;
  PetscBool  handed, spine = (PetscBool)(on->cnt > 0);
  PetscInt64 c;
  RwCkpt     start = {RW_LEVEL_RAM, -1, PETSC_TRUE};

  PetscFunctionBegin;
  if (on->inner.depth) {
    PetscCall(RwEngineStep(s, &on->inner, &h, &handed));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (on->top == 0) {
    PetscCall(RwScheduleEmit(s, RW_ACTION_END, 0, 0, 0, 0));
    on->phase = ONLINE_DONE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  c = spine ? on->step[on->cnt - 1] : 0;
  if (spine) start.slot = on->slot[--on->cnt];
  PetscCall(RwScheduleEmit(s, RW_ACTION_RESTORE, c, c, RW_LEVEL_RAM, start.slot));
  if (on->top - c == 1) {
    if (spine) PetscCall(RwScheduleEmit(s, RW_ACTION_FREE, c, c, RW_LEVEL_RAM, start.slot));
    PetscCall(RwScheduleEmit(s, RW_ACTION_REVERSE, c, c, 0, 0));
  } else PetscCall(RwEngineStart(&on->inner, c, on->top, on->r + 1, start, spine));
  on->top = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Fill_Online(RwSchedule s)
{
  Online *on = (Online *)s->data;

  PetscFunctionBegin;
  switch (on->phase) {
  case ONLINE_FORWARD:
    if (on->k == on->stop) PetscCall(FillStopped(s, on));
    else PetscCall(FillForward(s, on));
    break;
  case ONLINE_REVERSE:
    PetscCall(FillReverse(s, on));
    break;
  case ONLINE_DONE:
    PetscCall(RwScheduleEmit(s, RW_ACTION_END, 0, 0, 0, 0));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reversing a segment of l steps from its start, restored first: what it adds */
static PetscErrorCode AddSegment(Online *on, RwScheduleCounts *c, PetscInt64 *advact, PetscInt64 l, PetscInt64 times, PetscBool spine)
{
  RwSegCounts seg = {0};

  PetscFunctionBegin;
  if (!times) PetscFunctionReturn(PETSC_SUCCESS);
  if (l >= 2) PetscCall(RwSegCount(on->memo, l, PetscMin(on->r + 1, l), &seg));
  c->forward_steps += times * seg.adv;
  *advact += times * seg.advact;
  c->restores[RW_LEVEL_RAM] += times * (1 + seg.own + seg.sub);
  c->stores[RW_LEVEL_RAM] += times * seg.stores;
  c->frees[RW_LEVEL_RAM] += times * (seg.stores + (spine ? 1 : 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The counts of a run stopped at the schedule's n, without replaying it.
  After x_k the spine is the multiples of h in [1, k]; a spacing h lasts
  from k = (q+1) h/2 (1 for h = 1) to (q+1) h - 1, and ends by giving up
  q - floor(q/2) checkpoints.  At the stop the spine is the multiples of h
  in [1, n-2]: J segments of h steps and the top one of n-1-Jh.
*/
static PetscErrorCode Predict_Online(RwSchedule s, RwScheduleCounts *c)
{
  Online    *on = (Online *)s->data;
  PetscInt64 n = s->n, q = on->qcap, h = 1, from = 1, advact = n, J;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->forward_steps = n; /* the first sweep reaches x_n itself */
  while (q && from <= n - 1) {
    PetscInt64 to = PetscMin((q + 1) * h - 1, n - 1);

    c->stores[RW_LEVEL_RAM] += to / h - (from - 1) / h;
    if (to == n - 1) break;
    c->frees[RW_LEVEL_RAM] += q - q / 2;
    from = (q + 1) * h;
    h *= 2;
  }
  if (q && n >= 2 && (n - 1) % h == 0) c->frees[RW_LEVEL_RAM]++; /* x_(n-1), kept by the driver instead */
  J = n >= 2 && q ? (n - 2) / h : 0;
  if (n >= 2) {
    PetscCall(AddSegment(on, c, &advact, h, J ? 1 : 0, PETSC_FALSE)); /* from x_0 */
    PetscCall(AddSegment(on, c, &advact, h, PetscMax(J - 1, 0), PETSC_TRUE));
    PetscCall(AddSegment(on, c, &advact, n - 1 - J * h, 1, (PetscBool)(J > 0)));
  }
  c->reverse_steps                = n;
  /* the slots the store needs, for a run stopped anywhere: the spine's, and the engine's above them unless the spine never fills */
  c->max_slots_used[RW_LEVEL_RAM] = on->qcap + (on->qcap >= n - 1 ? 0 : PetscMin(on->r, PetscMax(n - 2, 0)));
  c->actions                      = advact + n + 1;
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) c->actions += c->stores[lv] + c->restores[lv] + c->frees[lv];
  PetscCall(RwScheduleCountsComplete(s, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode View_Online(RwSchedule s, PetscViewer viewer)
{
  Online    *on = (Online *)s->data;
  PetscInt64 bound;

  PetscFunctionBegin;
  if (!s->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwScheduleOnlineBound(s->n, s->avail[RW_LEVEL_RAM], &bound));
  PetscCall(PetscViewerASCIIPrintf(viewer, "online: at most %" PetscInt64_FMT " steps (the run may stop earlier); %" PetscInt64_FMT " spine slots, %" PetscInt64_FMT " slots to reverse between them; forward steps at most %" PetscInt64_FMT " if it runs to the end\n", s->n, on->qcap, on->r, bound));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Destroy_Online(RwSchedule s)
{
  Online *on = (Online *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscFree2(on->step, on->slot));
  PetscCall(PetscFree(on->freeslots));
  PetscCall(RwEngineDestroy(&on->inner));
  PetscCall(RwSegMemoDestroy(&on->memo));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleOnlineGetSlots - how an online schedule splits its RAM slots

  Not collective

  Output Parameters:
+ spine - slots kept during the forward sweep (the multiples of a doubling spacing)
- inner - slots for reversing the segments between them

  Level: advanced

.seealso: RWSCHEDULEONLINE, RwScheduleOnlineBound()
@*/
PetscErrorCode RwScheduleOnlineGetSlots(RwSchedule s, PetscInt64 *spine, PetscInt64 *inner)
{
  Online   *on;
  PetscBool same;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(s, RW_SCHEDULE_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)s, RWSCHEDULEONLINE, &same));
  PetscCheck(same && s->setupcalled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "RwScheduleOnlineGetSlots() needs an online schedule, set up");
  on = (Online *)s->data;
  if (spine) *spine = on->qcap;
  if (inner) *inner = on->r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleOnlineBound - the most forward steps an online schedule with s RAM
  slots takes for a run that stops at step n: n + p(n-1, r+1), r = ceil(s/2)
  (n when every state fits), which is at most RwOptimalForwardSteps(n, r) + n - 1

  Not collective

  Input Parameters:
+ n - the step the run stopped at
- s - the RAM slots (RW_SLOTS_UNLIMITED allowed)

  Output Parameter:
. bound - the bound

  Level: advanced

.seealso: RWSCHEDULEONLINE, RwOptimalForwardSteps()
@*/
PetscErrorCode RwScheduleOnlineBound(PetscInt64 n, PetscInt64 s, PetscInt64 *bound)
{
  PetscInt64 q, r;

  PetscFunctionBegin;
  PetscCheck(n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "n = %" PetscInt64_FMT "; expected n >= 1", n);
  SplitSlots(s, &q, &r);
  if (q >= n - 1) r = 0; /* every state fits on the spine */
  *bound = n + (r && n >= 2 ? RwGWForward(n - 1, PetscMin(r + 1, n - 1)) : 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWSCHEDULEONLINE - "online": checkpointing for a run whose length is decided
  while it runs (a stopping test on the state, RwAdjointSetStopTest()); the
  schedule's n (-rw_steps) is an upper bound.

  The RAM slots are split: floor(s/2) keep the multiples of a spacing that
  doubles whenever they are full (the odd multiples are given up), the other
  ceil(s/2) reverse the segments between them by binomial checkpointing once
  the run has stopped. For a run that stops at n the forward steps are
  between the offline optimum with s slots and
  RwOptimalForwardSteps(n, ceil(s/2)) + n - 1, for every n
  (RwScheduleOnlineBound()); with slots for every state it stores them all
  (n forward steps, optimal).

  Options Database Keys:
+ -rw_schedule_ram_slots <s> - RAM slots (required for n > 1, s >= 1)
- -rw_checkpoint_ram <bytes> - or a RAM budget per MPI rank

  Level: intermediate

.seealso: RwScheduleSetType(), RwScheduleStopAt(), RwScheduleOnlineBound(), RWSCHEDULEREVOLVE
M*/
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Online(RwSchedule s)
{
  Online *on;

  PetscFunctionBegin;
  PetscCall(PetscNew(&on));
  s->data         = on;
  s->online       = PETSC_TRUE;
  s->ops->setup   = SetUp_Online;
  s->ops->reset   = Reset_Online;
  s->ops->fill    = Fill_Online;
  s->ops->predict = Predict_Online;
  s->ops->view    = View_Online;
  s->ops->destroy = Destroy_Online;
  s->ops->stop    = Stop_Online;
  PetscFunctionReturn(PETSC_SUCCESS);
}
