/*
  The shared grid layer on its own, in the cases heat does not use: widths
  1 to 3, two components, box and star stencils, mirrored (+1, -1) and zero
  sides, in 1, 2 and 3 dimensions.  A pass must visit every owned point
  exactly once, and every row must see, at every neighbour its stencil
  reaches, the value the boundary rule gives; points must interpolate a
  linear function exactly, spread must be interpolation's transpose, and
  both must give the same values on any number of ranks.  A 3D pass walked
  in tiles of y rows (-rw_stencil_block_rows, forced tiny) must visit its
  rows in another order and give the same bits as one walked plane by plane.
  A ring pass (RwStencilRunPassRing()), whose interior rows gather from
  staged slices, must visit every owned point once and give the bits of a
  pass that reads in place, in 2D and 3D, in tiles of any size.  A state
  in planes (RwStencilSetStateLayout(), each rank's component 0, then 1)
  must give every row, and RwStencilGlobalToLocal() every ghost, the values
  the interleaved state gives.
*/
#include "rwtest.h"
#include <rewind/private/stencilimpl.h>
#include <string.h>
#include <stdlib.h>

/* A value that names its point and component: what every neighbour must read */
static PetscReal Tag(const PetscInt ijk[3], PetscInt c)
{
  return 1 + c + 3 * ijk[0] + 100 * ijk[1] + 10000 * ijk[2];
}

typedef struct {
  RwStencil      st;
  RwStencilInput in;
  PetscInt      *visits; /* per owned point */
  PetscInt       bad;
} PassCtx;

/* The layout CreateGrid() gives the grids it makes (test_pass runs both) */
static RwModelStateLayout layout = RW_MODEL_STATE_INTERLEAVED;

/* Component c of point q of a row (planes: a row of the component's plane; interleaved: stride dof) */
static PetscScalar RowValue(RwStencil st, const RwStencilInput *in, PetscBool ghosted, PetscInt i, PetscInt j, PetscInt k, PetscInt c, PetscInt q, PetscInt dx, PetscInt dy, PetscInt dz)
{
  if (st->layout == RW_MODEL_STATE_PLANES) {
    RwStencilRow R = RwStencilInputPlaneRow(st, in, c, ghosted, i, j, k);

    return R.p[q + dx + dy * R.sy + dz * R.sz];
  } else {
    RwStencilRow R = RwStencilInputRow(st, in, st->dof, ghosted, i, j, k);

    return R.p[q * st->dof + dx * st->dof + dy * R.sy + dz * R.sz + c];
  }
}

/* The value the rule gives at raw index ijk (perhaps beyond the grid) */
static PetscReal Expected(RwStencil st, const PetscInt raw[3], PetscInt c)
{
  PetscInt  ijk[3];
  PetscReal f = 1;

  for (PetscInt d = 0; d < 3; d++) {
    PetscInt M = st->M[d], i = raw[d];

    if (st->bc[d][0] == RW_STENCIL_PERIODIC) i = ((i % M) + M) % M;
    else if (i < 0 || i >= M) {
      PetscInt side = i < 0 ? 0 : 1;

      f *= st->bc[d][side] == RW_STENCIL_ZERO ? 0 : st->sign[d][side];
      i = i < 0 ? -1 - i : 2 * M - 1 - i;
    }
    ijk[d] = i;
  }
  return f * Tag(ijk, c);
}

static void CheckRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  PassCtx       *p  = (PassCtx *)ctx;
  RwStencil      st = p->st;
  const PetscInt w = st->width, dof = st->dof;
  PetscInt       lo[3], hi[3];

  for (PetscInt d = 0; d < 3; d++) lo[d] = d < st->dim ? -w : 0, hi[d] = d < st->dim ? w : 0;
  for (PetscInt q = 0; q < n; q++) {
    PetscInt at[3] = {i + q, j, k};

    p->visits[(at[0] - st->own.s[0]) + st->own.n[0] * ((at[1] - st->own.s[1]) + st->own.n[1] * (at[2] - st->own.s[2]))]++;
    for (PetscInt dz = lo[2]; dz <= hi[2]; dz++)
      for (PetscInt dy = lo[1]; dy <= hi[1]; dy++)
        for (PetscInt dx = lo[0]; dx <= hi[0]; dx++) {
          PetscInt raw[3] = {at[0] + dx, at[1] + dy, at[2] + dz}, off = (dx != 0) + (dy != 0) + (dz != 0);

          if (st->type == DMDA_STENCIL_STAR && off > 1) continue;
          for (PetscInt c = 0; c < dof; c++)
            if (PetscRealPart(RowValue(st, &p->in, ghosted, i, j, k, c, q, dx, dy, dz)) != Expected(st, raw, c)) p->bad++;
        }
  }
}

