/*
  RwStencil: interior rows that gather from a ring of staged slices.

  Some passes gather from a scalar derived from an input at every
  neighbour: the wave model's forward takes the Laplacian of u_k, the first
  of two interleaved components, and its adjoint that of ia lambda.  Read
  in place, every neighbour costs a strided load (and, in the adjoint, a
  multiplication), and vector lanes go to the component nobody needs.
  Staged once into a unit-stride scratch field of the whole grid, the
  gather is cheap but the scratch goes to memory and back (24 B a point).

  The ring keeps only what the rows about to run read: the 2 width + 1
  slices c - w .. c + w along the last direction (rows in 2D; in 3D, a tile
  of y rows of a plane, with width rows either side) around the slice c
  being computed.  Before the rows of slice c, slice c + w is staged over
  the oldest one; the ring stays in L2, so a staged value is written and
  read again from cache only.  Interior rows only: their neighbours are
  owned, so the stage reads the owned arrays while the halos move.  Where
  x is not split, a ring row also holds its x ghosts, which the boundary
  rule derives from owned values, and the interior rows run whole: the
  short rows of width points at their ends were most of the 3D shell's
  cost.  The shell's rows read their inputs in place, as every pass's do,
  and compute the same arithmetic in the same order, so a point's bits do
  not depend on which kind of row it falls in, nor on the decomposition.
*/
#include <rewind/private/stencilimpl.h>

