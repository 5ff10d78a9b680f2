/*
  RwStencil: D passes in one sweep (time blocking, 3D), level t computing
  y_t from y_t-1 (y_0 the input x), so that x, the fields and the levels'
  rows are read from cache between one level and the next instead of from
  memory once a level.

  A point of level t whose distance to every edge of the owned box is at
  least t widths (the core of level t) depends, through the levels below,
  on owned values of x alone: the cores are computed first, in one
  wavefront, while x's halo moves.  The wavefront walks tiles of y rows
  and, inside a tile, z planes c = lo, lo + 1, ...: at plane c level 1
  computes its rows of plane c, level t those of plane c - (t - 1) width,
  the tile's rows shifted down by (t - 1) widths (skewed in y as in z), so
  that every row level t reads of level t - 1 was computed before, in this
  tile or an earlier one, and none is computed twice.  Then level by level
  the rest (the shell of t widths) from the ghosted copy of y_t-1, whose
  halo moves only once y_t-1 is whole: D halo exchanges, D - 1 of them not
  overlapped with work.  One work vector serves every level in turn.

  Every point is computed by its level's row function from the same input
  values as a pass of its own would give it (the rows are gathers), so the
  levels are the bits of D passes.
*/
#include <rewind/private/stencilimpl.h>
#include <unistd.h>

/* The core of level t (t = 1..D): the box t widths inside the owned one,
   whole in x where the levels' rings hold the x ghosts by the boundary
   rule (x not split: st->ringxwhole); false when it is empty */
static PetscBool RwStencilBlockCore(RwStencil st, PetscInt t, PetscBool xwhole, PetscInt lo[3], PetscInt hi[3])
{
  for (PetscInt d = 0; d < 3; d++) {
    const PetscInt in = d < st->dim && !(d == 0 && xwhole) ? t * st->width : 0;

    lo[d] = st->own.s[d] + in;
    hi[d] = st->own.s[d] + st->own.n[d] - in;
    if (lo[d] >= hi[d]) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* Level t's rows of plane p in the tile [j0, j1) of level 1, shifted down
   by t - 1 widths and cut to the level's core.  With stage, through level
   t's own ring: the layer's ring fields point at it while the level stages
   (its input's rows of the tile, width more either side, of plane p +
   width; the 2 width planes below first, at the tile's first plane) and
   computes; its input's rows outside its core are staged, never read */
static void RwStencilBlockRows(RwStencil st, PetscInt t, PetscInt j0, PetscInt j1, PetscInt p, RwStencilRingStageFn stage, RwStencilRowFn fn, void *ctx)
{
  const PetscInt w = st->width;
  PetscInt       lo[3], hi[3], a, b;

  if (!RwStencilBlockCore(st, t, stage && st->ringxwhole, lo, hi) || p < lo[2] || p >= hi[2]) return;
  a = PetscMax(j0 - (t - 1) * w, lo[1]);
  b = PetscMin(j1 - (t - 1) * w, hi[1]);
  if (a >= b) return;
  if (stage) {
    st->ring   = st->blockring + (t - 1) * (2 * w + 1) * st->ringslice;
    st->ringj0 = a - w;
    if (p == lo[2])
      for (PetscInt q = p - w; q < p + w; q++) RwStencilRingStage_Private(st, stage, ctx, q, b - a + 2 * w);
    RwStencilRingStage_Private(st, stage, ctx, p + w, b - a + 2 * w);
  }
  for (PetscInt j = a; j < b; j++) fn(ctx, lo[0], j, p, hi[0] - lo[0], PETSC_FALSE);
}

/* The cores of every level, in the skewed wavefront (see above); the
   layer's ring fields are its own again after */
static void RwStencilForBlockCores(RwStencil st, PetscInt D, RwStencilRingStageFn stage, RwStencilRowFn fn, void *ctx[])
{
  const PetscInt w = st->width, slice = st->ringslice;
  PetscScalar   *ring = st->ring;
  PetscInt       lo[3], hi[3], ty;

  if (!RwStencilBlockCore(st, 1, stage && st->ringxwhole, lo, hi)) return;
  ty = st->blocktile;
  if (stage) st->ringslice = st->blockslice;
  for (PetscInt j0 = lo[1]; j0 < hi[1]; j0 += ty) {
    const PetscInt j1 = PetscMin(j0 + ty, hi[1]);

    for (PetscInt c = lo[2]; c < hi[2] + (D - 1) * w; c++)
      for (PetscInt t = 1; t <= D; t++) RwStencilBlockRows(st, t, j0, j1, c - (t - 1) * w, stage, fn, ctx[t - 1]);
  }
  st->ring      = ring;
  st->ringslice = slice;
}

/* The shared cache (L3) a core can count on: its share of the cache, the
   L2 alone where the system does not say */
static PetscReal RwStencilBlockCacheBytes(void)
{
  long l3 = -1, ncpu = -1;

#if defined(_SC_LEVEL3_CACHE_SIZE)
  l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  if (l3 <= 0) return (PetscReal)RwStencilL2Size_Private();
  return (PetscReal)l3 / (PetscReal)PetscMax(ncpu, 1) + (PetscReal)RwStencilL2Size_Private();
}

/*
  The y tile of a blocked pass of depth D (-rw_stencil_block_tile n sets
  it, 0: whole planes) and, where the layer has a ring, the D levels' rings
  of 2 width + 1 slices of the tile's rows and width rows either side.
  Between two uses of a row, level t reads 2 width + 2 planes of its
  input's rows of the tile and width rows either side, and the fields' row
  once; half of the core's cache for the D levels' rows
*/
PETSC_INTERN PetscErrorCode RwStencilSetUpBlockTile_Private(RwStencil st, PetscInt D)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)st->model);
  const char    *prefix;
  const PetscInt w = st->width, ny = PetscMax(st->own.n[1] - 2 * w, 1);
  PetscInt       rows = -1;
  PetscBool      set;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)st->model, &prefix));
  PetscCall(RwOptionsGetInt(comm, prefix, "-rw_stencil_block_tile", &rows, &set, 0, PETSC_MAX_INT));
  if (!set) {
    const PetscReal rowbytes = (PetscReal)(st->dof * (2 * w + 2) + 3) * st->own.n[0] * sizeof(PetscScalar);

    rows = PetscMax((PetscInt)(0.5 * RwStencilBlockCacheBytes() / (D * rowbytes)) - 2 * w, 1);
  }
  st->blocktile = rows > 0 ? PetscMin(rows, ny) : ny;
  PetscCall(PetscFree(st->blockring));
  if (!st->ring) PetscFunctionReturn(PETSC_SUCCESS);
  st->blockslice = ((st->blocktile + 2 * w) * st->ringsy + 7) / 8 * 8 + 8; /* whole cache lines and one more, as the ring's */
  PetscCall(PetscCalloc1(D * (2 * w + 1) * st->blockslice, &st->blockring));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilRunPassBlock - D passes of one input each, level t's input being
  level t - 1's output, in one sweep (3D): the levels' cores in a skewed
  wavefront while x's halo moves, then each level's shell of t widths

  Collective

  Input Parameters:
