/*
  The heat model's adjoint of two explicit steps in one pass, k and k-1
  (RwModelStepAdjointPair()): lambda_k-1 = A^T (A^T lambda_k+1), and the
  parameter terms of both steps.

  Why: the reverse sweep is bound by memory traffic.  One step a pass reads
  lambda_k+1, kappa and u_k, writes lambda_k and reads and writes the
  accumulators (48 B a point with kappa alone active).  A pair reads kappa
  and the accumulators once for both steps and never writes lambda_k (56 B
  for two steps against 96): lambda_k lives in a ring of three slabs (rows in
  2D, planes in 3D) along the outermost direction, each kept twice so that
  any three consecutive slabs are one stride apart.  Slab c+1 of lambda_k is
  computed, then slab c of lambda_k-1 from slabs c-1, c, c+1.

  lambda_k is needed one point beyond the owned box.  There it is computed
  again from lambda_k+1's halo of width 2 (the grid's width when pairs are
  on) with the arithmetic its owner uses, so it has the owner's bits; beyond
  a physical boundary it takes the ghost rule, as the next pass's halo would
  give it.  The parameter terms are summed at owned points only, step k's
  before step k-1's, as two passes would sum them: the pair changes no bit.

  The three halos end before any row: a pair's rows go in slab order, which
  the interior-then-shell order of RwStencilRunPass() would break.
*/
#include "heatimpl.h"
#include <string.h>

typedef struct {
  RwStencil          st;
  RwHeatPass         P;
  RwStencilInput     in[3]; /* lambda_k+1, u_k, u_k-1 */
  const PetscScalar *kappa;
  PetscScalar       *y, *gk, *gs, *gr;
  PetscScalar       *ring;
  RwStencilBox       e;     /* the owned box and one point beyond it in each direction of the grid */
  PetscInt           D;     /* the slabs' direction: the outermost of the grid (y in 1D: one slab) */
  PetscBool          gd;    /* D is a direction of the grid, so slabs beyond the owned ones are read */
  PetscInt           slab;  /* points a slab */
  PetscReal          probe[2]; /* steps k and k-1, owned points */
} HeatPair;

/* The slab direction and the extended box, from the layer alone: the ring's size at set-up and a pass's geometry */
static void HeatPairGeometry(RwStencil st, RwStencilBox *e, PetscInt *D, PetscInt *slab)
{
  *e = st->own;
  for (PetscInt d = 0; d < st->dim; d++) {
    e->s[d] -= 1;
    e->n[d] += 2;
  }
  *D    = st->dim > 1 ? st->dim - 1 : 1;
  *slab = e->n[0] * (*D == 2 ? e->n[1] : 1);
}

