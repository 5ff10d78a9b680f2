/*
  multilevel: RAM and disk, the cheapest schedule under
      cost = uf*forward + ub*reverse + wd*disk writes + rd*disk reads
  by dynamic programming over nested schedules (after Aupy, Herrmann et al.,
  disk-revolve and H-Revolve), with two tables:

    T(l)    reverse steps [0, l) from x_0, all RAM slots and the top disk slots free
    D(l, d) reverse [a, a+l) from a disk checkpoint of x_a (the working state
            is x_a), all RAM slots and d disk slots free

  A sweep from the start advances j steps and stores x_(a+j) in RAM (the part
  above is then RAM-only binomial: uf*p(l-j, s_ram), closed form) or on disk
  (the part above is D(l-j, d-1)), or advances l-1 steps and reverses with no
  store; then the start is restored for the part below (free from x_0, rd
  from disk, after which the disk checkpoint may be copied into RAM:
  Dr(l, d) = min(D(l, d), uf*p(l, s_ram))).  Disk checkpoints are never
  placed above a RAM checkpoint's start: an exchange argument suggests it never
  pays, and an unrestricted three-table DP and Dijkstra over all schedules
  agree (tests/schedule/t204-multilevel).
  Work ~ n^2/2 (d+1); beyond -rw_schedule_multilevel_max_work the type falls
  back to the best nested schedule (revolve over disk-checkpointed coarse
  steps, revolve in RAM inside), pure revolve included.
*/
#include "../../engine.h"

typedef enum {
  CH_REV,     /* T: RAM-only revolve from x_0 */
  CH_NOSTORE, /* advance to the top and reverse it */
  CH_RAM,     /* store in RAM at a+j */
  CH_DISK     /* store on disk at a+j */
} Choice;

typedef enum {
  MODE_DP,      /* exact: the tables */
  MODE_REVOLVE, /* exact: disk cannot help (no disk slots, or RAM for every state) */
  MODE_NESTED   /* fallback beyond the DP's work limit */
} Mode;

typedef struct {
  PetscInt   kind; /* 0: T frame, 1: D frame */
  PetscInt64 a, b, d;
  RwCkpt     start;
  PetscBool  fresh;
} Frame;

typedef struct {
  RwNestedSchedule nested; /* MODE_REVOLVE and MODE_NESTED; first, so the nested ops work on data */
  PetscReal        max_work;
  Mode             mode;
  PetscInt64       n, sr, cols;
  PetscBool        unlimited;            /* the disk never runs out: one D column */
  PetscReal       *T, *D, *Dr, *P0, *P1; /* P0 = uf p(l, s_ram), P1 = uf p(l, s_ram + 1) */
  PetscInt        *chT, *chD;            /* 4*j + Choice */
  PetscReal        dpcost;               /* T(n) + uf + ub n */
  Frame           *frames;
  PetscInt         depth, capacity;
  RwEngine         ram; /* the RAM-only binomial parts */
  RwScheduleCounts replayed;
} Multilevel;

#define DIDX(ml, l, d) ((size_t)(l) * (size_t)(ml)->cols + (size_t)(d))

