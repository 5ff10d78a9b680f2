/*
  RwStencil: the ghost-only halo exchange and the pass over rows.

  A pass overlaps the halo exchange with work: it starts moving the ghosts
  of every input, computes the interior rows (whose neighbours, up to the
  stencil width away, are all owned) straight from the global arrays, ends
  the exchanges, copies the owned band next to the box's edges and fills the
  ghosts beyond physical boundaries, then computes the shell of rows next to
  other ranks or to the boundary from the ghosted arrays.

  A pass needs in its ghosted copies only the ghosts and the owned band of
  twice the width next to the box's edges (the interior is read from the
  owned array): halo[i] moves the ghosts of input i, alone, so a step does
  not copy the whole state as DMGlobalToLocal would.  One scatter per input,
  because PETSc 3.18 cannot have one scatter in flight twice.
*/
#include <rewind/private/stencilimpl.h>
#include <string.h>
#include <unistd.h>

/* The local positions of the ghosts that have a source on another rank (or
   this one, periodic) and the global indices of their sources: of the
   components in comps (bit c for component c; 0: every component), in the
   state's layout (planes: each component's plane, in the work vector as in
   the global one) */
static PetscErrorCode RwStencilHaloIndices(RwStencil st, PetscInt comps, IS *isfrom, IS *isto)
{
  ISLocalToGlobalMapping ltog;
  const PetscInt        *global;
  const PetscInt        *gs = st->ghost.s, *gn = st->ghost.n, *os = st->own.s, *on = st->own.n, dof = st->dof;
  const PetscBool        planes = (PetscBool)(st->layout == RW_MODEL_STATE_PLANES);
  const PetscInt         ngh    = gn[0] * gn[1] * gn[2];
  PetscInt              *from, *to, n = 0, q = 0, size = ngh * dof;

  PetscFunctionBegin;
  PetscCall(DMGetLocalToGlobalMapping(st->da, &ltog));
  PetscCall(ISLocalToGlobalMappingGetIndices(ltog, &global));
  PetscCall(PetscMalloc2(size, &from, size, &to));
  for (PetscInt k = gs[2]; k < gs[2] + gn[2]; k++)
    for (PetscInt j = gs[1]; j < gs[1] + gn[1]; j++)
      for (PetscInt i = gs[0]; i < gs[0] + gn[0]; i++)
        for (PetscInt c = 0; c < dof; c++, q++) {
          PetscInt out = (i < os[0] || i >= os[0] + on[0]) + (j < os[1] || j >= os[1] + on[1]) + (k < os[2] || k >= os[2] + on[2]);
          /* ghosts beyond a non-periodic boundary have no source: the ghost rule fills them; a
             star stencil never reads the box's edges and corners (ghosts outside in two or
             more directions), which would cost a message to each diagonal neighbour */
          if (!out || global[q] < 0 || (st->type == DMDA_STENCIL_STAR && out > 1) || (comps && !(comps >> c & 1))) continue;
          PetscCall(RwStencilStateGlobalIndex_Private(st, global[q], &from[n]));
          to[n++] = planes ? c * ngh + q / dof : q; /* planes: component c's plane of the ghosted box */
        }
  PetscCall(ISLocalToGlobalMappingRestoreIndices(ltog, &global));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, from, PETSC_COPY_VALUES, isfrom));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, to, PETSC_COPY_VALUES, isto));
  PetscCall(PetscFree2(from, to));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Scatters that move only the ghost points a pass reads (of the components
   each input's halo moves), one per input that has none yet, and their work
   vectors.  The index sets are built again only where an input's components
   differ from the previous one's */
PETSC_INTERN PetscErrorCode RwStencilCreateHalo_Private(RwStencil st)
{
  IS       isfrom = NULL, isto = NULL;
  Vec      g;
  PetscInt built = -1; /* the components isfrom and isto hold */

  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(st->da, &g));
  for (PetscInt x = 0; x < st->ninputs; x++) {
    const PetscInt comps = st->haloall ? 0 : st->halocomps[x];

    if (st->halo[x]) continue;
    if (comps != built) {
      PetscCall(ISDestroy(&isfrom));
      PetscCall(ISDestroy(&isto));
      PetscCall(RwStencilHaloIndices(st, comps, &isfrom, &isto));
      built = comps;
    }
    if (!st->work[x]) PetscCall(RwDMCreateVecStaggered(st->da, PETSC_TRUE, &st->work[x]));
    PetscCall(VecScatterCreate(g, isfrom, st->work[x], isto, &st->halo[x]));
  }
  PetscCall(DMRestoreGlobalVector(st->da, &g));
  PetscCall(ISDestroy(&isfrom));
  PetscCall(ISDestroy(&isto));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilSetHaloComponents - the components of input x's state whose
  ghosts the halo exchange moves: those its stencils read at neighbours

  Collective (when the halo exists already: it is made again)

  Input Parameters:
+ st    - the layer
. x     - the input, 0 to RW_STENCIL_MAX_INPUTS - 1
. n     - how many components; 0 (or all of them) for every component, the default
- comps - the components, each in [0, dof)

  Notes:
  A pass's shell rows then read a ghost of another component as whatever
  the work vector holds there (zero, or a boundary rule's value, never the
  neighbour's): a row may load it into a lane whose result it drops (the
  wave model's whole-point rows), never use it.  Owned points, the edge
  band included, keep every component.  The wave model moves u_k's ghosts
  alone (component 0; the tangent's du_k, the adjoint's la'), half of the
  bytes.  -rw_stencil_halo_all moves every component of every input again,
  to check that the bits do not change.

  Level: developer

.seealso: RwStencilSetUp(), RwStencilRunPass()
@*/
PetscErrorCode RwStencilSetHaloComponents(RwStencil st, PetscInt x, PetscInt n, const PetscInt comps[])
{
  MPI_Comm comm = PetscObjectComm((PetscObject)st->model);
  PetscInt mask = 0;

  PetscFunctionBegin;
  PetscCheck(x >= 0 && x < RW_STENCIL_MAX_INPUTS, comm, PETSC_ERR_ARG_OUTOFRANGE, "Halo components of input %" PetscInt_FMT ": expected an input in [0, %d)", x, RW_STENCIL_MAX_INPUTS);
  PetscCheck(n >= 0 && n <= st->dof, comm, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " halo components of input %" PetscInt_FMT ": the state has %" PetscInt_FMT, n, x, st->dof);
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(comps[i] >= 0 && comps[i] < st->dof && comps[i] < 30, comm, PETSC_ERR_ARG_OUTOFRANGE, "Halo component %" PetscInt_FMT " of input %" PetscInt_FMT ": expected one in [0, %" PetscInt_FMT ")", comps[i], x, PetscMin(st->dof, 30));
    mask |= (PetscInt)1 << comps[i];
  }
  if (st->dof < 30 && mask == ((PetscInt)1 << st->dof) - 1) mask = 0; /* every component */
  if (mask == st->halocomps[x]) PetscFunctionReturn(PETSC_SUCCESS);
  st->halocomps[x] = mask;
  if (st->halo[x]) { /* set up: the scatter again, the work vector kept */
    PetscCall(VecScatterDestroy(&st->halo[x]));
    PetscCall(RwStencilCreateHalo_Private(st));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode RwStencilDestroyHalo_Private(RwStencil st)
{
  PetscFunctionBegin;
  for (PetscInt x = 0; x < st->ninputs; x++) {
    PetscCall(VecDestroy(&st->work[x]));
    PetscCall(VecScatterDestroy(&st->halo[x]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A handful of values at each end of a row: the usual counts are copied
   inline, as a call to memcpy per row would cost more than the copy (and
   the compiler turns a plain loop into that call) */
static inline void RwStencilCopyFew(PetscScalar *dst, const PetscScalar *src, PetscInt n)
{
  switch (n) {
  case 2: dst[0] = src[0], dst[1] = src[1]; break;
  case 4: dst[0] = src[0], dst[1] = src[1], dst[2] = src[2], dst[3] = src[3]; break;
  default: memcpy(dst, src, (size_t)n * sizeof(*dst));
  }
}

/* The edge band of one array of dof scalars a point: a state interleaved, or one plane */
static void RwStencilCopyEdgeBandOf(RwStencil st, PetscInt dof, const PetscScalar *a, PetscScalar *b, PetscInt band, PetscBool xwhole)
{
  const PetscInt *os = st->own.s, *on = st->own.n, *gs = st->ghost.s, *gn = st->ghost.n;
  const PetscInt  row = on[0] * dof;

  for (PetscInt k = 0; k < on[2]; k++)
    for (PetscInt j = 0; j < on[1]; j++) {
      const PetscScalar *src  = a + (k * on[1] + j) * row;
      PetscScalar       *dst  = b + (((k + os[2] - gs[2]) * gn[1] + (j + os[1] - gs[1])) * gn[0] + (os[0] - gs[0])) * dof;
      if (RwStencilNearEdge(st, os[1] + j, os[2] + k, band) || on[0] <= 2 * band) memcpy(dst, src, (size_t)row * sizeof(*dst));
      else if (!xwhole) {
        RwStencilCopyFew(dst, src, band * dof);
        RwStencilCopyFew(dst + row - band * dof, src + row - band * dof, band * dof);
      }
    }
}

/* Copies the owned points within twice the width of the box's edges from g
   to l: the shell rows a pass computes from l, and their inner neighbours
   (band = 2 width; a blocked pass's wider shells need more,
   RwStencilRunPassBlock()).  With xwhole (a ring pass whose interior rows
   ran whole in x, so that the shell has no short rows at the x ends) only
   the rows near the y and z edges: the x ends of the others are read by no row */
PETSC_INTERN PetscErrorCode RwStencilCopyEdgeBand_Private(RwStencil st, PetscInt x, Vec g, Vec l, PetscInt band, PetscBool xwhole)
{
  const PetscScalar *a;
  PetscScalar       *b;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(g, &a));
  PetscCall(VecGetArray(l, &b));
  if (st->layout != RW_MODEL_STATE_PLANES) RwStencilCopyEdgeBandOf(st, st->dof, a, b, band, xwhole);
  else { /* the planes of the components the halo moves: rows read the others at owned points */
    const PetscInt comps = st->haloall ? 0 : st->halocomps[x];

    for (PetscInt c = 0; c < st->dof; c++)
      if (!comps || comps >> c & 1) RwStencilCopyEdgeBandOf(st, 1, RwStencilPlane(a, &st->own, c), (PetscScalar *)RwStencilPlane(b, &st->ghost, c), band, xwhole);
  }
  PetscCall(VecRestoreArray(l, &b));
  PetscCall(VecRestoreArrayRead(g, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}


/*@C
  RwStencilHaloBegin - starts moving the ghosts of input x of a pass (a
  state, global vector g) into the layer's work vector x

  Level: developer

.seealso: RwStencilHaloEnd(), RwStencilRunPass()
@*/
PetscErrorCode RwStencilHaloBegin(RwStencil st, PetscInt x, Vec g)
{
  PetscFunctionBegin;
  PetscCall(VecScatterBegin(st->halo[x], g, st->work[x], INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With xwhole, what a shell without short x-end rows reads: the edge band
   and x ghosts of the rows near the y and z edges only */
static PetscErrorCode RwStencilHaloEnd_Private(RwStencil st, PetscInt x, Vec g, PetscBool xwhole)
{
  PetscFunctionBegin;
  PetscCall(VecScatterEnd(st->halo[x], g, st->work[x], INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(RwStencilCopyEdgeBand_Private(st, x, g, st->work[x], 2 * st->width, xwhole));
  PetscCall(RwStencilFillBoundaryGhosts_Private(st, st->work[x], PETSC_TRUE, xwhole ? st->width : 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilHaloEnd - ends it, then copies the owned edge band and fills the
  ghosts beyond the boundary by the state's rule

  Level: developer
@*/
PetscErrorCode RwStencilHaloEnd(RwStencil st, PetscInt x, Vec g)
{
  PetscFunctionBegin;
  PetscCall(RwStencilHaloEnd_Private(st, x, g, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tile of rows [j0, j1) a 3D pass walks z inside before moving on in y:
   the rows over 2 width + 1 planes that one output plane of the tile reads
   stay in L2 until the next plane reuses them, where whole planes would not
   (a 256^2 plane of two components is 1 MiB).  Rows are computed in gather
   form, each point from its inputs alone, so the order of the rows changes
   no bit.  One tile (the whole y range) when blocking is off */
static inline PetscInt RwStencilTileEnd(RwStencil st, PetscInt j0, PetscInt hi)
{
  return st->blockrows > 0 ? PetscMin(j0 + st->blockrows, hi) : hi;
}

/* The interior box [lo, hi): points whose every neighbour, up to the width,
   is owned by this rank; false when it is empty */
PETSC_INTERN PetscBool RwStencilInterior_Private(RwStencil st, PetscInt lo[3], PetscInt hi[3])
{
  for (PetscInt d = 0; d < 3; d++) {
    lo[d] = st->own.s[d] + (d < st->dim ? st->width : 0);
    hi[d] = st->own.s[d] + st->own.n[d] - (d < st->dim ? st->width : 0);
    if (lo[d] >= hi[d]) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* Rows whose points have every neighbour, up to the width, owned by this rank */
static void RwStencilForInterior(RwStencil st, RwStencilRowFn fn, void *ctx)
{
  PetscInt lo[3], hi[3];

  if (!RwStencilInterior_Private(st, lo, hi)) return;
  for (PetscInt j0 = lo[1], j1; j0 < hi[1]; j0 = j1) {
    j1 = RwStencilTileEnd(st, j0, hi[1]);
    for (PetscInt k = lo[2]; k < hi[2]; k++)
      for (PetscInt j = j0; j < j1; j++) fn(ctx, lo[0], j, k, hi[0] - lo[0], PETSC_FALSE);
  }
}

/* The owned points that are not interior: within w (the width; a blocked
   pass's level t, t widths) of another rank or a boundary; with xwhole, a
   ring pass has run the rows interior in y and z whole, x ends included
   (RwStencilForInteriorRing_Private()) */
PETSC_INTERN void RwStencilForShell_Private(RwStencil st, PetscInt w, RwStencilRowFn fn, void *ctx, PetscBool xwhole)
{
  const PetscInt *s = st->own.s, *n = st->own.n;

  for (PetscInt j0 = s[1], j1; j0 < s[1] + n[1]; j0 = j1) {
    j1 = RwStencilTileEnd(st, j0, s[1] + n[1]);
    for (PetscInt k = s[2]; k < s[2] + n[2]; k++)
      for (PetscInt j = j0; j < j1; j++) {
        if (RwStencilNearEdge(st, j, k, w)) fn(ctx, s[0], j, k, n[0], PETSC_TRUE);
        else if (!xwhole) {
          PetscInt left = PetscMin(w, n[0]), right = PetscMin(w, n[0] - left);

          fn(ctx, s[0], j, k, left, PETSC_TRUE);
          if (right > 0) fn(ctx, s[0] + n[0] - right, j, k, right, PETSC_TRUE);
        }
      }
  }
}

/* The L2 size of this core, 1 MiB where the system does not say */
PETSC_INTERN PetscInt RwStencilL2Size_Private(void)
{
  long l2 = -1;

#if defined(_SC_LEVEL2_CACHE_SIZE)
  l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return l2 > 0 ? (PetscInt)l2 : 1 << 20;
}

/*
  The tile of a 3D pass, rows in y: between two uses of an input row (the
  output planes k and k+1 of a tile) the pass reads the tile's rows, with
  width rows either side, over 2 width + 2 planes of every input.  Half of
  L2 for those leaves the other half to the rows streamed once (fields,
  outputs).  No tiles in 1D and 2D (no z-stencil), nor where one tile would
  hold every row anyway; -rw_stencil_block_rows n sets n (0: off)
*/
PETSC_INTERN PetscErrorCode RwStencilSetUpBlocking_Private(RwStencil st)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)st->model);
  const char    *prefix;
  const PetscInt w = st->width, ny = st->own.n[1] - 2 * w;
  PetscInt       rows = -1;
  PetscBool      set;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)st->model, &prefix));
  PetscCall(RwOptionsGetInt(comm, prefix, "-rw_stencil_block_rows", &rows, &set, 0, PETSC_MAX_INT)); /* 0: no tiles */
  st->l2 = 0;
  if (set) {
    st->blockrows = st->dim > 2 ? rows : 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  st->blockrows = 0;
  if (st->dim < 3) PetscFunctionReturn(PETSC_SUCCESS);
  {
    const PetscReal rowbytes = (PetscReal)st->dof * st->own.n[0] * sizeof(PetscScalar) * PetscMax(st->ninputs, 1);
    const PetscInt  l2 = RwStencilL2Size_Private();
    const PetscInt  fit = (PetscInt)(0.5 * l2 / ((2 * w + 2) * rowbytes)) - 2 * w;

    st->l2 = l2;
    if (fit >= 1 && fit < ny) st->blockrows = fit;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilRunPass - runs fn over all owned rows of a pass whose inputs (states
  on the state's grid, at most the ninputs of RwStencilSetUp()) are in[0..nin):
  the interior while their halos move, then the shell

  Collective

  Input Parameters:
+ st  - the layer
. nin - how many inputs
. in  - their global vectors in in[x].g; the pass sets in[x].ga and in[x].la for fn
. fn  - computes one row (RwStencilInputRow() gives an input's row)
- ctx - fn's context

  Level: developer

.seealso: RwStencilRunPassRing()
@*/
PetscErrorCode RwStencilRunPass(RwStencil st, PetscInt nin, RwStencilInput in[], RwStencilRowFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(RwStencilRunPassWith_Private(st, nin, in, NULL, fn, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every pass: the interior while the halos move, by rows (ringstage NULL)
   or through the ring (RwStencilRunPassRing()), then the shell by rows */
PETSC_INTERN PetscErrorCode RwStencilRunPassWith_Private(RwStencil st, PetscInt nin, RwStencilInput in[], RwStencilRingStageFn ringstage, RwStencilRowFn fn, void *ctx)
{
  const PetscBool xwhole = (PetscBool)(ringstage && st->ringxwhole); /* the interior rows ran whole in x */

  PetscFunctionBegin;
  PetscCheck(nin <= st->ninputs, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_OUTOFRANGE, "A pass over %" PetscInt_FMT " inputs: the stencil grid was set up for %" PetscInt_FMT, nin, st->ninputs);
  for (PetscInt i = 0; i < nin; i++) PetscCall(RwStencilHaloBegin(st, i, in[i].g));
  for (PetscInt i = 0; i < nin; i++) PetscCall(VecGetArrayRead(in[i].g, &in[i].ga));
  if (ringstage) RwStencilForInteriorRing_Private(st, ringstage, fn, ctx);
  else RwStencilForInterior(st, fn, ctx);
  for (PetscInt i = 0; i < nin; i++) {
    PetscCall(RwStencilHaloEnd_Private(st, i, in[i].g, xwhole));
    PetscCall(VecGetArrayRead(st->work[i], &in[i].la));
  }
  RwStencilForShell_Private(st, st->width, fn, ctx, xwhole);
  for (PetscInt i = 0; i < nin; i++) {
    PetscCall(VecRestoreArrayRead(in[i].g, &in[i].ga));
    PetscCall(VecRestoreArrayRead(st->work[i], &in[i].la));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Two steps in one pass (RwStencilRunPassPair()), 2D: level 1 computes y1
  from x, level 2 computes y2 from y1.  Row j of level 2 runs right after
  row j + width of level 1, while the rows it reads are still in cache, so
  a pair of steps reads x and the fields from memory once, not twice.
  Every point is computed by its level's row function from the same
  inputs as a pass of its own would give it, so the bits are two passes'.

  The order honours what each row reads:
    x's halo; level 1's shell (rows next to other ranks or the boundary);
    y1's halo starts (the shell is what neighbours read);
    the interior: level 1 row j, then level 2 row j - width;
    the last width rows of level 2's interior;
    y1's halo ends; level 2's shell.
  x's halo is not overlapped with work: level 2's first interior rows read
  level 1's shell.  y1's halo is, with the whole interior.

  Level 2's interior rows gather y1's scalar from the pair's ring
  (st->pairring, 2 width + 1 rows), so level 1 may stream y1 past the
  caches: level 1's interior rows put their values in that ring
  themselves, and the layer stages the rest from y1 (the shell's rows and
  row ends, written before).  With stage1, level 1's interior rows gather
  x's scalar from the layer's ring, staged width rows ahead as in
  RwStencilRunPassRing().  (A pair whose level 2 read y1 back in place,
  written with ordinary stores, moved 16 B a point more and was slower.)
*/

/*@C
  RwStencilSetUpPair - after RwStencilSetUp(), for a model that learns only
  then that it runs pairs of passes (RwStencilRunPassPair(), 2D): the
  second pass's halo and ghosted work vector (input 1), the layer's ring
  (which a first pass may gather from) and the pair's ring

  Collective

  Level: developer

.seealso: RwStencilRunPassPair()
@*/
PetscErrorCode RwStencilSetUpPair(RwStencil st)
{
  PetscFunctionBegin;
  PetscCheck(st->setupcalled && st->dim == 2, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ORDER, "RwStencilSetUpPair() is for a 2D stencil grid, after RwStencilSetUp()");
  PetscCheck(st->width <= RW_STENCIL_MAX_D2_RADIUS, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_OUTOFRANGE, "A ring of stencil width %" PetscInt_FMT ": at most %d", st->width, RW_STENCIL_MAX_D2_RADIUS);
  if (st->ninputs < 2) {
    st->ninputs = 2;
    PetscCall(RwStencilCreateHalo_Private(st)); /* creates only what input 1 lacks */
  }
  if (!st->ring) {
    st->ringwanted = PETSC_TRUE;
    PetscCall(RwStencilSetUpRing_Private(st));
  }
  if (!st->pairring) PetscCall(PetscCalloc1((2 * st->width + 1) * st->ringslice, &st->pairring)); /* the layer's ring's geometry */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Stages n points of owned row j from i on into its slice of the pair's ring */
static void RwStencilPairRingStagePart(RwStencil st, RwStencilRingStageFn stage, void *ctx, PetscInt i, PetscInt j, PetscInt n)
{
  if (n > 0) stage(ctx, i, j, 0, n, RwStencilRingSliceOf(st, st->pairring, j) + st->width + (i - st->own.s[0]));
}

static void RwStencilForInteriorPair(RwStencil st, RwStencilRingStageFn stage1, RwStencilRowFn fn1, void *ctx1, RwStencilRingStageFn stage2, RwStencilRowFn fn2, void *ctx2)
{
  const PetscInt w = st->width, s0 = st->own.s[0], e0 = s0 + st->own.n[0];
  PetscInt       lo[3], hi[3];

  if (!RwStencilInterior_Private(st, lo, hi)) return;
  if (stage1)
    for (PetscInt c = lo[1] - w; c < lo[1] + w; c++) RwStencilRingStage_Private(st, stage1, ctx1, c, 1);
  for (PetscInt j = lo[1] - w; j < lo[1]; j++) RwStencilPairRingStagePart(st, stage2, ctx2, s0, j, e0 - s0);
  for (PetscInt j = lo[1]; j < hi[1] + w; j++) {
    if (j < hi[1]) {
      if (stage1) RwStencilRingStage_Private(st, stage1, ctx1, j + w, 1); /* x's row j + w, an owned row */
      fn1(ctx1, lo[0], j, 0, hi[0] - lo[0], PETSC_FALSE);
      RwStencilPairRingStagePart(st, stage2, ctx2, s0, j, lo[0] - s0); /* the row's ends, from level 1's shell */
      RwStencilPairRingStagePart(st, stage2, ctx2, hi[0], j, e0 - hi[0]);
    } else RwStencilPairRingStagePart(st, stage2, ctx2, s0, j, e0 - s0); /* level 1's shell rows above */
    if (j - w >= lo[1]) fn2(ctx2, lo[0], j - w, 0, hi[0] - lo[0], PETSC_FALSE);
  }
}

/*@C
  RwStencilRunPassPair - two passes of one input each, the second's input
  being the first's output, run as one sweep over the rows (2D; after
  RwStencilSetUpPair())

  Collective

  Input Parameters:
+ st     - the layer
. in1    - the first pass's input (in1->g, a state)
. stage1 - NULL, or the first pass's ring stage: its interior rows then gather from the layer's ring (RwStencilRingRowAt())
. fn1    - its rows; they write y1 and must leave every row they return from final (sources included)
. ctx1   - fn1's context
. in2    - the second pass's input: in2->g is y1, which fn1 writes
. stage2 - the second pass's ring stage (RwStencilRunPassRing()): see Notes
. fn2    - the second pass's rows
- ctx2   - fn2's context

  Notes:
  fn1 and fn2 see their inputs as in RwStencilRunPass(), with in1 in the
  layer's work vector 0 and in2 in work vector 1.  fn2's interior rows
  gather from the pair's ring (RwStencilRingRowOf(st, st->pairring, ...))
  and fn1's interior rows must put into it what stage2 would stage from
  their row (RwStencilRingSliceOf(st, st->pairring, j) + width + i - first
  owned x); the layer stages the rest from y1, which fn1 may stream (the
  layer fences it before reading it back).  The interior rows run over the
  interior's x range (the shell has the ends).

  Level: developer

.seealso: RwStencilRunPass(), RwStencilRunPassRing()
@*/
PetscErrorCode RwStencilRunPassPair(RwStencil st, RwStencilInput *in1, RwStencilRingStageFn stage1, RwStencilRowFn fn1, void *ctx1, RwStencilInput *in2, RwStencilRingStageFn stage2, RwStencilRowFn fn2, void *ctx2)
{
  PetscFunctionBegin;
  PetscCheck(st->dim == 2, PetscObjectComm((PetscObject)st->model), PETSC_ERR_SUP, "Two steps in one pass on a %" PetscInt_FMT "D stencil grid: 2D only", st->dim);
  PetscCheck(st->pairring, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ORDER, "Two steps in one pass need RwStencilSetUpPair() first");
  PetscCall(RwStencilHaloBegin(st, 0, in1->g));
  PetscCall(VecGetArrayRead(in1->g, &in1->ga));
  PetscCall(RwStencilHaloEnd_Private(st, 0, in1->g, PETSC_FALSE));
  PetscCall(VecGetArrayRead(st->work[0], &in1->la));
  RwStencilForShell_Private(st, st->width, fn1, ctx1, PETSC_FALSE);
  RwStreamFence(); /* y1's shell rows, which the halo sends and the stage reads */
  PetscCall(RwStencilHaloBegin(st, 1, in2->g));
  PetscCall(VecGetArrayRead(in2->g, &in2->ga));
  RwStencilForInteriorPair(st, stage1, fn1, ctx1, stage2, fn2, ctx2);
  RwStreamFence(); /* y1's interior rows, which the edge band's copy reads */
  PetscCall(RwStencilHaloEnd_Private(st, 1, in2->g, PETSC_FALSE));
  PetscCall(VecGetArrayRead(st->work[1], &in2->la));
  RwStencilForShell_Private(st, st->width, fn2, ctx2, PETSC_FALSE);
  PetscCall(VecRestoreArrayRead(st->work[1], &in2->la));
  PetscCall(VecRestoreArrayRead(in2->g, &in2->ga));
  PetscCall(VecRestoreArrayRead(st->work[0], &in1->la));
  PetscCall(VecRestoreArrayRead(in1->g, &in1->ga));
  PetscFunctionReturn(PETSC_SUCCESS);
}