/*
  RwHeatPairSetUp - whether pairs run (explicit, no learned reaction, no
  per-step source amplitude, -rw_heat_adjoint_pairs), and their ring
*/
PetscErrorCode RwHeatPairSetUp(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  RwStencilBox  e;
  PetscInt      D, slab;

  PetscFunctionBegin;
  if (!heat->pairs) PetscFunctionReturn(PETSC_SUCCESS);
  HeatPairGeometry(heat->st, &e, &D, &slab);
  PetscCall(PetscCalloc1(6 * slab, &heat->ring));
  model->ops->stepadjointpair = RwHeatStepAdjointPair;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where a slab is kept: slab c at pos(c) and pos(c) + 3 */
static inline PetscInt HeatPairPos(const HeatPair *h, PetscInt c)
{
  return (c - h->e.s[h->D]) % 3;
}

static inline PetscScalar *HeatPairAt(const HeatPair *h, PetscInt pos, PetscInt i, PetscInt j, PetscInt k)
{
  const PetscInt inner = h->D == 2 ? (j - h->e.s[1]) * h->e.n[0] : 0;

  return h->ring + pos * h->slab + inner + (i - h->e.s[0]);
}

/* Whether coordinate x of direction d lies beyond a physical (non-periodic) boundary */
static inline PetscBool HeatPairOutside(const HeatPair *h, PetscInt d, PetscInt x)
{
  const RwStencil st = h->st;

  return (PetscBool)(d < st->dim && st->bc[d][0] != RW_STENCIL_PERIODIC && (x < 0 || x >= st->M[d]));
}

/* Whether row (j, k) is owned, and whether its points read ghosts in y or z (the layer's shell rows) */
static inline void HeatPairRowKind(const HeatPair *h, PetscInt j, PetscInt k, PetscBool *owned, PetscBool *edge)
{
  const RwStencilBox *o = &h->st->own;
  const PetscInt      w = h->st->width, dim = h->st->dim;

  *owned = (PetscBool)(j >= o->s[1] && j < o->s[1] + o->n[1] && k >= o->s[2] && k < o->s[2] + o->n[2]);
  *edge  = (PetscBool)((dim > 1 && (j < o->s[1] + w || j >= o->s[1] + o->n[1] - w)) || (dim > 2 && (k < o->s[2] + w || k >= o->s[2] + o->n[2] - w)));
}

/* Step k on n points of row (j, k) from i0 into the ring slab at pos:
   lambda_k alone (a ghost point) or with the parameter terms (an owned one) */
static void HeatPairFirstSegment(HeatPair *h, PetscInt pos, PetscInt i0, PetscInt n, PetscInt j, PetscInt k, PetscBool ghosted, PetscBool owned)
{
  const RwStencil    st = h->st;
  const RwStencilRow MU = RwStencilInputRow(st, &h->in[0], 1, ghosted, i0, j, k), K = RwStencilRowAt(h->kappa, &st->ghost, 1, i0, j, k);
  PetscScalar       *y  = HeatPairAt(h, pos, i0, j, k);

  if (n <= 0) return;
  if (!owned) {
    RwHeatRowLambda(&h->P, n, MU, K, y);
    return;
  }
  RwHeatRowAdjoint(&h->P, n, MU, K, RwStencilInputRow(st, &h->in[1], 1, ghosted, i0, j, k), RwStencilRowAt(NULL, &st->own, 1, i0, j, k), y, RwStencilOwnedAt(st, 1, h->gk, i0, j, k), RwStencilOwnedAt(st, 1, h->gs, i0, j, k), RwStencilOwnedAt(st, 1, h->gr, i0, j, k), &h->probe[0]);
}

/* Step k-1 on n owned points of row (j, k) from i0, lambda_k from the ring (its slab c - 1 kept at base) */
static void HeatPairSecondSegment(HeatPair *h, PetscInt base, PetscInt i0, PetscInt n, PetscInt j, PetscInt k, PetscBool ghosted)
{
  const RwStencil st = h->st;
  RwStencilRow    MU;

  if (n <= 0) return;
  MU.p  = HeatPairAt(h, base, i0, j, k);
  MU.sy = h->D == 2 ? h->e.n[0] : h->slab;
  MU.sz = h->slab;
  RwHeatRowAdjoint(&h->P, n, MU, RwStencilRowAt(h->kappa, &st->ghost, 1, i0, j, k), RwStencilInputRow(st, &h->in[2], 1, ghosted, i0, j, k), RwStencilRowAt(NULL, &st->own, 1, i0, j, k), RwStencilOwnedAt(st, 1, h->y, i0, j, k), RwStencilOwnedAt(st, 1, h->gk, i0, j, k), RwStencilOwnedAt(st, 1, h->gs, i0, j, k), RwStencilOwnedAt(st, 1, h->gr, i0, j, k), &h->probe[1]);
}

/* The owned points of a row in the layer's pieces: the ghosted arrays within
   the width of an edge (or the whole row at a y or z edge), the owned ones between */
typedef void (*HeatPairSegmentFn)(HeatPair *, PetscInt, PetscInt, PetscInt, PetscInt, PetscInt, PetscBool, PetscBool);

static void HeatPairOwnedRow(HeatPair *h, HeatPairSegmentFn fn, PetscInt pos, PetscInt j, PetscInt k, PetscBool edge, PetscBool owned)
{
  const RwStencilBox *o = &h->st->own;
  const PetscInt      lo = o->s[0], n = o->n[0], left = PetscMin(h->st->width, n), right = PetscMin(h->st->width, n - left);

  if (edge || !owned) {
    fn(h, pos, lo, n, j, k, PETSC_TRUE, owned);
    return;
  }
  fn(h, pos, lo, left, j, k, PETSC_TRUE, owned);
  fn(h, pos, lo + left, n - left - right, j, k, PETSC_FALSE, owned);
  fn(h, pos, lo + n - right, right, j, k, PETSC_TRUE, owned);
}

static void HeatPairSecondAdapter(HeatPair *h, PetscInt base, PetscInt i0, PetscInt n, PetscInt j, PetscInt k, PetscBool ghosted, PetscBool owned)
{
  (void)owned;
  HeatPairSecondSegment(h, base, i0, n, j, k, ghosted);
}

/* lambda_k on row (j, k) of the extended box: the ghost columns computed or, beyond a boundary, by the rule */
static void HeatPairFirstRow(HeatPair *h, PetscInt pos, PetscInt j, PetscInt k)
{
  const RwStencilBox *o  = &h->st->own;
  const PetscInt      lo = o->s[0], hi = o->s[0] + o->n[0];
  const PetscBool     outl = HeatPairOutside(h, 0, lo - 1), outr = HeatPairOutside(h, 0, hi);
  PetscBool           owned, edge;

  HeatPairRowKind(h, j, k, &owned, &edge);
  if (!outl) HeatPairFirstSegment(h, pos, lo - 1, 1, j, k, PETSC_TRUE, PETSC_FALSE);
  HeatPairOwnedRow(h, HeatPairFirstSegment, pos, j, k, edge, owned);
  if (!outr) HeatPairFirstSegment(h, pos, hi, 1, j, k, PETSC_TRUE, PETSC_FALSE);
  if (outl) *HeatPairAt(h, pos, lo - 1, j, k) = RwStencilGhostSign(h->st, 0, 0, PETSC_TRUE) * *HeatPairAt(h, pos, lo, j, k);
  if (outr) *HeatPairAt(h, pos, hi, j, k) = RwStencilGhostSign(h->st, 0, 1, PETSC_TRUE) * *HeatPairAt(h, pos, hi - 1, j, k);
}

/* n values of the ring at dst = sign times those at src */
static void HeatPairRule(PetscScalar *dst, const PetscScalar *src, PetscInt n, PetscReal sign)
{
  for (PetscInt i = 0; i < n; i++) dst[i] = sign * src[i];
}

/* Slab c kept twice */
static void HeatPairKeep(HeatPair *h, PetscInt c)
{
  const PetscInt pos = HeatPairPos(h, c);

  if (h->gd) memcpy(h->ring + (pos + 3) * h->slab, h->ring + pos * h->slab, (size_t)h->slab * sizeof(PetscScalar));
}

/* lambda_k on slab c: its rows, then in 3D the rows beyond a y boundary by the rule (after x's, as the layer fills them) */
static void HeatPairFirstSlab(HeatPair *h, PetscInt c)
{
  const PetscInt pos = HeatPairPos(h, c);

  if (h->D == 2) {
    const RwStencilBox *e = &h->e;

    for (PetscInt j = e->s[1]; j < e->s[1] + e->n[1]; j++)
      if (!HeatPairOutside(h, 1, j)) HeatPairFirstRow(h, pos, j, c);
    for (PetscInt side = 0; side < 2; side++) {
      const PetscInt g = side ? e->s[1] + e->n[1] - 1 : e->s[1], src = side ? g - 1 : g + 1;

      if (HeatPairOutside(h, 1, g)) HeatPairRule(HeatPairAt(h, pos, e->s[0], g, c), HeatPairAt(h, pos, e->s[0], src, c), e->n[0], RwStencilGhostSign(h->st, 1, side, PETSC_TRUE));
    }
  } else HeatPairFirstRow(h, pos, h->gd ? c : h->e.s[1], 0);
  HeatPairKeep(h, c);
}

/* Slab c beyond a boundary of D: sign times its mirror slab src */
static void HeatPairRuleSlab(HeatPair *h, PetscInt c, PetscInt src, PetscInt side)
{
  HeatPairRule(h->ring + HeatPairPos(h, c) * h->slab, h->ring + HeatPairPos(h, src) * h->slab, h->slab, RwStencilGhostSign(h->st, h->D, side, PETSC_TRUE));
  HeatPairKeep(h, c);
}

/* lambda_k-1 on the owned rows of slab c */
static void HeatPairSecondSlab(HeatPair *h, PetscInt c)
{
  const RwStencilBox *o    = &h->st->own;
  const PetscInt      base = h->gd ? HeatPairPos(h, c - 1) + 1 : HeatPairPos(h, c);
  PetscBool           owned, edge;

  if (h->D == 2) {
    for (PetscInt j = o->s[1]; j < o->s[1] + o->n[1]; j++) {
      HeatPairRowKind(h, j, c, &owned, &edge);
      HeatPairOwnedRow(h, HeatPairSecondAdapter, base, j, c, edge, PETSC_TRUE);
    }
    return;
  }
  HeatPairRowKind(h, c, 0, &owned, &edge);
  HeatPairOwnedRow(h, HeatPairSecondAdapter, base, c, 0, edge, PETSC_TRUE);
}

/* The slabs in order: lambda_k one slab ahead of lambda_k-1 */
static void HeatPairSweep(HeatPair *h)
{
  const PetscInt lo = h->st->own.s[h->D], hi = lo + h->st->own.n[h->D];

  if (!h->gd) { /* 1D: one slab, no neighbours across slabs */
    HeatPairFirstSlab(h, lo);
    HeatPairSecondSlab(h, lo);
    return;
  }
  if (!HeatPairOutside(h, h->D, lo - 1)) HeatPairFirstSlab(h, lo - 1);
  HeatPairFirstSlab(h, lo);
  if (HeatPairOutside(h, h->D, lo - 1)) HeatPairRuleSlab(h, lo - 1, lo, 0);
  for (PetscInt c = lo; c < hi; c++) {
    if (c + 1 < hi || !HeatPairOutside(h, h->D, c + 1)) HeatPairFirstSlab(h, c + 1);
    else HeatPairRuleSlab(h, c + 1, c, 1);
    HeatPairSecondSlab(h, c);
  }
}

/*
  RwHeatStepAdjointPair - reverse steps k and k-1 of an explicit scheme in one
  pass: l = lambda_k-1 from lnew = lambda_k+1, with um = x_k-1 and u = x_k
*/
PetscErrorCode RwHeatStepAdjointPair(RwModel model, PetscInt64 k, Vec um, Vec u, Vec lnew, Vec l)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  HeatPair      h;
  Vec           g[3] = {lnew, u, um};

  PetscFunctionBegin;
  h.st   = heat->st;
  h.P    = RwHeatPassCoefficients(model, k); /* the same for k - 1: no per-step amplitude with pairs */
  h.ring = heat->ring;
  HeatPairGeometry(h.st, &h.e, &h.D, &h.slab);
  h.gd       = (PetscBool)(h.D < h.st->dim);
  h.probe[0] = h.probe[1] = 0;
  for (PetscInt i = 0; i < 3; i++) {
    h.in[i].g = g[i];
    PetscCall(RwStencilHaloBegin(h.st, i, g[i]));
  }
  for (PetscInt i = 0; i < 3; i++) {
    PetscCall(VecGetArrayRead(g[i], &h.in[i].ga));
    PetscCall(RwStencilHaloEnd(h.st, i, g[i]));
    PetscCall(VecGetArrayRead(h.st->work[i], &h.in[i].la));
  }
  PetscCall(VecGetArrayRead(heat->kappa, &h.kappa));
  PetscCall(VecGetArray(l, &h.y));
  PetscCall(VecGetArray(heat->gkappa, &h.gk));
  PetscCall(VecGetArray(heat->gs, &h.gs));
  PetscCall(VecGetArray(heat->gr, &h.gr));
  HeatPairSweep(&h);
  PetscCall(VecRestoreArray(heat->gr, &h.gr));
  PetscCall(VecRestoreArray(heat->gs, &h.gs));
  PetscCall(VecRestoreArray(heat->gkappa, &h.gk));
  PetscCall(VecRestoreArray(l, &h.y));
  PetscCall(VecRestoreArrayRead(heat->kappa, &h.kappa));
  for (PetscInt i = 0; i < 3; i++) {
    PetscCall(VecRestoreArrayRead(g[i], &h.in[i].ga));
    PetscCall(VecRestoreArrayRead(h.st->work[i], &h.in[i].la));
  }
  PetscCall(PetscLogFlops(2 * (20.0 * heat->dim + 10) * h.st->own.n[0] * h.st->own.n[1] * h.st->own.n[2]));
  RwModelFlagNonFinite(model, 1, k, h.probe[0]);
  RwModelFlagNonFinite(model, 1, k - 1, h.probe[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