+ st  - the layer, 3D, set up
. D   - the levels, at least 1
. in  - in[t]->g is level t's input: x for level 0, level t - 1's output
        (which fn writes) above; the layer sets in[t]->ga and in[t]->la
. stage - NULL, or each level's ring stage (RwStencilRunPassRing()): core
        rows then gather from the level's ring (RwStencilRingRowAt())
. fn  - computes one row of a level (its context's); a row must be final
        when fn returns (a model's point sources included), as the next
        level reads it
- ctx - the levels' contexts

  Notes:
  Core rows (ghosted false) read in[t]->ga, the owned array, at
  neighbours up to the width away, all computed before; shell rows read
  in[t]->la, the ghosted copy.  Level t's output must be written with
  ordinary stores where a later level reads it (the last may stream: the
  caller fences it).  Uses work vector 0 for every level.

  Level: developer

.seealso: RwStencilRunPass(), RwStencilRunPassPair()
@*/
PetscErrorCode RwStencilRunPassBlock(RwStencil st, PetscInt D, RwStencilInput *in[], RwStencilRingStageFn stage, RwStencilRowFn fn, void *ctx[])
{
  const PetscBool xwhole = (PetscBool)(stage && st->ringxwhole); /* the cores ran whole in x: the shells have no x ends */

  PetscFunctionBegin;
  PetscCheck(st->dim == 3 && D >= 1, PetscObjectComm((PetscObject)st->model), PETSC_ERR_SUP, "A blocked pass of %" PetscInt_FMT " levels on a %" PetscInt_FMT "D stencil grid: 3D only", D, st->dim);
  PetscCall(RwStencilHaloBegin(st, 0, in[0]->g));
  for (PetscInt t = 0; t < D; t++) PetscCall(VecGetArrayRead(in[t]->g, &in[t]->ga));
  PetscCheck(!stage || st->blockring, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ORDER, "A blocked ring pass needs the layer's ring and RwStencilSetUpBlockTile_Private() first");
  RwStencilForBlockCores(st, D, stage, fn, ctx);
  for (PetscInt t = 0; t < D; t++) {
    if (t) PetscCall(RwStencilHaloBegin(st, 0, in[t]->g)); /* level t - 1 is whole */
    PetscCall(VecScatterEnd(st->halo[0], in[t]->g, st->work[0], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(RwStencilCopyEdgeBand_Private(st, 0, in[t]->g, st->work[0], (t + 2) * st->width, xwhole)); /* what the shell of t + 1 widths reads */
    PetscCall(RwStencilFillBoundaryGhosts_Private(st, st->work[0], PETSC_TRUE, xwhole ? (t + 1) * st->width : 0)); /* the x ghosts the shell's rows read */
    PetscCall(VecGetArrayRead(st->work[0], &in[t]->la));
    RwStencilForShell_Private(st, (t + 1) * st->width, fn, ctx[t], xwhole);
    PetscCall(VecRestoreArrayRead(st->work[0], &in[t]->la));
    in[t]->la = NULL;
  }
  for (PetscInt t = 0; t < D; t++) PetscCall(VecRestoreArrayRead(in[t]->g, &in[t]->ga));
  PetscFunctionReturn(PETSC_SUCCESS);
}
