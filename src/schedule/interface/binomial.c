/*
  Binomial checkpointing: the arithmetic of Griewank and Walther's optimal
  schedules and the engine that emits them online.

  With m checkpoints including the start (their s), reversing l steps needs
  p(l, m) = t l - beta(m+1, t-1) untaped forward steps, beta(m, t) = C(m+t, m),
  t the smallest integer with beta(m, t) >= l (the repetition number).  The
  first checkpoint j is optimal whenever
      max(beta(m, t-2), l - beta(m-1, t)) <= j <= min(beta(m, t-1), l - beta(m-1, t-1))
  (checked against the brute-force recursion in tests/schedule); the engine
  takes the smallest such j, which stores least.  Then both parts have
  repetition number t or t-1, so each frame keeps t and B = beta(m, t-1) and
  updates them with O(1) exact multiply-divides: O(1) work per action and one
  frame per held checkpoint.
*/
#include "../engine.h"

/*
  RwMulDivExact - x*y/z for nonnegative x, y and positive z where z divides
  x*y (binomial identities); RW_INT64_MAX when the result does not fit, which
  comparisons against step counts read as "huge".  128-bit where the compiler
  has it, otherwise by cancelling gcd(x, z) first.
*/
#if defined(__SIZEOF_INT128__)
PetscInt64 RwMulDivExact(PetscInt64 x, PetscInt64 y, PetscInt64 z)
{
  unsigned __int128 q = (unsigned __int128)x * (unsigned __int128)y / (unsigned __int128)z;

  return q > (unsigned __int128)RW_INT64_MAX ? RW_INT64_MAX : (PetscInt64)q;
}
#else
PetscInt64 RwMulDivExact(PetscInt64 x, PetscInt64 y, PetscInt64 z)
{
  PetscInt64 a = x, b = z;

  while (b) { /* gcd(x, z) */
    PetscInt64 r = a % b;
    a            = b;
    b            = r;
  }
  if (a > 1) {
    x /= a;
    z /= a;
  }
  y /= z; /* exact: z now divides y */
  if (y && x > RW_INT64_MAX / y) return RW_INT64_MAX;
  return x * y;
}
#endif

/* Repetition number t of l steps with m checkpoints and B = beta(m, t-1), 0 for t = 0 */
void RwRepetition(PetscInt64 l, PetscInt64 m, PetscInt64 *t, PetscInt64 *B)
{
  PetscInt64 tt = 0, prev = 0, cur = 1;

  while (cur < l) {
    prev = cur;
    tt++;
    cur = RwMulDivExact(cur, m + tt, tt);
  }
  *t = tt;
  *B = prev;
}

/* Lowers t (and B = beta(m, t-1)) to the repetition number of l <= beta(m, t) */
static void Lower(PetscInt64 l, PetscInt64 m, PetscInt64 *t, PetscInt64 *B)
{
  while (*t > 0 && *B >= l) {
    *B = *t >= 2 ? RwMulDivExact(*B, *t - 1, m + *t - 1) : 0;
    (*t)--;
  }
}

/*
  RwGWForward - Griewank and Walther's p(l, m): the fewest untaped forward
  steps that reverse l steps with m checkpoints including the start
*/
PetscInt64 RwGWForward(PetscInt64 l, PetscInt64 m)
{
  PetscInt64 t, B;

  if (l <= 1) return 0;
  m = PetscMin(m, l);
  RwRepetition(l, m, &t, &B);
  if (l > RW_INT64_MAX / t) return RW_INT64_MAX;
  return t * l - RwMulDivExact(B, m + t, m + 1);
}