/*@C
  RwStencilSetRing - lets the layer's passes run their interior through a
  ring of staged slices (RwStencilRunPassRing()); the ring is allocated at
  RwStencilSetUp(), in 2D and 3D

  Logically collective; before RwStencilSetUp()

  Level: developer

.seealso: RwStencilRunPassRing()
@*/
PetscErrorCode RwStencilSetRing(RwStencil st, PetscBool ring)
{
  PetscFunctionBegin;
  PetscCheck(!st->setupcalled, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ORDER, "Ask for the stencil grid's ring before RwStencilSetUp()");
  PetscCheck(!ring || st->width <= RW_STENCIL_MAX_D2_RADIUS, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_OUTOFRANGE, "A ring of stencil width %" PetscInt_FMT ": at most %d", st->width, RW_STENCIL_MAX_D2_RADIUS);
  st->ringwanted = ring;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Scalars rounded up to whole cache lines, and one line more: rows and
   slices one line apart in their sets even at power-of-two sides */
static PetscInt RwStencilRingPad(PetscInt n)
{
  return (n + 7) / 8 * 8 + 8;
}

/*
  The ring: 2 width + 1 slices.  2D: a slice is an owned row.  3D: a slice
  is a tile of ringrows y rows of a plane and width rows either side; the
  ring takes the size of L2, or -rw_stencil_block_rows rows (0: every
  interior row, whole planes).  A tile restages its 2 width halo rows, so
  larger tiles stage less: wave order 8 at 256^3, one rank, CPU ns per
  point forward / tangent / adjoint, best of 3: tiles of 8 rows 9.2 / 13.1
  / 13.7, 19 (half of L2) 8.2 / 11.8 / 13.0, 40 8.0 / 11.2 / 12.6, 80 7.9
  / 11.3 / 12.2, whole planes (248) 8.6 / 11.8 / 12.8
*/
PETSC_INTERN PetscErrorCode RwStencilSetUpRing_Private(RwStencil st)
{
  const PetscInt w = st->width, ny = PetscMax(st->own.n[1] - 2 * w, 1);
  PetscInt       rows = 1;

  PetscFunctionBegin;
  if (!st->ringwanted || st->dim < 2) PetscFunctionReturn(PETSC_SUCCESS);
  st->ringsy     = RwStencilRingPad(st->own.n[0] + 2 * w);
  st->ringxwhole = (PetscBool)(st->own.n[0] == st->M[0] && st->own.n[0] > 2 * w);
  if (st->dim > 2) {
    if (!st->l2) rows = st->blockrows > 0 ? st->blockrows : ny; /* -rw_stencil_block_rows */
    else rows = (PetscInt)((PetscReal)st->l2 / ((2 * w + 1) * st->ringsy * sizeof(PetscScalar))) - 2 * w;
    st->ringrows = PetscMin(PetscMax(rows, 1), ny);
    rows         = st->ringrows + 2 * w;
  }
  st->ringslice = RwStencilRingPad(rows * st->ringsy);
  PetscCall(PetscCalloc1((2 * w + 1) * st->ringslice, &st->ring));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The x ghosts of a staged row (row: its first owned point) where x is not
  split: periodic, the other end's values; otherwise sign times the mirror
  point, 0 beyond a zero side, as RwStencilFillBoundaryGhosts() gives the
  state.  So the staged scalar must follow the state's first component's
  rule: that component itself, or its product with fields (which mirror
  with +1): ia (sign l) and sign (ia l) are the same bits for sign +-1 and 0
*/
static void RwStencilRingGhosts(RwStencil st, PetscScalar *row)
{
  const PetscInt n = st->own.n[0];

  for (PetscInt side = 0; side < 2; side++) {
    const PetscBool periodic = (PetscBool)(st->bc[0][side] == RW_STENCIL_PERIODIC);
    const PetscReal sign     = RwStencilGhostSign(st, 0, side, PETSC_TRUE);

    for (PetscInt t = 0; t < st->width; t++) {
      if (side == 0) row[-1 - t] = periodic ? row[n - 1 - t] : sign * row[t];
      else row[n + t] = periodic ? row[t] : sign * row[n - 1 - t];
    }
  }
}

/* Stages row (j, k) into dst, then its x ghosts where the ring holds them */
static void RwStencilRingStageRow(RwStencil st, RwStencilRingStageFn stage, void *ctx, PetscInt j, PetscInt k, PetscScalar *dst)
{
  stage(ctx, st->own.s[0], j, k, st->own.n[0], dst + st->width);
  if (st->ringxwhole) RwStencilRingGhosts(st, dst + st->width);
}

/* Stages slice c: 2D the owned row c, 3D nrows rows of plane c from ringj0 */
PETSC_INTERN void RwStencilRingStage_Private(RwStencil st, RwStencilRingStageFn stage, void *ctx, PetscInt c, PetscInt nrows)
{
  PetscScalar *dst = RwStencilRingSlice(st, c);

  if (st->dim == 2) RwStencilRingStageRow(st, stage, ctx, c, 0, dst);
  else
    for (PetscInt r = 0; r < nrows; r++) RwStencilRingStageRow(st, stage, ctx, st->ringj0 + r, c, dst + r * st->ringsy);
}

/* The interior through the ring: per tile of y rows (3D), the first 2 width
   slices, then along the last direction one new slice before each slice's
   rows.  The same rows as RwStencilForInterior(), in the same order in 2D;
   where the ring holds the x ghosts, whole rows, x ends included (the
   shell then leaves those ends out) */
PETSC_INTERN void RwStencilForInteriorRing_Private(RwStencil st, RwStencilRingStageFn stage, RwStencilRowFn fn, void *ctx)
{
  const PetscInt w = st->width, L = st->dim - 1; /* the ring's direction */
  PetscInt       lo[3], hi[3], i0, n;

  if (!RwStencilInterior_Private(st, lo, hi)) return;
  i0 = st->ringxwhole ? st->own.s[0] : lo[0]; /* the rows' x range */
  n  = st->ringxwhole ? st->own.n[0] : hi[0] - lo[0];
  for (PetscInt j0 = lo[1], j1; j0 < hi[1]; j0 = j1) {
    j1         = st->dim > 2 ? PetscMin(j0 + st->ringrows, hi[1]) : hi[1];
    st->ringj0 = j0 - w;
    for (PetscInt c = lo[L] - w; c < lo[L] + w; c++) RwStencilRingStage_Private(st, stage, ctx, c, j1 - j0 + 2 * w);
    for (PetscInt c = lo[L]; c < hi[L]; c++) {
      RwStencilRingStage_Private(st, stage, ctx, c + w, j1 - j0 + 2 * w);
      if (st->dim == 2) fn(ctx, i0, c, 0, n, PETSC_FALSE);
      else
        for (PetscInt j = j0; j < j1; j++) fn(ctx, i0, j, c, n, PETSC_FALSE);
    }
  }
}

/*@C
  RwStencilRunPassRing - RwStencilRunPass() whose interior rows gather from
  the ring: stage(ctx, i, j, k, n, dst) writes into the ring the scalars the
  rows gather, from the owned inputs' row (i, j, k); fn's interior rows
  (ghosted false) see them with RwStencilRingRowAt(), and its shell rows
  (ghosted true) read their inputs in place, with the same arithmetic

  Collective

  Input Parameters:
+ st    - the layer, set up after RwStencilSetRing() in 2D or 3D
. nin   - how many inputs
. in    - as RwStencilRunPass()
. stage - stages one row
. fn    - computes one row
- ctx   - the context of stage and fn

  Level: developer

.seealso: RwStencilSetRing(), RwStencilRunPass()
@*/
PetscErrorCode RwStencilRunPassRing(RwStencil st, PetscInt nin, RwStencilInput in[], RwStencilRingStageFn stage, RwStencilRowFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCheck(st->ring, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ORDER, "A ring pass on a %" PetscInt_FMT "D stencil grid set up without RwStencilSetRing()", st->dim);
  PetscCall(RwStencilRunPassWith_Private(st, nin, in, stage, fn, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}
