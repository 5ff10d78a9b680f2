/*
  RwStencil: the grid of a stencil model, its boundaries and its geometry.
  The halo exchange and the pass over rows are in stencilhalo.c, the points
  in stencilpoints.c, the implicit solver's KSP in stencilsolve.c.

  Geometry: direction d has M_d points over [origin_d, origin_d + length_d]
  with h_d = length_d / M_d.  Point i sits at origin + i h (periodic grids:
  the last point is one h before the first's image) or at the centre of
  cell i, origin + (i + 1/2) h (cell-centred: a mirrored ghost then puts the
  boundary on the face between the edge point and its ghost).
*/
#include <rewind/private/stencilimpl.h>
#include <rewind/io.h>

const char *const RwStencilBoundaryTypes[] = {"periodic", "mirror", "zero", "RwStencilBoundaryType", "RW_STENCIL_", NULL};

PETSC_INTERN PetscErrorCode RwStencilCreateHalo_Private(RwStencil);
PETSC_INTERN PetscErrorCode RwStencilDestroyHalo_Private(RwStencil);
PETSC_INTERN PetscErrorCode RwStencilSetUpBlocking_Private(RwStencil);

/*@C
  RwStencilCreate - starts the grid layer of a stencil model: every side
  periodic, the unit box, points at i h, until set otherwise

  Collective on the model's communicator (at RwStencilSetUp())

  Input Parameters:
+ model - the model that delegates to the layer (it owns the layer)
. dim   - space dimension, 1 to 3
. dof   - components of the state at a point
. width - how many points a kernel reads on each side
- type  - DMDA_STENCIL_STAR (neighbours along the axes) or DMDA_STENCIL_BOX (diagonals too)

  Output Parameter:
. st - the layer

  Level: developer

.seealso: RwStencilSetUp(), RwStencilDestroy(), doc/stencil.md
@*/
PetscErrorCode RwStencilCreate(RwModel model, PetscInt dim, PetscInt dof, PetscInt width, DMDAStencilType type, RwStencil *st)
{
  RwStencil s;

  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 3, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Stencil grid dimension %" PetscInt_FMT ": expected 1, 2 or 3", dim);
  PetscCheck(dof >= 1 && width >= 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Stencil grid with %" PetscInt_FMT " components and width %" PetscInt_FMT ": expected at least 1 of each", dof, width);
  PetscCall(PetscNew(&s));
  s->model = model;
  s->dim   = dim;
  s->dof   = dof;
  s->width = width;
  s->type  = type;
  for (PetscInt d = 0; d < 3; d++) {
    s->length[d] = 1;
    for (PetscInt side = 0; side < 2; side++) s->bc[d][side] = RW_STENCIL_PERIODIC, s->sign[d][side] = 1;
  }
  *st = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilSetBoundary - what lies beyond one side of direction d

  Input Parameters:
+ st   - the layer, before RwStencilSetUp()
. d    - the direction
. side - 0 the low side, 1 the high side
. type - RW_STENCIL_PERIODIC (both sides must say so), RW_STENCIL_MIRROR, RW_STENCIL_ZERO
- sign - for RW_STENCIL_MIRROR, a state's ghost is sign times its mirror point:
         -1 puts u = 0 on the face (Dirichlet), +1 a zero flux (Neumann); fields always mirror with +1

  Level: developer
@*/
PetscErrorCode RwStencilSetBoundary(RwStencil st, PetscInt d, PetscInt side, RwStencilBoundaryType type, PetscReal sign)
{
  PetscFunctionBegin;
  PetscCheck(!st->setupcalled, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ORDER, "Set the stencil grid's boundaries before RwStencilSetUp()");
  PetscCheck(d >= 0 && d < 3 && (side == 0 || side == 1), PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_OUTOFRANGE, "Boundary side %" PetscInt_FMT " of direction %" PetscInt_FMT ": expected side 0 or 1 of direction 0, 1 or 2", side, d);
  st->bc[d][side]   = type;
  st->sign[d][side] = type == RW_STENCIL_ZERO ? 0 : sign;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilSetBoundaries - RwStencilSetBoundary() for both sides of direction d

  Level: developer
@*/
PetscErrorCode RwStencilSetBoundaries(RwStencil st, PetscInt d, RwStencilBoundaryType type, PetscReal sign)
{
  PetscFunctionBegin;
  for (PetscInt side = 0; side < 2; side++) PetscCall(RwStencilSetBoundary(st, d, side, type, sign));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilSetGeometry - the physical extent of direction d and where its points sit

  Input Parameters:
+ st          - the layer, before RwStencilSetUp()
. d           - the direction
. origin      - the coordinate where the grid starts
. length      - its extent: h = length / M
- cellcentred - points at cell centres, origin + (i + 1/2) h, rather than at origin + i h

  Level: developer
@*/
PetscErrorCode RwStencilSetGeometry(RwStencil st, PetscInt d, PetscReal origin, PetscReal length, PetscBool cellcentred)
{
  PetscFunctionBegin;
  PetscCheck(length > 0, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_OUTOFRANGE, "Stencil grid length %g in direction %c: expected a positive length", (double)length, "xyz"[d]);
  st->origin[d] = origin;
  st->length[d] = length;
  st->offset[d] = cellcentred ? 0.5 : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilSetSpacing - the geometry of direction d by its spacing rather
  than its length: points at origin + (i + offset) h whatever the grid size
  (-da_grid_x), the length M h (a wave model's grid spacing is physical)

  Input Parameters:
+ st          - the layer, before RwStencilSetUp()
. d           - the direction
. origin      - the coordinate of point 0 (or of the face before it, cell-centred)
. h           - the spacing, > 0
- cellcentred - points at cell centres

  Level: developer
@*/
PetscErrorCode RwStencilSetSpacing(RwStencil st, PetscInt d, PetscReal origin, PetscReal h, PetscBool cellcentred)
{
  PetscFunctionBegin;
  PetscCheck(h > 0 && !PetscIsInfOrNanReal(h), PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_OUTOFRANGE, "Stencil grid spacing %g in direction %c: expected a positive spacing", (double)h, "xyz"[d]);
  st->origin[d]  = origin;
  st->spacing[d] = h;
  st->offset[d]  = cellcentred ? 0.5 : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilSetStateLayout - how the model's state arrays hold the components:
  interleaved at every point (the default) or in planes, each rank's owned
  points of component 0, then of component 1 ... (RW_MODEL_STATE_PLANES);
  the ghosted work vectors and RwStencilGlobalToLocal()'s local vectors then
  hold planes over the ghosted box

  Logically collective; before RwStencilSetUp()

  Input Parameters:
+ st     - the layer
- layout - the layout the model declares (model->statelayout)

  Notes:
  The layer does not read the model's layout: the model passes it, as it
  passes its dof.  In planes a pass's work vectors hold only the planes of
  the components the halo moves (RwStencilSetHaloComponents()): rows read
  the other components at their own, owned, points.

  Level: developer

.seealso: RwStencilSetHaloComponents(), RwModelGetStateLayout(), doc/stencil.md
@*/
PetscErrorCode RwStencilSetStateLayout(RwStencil st, RwModelStateLayout layout)
{
  PetscFunctionBegin;
  PetscCheck(!st->setupcalled, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ORDER, "Set the stencil grid's state layout before RwStencilSetUp()");
  st->layout = layout;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The index, in the state's layout, of the value whose index the DMDA
   gives g (components interleaved): in planes, component c of point p of
   rank q's part is at its start + c x its points + p */
PETSC_INTERN PetscErrorCode RwStencilStateGlobalIndex_Private(RwStencil st, PetscInt g, PetscInt *idx)
{
  PetscMPIInt q;
  PetscInt    start, n;

  PetscFunctionBegin;
  *idx = g;
  if (st->layout != RW_MODEL_STATE_PLANES || g < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLayoutFindOwner(st->map, g, &q));
  start = st->map->range[q];
  n     = (st->map->range[q + 1] - start) / st->dof;
  *idx  = start + (g - start) % st->dof * n + (g - start) / st->dof;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Planes: the state vector's ownership ranges, for RwStencilStateGlobalIndex_Private() */
static PetscErrorCode RwStencilSetUpRanges(RwStencil st)
{
  PetscLayout map;
  Vec         g;

  PetscFunctionBegin;
  if (st->layout != RW_MODEL_STATE_PLANES) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetGlobalVector(st->da, &g));
  PetscCall(VecGetLayout(g, &map));
  PetscCall(PetscLayoutReference(map, &st->map));
  PetscCall(DMRestoreGlobalVector(st->da, &g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilD2Weights - the central second-difference weights of space order
  2, 4 or 8 (Fornberg's; order 4: -1/12, 4/3, -5/2, 4/3, -1/12), divided by h^2 by the caller

  Not collective

  Input Parameter:
. order - 2, 4 or 8

  Output Parameters:
+ r - the radius, order / 2
- w - w[0] the centre, w[j] the weight at +-j, j = 1..r

  Level: developer
@*/
PetscErrorCode RwStencilD2Weights(PetscInt order, PetscInt *r, PetscReal w[])
{
  static const PetscReal w2[] = {-2.0, 1.0}, w4[] = {-5.0 / 2, 4.0 / 3, -1.0 / 12}, w8[] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
  const PetscReal       *src = order == 2 ? w2 : order == 4 ? w4 : w8;

  PetscFunctionBegin;
  PetscCheck(order == 2 || order == 4 || order == 8, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Space order %" PetscInt_FMT ": expected 2, 4 or 8", order);
  *r = order / 2;
  for (PetscInt j = 0; j <= *r; j++) w[j] = src[j];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilLaplacianBound - the spectral radius of minus the Laplacian of
  space order `order` on the layer's grid with zero outside:
  sum_d (|w_0| + 2 sum_j |w_j|) / h_d^2 (the weights alternate in sign, so this
  is the symbol's value at the highest frequency, a sharp bound)

  Not collective; after RwStencilSetUp()

  Level: developer
@*/
PetscErrorCode RwStencilLaplacianBound(RwStencil st, PetscInt order, PetscReal *rho)
{
  PetscReal w[RW_STENCIL_MAX_D2_RADIUS + 1], a;
  PetscInt  r;

  PetscFunctionBegin;
  PetscCall(RwStencilD2Weights(order, &r, w));
  a = PetscAbsReal(w[0]);
  for (PetscInt j = 1; j <= r; j++) a += 2 * PetscAbsReal(w[j]);
  *rho = 0;
  for (PetscInt d = 0; d < st->dim; d++) *rho += a / (st->h[d] * st->h[d]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A decomposition must give every rank at least one point per direction */
static PetscErrorCode RwStencilCheckGridFitsRanks(RwStencil st, const PetscInt M[3])
{
  PetscMPIInt size;
  PetscBool   fits = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)st->model), &size));
  for (PetscInt a = 1; a <= size && !fits; a++) {
    if (size % a || a > M[0]) continue;
    for (PetscInt b = 1; b <= size / a && !fits; b++) {
      PetscInt c = size / a / b;
      if ((size / a) % b || b > M[1] || c > M[2]) continue;
      fits = PETSC_TRUE;
    }
  }
  PetscCheck(fits, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_SIZ, "Grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " (-da_grid_x, -da_grid_y, -da_grid_z) is too small for %d ranks: every rank needs at least one point per direction; use a larger grid or fewer ranks", M[0], st->dim > 1 ? M[1] : 1, st->dim > 2 ? M[2] : 1, size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's DMDA stops, on the ranks concerned only (so the others hang),
   when a rank's share of a direction is narrower than the stencil: its
   decomposition does not depend on the width, so a width-1 probe with the
   same sizes and options shows it first, to every rank alike */
static PetscErrorCode RwStencilCheckWidthFitsRanks(RwStencil st, DM da)
{
  MPI_Comm        comm = PetscObjectComm((PetscObject)st->model);
  DM              probe;
  const PetscInt *l[3] = {NULL, NULL, NULL};
  PetscInt        np[3] = {1, 1, 1}, M[3] = {1, 1, 1};

  PetscFunctionBegin;
  if (st->width <= 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDACreate(comm, &probe));
  PetscCall(DMSetDimension(probe, st->dim));
  {
    PetscInt       p[3] = {PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE};
    DMBoundaryType b[3];

    PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], &p[0], &p[1], &p[2], NULL, NULL, &b[0], &b[1], &b[2], NULL));
    PetscCall(DMDASetSizes(probe, M[0], M[1], M[2]));
    PetscCall(DMDASetNumProcs(probe, p[0], p[1], p[2])); /* the program's (RwModelSetProcessors()); the options override both alike */
    PetscCall(DMDASetBoundaryType(probe, b[0], b[1], b[2]));
  }
  PetscCall(DMDASetDof(probe, 1));
  PetscCall(DMDASetStencilWidth(probe, 1));
  PetscCall(DMDASetStencilType(probe, st->type));
  {
    const char *prefix;

    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)st->model, &prefix));
    PetscCall(DMSetOptionsPrefix(probe, prefix));
  }
  PetscCall(DMSetFromOptions(probe));
  PetscCall(DMSetUp(probe));
  PetscCall(DMDAGetInfo(probe, NULL, NULL, NULL, NULL, &np[0], &np[1], &np[2], NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetOwnershipRanges(probe, &l[0], &l[1], &l[2]));
  for (PetscInt d = 0; d < st->dim; d++)
    for (PetscInt r = 0; r < np[d]; r++)
      PetscCheck(l[d][r] >= st->width, comm, PETSC_ERR_ARG_SIZ, "The grid's %" PetscInt_FMT " ranks along direction %c (-da_grid_%c %" PetscInt_FMT ") leave a rank %" PetscInt_FMT " points, fewer than the stencil's width %" PetscInt_FMT ": use a larger grid or fewer ranks", np[d], "xyz"[d], "xyz"[d], M[d], l[d][r], st->width);
  PetscCall(DMDestroy(&probe));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The state's DMDA, sized by -da_grid_* under the model's prefix */
static PetscErrorCode RwStencilCreateStateDM(RwStencil st, const PetscInt typesizes[3])
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)st->model);
  DMBoundaryType b[3];
  const char    *prefix;
  PetscInt       M[3] = {1, 1, 1}, def[3], np[3], w = st->width, dof = st->dof;

  PetscFunctionBegin;
  /* a program's default (RwModelSetGridSizes()) before the type's; -da_grid_x ... override both */
  for (PetscInt d = 0; d < 3; d++) def[d] = st->model->gridsize[d] > 0 ? st->model->gridsize[d] : typesizes[d];
  /* and its ranks per direction (RwModelSetProcessors()), which -da_processors_x ... override */
  for (PetscInt d = 0; d < 3; d++) np[d] = st->model->procs[d] > 0 ? st->model->procs[d] : PETSC_DECIDE;
  /* non-periodic directions keep ghost layers beyond the boundary for the ghost rule */
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck((st->bc[d][0] == RW_STENCIL_PERIODIC) == (st->bc[d][1] == RW_STENCIL_PERIODIC), comm, PETSC_ERR_ARG_INCOMP, "Direction %c is periodic on one side only: a periodic direction is periodic on both", "xyz"[d]);
    b[d] = st->bc[d][0] == RW_STENCIL_PERIODIC ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_GHOSTED;
  }
  switch (st->dim) {
  case 1: PetscCall(DMDACreate1d(comm, b[0], def[0], dof, w, NULL, &st->da)); break;
  case 2: PetscCall(DMDACreate2d(comm, b[0], b[1], st->type, def[0], def[1], np[0], np[1], dof, w, NULL, NULL, &st->da)); break;
  default: PetscCall(DMDACreate3d(comm, b[0], b[1], b[2], st->type, def[0], def[1], def[2], np[0], np[1], np[2], dof, w, NULL, NULL, NULL, &st->da)); break;
  }
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)st->model, &prefix));
  PetscCall(DMSetOptionsPrefix(st->da, prefix));
  PetscCall(DMSetFromOptions(st->da));
  PetscCall(DMDAGetInfo(st->da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt d = 0; d < st->dim; d++) PetscCheck(M[d] >= PetscMax(2, w), comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid size %" PetscInt_FMT " in direction %" PetscInt_FMT " (-da_grid_%c) must be at least %" PetscInt_FMT, M[d], d, "xyz"[d], PetscMax(2, w));
  {
    PetscMPIInt size;

    /* before DMSetUp(), which allocates index maps as large as a rank's part: the driver keeps about 8 states */
    PetscCallMPI(MPI_Comm_size(comm, &size));
    PetscCall(RwCheckArraySize(comm, "a rank's part of the grid's states (about 8 vectors of it)", PetscCeilReal((PetscReal)M[0] * M[1] * M[2] * dof / size), 8 * sizeof(PetscScalar), "-da_grid_x, -da_grid_y, -da_grid_z, or run on more ranks"));
  }
  PetscCall(RwStencilCheckGridFitsRanks(st, M));
  PetscCall(RwStencilCheckWidthFitsRanks(st, st->da));
  PetscCall(DMSetUp(st->da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Parameter fields: one component on the state's decomposition, so a
   field's point and the state's point live on the same rank */
static PetscErrorCode RwStencilCreateFieldDM(RwStencil st)
{
  PetscFunctionBegin;
  if (st->dof == 1) {
    PetscCall(PetscObjectReference((PetscObject)st->da));
    st->fda = st->da;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMDACreateCompatibleDMDA(st->da, 1, &st->fda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A model on the layer gets its coordinate, ghost-rule and halo ops from it, unless the type gives its own */
static PetscErrorCode RwStencilModelCoordinate(RwModel model, PetscInt d, PetscInt i, PetscReal *x)
{
  PetscFunctionBegin;
  PetscCall(RwStencilCoordinate((RwStencil)model->stencil, d, i, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStencilModelGhostRule(RwModel model, PetscInt d, PetscBool *periodic, PetscReal *sign)
{
  PetscFunctionBegin;
  PetscCall(RwStencilGhostRule((RwStencil)model->stencil, d, periodic, sign));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStencilModelGlobalToLocal(RwModel model, Vec g, Vec l, PetscBool state)
{
  PetscFunctionBegin;
  PetscCall(RwStencilGlobalToLocal((RwStencil)model->stencil, g, l, state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilSetUp - creates the grids, the halos and the work vectors; sets
  the model's state grid (model->da), field grid (model->fda), dof and cell
  volume, and its coordinate, ghost-rule and halo ops where the type left them unset

  Collective

  Input Parameters:
+ st      - the layer
. name    - the state grid's name (in viewers and files)
. def     - the type's default grid points per direction; a program's
            (RwModelSetGridSizes()) replace them, and -da_grid_x, -da_grid_y,
            -da_grid_z override either
- ninputs - how many inputs a pass exchanges halos of, at most RW_STENCIL_MAX_INPUTS

  Level: developer
@*/
PetscErrorCode RwStencilSetUp(RwStencil st, const char name[], const PetscInt def[3], PetscInt ninputs)
{
  RwModel model = st->model;

  PetscFunctionBegin;
  if (st->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(ninputs >= 0 && ninputs <= RW_STENCIL_MAX_INPUTS, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "A pass with %" PetscInt_FMT " inputs: expected at most %d", ninputs, RW_STENCIL_MAX_INPUTS);
  {
    const char *prefix;

    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)model, &prefix));
    PetscCall(RwOptionsCheckPetsc(PetscObjectComm((PetscObject)model), prefix)); /* -da_grid_x 4294967328 is no 32 */
    PetscCall(PetscOptionsGetBool(((PetscObject)model)->options, prefix, "-rw_stencil_halo_all", &st->haloall, NULL)); /* every component's ghosts, as before RwStencilSetHaloComponents() */
  }
  PetscCall(RwStencilCreateStateDM(st, def));
  PetscCall(PetscObjectSetName((PetscObject)st->da, name));
  PetscCall(RwStencilCreateFieldDM(st));
  PetscCall(DMDAGetInfo(st->da, NULL, &st->M[0], &st->M[1], &st->M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(st->da, &st->own.s[0], &st->own.s[1], &st->own.s[2], &st->own.n[0], &st->own.n[1], &st->own.n[2]));
  PetscCall(DMDAGetGhostCorners(st->da, &st->ghost.s[0], &st->ghost.s[1], &st->ghost.s[2], &st->ghost.n[0], &st->ghost.n[1], &st->ghost.n[2]));
  st->cellvolume = 1;
  for (PetscInt d = 0; d < 3; d++) {
    if (d >= st->dim) st->M[d] = 1;
    if (d < st->dim && st->spacing[d] > 0) st->length[d] = st->spacing[d] * st->M[d];
    st->h[d] = d < st->dim && st->spacing[d] > 0 ? st->spacing[d] : st->length[d] / st->M[d];
    if (d < st->dim) st->cellvolume *= st->h[d];
  }
  st->ninputs = ninputs;
  PetscCall(RwStencilSetUpRanges(st));
  PetscCall(RwStencilCreateHalo_Private(st));
  PetscCall(RwStencilSetUpBlocking_Private(st));
  PetscCall(RwStencilSetUpRing_Private(st));
  PetscCall(PetscObjectReference((PetscObject)st->da));
  PetscCall(PetscObjectReference((PetscObject)st->fda));
  model->da         = st->da;
  model->fda        = st->fda;
  model->dof        = st->dof;
  model->cellvolume = st->cellvolume;
  model->stencil    = st;
  if (!model->ops->coordinate) model->ops->coordinate = RwStencilModelCoordinate;
  if (!model->ops->ghostrule) model->ops->ghostrule = RwStencilModelGhostRule;
  if (!model->ops->globaltolocal) model->ops->globaltolocal = RwStencilModelGlobalToLocal;
  st->setupcalled   = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilDestroy - frees the layer; NULL-safe

  Level: developer
@*/
PetscErrorCode RwStencilDestroy(RwStencil *st)
{
  PetscFunctionBegin;
  if (!st || !*st) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStencilDestroyHalo_Private(*st));
  PetscCall(PetscFree((*st)->ring));
  PetscCall(PetscFree((*st)->pairring));
  PetscCall(PetscFree((*st)->blockring));
  PetscCall(PetscLayoutDestroy(&(*st)->map));
  PetscCall(DMDestroy(&(*st)->fda));
  PetscCall(DMDestroy(&(*st)->da));
  PetscCall(PetscFree(*st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilCoordinate - the coordinate of grid index i along direction d
  (the model's coordinate op)

  Level: developer
@*/
PetscErrorCode RwStencilCoordinate(RwStencil st, PetscInt d, PetscInt i, PetscReal *x)
{
  PetscFunctionBegin;
  PetscCheck(d >= 0 && d < st->dim, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_OUTOFRANGE, "Direction %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", d, st->dim);
  *x = st->origin[d] + (i + st->offset[d]) * st->h[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilGhostRule - whether direction d is periodic, and the sign of a
  state's mirrored ghost (0: zero outside); the model's ghostrule op.  The
  rule is one per direction: the low side's stands for both

  Level: developer
@*/
PetscErrorCode RwStencilGhostRule(RwStencil st, PetscInt d, PetscBool *periodic, PetscReal *sign)
{
  PetscFunctionBegin;
  *periodic = st->bc[d][0] == RW_STENCIL_PERIODIC ? PETSC_TRUE : PETSC_FALSE;
  *sign     = st->bc[d][0] == RW_STENCIL_PERIODIC ? 1.0 : st->sign[d][0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ghosted range along direction e that the boundary ghosts of direction
   d are filled over: directions done before d (e < d) in full, their ghosts
   beyond the boundary included, so that the corners beyond two boundaries
   (read by box stencils) get both signs; later ones only within the grid */
static inline void RwStencilFillRange(RwStencil st, PetscInt e, PetscInt d, PetscInt *lo, PetscInt *hi)
{
  *lo = st->ghost.s[e];
  *hi = st->ghost.s[e] + st->ghost.n[e];
  if (e >= st->dim || e < d || st->bc[e][0] == RW_STENCIL_PERIODIC) return;
  *lo = PetscMax(*lo, 0);
  *hi = PetscMin(*hi, st->M[e]);
}

/*@C
  RwStencilFillBoundaryGhosts - fills the ghosts beyond physical boundaries
  of a ghosted vector: ghost -1-t gets sign times point t (and likewise at
  the high side), zero for a state beyond a zero side; corners beyond two
  boundaries get the product of the signs

  Not collective

  Input Parameters:
+ st    - the layer
. l     - a local vector of the state's grid (state) or of the field grid
- state - the state's rule, or a field's (mirrored with +1)

  Level: developer
@*/
PetscErrorCode RwStencilFillBoundaryGhosts(RwStencil st, Vec l, PetscBool state)
{
  PetscFunctionBegin;
  PetscCall(RwStencilFillBoundaryGhosts_Private(st, l, state, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwStencilFillBoundaryGhosts(); with edgeband > 0, the x ghosts only of
   the rows within edgeband of the y and z edges (and of the ghost rows): a
   ring pass whose interior rows run whole in x reads no other x ghost
   (edgeband = width; a blocked pass's shell of t widths, t widths), and
   filling them is a strided sweep of every row (about 5% of a 3D wave step) */
PETSC_INTERN PetscErrorCode RwStencilFillBoundaryGhosts_Private(RwStencil st, Vec l, PetscBool state, PetscInt edgeband)
{
  PetscScalar    *a;
  const PetscInt *gs = st->ghost.s, *gn = st->ghost.n, *os = st->own.s, *on = st->own.n;
  const PetscBool planes = (PetscBool)(state && st->layout == RW_MODEL_STATE_PLANES);
  const PetscInt  dof = state ? st->dof : 1, pd = planes ? 1 : dof, stride[3] = {pd, pd * gn[0], pd * gn[0] * gn[1]};
  const PetscInt  cs = planes ? gn[0] * gn[1] * gn[2] : 1; /* from one component to the next */
  PetscInt        lo[3], hi[3];
  PetscBool       interior = (PetscBool)(edgeband > 0);

  for (PetscInt d = 1; d < 3; d++) { /* the rows edgeband or more inside y and z, if any */
    lo[d] = os[d] + (d < st->dim ? edgeband : 0);
    hi[d] = os[d] + on[d] - (d < st->dim ? edgeband : 0);
    if (lo[d] >= hi[d]) interior = PETSC_FALSE;
  }

  PetscFunctionBegin;
  PetscCall(VecGetArray(l, &a));
  for (PetscInt d = 0; d < st->dim; d++) {
    const PetscInt  e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    const PetscBool skip = (PetscBool)(interior && d == 0); /* the x ghosts of the interior's rows */
    PetscInt        lo1, hi1, lo2, hi2;

    if (st->bc[d][0] == RW_STENCIL_PERIODIC) continue;
    RwStencilFillRange(st, e1, d, &lo1, &hi1);
    RwStencilFillRange(st, e2, d, &lo2, &hi2);
    for (PetscInt side = 0; side < 2; side++) {
      const PetscReal sign = RwStencilGhostSign(st, d, side, state);
      PetscInt        edge = side ? st->M[d] - 1 : 0;

      if (edge < os[d] || edge >= os[d] + on[d]) continue; /* this rank has no such boundary */
      for (PetscInt t = 0; t < st->width; t++) {
        PetscInt src = side ? st->M[d] - 1 - t : t, ghost = side ? st->M[d] + t : -1 - t;

        for (PetscInt p = lo1; p < hi1; p++)
          for (PetscInt q = lo2; q < hi2; q++) {
            PetscInt base = (p - gs[e1]) * stride[e1] + (q - gs[e2]) * stride[e2];

            if (skip && q == lo[2] && p >= lo[1] && p < hi[1]) { /* on past the interior's rows */
              q = hi[2] - 1;
              continue;
            }
            for (PetscInt c = 0; c < dof; c++) a[base + (ghost - gs[d]) * stride[d] + c * cs] = sign * a[base + (src - gs[d]) * stride[d] + c * cs];
          }
      }
    }
  }
  PetscCall(VecRestoreArray(l, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A state in planes, plane by plane through the field grid's DMDA (dof 1,
   the same ownership): DMGlobalToLocal on the state's DMDA assumes interleaving */
static PetscErrorCode RwStencilGlobalToLocalPlanes(RwStencil st, Vec g, Vec l)
{
  const PetscInt     nown = RwStencilBoxPoints(&st->own), ngh = RwStencilBoxPoints(&st->ghost);
  const PetscScalar *ga;
  PetscScalar       *la;
  Vec                gf, lf;

  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(st->fda, &gf));
  PetscCall(DMGetLocalVector(st->fda, &lf));
  PetscCall(VecGetArrayRead(g, &ga));
  PetscCall(VecGetArray(l, &la));
  for (PetscInt c = 0; c < st->dof; c++) {
    PetscCall(VecPlaceArray(gf, (PetscScalar *)ga + c * nown)); /* read only */
    PetscCall(VecPlaceArray(lf, la + c * ngh));
    PetscCall(DMGlobalToLocalBegin(st->fda, gf, INSERT_VALUES, lf));
    PetscCall(DMGlobalToLocalEnd(st->fda, gf, INSERT_VALUES, lf));
    PetscCall(VecResetArray(lf));
    PetscCall(VecResetArray(gf));
  }
  PetscCall(VecRestoreArray(l, &la));
  PetscCall(VecRestoreArrayRead(g, &ga));
  PetscCall(DMRestoreLocalVector(st->fda, &lf));
  PetscCall(DMRestoreGlobalVector(st->fda, &gf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilGlobalToLocal - a full copy with ghosts, boundary ghosts by the
  rule for states or for fields (the model's globaltolocal op: parameter
  fields once per solve, sensors, regularisers)

  Collective

  Level: developer
@*/
PetscErrorCode RwStencilGlobalToLocal(RwStencil st, Vec g, Vec l, PetscBool state)
{
  DM dm = state ? st->da : st->fda;

  PetscFunctionBegin;
  if (state && st->layout == RW_MODEL_STATE_PLANES && st->dof > 1) PetscCall(RwStencilGlobalToLocalPlanes(st, g, l));
  else {
    PetscCall(DMGlobalToLocalBegin(dm, g, INSERT_VALUES, l));
    PetscCall(DMGlobalToLocalEnd(dm, g, INSERT_VALUES, l));
  }
  PetscCall(RwStencilFillBoundaryGhosts(st, l, state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilCheckField - stops with an error naming the first point, in
  natural order, of a field on the field grid that is NaN, Inf or outside
  [lo, hi] (lo = DBL_MIN: positive and normal, as a coefficient that
  divides must be)

  Collective

  Input Parameters:
+ st     - the layer
. f      - the field (global vector of the field grid)
. lo, hi - the range accepted
. rule   - what is expected, as the message's first clause ("The conductivity kappa must be positive and finite everywhere")
- name   - the field's name in the message

  Level: developer
@*/
PetscErrorCode RwStencilCheckField(RwStencil st, Vec f, PetscReal lo, PetscReal hi, const char rule[], const char name[])
{
  PetscInt64 count, ijk[3];
  PetscInt   c;
  PetscReal  bad;

  PetscFunctionBegin;
  PetscCall(RwIODAFindOutside(st->fda, f, lo, hi, &count, ijk, &c, &bad));
  PetscCheck(!count, PetscObjectComm((PetscObject)st->model), PETSC_ERR_ARG_OUTOFRANGE, "%s; %s = %g at grid point (%" PetscInt64_FMT ", %" PetscInt64_FMT ", %" PetscInt64_FMT ")", rule, name, (double)bad, ijk[0], ijk[1], ijk[2]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilOwnedDiffer - whether a field's owned values (global vector)
  differ anywhere, on any rank, from those of a ghosted copy: whether
  something assembled from the copy is out of date

  Collective

  Level: developer
@*/
PetscErrorCode RwStencilOwnedDiffer(RwStencil st, Vec global, Vec ghosted, PetscBool *differ)
{
  const PetscScalar *g, *l;
  PetscInt           p = 0, mine = 0, any;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(global, &g));
  PetscCall(VecGetArrayRead(ghosted, &l));
  for (PetscInt k = st->own.s[2]; k < st->own.s[2] + st->own.n[2] && !mine; k++)
    for (PetscInt j = st->own.s[1]; j < st->own.s[1] + st->own.n[1] && !mine; j++) {
      const PetscScalar *row = RwStencilRowAt(l, &st->ghost, 1, st->own.s[0], j, k).p;
      for (PetscInt i = 0; i < st->own.n[0]; i++, p++)
        if (g[p] != row[i]) mine = 1;
    }
  PetscCall(VecRestoreArrayRead(ghosted, &l));
  PetscCall(VecRestoreArrayRead(global, &g));
  PetscCall(MPIU_Allreduce(&mine, &any, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)st->model)));
  *differ = any ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilViewGrid - prints "grid M0 x M1 ..." (no newline) for a model's
  view, and in 3D how passes walk the rows (tiles of y rows, z inside)

  Collective

  Level: developer
@*/
PetscErrorCode RwStencilViewGrid(RwStencil st, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "grid %" PetscInt_FMT, st->M[0]));
  for (PetscInt d = 1; d < st->dim; d++) PetscCall(PetscViewerASCIIPrintf(viewer, " x %" PetscInt_FMT, st->M[d]));
  if (st->dim < 3) PetscFunctionReturn(PETSC_SUCCESS);
  if (st->blockrows) PetscCall(PetscViewerASCIIPrintf(viewer, " (passes in tiles of %" PetscInt_FMT " y rows, z inside", st->blockrows));
  else PetscCall(PetscViewerASCIIPrintf(viewer, " (passes plane by plane"));
  if (st->l2) PetscCall(PetscViewerASCIIPrintf(viewer, ", chosen for L2 %" PetscInt_FMT " KiB", st->l2 >> 10));
  else PetscCall(PetscViewerASCIIPrintf(viewer, ", -rw_stencil_block_rows"));
  if (st->ring) PetscCall(PetscViewerASCIIPrintf(viewer, "; ring passes in tiles of %" PetscInt_FMT " y rows%s", st->ringrows, st->ringxwhole ? ", rows whole in x" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, ")"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