/*@
  RwOptimalForwardSteps - the fewest forward steps any schedule needs to reverse n steps with s RAM slots

  Not collective

  Input Parameters:
+ n - the number of steps, n >= 1
- s - the RAM slots (x_0 needs none), or RW_SLOTS_UNLIMITED

  Output Parameter:
. forward - p(n, s+1) + 1: Griewank and Walther's untaped forward steps with
            s+1 checkpoints (x_0 is the extra one), plus the one step
            x_(n-1) -> x_n the driver takes before the first REVERSE

  Level: intermediate

  Notes:
  p(n, c) = t n - beta(c+1, t-1), beta(c, t) = C(c+t, c), t the smallest integer
  with beta(c, t) >= n.  Computed in 64-bit integers without overflow for any n
  whose answer fits; with no slots it is n(n-1)/2 + 1, so n <= 4.29e9 there.

.seealso: RwScheduleGetPrediction(), RWSCHEDULEREVOLVE
@*/
PetscErrorCode RwOptimalForwardSteps(PetscInt64 n, PetscInt64 s, PetscInt64 *forward)
{
  PetscInt64 p;

  PetscFunctionBegin;
  PetscValidPointer(forward, 3);
  PetscCheck(n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of steps n = %" PetscInt64_FMT "; expected n >= 1", n);
  PetscCheck(s >= 0 || s == RW_SLOTS_UNLIMITED, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Slots s = %" PetscInt64_FMT "; expected s >= 0 or RW_SLOTS_UNLIMITED", s);
  if (s == RW_SLOTS_UNLIMITED || s >= n) s = n;
  p = RwGWForward(n, s + 1);
  PetscCheck(p < RW_INT64_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Forward steps for n = %" PetscInt64_FMT " and %" PetscInt64_FMT " slots overflow 64-bit integers", n, s);
  *forward = p + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first checkpoint of a binomial frame: the smallest optimal one */
static PetscErrorCode Split(const RwFrame *f, PetscInt64 *j)
{
  PetscInt64 l = f->b - f->a, m = f->m, t = f->t, B = f->B, lo, hi;

  PetscFunctionBegin;
  if (m == 1) {
    *j = l - 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  lo = PetscMax(PetscMax(t >= 2 ? RwMulDivExact(B, t - 1, m + t - 1) : 0, l - RwMulDivExact(B, m, t)), 1);
  hi = PetscMin(PetscMin(B, l - RwMulDivExact(B, m, m + t - 1)), l - 1);
  PetscCheck(lo <= hi, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No optimal split of %" PetscInt64_FMT " steps with %" PetscInt64_FMT " checkpoints (t = %" PetscInt64_FMT ")", l, m, t);
  *j = lo;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the engine ------------------------------------------------------- */

PetscInt64 RwEnginePos(const RwEngine *e, PetscInt64 i)
{
  return e->stride == 1 ? i : PetscMin(i * e->stride, e->n);
}

PetscErrorCode RwEngineInit(RwEngine *e, PetscInt level, PetscInt64 stride, PetscInt64 n, PetscBool expand)
{
  PetscFunctionBegin;
  e->level  = level;
  e->stride = stride;
  e->n      = n;
  e->expand = expand;
  e->depth  = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwEngineDestroy(RwEngine *e)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(e->frames));
  e->depth = e->capacity = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A fresh frame for [a, b) whose t and B are known (children inherit them) */
static PetscErrorCode Push(RwEngine *e, PetscInt64 a, PetscInt64 b, PetscInt64 m, PetscInt64 t, PetscInt64 B, RwCkpt start, PetscBool owned)
{
  RwFrame *f;

  PetscFunctionBegin;
  if (e->depth == e->capacity) {
    RwFrame *grown;
    PetscInt cap = e->capacity ? 2 * e->capacity : 16;

    PetscCall(PetscMalloc1(cap, &grown));
    if (e->depth) PetscCall(PetscArraycpy(grown, e->frames, e->depth));
    PetscCall(PetscFree(e->frames));
    e->frames   = grown;
    e->capacity = cap;
  }
  f        = &e->frames[e->depth++];
  f->kind  = t == 1 ? RW_FRAME_STOREALL : RW_FRAME_BINOMIAL; /* t = 1: the slots suffice to store every state */
  f->a     = a;
  f->b     = b;
  f->m     = m;
  f->t     = t;
  f->B     = B;
  f->k     = a;
  f->slot0 = -1;
  f->down  = PETSC_FALSE;
  f->start = start;
  f->owned = owned;
  f->fresh = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The root frame: reverse [a, b) from x_a, held in start, with m checkpoints including it */
PetscErrorCode RwEngineStart(RwEngine *e, PetscInt64 a, PetscInt64 b, PetscInt64 m, RwCkpt start, PetscBool owned)
{
  PetscInt64 t, B;

  PetscFunctionBegin;
  PetscCheck(e->depth == 0 && b > a && m >= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Engine restarted while busy or on an empty segment");
  m = PetscMin(m, b - a);
  RwRepetition(b - a, m, &t, &B);
  PetscCall(Push(e, a, b, m, t, B, start, owned));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reverse of index i, whose start was reached by advancing */
static PetscErrorCode ReverseFresh(RwSchedule s, RwEngine *e, PetscInt64 i, RwHandover *h, PetscBool *handed)
{
  PetscFunctionBegin;
  if (e->expand) {
    h->kind  = RW_HAND_FRESH;
    h->index = i;
    *handed  = PETSC_TRUE;
  } else PetscCall(RwScheduleEmit(s, RW_ACTION_REVERSE, i, i, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reverse of index i just after restoring ckpt for the last time */
static PetscErrorCode ReverseRestored(RwSchedule s, RwEngine *e, PetscInt64 i, RwCkpt ckpt, PetscBool owned, RwHandover *h, PetscBool *handed)
{
  PetscFunctionBegin;
  if (e->expand) {
    h->kind  = ckpt.slot < 0 ? RW_HAND_X0 : RW_HAND_CKPT;
    h->index = i;
    h->ckpt  = ckpt;
    *handed  = PETSC_TRUE;
  } else {
    if (owned && ckpt.loose) PetscCall(RwScheduleEmit(s, RW_ACTION_FREE, i, i, ckpt.level, ckpt.slot));
    else if (owned) PetscCall(RwScheduleEmitFree(s, ckpt.level, ckpt.slot, i));
    PetscCall(RwScheduleEmit(s, RW_ACTION_REVERSE, i, i, 0, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One action group of a storeall run: a store on the way up, a reverse on the way down */
static PetscErrorCode StoreallStep(RwSchedule s, RwEngine *e, RwHandover *h, PetscBool *handed)
{
  RwFrame   *f = &e->frames[e->depth - 1];
  PetscInt64 slot;
  RwCkpt     start = f->start;
  PetscBool  owned = f->owned;

  PetscFunctionBegin;
  if (!f->down && f->k + 1 <= f->b - 2) {
    PetscCall(RwScheduleEmit(s, RW_ACTION_ADVANCE, RwEnginePos(e, f->k), RwEnginePos(e, f->k + 1), 0, 0));
    PetscCall(RwScheduleEmitStore(s, e->level, RwEnginePos(e, f->k + 1), &slot));
    if (f->k == f->a) f->slot0 = slot;
    f->k++;
  } else if (!f->down) {
    PetscCall(RwScheduleEmit(s, RW_ACTION_ADVANCE, RwEnginePos(e, f->k), RwEnginePos(e, f->b - 1), 0, 0));
    f->down = PETSC_TRUE;
    f->k    = f->b - 2;
    PetscCall(ReverseFresh(s, e, f->b - 1, h, handed));
  } else if (f->k > f->a) {
    RwCkpt c = {e->level, f->slot0 + (f->k - f->a - 1), PETSC_FALSE};

    PetscCall(RwScheduleEmit(s, RW_ACTION_RESTORE, RwEnginePos(e, f->k), RwEnginePos(e, f->k), c.level, c.slot));
    f->k--;
    PetscCall(ReverseRestored(s, e, f->k + 1, c, PETSC_TRUE, h, handed));
  } else {
    e->depth--;
    PetscCall(RwScheduleEmit(s, RW_ACTION_RESTORE, RwEnginePos(e, f->a), RwEnginePos(e, f->a), start.level, start.slot));
    PetscCall(ReverseRestored(s, e, f->a, start, owned, h, handed));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwEngineStep - emits the next group of actions of the innermost frame: a
  sweep from its start up to a new checkpoint (or to the step it reverses).
  An expanding engine hands its reverses back through h instead (*handed).
*/
PetscErrorCode RwEngineStep(RwSchedule s, RwEngine *e, RwHandover *h, PetscBool *handed)
{
  RwFrame   *f = &e->frames[e->depth - 1];
  PetscInt64 l = f->b - f->a, j, slot, tc, Bc;
  PetscBool  restored = !f->fresh;
  RwCkpt     start    = f->start;

  PetscFunctionBegin;
  *handed = PETSC_FALSE;
  if (f->kind == RW_FRAME_STOREALL) {
    PetscCall(StoreallStep(s, e, h, handed));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (restored) PetscCall(RwScheduleEmit(s, RW_ACTION_RESTORE, RwEnginePos(e, f->a), RwEnginePos(e, f->a), start.level, start.slot));
  f->fresh = PETSC_TRUE;
  if (l == 1) {
    PetscBool owned = f->owned;

    e->depth--;
    PetscCheck(restored || start.slot < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Checkpoint of step %" PetscInt64_FMT " never restored", f->a);
    PetscCall(ReverseRestored(s, e, f->a, start, owned, h, handed));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (f->t == 1) { /* the slots now suffice for the rest: a storeall run from here */
    f->kind = RW_FRAME_STOREALL;
    f->k    = f->a;
    PetscCall(StoreallStep(s, e, h, handed));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(Split(f, &j));
  f->fresh = PETSC_FALSE;
  if (j == l - 1) {
    PetscCall(RwScheduleEmit(s, RW_ACTION_ADVANCE, RwEnginePos(e, f->a), RwEnginePos(e, f->b - 1), 0, 0));
    f->b--;
    Lower(f->b - f->a, f->m, &f->t, &f->B);
    PetscCall(ReverseFresh(s, e, f->b, h, handed));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwScheduleEmit(s, RW_ACTION_ADVANCE, RwEnginePos(e, f->a), RwEnginePos(e, f->a + j), 0, 0));
  PetscCall(RwScheduleEmitStore(s, e->level, RwEnginePos(e, f->a + j), &slot));
  /* the part above j: one checkpoint fewer, repetition number t or t-1 */
  tc = f->t;
  Bc = RwMulDivExact(f->B, f->m, f->m + f->t - 1);
  Lower(l - j, f->m - 1, &tc, &Bc);
  {
    PetscInt64 a = f->a + j, b = f->b, m = f->m - 1;
    RwCkpt     c = {e->level, slot, PETSC_FALSE};

    f->b = f->a + j;
    Lower(j, f->m, &f->t, &f->B);
    PetscCall(Push(e, a, b, m, tc, Bc, c, PETSC_TRUE)); /* f is stale from here */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- counting without emitting ---------------------------------------- */

struct _n_RwSegMemo {
  PetscInt64   cap, used;
  PetscInt64  *l, *m; /* l = 0: empty */
  RwSegCounts *c;
};

PetscErrorCode RwSegMemoCreate(RwSegMemo *memo)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(memo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwSegMemoDestroy(RwSegMemo *memo)
{
  PetscFunctionBegin;
  if (!*memo) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3((*memo)->l, (*memo)->m, (*memo)->c));
  PetscCall(PetscFree(*memo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt64 MemoSlot(RwSegMemo memo, PetscInt64 l, PetscInt64 m)
{
  uint64_t h = (uint64_t)l * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)m + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
  uint64_t i = (h ^ (h >> 29)) & (uint64_t)(memo->cap - 1);

  while (memo->l[i] && (memo->l[i] != l || memo->m[i] != m)) i = (i + 1) & (uint64_t)(memo->cap - 1);
  return (PetscInt64)i;
}

static PetscErrorCode MemoInsert(RwSegMemo memo, PetscInt64 l, PetscInt64 m, const RwSegCounts *c)
{
  PetscInt64 i;

  PetscFunctionBegin;
  if (2 * (memo->used + 1) > memo->cap) { /* grow, keeping the load under one half */
    PetscInt64   oldcap = memo->cap, *ol = memo->l, *om = memo->m;
    RwSegCounts *oc     = memo->c;

    memo->cap = oldcap ? 2 * oldcap : 256;
    PetscCall(PetscCalloc3(memo->cap, &memo->l, memo->cap, &memo->m, memo->cap, &memo->c));
    for (PetscInt64 k = 0; k < oldcap; k++) {
      if (!ol[k]) continue;
      i          = MemoSlot(memo, ol[k], om[k]);
      memo->l[i] = ol[k];
      memo->m[i] = om[k];
      memo->c[i] = oc[k];
    }
    PetscCall(PetscFree3(ol, om, oc));
  }
  i = MemoSlot(memo, l, m);
  if (!memo->l[i]) memo->used++;
  memo->l[i] = l;
  memo->m[i] = m;
  memo->c[i] = *c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool MemoFind(RwSegMemo memo, PetscInt64 l, PetscInt64 m, RwSegCounts *c)
{
  PetscInt64 i;

  if (!memo->cap) return PETSC_FALSE;
  i = MemoSlot(memo, l, m);
  if (!memo->l[i]) return PETSC_FALSE;
  *c = memo->c[i];
  return PETSC_TRUE;
}

/* Segments whose counts have a closed form: one step, no free slot, or storeall */
static PetscBool Closed(PetscInt64 l, PetscInt64 m, PetscInt64 t, RwSegCounts *c)
{
  *c = (RwSegCounts){0};
  if (l <= 1) return PETSC_TRUE;
  if (m == 1) { /* from the start to the top, again and again */
    c->adv    = l * (l - 1) / 2;
    c->advact = l - 1;
    c->own    = l - 1;
    return PETSC_TRUE;
  }
  if (t == 1) {
    c->adv = c->advact = l - 1;
    c->stores = c->sub = c->depth = l - 2;
    c->own                        = 1;
    return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* A part stored above the start: its start is a checkpoint of the parent's */
static void MergeUpper(RwSegCounts *acc, const RwSegCounts *c)
{
  acc->adv += c->adv;
  acc->advact += c->advact;
  acc->stores += c->stores;
  acc->sub += c->own + c->sub;
  acc->depth = PetscMax(acc->depth, 1 + c->depth);
}

/* The part below, from the same start, restored once more first */
static void MergeLower(RwSegCounts *acc, const RwSegCounts *c)
{
  acc->adv += c->adv;
  acc->advact += c->advact;
  acc->stores += c->stores;
  acc->own += 1 + c->own;
  acc->sub += c->sub;
  acc->depth = PetscMax(acc->depth, c->depth);
}

typedef struct {
  PetscInt64  l, m, t, B, j;
  PetscInt    state; /* 0 new, 1 waiting for the part above j, 2 for the part below */
  RwSegCounts acc;
} CountFrame;

static PetscErrorCode CountPush(CountFrame **stack, PetscInt *depth, PetscInt *cap, PetscInt64 l, PetscInt64 m, PetscInt64 t, PetscInt64 B)
{
  PetscFunctionBegin;
  if (*depth == *cap) {
    CountFrame *grown;

    *cap = *cap ? 2 * *cap : 64;
    PetscCall(PetscMalloc1(*cap, &grown));
    if (*depth) PetscCall(PetscArraycpy(grown, *stack, *depth));
    PetscCall(PetscFree(*stack));
    *stack = grown;
  }
  (*stack)[(*depth)++] = (CountFrame){l, m, t, B, 0, 0, {0}};
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwSegCount - what the engine emits for a fresh segment of l steps with m
  checkpoints including its (separately held) start.  A segment is its first
  store, the part above it and the part below it; both parts recur with the
  same (l, m) all over a binomial schedule (binomial numbers beta(m', t')),
  so counts are memoized: O(m t) entries (n = 1e9 with 100 slots: under a
  thousand).  An explicit stack: the parts nest as deep as m + t.
*/
PetscErrorCode RwSegCount(RwSegMemo memo, PetscInt64 l, PetscInt64 m, RwSegCounts *counts)
{
  CountFrame *stack = NULL;
  PetscInt    depth = 0, cap = 0;
  PetscInt64  t, B;
  PetscBool   have = PETSC_FALSE;
  RwSegCounts res  = {0};

  PetscFunctionBegin;
  m = PetscMin(m, l);
  RwRepetition(l, m, &t, &B);
  PetscCall(CountPush(&stack, &depth, &cap, l, m, t, B));
  while (depth) {
    CountFrame *F = &stack[depth - 1];
    RwFrame     f;
    PetscInt64  tc, Bc;

    if (have && F->state == 1) { /* the part above is counted: now the part below, from a+j */
      MergeUpper(&F->acc, &res);
      F->state = 2;
      tc       = F->t;
      Bc       = F->B;
      Lower(F->j, F->m, &tc, &Bc);
      have = PETSC_FALSE;
      PetscCall(CountPush(&stack, &depth, &cap, F->j, F->m, tc, Bc));
    } else if (have) { /* both parts counted */
      MergeLower(&F->acc, &res);
      res = F->acc;
      PetscCall(MemoInsert(memo, F->l, F->m, &res));
      depth--;
    } else if (Closed(F->l, F->m, F->t, &res) || MemoFind(memo, F->l, F->m, &res)) {
      have = PETSC_TRUE;
      depth--;
    } else {
      f.a = 0, f.b = F->l, f.m = F->m, f.t = F->t, f.B = F->B;
      PetscCall(Split(&f, &F->j));
      F->acc.adv    = F->j;
      F->acc.advact = 1;
      if (F->j == F->l - 1) { /* no store: reverse the top, then the rest from the start */
        F->state = 2;
        tc       = F->t;
        Bc       = F->B;
        Lower(F->j, F->m, &tc, &Bc);
        PetscCall(CountPush(&stack, &depth, &cap, F->j, F->m, tc, Bc));
      } else {
        F->acc.stores = 1;
        F->state      = 1;
        tc            = F->t;
        Bc            = RwMulDivExact(F->B, F->m, F->m + F->t - 1);
        Lower(F->l - F->j, F->m - 1, &tc, &Bc);
        PetscCall(CountPush(&stack, &depth, &cap, F->l - F->j, F->m - 1, tc, Bc));
      }
    }
  }
  *counts = res;
  PetscCall(PetscFree(stack));
  PetscFunctionReturn(PETSC_SUCCESS);
}
