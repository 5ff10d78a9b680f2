/*
  Nested schedules: an outer engine over coarse steps of `stride` fine steps
  (the last one shorter), an inner binomial engine in RAM on each coarse step
  as the outer one reverses it.  The outer engine ends every coarse step's
  life at x_(c_i): x_0, a checkpoint it just restored for the last time, or a
  state it advanced to; a disk checkpoint is freed and copied to RAM there,
  so the inner engine restores from RAM, and every checkpoint is freed right
  after its last restore.

  revolve = one coarse step (stride n); storeall = that with unlimited RAM;
  periodic = coarse storeall with stride k; the multilevel fallback = coarse
  revolve on disk with inner revolve in RAM.
*/
#include "../engine.h"

static const RwCkpt X0 = {RW_LEVEL_RAM, -1, PETSC_FALSE};

PetscErrorCode RwNestedSetUp(RwNested *nest, PetscInt64 n, PetscInt64 stride, PetscInt outer_level, PetscInt64 outer_slots, PetscInt64 ram_slots)
{
  PetscFunctionBegin;
  nest->n           = n;
  nest->stride      = PetscMin(PetscMax(stride, 1), n);
  nest->N           = (n + nest->stride - 1) / nest->stride;
  nest->outer_level = outer_level;
  nest->outer_slots = outer_slots;
  nest->ram_slots   = ram_slots;
  PetscCheck(nest->N == 1 || ram_slots >= 1 || ram_slots == RW_SLOTS_UNLIMITED || nest->stride == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A nested schedule needs a RAM slot for the start of each coarse step");
  PetscCheck(nest->N <= 2 || outer_level == RW_LEVEL_DISK || outer_slots == RW_SLOTS_UNLIMITED || outer_slots >= nest->N - 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Coarse checkpoints in RAM must store every coarse step");
  PetscCall(RwEngineInit(&nest->outer, outer_level, nest->stride, n, PETSC_TRUE));
  PetscCall(RwEngineInit(&nest->inner, RW_LEVEL_RAM, 1, n, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwNestedDestroy(RwNested *nest)
{
  PetscFunctionBegin;
  PetscCall(RwEngineDestroy(&nest->outer));
  PetscCall(RwEngineDestroy(&nest->inner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checkpoints including the start for l steps with s slots free (s may be unlimited) */
static PetscInt64 Checkpoints(PetscInt64 l, PetscInt64 s)
{
  return s == RW_SLOTS_UNLIMITED || s >= l ? l : s + 1;
}

PetscErrorCode RwNestedReset(RwNested *nest)
{
  PetscFunctionBegin;
  nest->outer.depth = nest->inner.depth = 0;
  PetscCall(RwEngineStart(&nest->outer, 0, nest->N, Checkpoints(nest->N, nest->outer_slots), X0, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The outer engine reverses coarse step h->index: reverse its fine steps with the inner engine */
static PetscErrorCode Expand(RwSchedule s, RwNested *nest, const RwHandover *h)
{
  PetscInt64 a = RwEnginePos(&nest->outer, h->index), b = RwEnginePos(&nest->outer, h->index + 1), slot;
  RwCkpt     start = {RW_LEVEL_RAM, -1, PETSC_FALSE};

  PetscFunctionBegin;
  if (h->kind == RW_HAND_CKPT && (b - a == 1 || h->ckpt.level != RW_LEVEL_RAM)) PetscCall(RwScheduleEmitFree(s, h->ckpt.level, h->ckpt.slot, a));
  if (b - a == 1) {
    PetscCall(RwScheduleEmit(s, RW_ACTION_REVERSE, a, a, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->kind == RW_HAND_X0) {
    PetscCall(RwEngineStart(&nest->inner, a, b, Checkpoints(b - a, nest->ram_slots), X0, PETSC_FALSE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->kind == RW_HAND_CKPT && h->ckpt.level == RW_LEVEL_RAM) start = h->ckpt;
  else { /* copy x_a into RAM: the inner engine restores it many times */
    PetscCall(RwScheduleEmitStore(s, RW_LEVEL_RAM, a, &slot));
    start.level = RW_LEVEL_RAM;
    start.slot  = slot;
  }
  /* the start takes one of the RAM slots */
  PetscCall(RwEngineStart(&nest->inner, a, b, nest->ram_slots == RW_SLOTS_UNLIMITED ? b - a : nest->ram_slots, start, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwNestedFill(RwSchedule s, RwNested *nest)
{
  RwHandover h;
  PetscBool  handed;

  PetscFunctionBegin;
  if (nest->inner.depth) PetscCall(RwEngineStep(s, &nest->inner, &h, &handed));
  else if (!nest->outer.depth) PetscCall(RwScheduleEmit(s, RW_ACTION_END, 0, 0, 0, 0));
  else {
    PetscCall(RwEngineStep(s, &nest->outer, &h, &handed));
    if (handed) PetscCall(Expand(s, nest, &h));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Adds k times the counts of a segment whose checkpoints and restores are in RAM */
static void AddInner(RwScheduleCounts *c, PetscInt64 *advact, const RwSegCounts *in, PetscInt64 k)
{
  c->forward_steps += k * in->adv;
  *advact += k * in->advact;
  c->stores[RW_LEVEL_RAM] += k * in->stores;
  c->frees[RW_LEVEL_RAM] += k * in->stores;
  c->restores[RW_LEVEL_RAM] += k * (in->own + in->sub);
}

/*
  RwNestedPredict - the counts of the stream, from memoized segment counts:
  the outer engine's advances all cover whole coarse steps (it never advances
  past the last one), and every coarse step but the last two kinds (the one
  at x_0, the shorter top one) is reversed alike.
*/
PetscErrorCode RwNestedPredict(RwSchedule s, const RwNested *nest, RwSegMemo memo, RwScheduleCounts *c)
{
  PetscInt64  n = nest->n, N = nest->N, k = nest->stride, top = n - (N - 1) * k, mid = PetscMax(N - 2, 0), advact = 0, copies = 0;
  PetscInt    L = nest->outer_level;
  RwSegCounts out, in0, intop = {0}, inmid = {0};
  PetscInt64  ramslots = nest->ram_slots == RW_SLOTS_UNLIMITED ? n : nest->ram_slots;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(RwSegCount(memo, N, Checkpoints(N, nest->outer_slots), &out));
  PetscCall(RwSegCount(memo, N == 1 ? n : k, Checkpoints(N == 1 ? n : k, nest->ram_slots), &in0));
  if (N >= 2 && top >= 2) PetscCall(RwSegCount(memo, top, ramslots, &intop)); /* the start takes a RAM slot */
  if (mid && k >= 2) PetscCall(RwSegCount(memo, k, ramslots, &inmid));
  c->forward_steps = out.adv * k;
  advact           = out.advact;
  c->stores[L]     = c->frees[L] = out.stores;
  c->restores[RW_LEVEL_RAM] += out.own; /* the outer start is x_0 */
  c->restores[L] += out.sub;
  AddInner(c, &advact, &in0, 1);
  c->max_slots_used[RW_LEVEL_RAM] = in0.depth;
  if (N >= 2 && top >= 2) { /* the top coarse step is reached by advancing: copied into RAM */
    AddInner(c, &advact, &intop, 1);
    copies++;
  }
  if (mid && k >= 2) {
    AddInner(c, &advact, &inmid, mid);
    copies += L == RW_LEVEL_RAM ? mid - out.stores : mid; /* RAM checkpoints pass to the inner engine */
  }
  c->stores[RW_LEVEL_RAM] += copies;
  c->frees[RW_LEVEL_RAM] += copies;
  if (L == RW_LEVEL_DISK) {
    c->max_slots_used[RW_LEVEL_DISK] = out.depth;
    if (N >= 2 && top >= 2) c->max_slots_used[RW_LEVEL_RAM] = PetscMax(c->max_slots_used[RW_LEVEL_RAM], 1 + intop.depth);
    if (mid && k >= 2) c->max_slots_used[RW_LEVEL_RAM] = PetscMax(c->max_slots_used[RW_LEVEL_RAM], 1 + inmid.depth);
  } else if (N >= 2) { /* coarse storeall in RAM: mid coarse checkpoints held under the top and the last middle step */
    c->max_slots_used[RW_LEVEL_RAM] = PetscMax(c->max_slots_used[RW_LEVEL_RAM], mid + (top >= 2 ? 1 + intop.depth : 0));
    c->max_slots_used[RW_LEVEL_RAM] = PetscMax(c->max_slots_used[RW_LEVEL_RAM], mid + (k >= 2 ? inmid.depth : 0));
  }
  c->forward_steps += 1; /* x_(n-1) -> x_n, by the driver */
  c->reverse_steps = n;
  c->actions       = advact + n + 1;
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) c->actions += c->stores[lv] + c->restores[lv] + c->frees[lv];
  PetscCall(RwScheduleCountsComplete(s, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwNestedView(const RwNested *nest, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (nest->N == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " coarse steps of %" PetscInt64_FMT " steps (the last %" PetscInt64_FMT "), coarse checkpoints on %s\n", nest->N, nest->stride, nest->n - (nest->N - 1) * nest->stride, nest->outer_level == RW_LEVEL_RAM ? "RAM" : "disk"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- a schedule type that is one nested schedule ---------------------- */

static PetscErrorCode NestedReset(RwSchedule s)
{
  RwNestedSchedule *ns = (RwNestedSchedule *)s->data;

  PetscFunctionBegin;
  PetscCall(RwNestedReset(&ns->nest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NestedFill(RwSchedule s)
{
  RwNestedSchedule *ns = (RwNestedSchedule *)s->data;

  PetscFunctionBegin;
  PetscCall(RwNestedFill(s, &ns->nest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NestedPredict(RwSchedule s, RwScheduleCounts *c)
{
  RwNestedSchedule *ns = (RwNestedSchedule *)s->data;

  PetscFunctionBegin;
  PetscCall(RwNestedPredict(s, &ns->nest, ns->memo, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NestedDestroy(RwSchedule s)
{
  RwNestedSchedule *ns = (RwNestedSchedule *)s->data;

  PetscFunctionBegin;
  PetscCall(RwNestedDestroy(&ns->nest));
  PetscCall(RwSegMemoDestroy(&ns->memo));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwNestedScheduleCreate(RwSchedule s)
{
  RwNestedSchedule *ns;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ns));
  PetscCall(RwSegMemoCreate(&ns->memo));
  s->data         = ns;
  s->ops->reset   = NestedReset;
  s->ops->fill    = NestedFill;
  s->ops->predict = NestedPredict;
  s->ops->destroy = NestedDestroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwNestedScheduleSetUp(RwSchedule s, PetscInt64 stride, PetscInt outer_level, PetscInt64 outer_slots, PetscInt64 ram_slots)
{
  RwNestedSchedule *ns = (RwNestedSchedule *)s->data;

  PetscFunctionBegin;
  PetscCall(RwNestedDestroy(&ns->nest));
  PetscCall(RwNestedSetUp(&ns->nest, s->n, stride, outer_level, outer_slots, ram_slots));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwScheduleSlotsError - the error for a level whose slots (given as a count
  or a budget) are fewer than the schedule needs; why says what needs them
*/
PetscErrorCode RwScheduleSlotsError(RwSchedule s, PetscInt level, PetscInt64 need, const char why[])
{
  const char *lv = level == RW_LEVEL_RAM ? "ram" : "disk";

  PetscFunctionBegin;
  if (s->avail[level] == RW_SLOTS_UNSET) SETERRQ(PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_WRONGSTATE, "%s needs %s slots: give -rw_schedule_%s_slots <count> or -rw_checkpoint_%s <bytes>", ((PetscObject)s)->type_name, level == RW_LEVEL_RAM ? "RAM" : "disk", lv, lv);
  SETERRQ(PetscObjectComm((PetscObject)s), PETSC_ERR_ARG_OUTOFRANGE, "%s: %s needs %" PetscInt64_FMT " %s slots, but -rw_schedule_%s_slots/-rw_checkpoint_%s give %" PetscInt64_FMT, ((PetscObject)s)->type_name, why, need, level == RW_LEVEL_RAM ? "RAM" : "disk", lv, lv, s->avail[level]);
}
