/*
  RwStencil: points located on a model's grid with multilinear weights, for
  receivers and sensors (interpolate) and point sources (spread, the
  transpose).

  Each rank keeps the points whose 2^dim corners touch one of its owned grid
  points, in the order of their index.  A point is owned by exactly one rank
  (the owner of its lowest corner): only it reports the interpolated value.
  Spreading is in gather form: every rank that holds a corner computes the
  point's share itself and adds it to its owned corners, point by point in
  index order, so each grid point sums the same contributions in the same
  order on any decomposition.  Corners beyond a boundary stand for the point
  the model's ghost rule maps them to (wrapped, or mirrored with a sign, 0
  for zero outside): they read it and spread their share back to it.

  The points work on any RwModel through its coordinate and ghost rule ops,
  so model-independent code (objective terms) uses them as well.

  Reading them at every step (receivers, sensors) gathers only their
  corners' values from the state (RwStencilPointsGather(): one scatter of a
  few values, made at the first read), not the whole state with its ghosts:
  a full copy per step cost as much as the wave step itself at 1024^2.
*/
#include <rewind/private/stencilimpl.h>

typedef struct {
  PetscInt  gidx[8]; /* the point a corner stands for, in the ghosted local array */
  PetscInt  ridx[8]; /* where the gather puts its value (RwStencilPointsGather()) */
  PetscInt  oidx[8]; /* the corner's point in the owned array, -1 if another rank's */
  PetscReal w[8];    /* interpolation weight */
  PetscReal sign[8]; /* ghost sign of the corner: how its point enters */
} RwStencilPoint;

struct _n_RwStencilPoints {
  MPI_Comm        comm;
  PetscInt        n, ncorners;
  PetscInt        nloc;  /* the points this rank holds a corner of */
  PetscInt       *id;    /* their indices, increasing */
  PetscBool      *owner; /* whether this rank reports the point */
  RwStencilPoint *loc;
  DM              da;     /* the state's grid */
  RwModel         model;  /* not referenced: its state layout (RwModelGetStateLayout()) places the gather's values */
  VecScatter      gather; /* the corners' values from a state, into vals; made at the first read */
  Vec             vals;
};

/* The grid around the points: sizes, owned and ghosted boxes, and per
   direction the ghost rule and the affine map from coordinate to index */
typedef struct {
  PetscInt  dim, dof, comp, M[3], xs[3], xm[3], gs[3], gm[3];
  PetscInt  ostride, ooffset; /* the component of owned point i at owned[ooffset + i ostride] (RwModelGetStateLayout()) */
  PetscBool per[3];
  PetscReal sgn[3], x0[3], dx[3];
} RwPointsGrid;