static PetscErrorCode FreeTables(Multilevel *ml)
{
  PetscFunctionBegin;
  PetscCall(PetscFree4(ml->T, ml->P0, ml->P1, ml->chT));
  PetscCall(PetscFree3(ml->D, ml->Dr, ml->chD));
  PetscCall(PetscFree(ml->frames));
  ml->capacity = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The best first store from a start that costs `back` to restore: below[j*stride] is the
   part under a+j, above (NULL: no disk slot) the disk column for the part over it */
static void Sweep(const Multilevel *ml, PetscReal uf, PetscReal wd, PetscReal back, const PetscReal *below, PetscInt64 stride, const PetscReal *above, PetscInt64 l, PetscReal *best, PetscInt *ch)
{
  for (PetscInt64 j = 1; j <= l - 2; j++) {
    PetscReal base = uf * (PetscReal)j + back + below[j * stride], v;

    v = base + ml->P0[l - j];
    if (v < *best) {
      *best = v;
      *ch   = (PetscInt)(4 * j + CH_RAM);
    }
    if (!above) continue;
    v = base + wd + above[DIDX(ml, l - j, 0)];
    if (v < *best) {
      *best = v;
      *ch   = (PetscInt)(4 * j + CH_DISK);
    }
  }
}

/* The tables, for l = 1..n; D column d at offset d, so `above` points at column d-1 */
static PetscErrorCode Tables(RwSchedule s, Multilevel *ml, PetscInt64 sd)
{
  PetscInt64 n = ml->n, cols = ml->cols;
  PetscReal  uf = s->uf, wd = s->wd, rd = s->rd;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(n + 1, &ml->T, n + 1, &ml->P0, n + 1, &ml->P1, n + 1, &ml->chT));
  PetscCall(PetscMalloc3((n + 1) * cols, &ml->D, (n + 1) * cols, &ml->Dr, (n + 1) * cols, &ml->chD));
  PetscCall(PetscMalloc1(16, &ml->frames));
  ml->capacity = 16;
  for (PetscInt64 l = 1; l <= n; l++) {
    ml->P0[l] = uf * (PetscReal)RwGWForward(l, ml->sr);
    ml->P1[l] = uf * (PetscReal)RwGWForward(l, ml->sr + 1);
  }
  for (PetscInt64 l = 1; l <= n; l++) {
    for (PetscInt64 d = 0; d < cols; d++) {
      PetscReal best = 0;
      PetscInt  ch   = CH_NOSTORE;

      if (l >= 2) {
        best = uf * (PetscReal)(l - 1) + rd + ml->Dr[DIDX(ml, l - 1, d)];
        Sweep(ml, uf, wd, rd, ml->Dr + d, cols, ml->unlimited ? ml->D + d : (d ? ml->D + d - 1 : NULL), l, &best, &ch);
      }
      ml->D[DIDX(ml, l, d)]   = best;
      ml->chD[DIDX(ml, l, d)] = ch;
      ml->Dr[DIDX(ml, l, d)]  = PetscMin(best, ml->P0[l]);
    }
    ml->T[l]   = ml->P1[l];
    ml->chT[l] = CH_REV;
    if (l >= 2 && uf * (PetscReal)(l - 1) + ml->T[l - 1] < ml->T[l]) {
      ml->T[l]   = uf * (PetscReal)(l - 1) + ml->T[l - 1];
      ml->chT[l] = CH_NOSTORE;
    }
    Sweep(ml, uf, wd, 0, ml->T, 1, sd ? ml->D + (ml->unlimited ? 0 : cols - 1) : NULL, l, &ml->T[l], &ml->chT[l]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the stream in MODE_DP -------------------------------------------- */

static PetscErrorCode PushD(Multilevel *ml, PetscInt64 a, PetscInt64 b, PetscInt64 d, RwCkpt start)
{
  PetscFunctionBegin;
  if (ml->depth == ml->capacity) {
    Frame *grown;

    PetscCall(PetscMalloc1(2 * ml->capacity, &grown));
    PetscCall(PetscArraycpy(grown, ml->frames, ml->depth));
    PetscCall(PetscFree(ml->frames));
    ml->frames = grown;
    ml->capacity *= 2;
  }
  ml->frames[ml->depth++] = (Frame){1, a, b, d, start, PETSC_TRUE};
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sweep a frame's table chose: store at a+j (RAM: a binomial part; disk: a D frame) or reverse the top */
static PetscErrorCode Apply(RwSchedule s, Multilevel *ml, Frame *f, PetscInt code)
{
  PetscInt64 j = code / 4, b = f->b, slot;

  PetscFunctionBegin;
  f->fresh = PETSC_FALSE;
  if (code % 4 == CH_NOSTORE) {
    PetscCall(RwScheduleEmit(s, RW_ACTION_ADVANCE, f->a, b - 1, 0, 0));
    PetscCall(RwScheduleEmit(s, RW_ACTION_REVERSE, b - 1, b - 1, 0, 0));
    f->b--;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwScheduleEmit(s, RW_ACTION_ADVANCE, f->a, f->a + j, 0, 0));
  f->b = f->a + j;
  if (code % 4 == CH_RAM) {
    RwCkpt c = {RW_LEVEL_RAM, 0, PETSC_FALSE};

    PetscCall(RwScheduleEmitStore(s, RW_LEVEL_RAM, f->b, &c.slot));
    PetscCall(RwEngineStart(&ml->ram, f->b, b, ml->sr, c, PETSC_TRUE));
  } else {
    RwCkpt c = {RW_LEVEL_DISK, 0, PETSC_FALSE};

    PetscCall(RwScheduleEmitStore(s, RW_LEVEL_DISK, f->b, &slot));
    c.slot = slot;
    PetscCall(PushD(ml, f->b, b, ml->unlimited ? 0 : f->d - 1, c)); /* f is stale from here */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StepT(RwSchedule s, Multilevel *ml, Frame *f)
{
  static const RwCkpt X0 = {RW_LEVEL_RAM, -1, PETSC_FALSE};
  PetscInt64          l  = f->b;

  PetscFunctionBegin;
  if (!f->fresh) PetscCall(RwScheduleEmit(s, RW_ACTION_RESTORE, 0, 0, RW_LEVEL_RAM, -1));
  if (l == 1) {
    ml->depth--;
    PetscCall(RwScheduleEmit(s, RW_ACTION_REVERSE, 0, 0, 0, 0));
  } else if (ml->chT[l] == CH_REV) {
    ml->depth--;
    PetscCall(RwEngineStart(&ml->ram, 0, l, ml->sr + 1, X0, PETSC_FALSE));
  } else PetscCall(Apply(s, ml, f, ml->chT[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StepD(RwSchedule s, Multilevel *ml, Frame *f)
{
  PetscInt64 l = f->b - f->a, slot;

  PetscFunctionBegin;
  if (!f->fresh) {
    PetscCall(RwScheduleEmit(s, RW_ACTION_RESTORE, f->a, f->a, RW_LEVEL_DISK, f->start.slot));
    if (l == 1 || ml->P0[l] <= ml->D[DIDX(ml, l, f->d)]) { /* last read, or copy into RAM for good */
      Frame g = *f;

      ml->depth--;
      PetscCall(RwScheduleEmitFree(s, RW_LEVEL_DISK, g.start.slot, g.a));
      if (l == 1) PetscCall(RwScheduleEmit(s, RW_ACTION_REVERSE, g.a, g.a, 0, 0));
      else {
        PetscCall(RwScheduleEmitStore(s, RW_LEVEL_RAM, g.a, &slot));
        PetscCall(RwEngineStart(&ml->ram, g.a, g.b, ml->sr, (RwCkpt){RW_LEVEL_RAM, slot, PETSC_FALSE}, PETSC_TRUE));
      }
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(Apply(s, ml, f, ml->chD[DIDX(ml, l, f->d)]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Fill_Multilevel(RwSchedule s)
{
  Multilevel *ml = (Multilevel *)s->data;
  RwHandover  h;
  PetscBool   handed;

  PetscFunctionBegin;
  if (ml->mode != MODE_DP) PetscCall(RwNestedFill(s, &ml->nested.nest));
  else if (ml->ram.depth) PetscCall(RwEngineStep(s, &ml->ram, &h, &handed));
  else if (!ml->depth) PetscCall(RwScheduleEmit(s, RW_ACTION_END, 0, 0, 0, 0));
  else if (ml->frames[ml->depth - 1].kind == 0) PetscCall(StepT(s, ml, &ml->frames[ml->depth - 1]));
  else PetscCall(StepD(s, ml, &ml->frames[ml->depth - 1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Reset_Multilevel(RwSchedule s)
{
  Multilevel *ml = (Multilevel *)s->data;

  PetscFunctionBegin;
  if (ml->mode != MODE_DP) {
    PetscCall(RwNestedReset(&ml->nested.nest));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ml->ram.depth = 0;
  ml->depth     = 1;
  ml->frames[0] = (Frame){0, 0, ml->n, ml->unlimited ? 0 : ml->cols, {RW_LEVEL_RAM, -1, PETSC_FALSE}, PETSC_TRUE}; /* d: disk slots free */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- planning --------------------------------------------------------- */

/* The best nested schedule: coarse steps of `stride` with disk checkpoints, revolve in RAM inside */
static PetscErrorCode ChooseNested(RwSchedule s, Multilevel *ml, PetscInt64 sd)
{
  PetscInt64       n = ml->n, best = n;
  PetscReal        bestcost;
  RwNested         trial;
  RwScheduleCounts c;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&trial, sizeof(trial)));
  PetscCall(RwNestedSetUp(&trial, n, n, RW_LEVEL_DISK, sd, ml->sr));
  PetscCall(RwNestedPredict(s, &trial, ml->nested.memo, &c));
  bestcost = c.cost; /* pure revolve first: ties keep it */
  for (PetscInt64 k = 2; k < n; k = PetscMax(k + 1, (PetscInt64)(1.08 * (PetscReal)k))) {
    PetscCall(RwNestedSetUp(&trial, n, k, RW_LEVEL_DISK, sd, ml->sr));
    PetscCall(RwNestedPredict(s, &trial, ml->nested.memo, &c));
    if (c.cost < bestcost) {
      bestcost = c.cost;
      best     = k;
    }
  }
  PetscCall(RwNestedScheduleSetUp(s, best, RW_LEVEL_DISK, sd, ml->sr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUp_Multilevel(RwSchedule s)
{
  Multilevel *ml = (Multilevel *)s->data;
  PetscInt64  n = s->n, sr = s->avail[RW_LEVEL_RAM], sd = s->avail[RW_LEVEL_DISK];
  PetscReal   work;

  PetscFunctionBegin;
  s->nlevels = 2;
  if (n == 1) { /* nothing to store */
    sr = s->avail[RW_LEVEL_RAM] = PetscMax(sr, 0);
    sd = s->avail[RW_LEVEL_DISK] = PetscMax(sd, 0);
  }
  if (sr == RW_SLOTS_UNSET || (sr == 0 && n > 1)) PetscCall(RwScheduleSlotsError(s, RW_LEVEL_RAM, 1, "reversing more than one step"));
  if (sd == RW_SLOTS_UNSET) PetscCall(RwScheduleSlotsError(s, RW_LEVEL_DISK, 0, ""));
  PetscCall(FreeTables(ml));
  ml->n         = n;
  ml->sr        = sr == RW_SLOTS_UNLIMITED ? n : PetscMin(sr, n);
  ml->unlimited = (PetscBool)(sd == RW_SLOTS_UNLIMITED || sd >= n - 2);
  ml->cols      = ml->unlimited ? 1 : sd;
  work          = 0.5 * (PetscReal)n * (PetscReal)(n + 1) * (PetscReal)(ml->cols + 1);
  if (sd == 0 || ml->sr >= n - 2) {
    ml->mode = MODE_REVOLVE;
    PetscCall(RwNestedScheduleSetUp(s, n, RW_LEVEL_DISK, 0, ml->sr));
  } else if (work > ml->max_work || n > (1 << 28)) { /* the tables index steps with PetscInt */
    ml->mode = MODE_NESTED;
    PetscCall(ChooseNested(s, ml, ml->unlimited ? RW_SLOTS_UNLIMITED : sd));
  } else {
    ml->mode = MODE_DP;
    PetscCall(Tables(s, ml, sd));
    PetscCall(RwEngineInit(&ml->ram, RW_LEVEL_RAM, 1, n, PETSC_FALSE));
    ml->dpcost = ml->T[n] + s->uf + s->ub * (PetscReal)n;
    /* replay once: counts for the prediction, and proof that the stream is valid and costs the optimum */
    s->setupcalled = PETSC_TRUE;
    PetscCall(RwScheduleValidate(s, &ml->replayed));
    s->setupcalled = PETSC_FALSE;
    PetscCheck(PetscAbsReal(ml->replayed.cost - ml->dpcost) <= 1e-9 * PetscMax(1.0, ml->dpcost), PETSC_COMM_SELF, PETSC_ERR_PLIB, "multilevel stream costs %.17g, its DP optimum is %.17g", (double)ml->replayed.cost, (double)ml->dpcost);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Predict_Multilevel(RwSchedule s, RwScheduleCounts *c)
{
  Multilevel *ml = (Multilevel *)s->data;

  PetscFunctionBegin;
  if (ml->mode != MODE_DP) PetscCall(RwNestedPredict(s, &ml->nested.nest, ml->nested.memo, c));
  else {
    *c      = ml->replayed;
    c->cost = ml->dpcost;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetFromOptions_Multilevel(RwSchedule s, PetscOptionItems *PetscOptionsObject)
{
  Multilevel *ml = (Multilevel *)s->data;
  PetscReal   w  = ml->max_work;
  PetscBool   set;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Multilevel schedule options");
  PetscCall(RwOptionsReal("-rw_schedule_multilevel_max_work", "Largest DP (about n^2/2 (disk slots + 1) steps) solved exactly; beyond it, the best nested schedule", "RwScheduleMultilevelSetMaxWork", w, &w, &set, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  if (set) PetscCall(RwScheduleMultilevelSetMaxWork(s, w));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode View_Multilevel(RwSchedule s, PetscViewer viewer)
{
  Multilevel *ml = (Multilevel *)s->data;
  PetscInt64  opt;

  PetscFunctionBegin;
  if (!s->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  if (ml->mode == MODE_DP) PetscCall(PetscViewerASCIIPrintf(viewer, "exact: dynamic programme over %" PetscInt64_FMT " steps and %" PetscInt64_FMT " disk columns, optimum %.6g\n", ml->n, ml->cols, (double)ml->dpcost));
  else if (ml->mode == MODE_REVOLVE) PetscCall(PetscViewerASCIIPrintf(viewer, "exact: the disk cannot help (no disk slots, or RAM for every state): revolve\n"));
  else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "not exact: the DP (about %.6g steps, -rw_schedule_multilevel_max_work %.6g, at most 2^28 steps) is too big; the best nested schedule\n", 0.5 * (double)ml->n * (double)(ml->n + 1) * (double)(ml->cols + 1), (double)ml->max_work));
    PetscCall(RwNestedView(&ml->nested.nest, viewer));
  }
  PetscCall(RwOptimalForwardSteps(ml->n, ml->sr, &opt));
  PetscCall(PetscViewerASCIIPrintf(viewer, "RAM-only revolve: %" PetscInt64_FMT " forward steps, cost %.6g\n", opt, (double)(s->uf * (PetscReal)opt + s->ub * (PetscReal)ml->n)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Destroy_Multilevel(RwSchedule s)
{
  Multilevel *ml = (Multilevel *)s->data;

  PetscFunctionBegin;
  PetscCall(FreeTables(ml));
  PetscCall(RwEngineDestroy(&ml->ram));
  PetscCall(RwNestedDestroy(&ml->nested.nest));
  PetscCall(RwSegMemoDestroy(&ml->nested.memo));
  PetscCall(PetscObjectComposeFunction((PetscObject)s, "RwScheduleMultilevelSetMaxWork_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)s, "RwScheduleMultilevelGetExact_C", NULL));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetMaxWork_Multilevel(RwSchedule s, PetscReal w)
{
  PetscFunctionBegin;
  PetscCheck(w >= 0, PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_OUTOFRANGE, "-rw_schedule_multilevel_max_work %.6g; expected >= 0", (double)w);
  ((Multilevel *)s->data)->max_work = w;
  s->setupcalled                    = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetExact_Multilevel(RwSchedule s, PetscBool *exact)
{
  PetscFunctionBegin;
  PetscCheck(s->setupcalled, PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() first");
  *exact = (PetscBool)(((Multilevel *)s->data)->mode != MODE_NESTED);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleMultilevelSetMaxWork - the largest dynamic programme a multilevel schedule solves exactly

  Logically collective

  Input Parameters:
+ sched - a multilevel schedule
- work  - the limit on n(n+1)/2 (disk columns + 1), where the disk columns are
          the disk slots, or 1 when they are unlimited or at least n-2 (default 3e8,
          about a second); beyond it the schedule is the best nested one

  Options Database Key:
. -rw_schedule_multilevel_max_work <work> - the limit

  Level: advanced

.seealso: RWSCHEDULEMULTILEVEL, RwScheduleMultilevelGetExact()
@*/
PetscErrorCode RwScheduleMultilevelSetMaxWork(RwSchedule sched, PetscReal work)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscTryMethod(sched, "RwScheduleMultilevelSetMaxWork_C", (RwSchedule, PetscReal), (sched, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleMultilevelGetExact - whether a multilevel schedule is the exact optimum of its cost model

  Not collective

  Input Parameter:
. sched - a multilevel schedule, set up

  Output Parameter:
. exact - PETSC_TRUE when the DP was solved (or the disk cannot help);
          PETSC_FALSE for the nested fallback beyond the work limit

  Level: advanced

.seealso: RwScheduleMultilevelSetMaxWork()
@*/
PetscErrorCode RwScheduleMultilevelGetExact(RwSchedule sched, PetscBool *exact)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscValidPointer(exact, 2);
  PetscUseMethod(sched, "RwScheduleMultilevelGetExact_C", (RwSchedule, PetscBool *), (sched, exact));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWSCHEDULEMULTILEVEL - "multilevel": checkpoints in RAM (s_ram slots, free
  to copy) and on disk (s_disk slots or unlimited, wd to write, rd to read),
  the cheapest schedule under cost = uf*forward + ub*reverse + wd*writes + rd*reads.

  Exact by dynamic programming up to -rw_schedule_multilevel_max_work (n ~ 17000
  with unlimited disk, n ~ 2400 with 100 disk slots); never worse than revolve
  with the same RAM (pure revolve is one of its choices) and never over the
  disk slots. Beyond the limit: the best nested schedule (revolve over coarse
  steps with disk checkpoints, revolve in RAM inside), pure revolve included.

  Options Database Keys:
+ -rw_schedule_ram_slots <s>, -rw_checkpoint_ram <bytes>   - RAM (required)
. -rw_schedule_disk_slots <d|inf>, -rw_checkpoint_disk <bytes> - disk (required)
. -rw_schedule_costs <uf,ub,wd,rd>                           - the cost model
- -rw_schedule_multilevel_max_work <work>                    - the DP's limit

  Level: beginner

  References:
  G. Aupy, J. Herrmann, P. Hovland, Y. Robert, Optimal multistage algorithm for
  adjoint computation, SIAM J. Sci. Comput. 38 (2016); J. Herrmann, G. Pallez,
  H-Revolve: a framework for adjoint computation on synchronous hierarchical
  platforms, ACM TOMS 46 (2020).

.seealso: RwScheduleSetCosts(), RWSCHEDULEREVOLVE, RwScheduleMultilevelGetExact()
M*/
PETSC_EXTERN PetscErrorCode RwScheduleCreate_Multilevel(RwSchedule s)
{
  Multilevel *ml;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ml));
  PetscCall(RwSegMemoCreate(&ml->nested.memo));
  ml->max_work           = 3e8;
  s->data                = ml;
  s->ops->setfromoptions = SetFromOptions_Multilevel;
  s->ops->setup          = SetUp_Multilevel;
  s->ops->reset          = Reset_Multilevel;
  s->ops->fill           = Fill_Multilevel;
  s->ops->predict        = Predict_Multilevel;
  s->ops->view           = View_Multilevel;
  s->ops->destroy        = Destroy_Multilevel;
  PetscCall(PetscObjectComposeFunction((PetscObject)s, "RwScheduleMultilevelSetMaxWork_C", SetMaxWork_Multilevel));
  PetscCall(PetscObjectComposeFunction((PetscObject)s, "RwScheduleMultilevelGetExact_C", GetExact_Multilevel));
  PetscFunctionReturn(PETSC_SUCCESS);
}