static PetscErrorCode Coordinate(RwModel model, PetscInt d, PetscInt i, PetscReal *x)
{
  return RwStencilCoordinate((RwStencil)model->data, d, i, x);
}

static PetscErrorCode GhostRule(RwModel model, PetscInt d, PetscBool *periodic, PetscReal *sign)
{
  return RwStencilGhostRule((RwStencil)model->data, d, periodic, sign);
}

/* A bare model the layer sets up: the grid and the two ops points need */
/* ring: ask for the ring of staged slices (RwStencilRunPassRing()) */
static PetscErrorCode CreateGrid(PetscInt dim, PetscInt dof, PetscInt w, DMDAStencilType type, const RwStencilBoundaryType bc[3][2], PetscBool ring, RwModel *model, RwStencil *st)
{
  const PetscInt def[3] = {dim == 1 ? 31 : 13, 11, 9};

  PetscFunctionBegin;
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, model));
  PetscCall(RwStencilCreate(*model, dim, dof, w, type, st));
  for (PetscInt d = 0; d < 3; d++) {
    for (PetscInt side = 0; side < 2; side++) PetscCall(RwStencilSetBoundary(*st, d, side, bc[d][side], side ? 1.0 : -1.0));
    PetscCall(RwStencilSetGeometry(*st, d, 0.25 * d, 1 + d, bc[d][0] == RW_STENCIL_PERIODIC ? PETSC_FALSE : PETSC_TRUE));
  }
  PetscCall(RwStencilSetRing(*st, ring));
  PetscCall(RwStencilSetStateLayout(*st, layout));
  PetscCall(RwStencilSetUp(*st, "stencil-test", def, 2));
  (*model)->data               = *st;
  (*model)->ops->coordinate    = Coordinate;
  (*model)->ops->ghostrule     = GhostRule;
  (*model)->setupcalled        = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FillTags(RwStencil st, Vec g)
{
  PetscScalar   *a;
  PetscInt       p = 0;
  const PetscInt nown = st->own.n[0] * st->own.n[1] * st->own.n[2];

  PetscFunctionBegin;
  PetscCall(VecGetArray(g, &a));
  for (PetscInt k = st->own.s[2]; k < st->own.s[2] + st->own.n[2]; k++)
    for (PetscInt j = st->own.s[1]; j < st->own.s[1] + st->own.n[1]; j++)
      for (PetscInt i = st->own.s[0]; i < st->own.s[0] + st->own.n[0]; i++, p++)
        for (PetscInt c = 0; c < st->dof; c++) {
          const PetscInt ijk[3] = {i, j, k};
          a[st->layout == RW_MODEL_STATE_PLANES ? c * nown + p : p * st->dof + c] = Tag(ijk, c);
        }
  PetscCall(VecRestoreArray(g, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void run_pass_case(PetscInt dim, PetscInt dof, PetscInt w, DMDAStencilType type, const RwStencilBoundaryType bc[3][2])
{
  RwModel   model;
  RwStencil st;
  PassCtx   p = {0};
  Vec       g;
  PetscInt  nown, wrong = 0, all[2], mine[2];

  RW_CHECK(CreateGrid(dim, dof, w, type, bc, PETSC_FALSE, &model, &st));
  RW_CHECK(DMCreateGlobalVector(st->da, &g));
  RW_CHECK(FillTags(st, g));
  nown = st->own.n[0] * st->own.n[1] * st->own.n[2];
  RW_CHECK(PetscCalloc1(nown, &p.visits));
  p.st   = st;
  p.in.g = g;
  RW_CHECK(RwStencilRunPass(st, 1, &p.in, CheckRow, &p));
  for (PetscInt q = 0; q < nown; q++) wrong += p.visits[q] != 1;
  mine[0] = p.bad, mine[1] = wrong;
  MPI_Allreduce(mine, all, 2, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD);
  rw_assert_all(!all[0] && !all[1], "%s %" PetscInt_FMT "D dof %" PetscInt_FMT " width %" PetscInt_FMT " %s, boundaries %s/%s %s/%s: %" PetscInt_FMT " neighbour values wrong, %" PetscInt_FMT " points not visited once", layout == RW_MODEL_STATE_PLANES ? "planes" : "interleaved", dim, dof, w, type == DMDA_STENCIL_BOX ? "box" : "star", RwStencilBoundaryTypes[bc[0][0]], RwStencilBoundaryTypes[bc[0][1]], RwStencilBoundaryTypes[bc[1][0]], RwStencilBoundaryTypes[bc[1][1]], all[0], all[1]);
  if (type == DMDA_STENCIL_BOX) { /* the full copy with ghosts: every ghosted point, in the state's layout */
    Vec                l;
    const PetscScalar *la;
    const PetscInt     ngh = st->ghost.n[0] * st->ghost.n[1] * st->ghost.n[2];
    PetscInt           q = 0;

    RW_CHECK(DMCreateLocalVector(st->da, &l));
    RW_CHECK(RwStencilGlobalToLocal(st, g, l, PETSC_TRUE));
    RW_CHECK(VecGetArrayRead(l, &la));
    mine[0] = 0;
    for (PetscInt k = st->ghost.s[2]; k < st->ghost.s[2] + st->ghost.n[2]; k++)
      for (PetscInt j = st->ghost.s[1]; j < st->ghost.s[1] + st->ghost.n[1]; j++)
        for (PetscInt i = st->ghost.s[0]; i < st->ghost.s[0] + st->ghost.n[0]; i++, q++)
          for (PetscInt c = 0; c < dof; c++) {
            const PetscInt raw[3] = {i, j, k};

            mine[0] += PetscRealPart(la[layout == RW_MODEL_STATE_PLANES ? c * ngh + q : q * dof + c]) != Expected(st, raw, c);
          }
    RW_CHECK(VecRestoreArrayRead(l, &la));
    RW_CHECK(VecDestroy(&l));
    MPI_Allreduce(mine, all, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD);
    rw_assert_all(!all[0], "%s %" PetscInt_FMT "D dof %" PetscInt_FMT " width %" PetscInt_FMT ": RwStencilGlobalToLocal() gives %" PetscInt_FMT " ghosted values other than the rule's", layout == RW_MODEL_STATE_PLANES ? "planes" : "interleaved", dim, dof, w, all[0]);
  }
  RW_CHECK(PetscFree(p.visits));
  RW_CHECK(VecDestroy(&g));
  RW_CHECK(RwStencilDestroy(&st));
  model->data = NULL;
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_pass)
{
  const RwStencilBoundaryType P = RW_STENCIL_PERIODIC, R = RW_STENCIL_MIRROR, Z = RW_STENCIL_ZERO;
  const RwStencilBoundaryType cases[4][3][2] = {
    {{P, P}, {P, P}, {P, P}},
    {{R, R}, {R, Z}, {Z, R}},
    {{R, Z}, {P, P}, {R, R}},
    {{P, P}, {R, R}, {P, P}},
  };

  for (PetscInt dim = 1; dim <= 3; dim++)
    for (PetscInt c = 0; c < 4; c++)
      for (PetscInt w = 1; w <= (dim == 3 ? 2 : 3); w++) {
        run_pass_case(dim, 1, w, DMDA_STENCIL_STAR, cases[c]);
        run_pass_case(dim, 2, w, DMDA_STENCIL_BOX, cases[c]);
        layout = RW_MODEL_STATE_PLANES; /* two components in planes, both stencils */
        run_pass_case(dim, 2, w, DMDA_STENCIL_BOX, cases[c]);
        run_pass_case(dim, 2, w, DMDA_STENCIL_STAR, cases[c]);
        layout = RW_MODEL_STATE_INTERLEAVED;
      }
  /* the same checks with 3D passes walked in tiles of 2 y rows */
  RW_CHECK(PetscOptionsSetValue(NULL, "-rw_stencil_block_rows", "2"));
  for (PetscInt c = 0; c < 4; c++)
    for (PetscInt w = 1; w <= 2; w++) {
      run_pass_case(3, 2, w, DMDA_STENCIL_BOX, cases[c]);
      layout = RW_MODEL_STATE_PLANES;
      run_pass_case(3, 2, w, DMDA_STENCIL_BOX, cases[c]);
      layout = RW_MODEL_STATE_INTERLEAVED;
    }
  RW_CHECK(PetscOptionsClearValue(NULL, "-rw_stencil_block_rows"));
}
END_TEST

/* A row of a fourth-order Laplacian of both components with weights that
   round, and the order rows come in (the first rows' j and k) */
typedef struct {
  RwStencil      st;
  RwStencilInput in;
  PetscScalar   *y;
  PetscInt       order[64][2], nrows;
} LapCtx;

static void LapRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  static const PetscReal w[3] = {-5.0 / 2, 4.0 / 3, -1.0 / 12};
  LapCtx                *p   = (LapCtx *)ctx;
  RwStencilRow           R   = RwStencilInputRow(p->st, &p->in, 2, ghosted, i, j, k);
  PetscScalar           *y   = RwStencilOwnedAt(p->st, 2, p->y, i, j, k);

  if (p->nrows < 64) p->order[p->nrows][0] = j, p->order[p->nrows][1] = k;
  p->nrows++;
  for (PetscInt q = 0; q < 2 * n; q++) y[q] = RwStencilD2(2, w, &R.p[q], 2) / 3 + RwStencilD2(2, w, &R.p[q], R.sy) / 7 + RwStencilD2(2, w, &R.p[q], R.sz) * 0.1;
}

/* Whether two vectors hold the same bits on every rank */
static PetscBool SameBits(Vec x, Vec y)
{
  const PetscScalar *a, *b;
  PetscInt           n, mine, any;

  RW_CHECK(VecGetLocalSize(y, &n));
  RW_CHECK(VecGetArrayRead(x, &a));
  RW_CHECK(VecGetArrayRead(y, &b));
  mine = memcmp(a, b, (size_t)n * sizeof(*a)) != 0;
  RW_CHECK(VecRestoreArrayRead(y, &b));
  RW_CHECK(VecRestoreArrayRead(x, &a));
  MPI_Allreduce(&mine, &any, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD);
  return any ? PETSC_FALSE : PETSC_TRUE;
}

/* One pass of LapRow over a random state on a 3D grid set up with the
   options -rw_stencil_block_rows rows (NULL: unset, automatic) */
static void run_lap(const char rows[], Vec *y, LapCtx *p)
{
  const RwStencilBoundaryType bc[3][2] = {{RW_STENCIL_MIRROR, RW_STENCIL_ZERO}, {RW_STENCIL_PERIODIC, RW_STENCIL_PERIODIC}, {RW_STENCIL_ZERO, RW_STENCIL_MIRROR}};
  RwModel                     model;
  RwStencil                   st;
  Vec                         u;
  PetscRandom                 rnd;

  if (rows) RW_CHECK(PetscOptionsSetValue(NULL, "-rw_stencil_block_rows", rows));
  RW_CHECK(CreateGrid(3, 2, 2, DMDA_STENCIL_STAR, bc, PETSC_FALSE, &model, &st));
  RW_CHECK(PetscOptionsClearValue(NULL, "-rw_stencil_block_rows"));
  RW_CHECK(DMCreateGlobalVector(st->da, &u));
  RW_CHECK(VecDuplicate(u, y));
  RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  RW_CHECK(PetscRandomSetSeed(rnd, 105));
  RW_CHECK(PetscRandomSeed(rnd));
  RW_CHECK(VecSetRandom(u, rnd));
  RW_CHECK(PetscRandomDestroy(&rnd));
  p->st    = st;
  p->in.g  = u;
  p->nrows = 0;
  RW_CHECK(VecGetArray(*y, &p->y));
  RW_CHECK(RwStencilRunPass(st, 1, &p->in, LapRow, p));
  RW_CHECK(VecRestoreArray(*y, &p->y));
  rw_assert_all(!rows || st->blockrows == atoi(rows), "-rw_stencil_block_rows %s gave tiles of %" PetscInt_FMT " rows", rows, st->blockrows);
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(RwStencilDestroy(&st));
  model->data = NULL;
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_blocked_bits)
{
  const char *rows[] = {"1", "2", "3", NULL};
  LapCtx      plain, tiled;
  Vec         y0, y;

  run_lap("0", &y0, &plain);
  for (PetscInt r = 0; r < 4; r++) {
    PetscBool same;
    PetscInt  differ = 0, any;

    run_lap(rows[r], &y, &tiled);
    rw_assert_all(tiled.nrows == plain.nrows, "a pass in tiles of %s rows ran %" PetscInt_FMT " rows, plane by plane %" PetscInt_FMT, rows[r] ? rows[r] : "auto", tiled.nrows, plain.nrows);
    for (PetscInt q = 0; q < PetscMin(plain.nrows, 64); q++) differ += plain.order[q][0] != tiled.order[q][0] || plain.order[q][1] != tiled.order[q][1];
    /* tiles of 1 and 2 rows are smaller than any rank's interior: the order must change */
    if (r < 2) {
      MPI_Allreduce(&differ, &any, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD);
      rw_assert_all(any > 0, "tiles of %s rows visited the rows in the plane-by-plane order", rows[r]);
    }
    same = SameBits(y0, y);
    rw_assert_all(same, "a pass in tiles of %s rows differs from the plane-by-plane pass", rows[r] ? rows[r] : "auto");
    RW_CHECK(VecDestroy(&y));
  }
  RW_CHECK(VecDestroy(&y0));
  if (!rw_test_rank()) printf("# blocked passes: tiles of 1, 2, 3 rows and automatic give the plane-by-plane bits\n");
}
END_TEST

/* ---- the ring: a second difference of the first of two components ---- */
typedef struct {
  RwStencil      st;
  RwStencilInput in;
  PetscScalar   *y;
  PetscInt      *visits;
  PetscBool      ring;
} RingCtx;

static const PetscReal ring_w[4] = {-49.0 / 18, 3.0 / 2, -3.0 / 20, 1.0 / 90}; /* order 6: weights that round */

/* Across the ring's slices, in RwStencilD2's order */
static PetscScalar RingD2(PetscInt w, const RwStencilRingRow *rr, PetscInt q)
{
  PetscScalar f = ring_w[0] * rr->p[w][q];

  for (PetscInt t = 1; t <= w; t++) f += ring_w[t] * (rr->p[w - t][q] + rr->p[w + t][q]);
  return f;
}

/* Interior rows of a ring pass from the ring, every other row in place: the same sums in the same order */
static void RingRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  RingCtx         *p = (RingCtx *)ctx;
  const RwStencil  st = p->st;
  const PetscInt   w = st->width, dim = st->dim;
  RwStencilRow     R = RwStencilInputRow(st, &p->in, 2, ghosted, i, j, k);
  RwStencilRingRow rr;
  PetscScalar     *y = RwStencilOwnedAt(st, 1, p->y, i, j, k);

  if (p->ring && !ghosted) rr = RwStencilRingRowAt(st, i, j, k);
  for (PetscInt q = 0; q < n; q++) {
    PetscScalar f;

    if (p->ring && !ghosted) {
      f = RwStencilD2(w, ring_w, rr.p[w] + q, 1) / 3;
      if (dim > 2) {
        f += RwStencilD2(w, ring_w, rr.p[w] + q, rr.sy) / 7;
        f += RingD2(w, &rr, q) * 0.1;
      } else f += RingD2(w, &rr, q) / 7;
    } else {
      f = RwStencilD2(w, ring_w, &R.p[2 * q], 2) / 3 + RwStencilD2(w, ring_w, &R.p[2 * q], R.sy) / 7;
      if (dim > 2) f += RwStencilD2(w, ring_w, &R.p[2 * q], R.sz) * 0.1;
    }
    y[q] = f;
    p->visits[((k - st->own.s[2]) * st->own.n[1] + j - st->own.s[1]) * st->own.n[0] + i - st->own.s[0] + q]++;
  }
}

static void RingStage(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscScalar *dst)
{
  RingCtx           *p   = (RingCtx *)ctx;
  const PetscScalar *src = RwStencilRowAt(p->in.ga, &p->st->own, 2, i, j, k).p;

  for (PetscInt q = 0; q < n; q++) dst[q] = src[2 * q];
}

/* One pass over a random two-component state, through the ring or in place;
   y on the field grid; how many owned points were not visited exactly once */
static PetscInt run_ring(PetscInt dim, PetscInt w, const RwStencilBoundaryType bc[3][2], const char rows[], PetscBool ring, Vec *y)
{
  RwModel     model;
  RwStencil   st;
  Vec         u;
  PetscRandom rnd;
  RingCtx     p;
  PetscInt    wrong = 0, nown;

  if (rows) RW_CHECK(PetscOptionsSetValue(NULL, "-rw_stencil_block_rows", rows));
  RW_CHECK(CreateGrid(dim, 2, w, DMDA_STENCIL_STAR, bc, ring, &model, &st));
  RW_CHECK(PetscOptionsClearValue(NULL, "-rw_stencil_block_rows"));
  rw_assert_all(!rows || !ring || dim < 3 || !atoi(rows) || st->ringrows == PetscMin(atoi(rows), PetscMax(st->own.n[1] - 2 * w, 1)), "-rw_stencil_block_rows %s gave ring tiles of %" PetscInt_FMT " rows", rows ? rows : "unset", st->ringrows);
  RW_CHECK(DMCreateGlobalVector(st->da, &u));
  RW_CHECK(DMCreateGlobalVector(st->fda, y));
  RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  RW_CHECK(PetscRandomSetSeed(rnd, 1051));
  RW_CHECK(PetscRandomSeed(rnd));
  RW_CHECK(VecSetRandom(u, rnd));
  RW_CHECK(PetscRandomDestroy(&rnd));
  nown = st->own.n[0] * st->own.n[1] * st->own.n[2];
  RW_CHECK(PetscCalloc1(nown, &p.visits));
  p.st   = st;
  p.in.g = u;
  p.ring = ring;
  RW_CHECK(VecGetArray(*y, &p.y));
  if (ring) RW_CHECK(RwStencilRunPassRing(st, 1, &p.in, RingStage, RingRow, &p));
  else RW_CHECK(RwStencilRunPass(st, 1, &p.in, RingRow, &p));
  RW_CHECK(VecRestoreArray(*y, &p.y));
  for (PetscInt q = 0; q < nown; q++) wrong += p.visits[q] != 1;
  RW_CHECK(PetscFree(p.visits));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(RwStencilDestroy(&st));
  model->data = NULL;
  RW_CHECK(RwModelDestroy(&model));
  return wrong;
}

START_TEST(test_ring)
{
  /* x: mirrored (-1) and zero, periodic, zero and mirrored (+1): the ring's x ghosts by every rule */
  const RwStencilBoundaryType bc[3][3][2] = {
    {{RW_STENCIL_MIRROR, RW_STENCIL_ZERO}, {RW_STENCIL_PERIODIC, RW_STENCIL_PERIODIC}, {RW_STENCIL_ZERO, RW_STENCIL_MIRROR}},
    {{RW_STENCIL_PERIODIC, RW_STENCIL_PERIODIC}, {RW_STENCIL_ZERO, RW_STENCIL_ZERO}, {RW_STENCIL_PERIODIC, RW_STENCIL_PERIODIC}},
    {{RW_STENCIL_ZERO, RW_STENCIL_MIRROR}, {RW_STENCIL_MIRROR, RW_STENCIL_MIRROR}, {RW_STENCIL_ZERO, RW_STENCIL_ZERO}},
  };
  const char *rows[] = {NULL, "1", "2", "3", "0"};

  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt w = 1; w <= (dim == 3 ? 2 : 3); w++)
      for (PetscInt c = 0; c < 3; c++)
        for (PetscInt r = 0; r < (dim == 3 ? 5 : 1); r++) {
          Vec      y0, y;
          PetscInt wrong;

          (void)run_ring(dim, w, bc[c], NULL, PETSC_FALSE, &y0);
          wrong = run_ring(dim, w, bc[c], rows[r], PETSC_TRUE, &y);
          MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD);
          rw_assert_all(!wrong, "%" PetscInt_FMT "D width %" PetscInt_FMT " ring pass (tiles %s): %" PetscInt_FMT " points not visited once", dim, w, rows[r] ? rows[r] : "auto", wrong);
          rw_assert_all(SameBits(y0, y), "%" PetscInt_FMT "D width %" PetscInt_FMT " boundaries %" PetscInt_FMT ": a ring pass (tiles %s) differs from the pass in place", dim, w, c, rows[r] ? rows[r] : "auto");
          RW_CHECK(VecDestroy(&y));
          RW_CHECK(VecDestroy(&y0));
        }
  if (!rw_test_rank()) printf("# ring passes: 2D widths 1-3, 3D widths 1-2 in tiles of 1, 2, 3 rows, whole planes and automatic give the bits of passes in place\n");
}
END_TEST