static PetscErrorCode RwPointsGridGet(RwModel model, PetscInt comp, RwPointsGrid *G)
{
  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) G->M[d] = 1;
  PetscCall(DMDAGetInfo(model->da, &G->dim, &G->M[0], &G->M[1], &G->M[2], NULL, NULL, NULL, &G->dof, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(model->da, &G->xs[0], &G->xs[1], &G->xs[2], &G->xm[0], &G->xm[1], &G->xm[2]));
  PetscCall(DMDAGetGhostCorners(model->da, &G->gs[0], &G->gs[1], &G->gs[2], &G->gm[0], &G->gm[1], &G->gm[2]));
  PetscCheck(comp >= 0 && comp < G->dof, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Points read state component %" PetscInt_FMT ": the state has components 0 to %" PetscInt_FMT, comp, G->dof - 1);
  G->comp = comp;
  PetscCall(RwModelGetStateLayout(model, comp, G->xm[0] * G->xm[1] * G->xm[2], &G->ostride, &G->ooffset));
  for (PetscInt d = 0; d < G->dim; d++) {
    PetscReal x1;

    PetscCall(RwModelGetGhostRule(model, d, &G->per[d], &G->sgn[d]));
    PetscCall(RwModelGetCoordinates(model, d, 0, &G->x0[d]));
    PetscCall(RwModelGetCoordinates(model, d, 1, &x1));
    G->dx[d] = x1 - G->x0[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Corner q of a point whose lowest corner is i0, fractions f: its weight,
   sign and where this rank finds its grid point */
static void RwPointsCorner(const RwPointsGrid *G, const PetscInt i0[3], const PetscReal f[3], PetscInt q, RwStencilPoint *p, PetscBool *mine)
{
  PetscInt  real[3], g[3];
  PetscReal w = 1, sign = 1;
  PetscBool readable = PETSC_TRUE;

  *mine = PETSC_TRUE;
  for (PetscInt d = 0; d < 3; d++) {
    PetscInt b = (q >> d) & 1, raw;

    real[d] = g[d] = 0;
    if (d >= G->dim) continue;
    raw = i0[d] + b;
    w *= b ? f[d] : 1 - f[d];
    if (G->per[d]) real[d] = ((raw % G->M[d]) + G->M[d]) % G->M[d];
    else if (raw < 0 || raw >= G->M[d]) {
      real[d] = raw < 0 ? 0 : G->M[d] - 1;
      sign *= G->sgn[d];
    } else real[d] = raw;
    /* the ghosted array holds the corner's point; periodic, perhaps as an image M away */
    g[d] = real[d];
    if (G->per[d] && (g[d] < G->gs[d] || g[d] >= G->gs[d] + G->gm[d])) g[d] = g[d] + (g[d] < G->gs[d] ? G->M[d] : -G->M[d]);
    if (g[d] < G->gs[d] || g[d] >= G->gs[d] + G->gm[d]) readable = PETSC_FALSE;
    if (real[d] < G->xs[d] || real[d] >= G->xs[d] + G->xm[d]) *mine = PETSC_FALSE;
  }
  p->w[q]    = w;
  p->sign[q] = sign;
  /* gidx is in the DMDA's ghosted numbering (components interleaved), which
     its local-to-global mapping turns into the gather's global indices */
  p->gidx[q] = readable ? ((g[0] - G->gs[0]) + G->gm[0] * ((g[1] - G->gs[1]) + G->gm[1] * (g[2] - G->gs[2]))) * G->dof + G->comp : -1;
  p->oidx[q] = *mine ? G->ooffset + ((real[0] - G->xs[0]) + G->xm[0] * ((real[1] - G->xs[1]) + G->xm[1] * (real[2] - G->xs[2]))) * G->ostride : -1;
}

/* Where point s's corners are, and whether this rank holds any of them */
static PetscErrorCode RwPointsLocate(const RwPointsGrid *G, PetscInt ncorners, PetscInt s, const PetscReal x[], RwStencilPoint *p, PetscBool *owner, PetscBool *relevant)
{
  PetscInt  i0[3] = {0, 0, 0}, cnt = 0;
  PetscReal f[3]  = {0, 0, 0};

  PetscFunctionBegin;
  for (PetscInt d = 0; d < G->dim; d++) {
    PetscReal t = (x[d] - G->x0[d]) / G->dx[d];

    i0[d] = (PetscInt)PetscFloorReal(t);
    f[d]  = PetscMin(PetscMax(t - i0[d], 0.0), 1.0);
  }
  for (PetscInt q = 0; q < ncorners; q++) {
    PetscBool mine;

    RwPointsCorner(G, i0, f, q, p, &mine);
    if (mine) cnt++;
    if (q == 0) *owner = mine;
  }
  *relevant = cnt ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt q = 0; q < ncorners && cnt; q++) PetscCheck(p->gidx[q] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Point %" PetscInt_FMT ": corner %" PetscInt_FMT " lies beyond this rank's ghost points", s, q);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilPointsCreate - locates points on a model's state grid

  Collective (the model's communicator; no communication here: the scatter of
  RwStencilPointsGather() is made, collectively, at its first call)

  Input Parameters:
+ model  - the model, set up
. comp   - the state component the points read and spread into (0 for a one-component state)
. n      - how many points
- coords - their coordinates, coords[s * dim + d], the same on every rank

  Output Parameter:
. pts - the points

  Level: developer

.seealso: RwStencilPointsInterpolate(), RwStencilPointsSpread(), RwStencilPointsDestroy()
@*/
PetscErrorCode RwStencilPointsCreate(RwModel model, PetscInt comp, PetscInt n, const PetscReal coords[], RwStencilPoints *pts)
{
  RwStencilPoints P;
  RwPointsGrid    G;

  PetscFunctionBegin;
  PetscCall(RwPointsGridGet(model, comp, &G));
  PetscCall(PetscNew(&P));
  P->comm     = PetscObjectComm((PetscObject)model);
  P->da       = model->da;
  P->model    = model;
  PetscCall(PetscObjectReference((PetscObject)P->da));
  P->n        = n;
  P->ncorners = 1 << G.dim;
  PetscCall(PetscMalloc3(n, &P->id, n, &P->owner, n, &P->loc));
  for (PetscInt s = 0; s < n; s++) {
    PetscBool relevant;

    PetscCall(RwPointsLocate(&G, P->ncorners, s, coords + s * G.dim, &P->loc[P->nloc], &P->owner[P->nloc], &relevant));
    if (relevant) P->id[P->nloc++] = s;
  }
  *pts = P;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilPointsDestroy - frees the points; NULL-safe

  Level: developer
@*/
PetscErrorCode RwStencilPointsDestroy(RwStencilPoints *pts)
{
  PetscFunctionBegin;
  if (!pts || !*pts) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3((*pts)->id, (*pts)->owner, (*pts)->loc));
  PetscCall(VecScatterDestroy(&(*pts)->gather));
  PetscCall(VecDestroy(&(*pts)->vals));
  PetscCall(DMDestroy(&(*pts)->da));
  PetscCall(PetscFree(*pts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilPointsGetLocal - the points this rank holds a corner of: their
  indices (increasing) and whether this rank owns (reports) each

  Not collective

  Level: developer
@*/
PetscErrorCode RwStencilPointsGetLocal(RwStencilPoints pts, PetscInt *nloc, const PetscInt **id, const PetscBool **owner)
{
  PetscFunctionBegin;
  if (nloc) *nloc = pts->nloc;
  if (id) *id = pts->id;
  if (owner) *owner = pts->owner;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Global indices in the DMDA's numbering (components interleaved) turned
   into the state's layout: component c of point p of the owning rank's part
   at its start + offset + p stride (RwModelGetStateLayout(): planes, c n + p) */
static PetscErrorCode RwStencilPointsLayoutIndices(RwStencilPoints pts, Vec u, PetscInt n, PetscInt g[])
{
  PetscLayout map;
  PetscInt    dof, stride, offset;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(pts->da, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  if (dof == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetLayout(u, &map));
  for (PetscInt q = 0; q < n; q++) {
    PetscMPIInt owner;
    PetscInt    start;

    PetscCall(PetscLayoutFindOwner(map, g[q], &owner));
    start = map->range[owner];
    PetscCall(RwModelGetStateLayout(pts->model, (g[q] - start) % dof, (map->range[owner + 1] - start) / dof, &stride, &offset));
    g[q] = start + offset + (g[q] - start) / dof * stride;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The scatter of every distinct corner this rank reads, from the state's
   global vector into vals, and each corner's place in vals */
static PetscErrorCode RwStencilPointsSetUpGather(RwStencilPoints pts)
{
  ISLocalToGlobalMapping ltog;
  const PetscInt        *global;
  PetscInt              *g, n = 0;
  IS                     from;
  Vec                    u;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(pts->nloc * pts->ncorners + 1, &g));
  for (PetscInt i = 0; i < pts->nloc; i++)
    for (PetscInt c = 0; c < pts->ncorners; c++) g[n++] = pts->loc[i].gidx[c];
  PetscCall(PetscSortRemoveDupsInt(&n, g));
  for (PetscInt i = 0; i < pts->nloc; i++)
    for (PetscInt c = 0; c < pts->ncorners; c++) PetscCall(PetscFindInt(pts->loc[i].gidx[c], n, g, &pts->loc[i].ridx[c]));
  /* a corner is a grid point (a ghost beyond a boundary stands for the point
     it mirrors, a periodic image for the point it wraps to): every one has a
     global index */
  PetscCall(DMGetLocalToGlobalMapping(pts->da, &ltog));
  PetscCall(ISLocalToGlobalMappingGetIndices(ltog, &global));
  for (PetscInt q = 0; q < n; q++) g[q] = global[g[q]];
  PetscCall(ISLocalToGlobalMappingRestoreIndices(ltog, &global));
  PetscCall(DMGetGlobalVector(pts->da, &u));
  PetscCall(RwStencilPointsLayoutIndices(pts, u, n, g));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, g, PETSC_OWN_POINTER, &from));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &pts->vals));
  PetscCall(VecScatterCreate(u, from, pts->vals, NULL, &pts->gather));
  PetscCall(DMRestoreGlobalVector(pts->da, &u));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilPointsGather - the values of a state at the corners of the points
  this rank holds, for RwStencilPointsRead(); a few values moved, however
  large the grid

  Collective

  Input Parameter:
. u - a state (global vector of the model's grid)

  Output Parameter:
. vals - the corners' values; give it back with RwStencilPointsRestore()

  Level: developer
@*/
PetscErrorCode RwStencilPointsGather(RwStencilPoints pts, Vec u, const PetscScalar **vals)
{
  PetscFunctionBegin;
  if (!pts->gather) PetscCall(RwStencilPointsSetUpGather(pts));
  PetscCall(VecScatterBegin(pts->gather, u, pts->vals, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(pts->gather, u, pts->vals, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(pts->vals, vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilPointsRestore - gives back the array of RwStencilPointsGather()

  Not collective

  Level: developer
@*/
PetscErrorCode RwStencilPointsRestore(RwStencilPoints pts, const PetscScalar **vals)
{
  PetscFunctionBegin;
  PetscCall(VecRestoreArrayRead(pts->vals, vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilPointsRead - the interpolated value of local point i (0 <= i < nloc)
  from the corners' values of RwStencilPointsGather(); a corner beyond a
  boundary reads its mirrored point with the ghost's sign

  Not collective

  Level: developer
@*/
PetscReal RwStencilPointsRead(RwStencilPoints pts, PetscInt i, const PetscScalar vals[])
{
  const RwStencilPoint *p = &pts->loc[i];
  PetscReal             v = 0;

  for (PetscInt c = 0; c < pts->ncorners; c++) v += p->w[c] * p->sign[c] * PetscRealPart(vals[p->ridx[c]]);
  return v;
}

/*@C
  RwStencilPointsSpreadOne - adds value, spread over local point i's corners
  (the transpose of its interpolation), to the owned array of a state

  Not collective

  Level: developer
@*/
void RwStencilPointsSpreadOne(RwStencilPoints pts, PetscInt i, PetscReal value, PetscScalar owned[])
{
  const RwStencilPoint *p = &pts->loc[i];

  for (PetscInt q = 0; q < pts->ncorners; q++)
    if (p->oidx[q] >= 0) owned[p->oidx[q]] += p->sign[q] * p->w[q] * value;
}

/*@C
  RwStencilPointsInterpolate - the values at every point, on every rank

  Collective

  Input Parameter:
. u - a state (global vector of the model's grid)

  Output Parameter:
. values - values[s] for s < n

  Level: developer
@*/
PetscErrorCode RwStencilPointsInterpolate(RwStencilPoints pts, Vec u, PetscReal values[])
{
  const PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(values, pts->n));
  PetscCall(RwStencilPointsGather(pts, u, &vals));
  for (PetscInt i = 0; i < pts->nloc; i++)
    if (pts->owner[i]) values[pts->id[i]] = RwStencilPointsRead(pts, i, vals);
  PetscCall(RwStencilPointsRestore(pts, &vals));
  /* one owner per point: the sum adds one value to zeros, exactly */
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, values, pts->n, MPIU_REAL, MPIU_SUM, pts->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilPointsSpread - adds values[s] at every point s (sources), spread
  over its corners, to the owned array of a state: the transpose of
  RwStencilPointsInterpolate(), the same bits on any decomposition

  Not collective (values must be the same on every rank)

  Level: developer
@*/
PetscErrorCode RwStencilPointsSpread(RwStencilPoints pts, const PetscReal values[], PetscScalar owned[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < pts->nloc; i++) RwStencilPointsSpreadOne(pts, i, values[pts->id[i]], owned);
  PetscFunctionReturn(PETSC_SUCCESS);
}