/* Interpolation is exact for a linear function; spread is its transpose */
START_TEST(test_points)
{
  const RwStencilBoundaryType bc[3][2] = {{RW_STENCIL_PERIODIC, RW_STENCIL_PERIODIC}, {RW_STENCIL_MIRROR, RW_STENCIL_MIRROR}, {RW_STENCIL_MIRROR, RW_STENCIL_MIRROR}};
  const PetscInt              n        = 7;
  RwModel                     model;
  RwStencil                   st;
  RwStencilPoints             pts;
  PetscReal                   coords[14], vals[7], wts[7], x0, y0, lin = 0, dot1 = 0, dot2;
  Vec                         u, s;
  PetscScalar                *a;
  PetscInt                    p = 0;
  PetscRandom                 rnd;

  RW_CHECK(CreateGrid(2, 2, 1, DMDA_STENCIL_BOX, bc, PETSC_FALSE, &model, &st));
  RW_CHECK(RwStencilCoordinate(st, 1, 0, &y0));
  RW_CHECK(RwStencilCoordinate(st, 0, 0, &x0));
  /* inside the cell-centred points in y, anywhere in the periodic x */
  for (PetscInt q = 0; q < n; q++) coords[2 * q] = 0.13 + 0.11 * q, coords[2 * q + 1] = 0.3 + 0.05 + 0.19 * q;
  RW_CHECK(RwStencilPointsCreate(model, 1, n, coords, &pts));
  RW_CHECK(DMCreateGlobalVector(st->da, &u));
  RW_CHECK(VecDuplicate(u, &s));
  /* component 1 holds 2 + 3 y: linear, the same on the mirrored side of no boundary the points reach */
  RW_CHECK(VecGetArray(u, &a));
  for (PetscInt j = st->own.s[1]; j < st->own.s[1] + st->own.n[1]; j++)
    for (PetscInt i = st->own.s[0]; i < st->own.s[0] + st->own.n[0]; i++, p += 2) {
      PetscReal y;
      RW_CHECK(RwStencilCoordinate(st, 1, j, &y));
      a[p]     = -7;
      a[p + 1] = 2 + 3 * y;
    }
  RW_CHECK(VecRestoreArray(u, &a));
  RW_CHECK(RwStencilPointsInterpolate(pts, u, vals));
  for (PetscInt q = 0; q < n; q++) lin = PetscMax(lin, PetscAbsReal(vals[q] - (2 + 3 * coords[2 * q + 1])));
  rw_assert_all(lin < 1e-13, "interpolation of a linear function is off by %g", (double)lin);
  /* <I u, w> = <u, S w> for random u, w */
  RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  RW_CHECK(VecSetRandom(u, rnd));
  RW_CHECK(PetscRandomDestroy(&rnd));
  for (PetscInt q = 0; q < n; q++) wts[q] = 1 + 0.5 * q;
  RW_CHECK(RwStencilPointsInterpolate(pts, u, vals));
  for (PetscInt q = 0; q < n; q++) dot1 += vals[q] * wts[q];
  RW_CHECK(VecSet(s, 0));
  RW_CHECK(VecGetArray(s, &a));
  RW_CHECK(RwStencilPointsSpread(pts, wts, a));
  RW_CHECK(VecRestoreArray(s, &a));
  RW_CHECK(VecDot(u, s, &dot2));
  rw_assert_all(PetscAbsReal(dot1 - dot2) <= 100 * PETSC_MACHINE_EPSILON * PetscAbsReal(dot1), "<I u, w> = %.17g but <u, S w> = %.17g", (double)dot1, (double)dot2);
  if (!rw_test_rank()) printf("# points: linear error %.3g, <I u, w> %.17g, <u, S w> %.17g\n", (double)lin, (double)dot1, (double)dot2);
  RW_CHECK(RwStencilPointsDestroy(&pts));
  RW_CHECK(RwStencilPointsDestroy(&pts)); /* NULL-safe */
  RW_CHECK(VecDestroy(&s));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(RwStencilDestroy(&st));
  model->data = NULL;
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("stencil");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_pass);
  tcase_add_test(tc, test_points);
  tcase_add_test(tc, test_blocked_bits);
  tcase_add_test(tc, test_ring);
  suite_add_tcase(s, tc);
  return s;
}
