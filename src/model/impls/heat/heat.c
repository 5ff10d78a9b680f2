/*
  The heat model: set-up, options, grid geometry, boundary ghosts, defaults.
  The steps themselves are in heatstep.c, their kernels in heatkernels.c.

  Geometry: the unit box with M_d points per direction d and h_d = 1/M_d.
  A periodic direction puts point i at i h (x = 1 is x = 0); a Dirichlet
  (u = 0) or Neumann (zero flux) direction puts point i at the centre of cell
  i, (i + 1/2) h, and imposes the condition on the boundary faces through a
  mirrored ghost value: -u_0 (Dirichlet: the face value is 0) or u_0 (Neumann:
  the face flux is 0).  Conductivity ghosts mirror kappa_0 in both cases, so a
  boundary face has the conductivity of its cell.
*/
#include "heatimpl.h"

const char *const RwHeatBCs[] = {"periodic", "dirichlet", "neumann", "RwHeatBC", "RW_HEAT_", NULL};

static const char *const RwHeatFieldNames[]  = {"kappa", "s"};
static const char *const RwHeatScalarNames[] = {"r"};

static PetscErrorCode RwModelSetFromOptions_Heat(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  char          bcs[256];
  PetscBool     set;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Heat model options");
  PetscCall(RwOptionsInt("-rw_heat_dim", "Space dimension: 1, 2 or 3", "RwModelCreate_Heat", heat->dim, &heat->dim, NULL, 1, 3));
  PetscCheck(heat->dim >= 1 && heat->dim <= 3, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "-rw_heat_dim %" PetscInt_FMT " must be 1, 2 or 3", heat->dim);
  {
    const char *const schemes[] = {"explicit", "crank-nicolson", "implicit"};
    const PetscReal   thetas[]  = {0, 0.5, 1};
    PetscInt          which     = heat->theta == 0 ? 0 : heat->theta == 1 ? 2 : 1;
    PetscBool         chosen;

    PetscCall(PetscOptionsEList("-rw_heat_scheme", "Time discretisation by name: explicit (theta 0), crank-nicolson (0.5), implicit (backward Euler, 1)", "RwModelCreate_Heat", schemes, 3, schemes[which], &which, &chosen));
    if (chosen) heat->theta = thetas[which];
  }
  PetscCall(PetscOptionsReal("-rw_heat_theta", "Time discretisation: 0 explicit Euler, 0.5 Crank-Nicolson, 1 backward Euler", "RwModelCreate_Heat", heat->theta, &heat->theta, NULL));
  PetscCheck(heat->theta >= 0 && heat->theta <= 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "-rw_heat_theta %g must be in [0, 1] (0 explicit, 0.5 Crank-Nicolson, 1 backward Euler)", (double)heat->theta);
  PetscCall(PetscStrncpy(bcs, RwHeatBCs[heat->bc[0]], sizeof(bcs)));
  PetscCall(PetscOptionsString("-rw_heat_bc", "Boundary conditions: periodic, dirichlet or neumann; one for all directions, or one per direction separated by commas", "RwModelCreate_Heat", bcs, bcs, sizeof(bcs), &set));
  if (set) {
    char   **names;
    int      n;
    PetscInt found;

    PetscCall(PetscStrToArray(bcs, ',', &n, &names));
    PetscCheck(n == 1 || n == heat->dim, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_WRONG, "-rw_heat_bc %s: give one boundary condition, or %" PetscInt_FMT " (one per direction)", bcs, heat->dim);
    for (PetscInt d = 0; d < 3; d++) {
      const char *name = names[PetscMin(d, n - 1)];
      PetscBool   ok;

      PetscCall(PetscEListFind(3, RwHeatBCs, name, &found, &ok));
      PetscCheck(ok, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown boundary condition \"%s\" in -rw_heat_bc %s: use periodic, dirichlet or neumann", name, bcs);
      heat->bc[d] = (RwHeatBC)found;
    }
    PetscCall(PetscStrToArrayDestroy(n, names));
  }
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A decomposition must give every rank at least one point per direction */
static PetscErrorCode RwHeatCheckGridFitsRanks(RwModel model, const PetscInt M[3], PetscInt dim)
{
  PetscMPIInt size;
  PetscBool   fits = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)model), &size));
  for (PetscInt a = 1; a <= size && !fits; a++) {
    if (size % a || a > M[0]) continue;
    for (PetscInt b = 1; b <= size / a && !fits; b++) {
      PetscInt c = size / a / b;
      if ((size / a) % b || b > M[1] || c > M[2]) continue;
      fits = PETSC_TRUE;
    }
  }
  PetscCheck(fits, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_SIZ, "Grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " (-da_grid_x, -da_grid_y, -da_grid_z) is too small for %d ranks: every rank needs at least one point per direction; use a larger grid or fewer ranks", M[0], dim > 1 ? M[1] : 1, dim > 2 ? M[2] : 1, size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwHeatCreateGrid(RwModel model)
{
  RwModel_Heat  *heat = (RwModel_Heat *)model->data;
  MPI_Comm       comm = PetscObjectComm((PetscObject)model);
  DMBoundaryType b[3];
  const char    *prefix;
  PetscInt       M[3] = {1, 1, 1}, m[3];

  PetscFunctionBegin;
  /* non-periodic directions keep a ghost layer beyond the boundary for the mirrored values */
  for (PetscInt d = 0; d < 3; d++) b[d] = heat->bc[d] == RW_HEAT_PERIODIC ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_GHOSTED;
  switch (heat->dim) {
  case 1: PetscCall(DMDACreate1d(comm, b[0], 64, 1, 1, NULL, &model->da)); break;
  case 2: PetscCall(DMDACreate2d(comm, b[0], b[1], DMDA_STENCIL_STAR, 64, 64, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &model->da)); break;
  default: PetscCall(DMDACreate3d(comm, b[0], b[1], b[2], DMDA_STENCIL_STAR, 32, 32, 32, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &model->da)); break;
  }
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)model, &prefix));
  PetscCall(DMSetOptionsPrefix(model->da, prefix));
  PetscCall(DMSetFromOptions(model->da));
  PetscCall(DMDAGetInfo(model->da, NULL, &M[0], &M[1], &M[2], &m[0], &m[1], &m[2], NULL, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt d = 0; d < heat->dim; d++) PetscCheck(M[d] >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid size %" PetscInt_FMT " in direction %" PetscInt_FMT " (-da_grid_%c) must be at least 2", M[d], d, "xyz"[d]);
  PetscCall(RwHeatCheckGridFitsRanks(model, M, heat->dim));
  PetscCall(DMSetUp(model->da));
  PetscCall(PetscObjectSetName((PetscObject)model->da, "heat"));
  PetscCall(DMDAGetInfo(model->da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(model->da, &heat->own.s[0], &heat->own.s[1], &heat->own.s[2], &heat->own.n[0], &heat->own.n[1], &heat->own.n[2]));
  PetscCall(DMDAGetGhostCorners(model->da, &heat->ghost.s[0], &heat->ghost.s[1], &heat->ghost.s[2], &heat->ghost.n[0], &heat->ghost.n[1], &heat->ghost.n[2]));
  model->cellvolume = 1;
  for (PetscInt d = 0; d < 3; d++) {
    heat->M[d]   = d < heat->dim ? M[d] : 1;
    heat->h[d]   = 1.0 / heat->M[d];
    heat->ih2[d] = d < heat->dim ? 1.0 / (heat->h[d] * heat->h[d]) : 0;
    if (d < heat->dim) model->cellvolume *= heat->h[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Scatters that move only the ghost points a pass reads, one per input */
static PetscErrorCode RwHeatCreateHalo(RwModel model)
{
  RwModel_Heat          *heat = (RwModel_Heat *)model->data;
  ISLocalToGlobalMapping ltog;
  const PetscInt        *global;
  PetscInt              *from, *to, n = 0, q = 0;
  const PetscInt        *gs = heat->ghost.s, *gn = heat->ghost.n, *os = heat->own.s, *on = heat->own.n;
  IS                     isfrom, isto;
  Vec                    g, l;

  PetscFunctionBegin;
  PetscCall(DMGetLocalToGlobalMapping(model->da, &ltog));
  PetscCall(ISLocalToGlobalMappingGetIndices(ltog, &global));
  PetscCall(PetscMalloc2(gn[0] * gn[1] * gn[2], &from, gn[0] * gn[1] * gn[2], &to));
  for (PetscInt k = gs[2]; k < gs[2] + gn[2]; k++)
    for (PetscInt j = gs[1]; j < gs[1] + gn[1]; j++)
      for (PetscInt i = gs[0]; i < gs[0] + gn[0]; i++, q++) {
        PetscBool owned = (PetscBool)(i >= os[0] && i < os[0] + on[0] && j >= os[1] && j < os[1] + on[1] && k >= os[2] && k < os[2] + on[2]);
        /* ghosts beyond a non-periodic boundary have no source: the ghost rule fills them */
        if (owned || global[q] < 0) continue;
        from[n] = global[q];
        to[n++] = q;
      }
  PetscCall(ISLocalToGlobalMappingRestoreIndices(ltog, &global));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, from, PETSC_COPY_VALUES, &isfrom));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, to, PETSC_COPY_VALUES, &isto));
  PetscCall(PetscFree2(from, to));
  PetscCall(DMGetGlobalVector(model->da, &g));
  PetscCall(DMGetLocalVector(model->da, &l));
  for (PetscInt x = 0; x < 3; x++) PetscCall(VecScatterCreate(g, isfrom, l, isto, &heat->halo[x]));
  PetscCall(DMRestoreLocalVector(model->da, &l));
  PetscCall(DMRestoreGlobalVector(model->da, &g));
  PetscCall(ISDestroy(&isfrom));
  PetscCall(ISDestroy(&isto));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelCoordinate_Heat(RwModel model, PetscInt d, PetscInt i, PetscReal *x)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCheck(d >= 0 && d < heat->dim, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Direction %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", d, heat->dim);
  *x = (i + (heat->bc[d] == RW_HEAT_PERIODIC ? 0.0 : 0.5)) * heat->h[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelGhostRule_Heat(RwModel model, PetscInt d, PetscBool *periodic, PetscReal *sign)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  *periodic = heat->bc[d] == RW_HEAT_PERIODIC ? PETSC_TRUE : PETSC_FALSE;
  *sign     = heat->bc[d] == RW_HEAT_DIRICHLET ? -1.0 : 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelIdentity_Heat(RwModel model, char id[], size_t len)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(id, len, "%" PetscInt_FMT "D, boundaries %s,%s,%s, theta %.17g", heat->dim, RwHeatBCs[heat->bc[0]], RwHeatBCs[heat->bc[1]], RwHeatBCs[heat->bc[2]], (double)heat->theta));
  if (heat->ksp) { /* an implicit step's result depends on its solver, to its tolerance */
    KSPType   ktype;
    PCType    ptype;
    PC        pc;
    PetscReal rtol, atol;
    PetscInt  maxit;
    size_t    used;

    PetscCall(KSPGetType(heat->ksp, &ktype));
    PetscCall(KSPGetPC(heat->ksp, &pc));
    PetscCall(PCGetType(pc, &ptype));
    PetscCall(KSPGetTolerances(heat->ksp, &rtol, &atol, NULL, &maxit));
    PetscCall(PetscStrlen(id, &used));
    PetscCall(PetscSNPrintf(id + used, len - used, ", solver %s/%s rtol %.17g atol %.17g max_it %" PetscInt_FMT, ktype ? ktype : "default", ptype ? ptype : "default", (double)rtol, (double)atol, maxit));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fills the ghosts beyond physical boundaries: sign * the adjacent value */
static PetscErrorCode RwHeatFillBoundaryGhosts(RwModel model, Vec l, PetscBool state)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  PetscScalar  *a;
  const PetscInt *gs = heat->ghost.s, *gn = heat->ghost.n, *os = heat->own.s, *on = heat->own.n;

  PetscFunctionBegin;
  PetscCall(VecGetArray(l, &a));
  for (PetscInt d = 0; d < heat->dim; d++) {
    const PetscReal sign = (state && heat->bc[d] == RW_HEAT_DIRICHLET) ? -1.0 : 1.0;
    const PetscInt  e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    PetscInt        stride[3] = {1, gn[0], gn[0] * gn[1]};

    if (heat->bc[d] == RW_HEAT_PERIODIC) continue;
    for (PetscInt side = 0; side < 2; side++) {
      PetscInt edge = side ? heat->M[d] - 1 : 0, ghost = side ? heat->M[d] : -1;

      if (edge < os[d] || edge >= os[d] + on[d]) continue; /* this rank has no such boundary */
      for (PetscInt p = os[e1]; p < os[e1] + on[e1]; p++)
        for (PetscInt q = os[e2]; q < os[e2] + on[e2]; q++) {
          PetscInt base = (p - gs[e1]) * stride[e1] + (q - gs[e2]) * stride[e2];
          a[base + (ghost - gs[d]) * stride[d]] = sign * a[base + (edge - gs[d]) * stride[d]];
        }
    }
  }
  PetscCall(VecRestoreArray(l, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A full copy with ghosts, boundary ghosts by the rule for states or fields
   (kappa and its direction once per solve, sensors, regularisers) */
PetscErrorCode RwHeatGlobalToLocal(RwModel model, Vec g, Vec l, PetscBool state)
{
  PetscFunctionBegin;
  PetscCall(DMGlobalToLocalBegin(model->da, g, INSERT_VALUES, l));
  PetscCall(DMGlobalToLocalEnd(model->da, g, INSERT_VALUES, l));
  PetscCall(RwHeatFillBoundaryGhosts(model, l, state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies the owned points within two of the box's edges from g to l: the
   edge rows a pass computes from l, and their inner neighbours */
static PetscErrorCode RwHeatCopyEdgeBand(RwModel model, Vec g, Vec l)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  const PetscInt    *os = heat->own.s, *on = heat->own.n, *gs = heat->ghost.s, *gn = heat->ghost.n;
  const PetscScalar *a;
  PetscScalar       *b;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(g, &a));
  PetscCall(VecGetArray(l, &b));
  for (PetscInt k = 0; k < on[2]; k++)
    for (PetscInt j = 0; j < on[1]; j++) {
      const PetscScalar *src = a + (k * on[1] + j) * on[0];
      PetscScalar       *dst = b + ((k + os[2] - gs[2]) * gn[1] + (j + os[1] - gs[1])) * gn[0] + (os[0] - gs[0]);
      PetscBool          edge = (heat->dim > 1 && (j < 2 || j >= on[1] - 2)) || (heat->dim > 2 && (k < 2 || k >= on[2] - 2));

      if (edge || on[0] <= 4) PetscCall(PetscArraycpy(dst, src, on[0]));
      else {
        PetscCall(PetscArraycpy(dst, src, 2));
        PetscCall(PetscArraycpy(dst + on[0] - 2, src + on[0] - 2, 2));
      }
    }
  PetscCall(VecRestoreArray(l, &b));
  PetscCall(VecRestoreArrayRead(g, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ghosts of input x of a pass, through its own scatter */
PetscErrorCode RwHeatHaloBegin(RwModel model, PetscInt x, Vec g, Vec l)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(VecScatterBegin(heat->halo[x], g, l, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ... then the owned edge band and the ghosts beyond the boundary (a state's rule) */
PetscErrorCode RwHeatHaloEnd(RwModel model, PetscInt x, Vec g, Vec l)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(VecScatterEnd(heat->halo[x], g, l, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(RwHeatCopyEdgeBand(model, g, l));
  PetscCall(RwHeatFillBoundaryGhosts(model, l, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The default fields of the issue, in 1, 2 and 3 dimensions */
static PetscReal HeatDefaultKappa(PetscInt dim, const PetscReal x[], void *ctx)
{
  PetscReal v = PetscSinReal(2 * PETSC_PI * x[0]);

  if (dim > 1) v *= PetscCosReal(2 * PETSC_PI * x[1]);
  if (dim > 2) v *= PetscCosReal(2 * PETSC_PI * x[2]);
  return 1 + 0.5 * v;
}

static PetscReal HeatGaussian(PetscInt dim, const PetscReal x[], const PetscReal c[3], PetscReal sigma)
{
  PetscReal r2 = 0;

  for (PetscInt d = 0; d < dim; d++) r2 += (x[d] - c[d]) * (x[d] - c[d]);
  return PetscExpReal(-r2 / (2 * sigma * sigma));
}

static PetscReal HeatDefaultU0(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscReal c[3] = {0.5, 0.5, 0.5};
  return HeatGaussian(dim, x, c, 0.1);
}

static PetscReal HeatDefaultTarget(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscReal c[3] = {0.3, 0.6, 0.5};
  return 0.5 * HeatGaussian(dim, x, c, 0.15);
}

static PetscErrorCode RwModelDefaults_Heat(RwModel model, Vec m, Vec u0, Vec target)
{
  PetscFunctionBegin;
  if (m) {
    Vec kappa, s;

    PetscCall(RwModelGetParameterField(model, m, 0, &kappa));
    PetscCall(RwModelFillField(model, kappa, HeatDefaultKappa, NULL));
    PetscCall(RwModelRestoreParameterField(model, m, 0, &kappa));
    PetscCall(RwModelGetParameterField(model, m, 1, &s));
    PetscCall(VecSet(s, 0));
    PetscCall(RwModelRestoreParameterField(model, m, 1, &s));
    PetscCall(RwModelSetParameterScalar(model, m, 0, 0));
  }
  if (u0) PetscCall(RwModelFillField(model, u0, HeatDefaultU0, NULL));
  if (target) PetscCall(RwModelFillField(model, target, HeatDefaultTarget, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dt = 0.8 of the explicit limit for the default kappa: h^2 / (2 d max kappa) for equal h */
static PetscErrorCode RwHeatDefaultTimeStep(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  Vec           kappa;
  PetscReal     kmax, sum = 0;

  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(model->da, &kappa));
  PetscCall(RwModelFillField(model, kappa, HeatDefaultKappa, NULL));
  PetscCall(VecMax(kappa, NULL, &kmax));
  PetscCall(DMRestoreGlobalVector(model->da, &kappa));
  for (PetscInt d = 0; d < heat->dim; d++) sum += heat->ih2[d];
  model->dt = 0.8 / (2 * kmax * sum);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwHeatCreateSolver(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  const char   *prefix;
  PC            pc;

  PetscFunctionBegin;
  PetscCall(DMCreateMatrix(model->da, &heat->P));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)model), &heat->ksp));
  PetscCall(KSPSetOperators(heat->ksp, heat->P, heat->P));
  /* I - theta dt B is symmetric positive definite and close to I for moderate dt */
  PetscCall(KSPSetType(heat->ksp, KSPCG));
  PetscCall(KSPGetPC(heat->ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(heat->ksp, 1e-12, 1e-50, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetInitialGuessNonzero(heat->ksp, PETSC_TRUE));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)model, &prefix));
  PetscCall(KSPSetOptionsPrefix(heat->ksp, prefix));
  PetscCall(KSPSetFromOptions(heat->ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelSetUp_Heat(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(RwHeatCreateGrid(model));
  model->nfields     = 2;
  model->nscalars    = 1;
  model->fieldnames  = RwHeatFieldNames;
  model->scalarnames = RwHeatScalarNames;
  PetscCall(RwModelCreatePack_Private(model));
  PetscCall(RwHeatCreateHalo(model));
  if (!model->dtset) PetscCall(RwHeatDefaultTimeStep(model));
  /* everything the time loop needs, allocated once here */
  PetscCall(DMCreateLocalVector(model->da, &heat->kappa));
  PetscCall(DMCreateLocalVector(model->da, &heat->dkappa));
  for (PetscInt i = 0; i < 3; i++) PetscCall(DMCreateLocalVector(model->da, &heat->work[i]));
  PetscCall(DMCreateGlobalVector(model->da, &heat->s));
  PetscCall(VecDuplicate(heat->s, &heat->ds));
  PetscCall(VecDuplicate(heat->s, &heat->gkappa));
  PetscCall(VecDuplicate(heat->s, &heat->gs));
  PetscCall(VecDuplicate(heat->s, &heat->gr));
  if (heat->theta > 0) {
    PetscCall(VecDuplicate(heat->s, &heat->rhs));
    PetscCall(VecDuplicate(heat->s, &heat->mu));
    PetscCall(RwHeatCreateSolver(model));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelView_Heat(RwModel model, PetscViewer viewer)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  const char   *scheme = heat->theta == 0 ? "explicit Euler" : heat->theta == 0.5 ? "Crank-Nicolson" : heat->theta == 1 ? "backward Euler" : "theta-scheme";

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "du/dt = div(kappa grad u) - r u + s on the unit box, %" PetscInt_FMT "D\n", heat->dim));
  if (!model->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "grid %" PetscInt_FMT, heat->M[0]));
  for (PetscInt d = 1; d < heat->dim; d++) PetscCall(PetscViewerASCIIPrintf(viewer, " x %" PetscInt_FMT, heat->M[d]));
  PetscCall(PetscViewerASCIIPrintf(viewer, ", boundaries"));
  for (PetscInt d = 0; d < heat->dim; d++) PetscCall(PetscViewerASCIIPrintf(viewer, " %c:%s", "xyz"[d], RwHeatBCs[heat->bc[d]]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\ntime stepping: %s (theta = %g)\n", scheme, (double)heat->theta));
  if (heat->ksp) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(KSPView(heat->ksp, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelDestroy_Heat(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&heat->kappa));
  PetscCall(VecDestroy(&heat->dkappa));
  for (PetscInt i = 0; i < 3; i++) PetscCall(VecDestroy(&heat->work[i]));
  for (PetscInt i = 0; i < 3; i++) PetscCall(VecScatterDestroy(&heat->halo[i]));
  PetscCall(VecDestroy(&heat->s));
  PetscCall(VecDestroy(&heat->ds));
  PetscCall(VecDestroy(&heat->gkappa));
  PetscCall(VecDestroy(&heat->gs));
  PetscCall(VecDestroy(&heat->gr));
  PetscCall(VecDestroy(&heat->rhs));
  PetscCall(VecDestroy(&heat->mu));
  PetscCall(MatDestroy(&heat->P));
  PetscCall(KSPDestroy(&heat->ksp));
  PetscCall(PetscFree(model->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWMODELHEAT - "heat": du/dt = div(kappa grad u) - r u + s on the unit box in
  1, 2 or 3 dimensions, with parameter fields kappa (> 0) and s and the global
  scalar r.

  Options Database Keys:
+ -rw_heat_dim <1,2,3>               - space dimension (default 2)
. -rw_heat_scheme <explicit,crank-nicolson,implicit> - the scheme by name (theta 0, 0.5, 1)
. -rw_heat_bc <periodic,dirichlet,neumann> - one, or one per direction separated by commas (default periodic)
. -rw_heat_theta <theta>             - 0 explicit Euler (default), 0.5 Crank-Nicolson, 1 backward Euler
. -rw_dt <dt>                        - time step (default 0.8 of the explicit limit for the default kappa)
. -da_grid_x, -da_grid_y, -da_grid_z - grid points per direction (default 64, or 32 in 3D)
- -ksp_type, -pc_type, ...           - the implicit schemes' solver (default CG with Jacobi, rtol 1e-12)

  Level: beginner

  Notes:
  Periodic directions put point i at i h with h = 1/M; Dirichlet (u = 0) and
  Neumann (zero flux) directions put it at the cell centre (i + 1/2) h.

.seealso: RwModelCreate(), RwModelSetType()
M*/
PetscErrorCode RwModelCreate_Heat(RwModel model)
{
  RwModel_Heat *heat;

  PetscFunctionBegin;
  PetscCall(PetscNew(&heat));
  heat->dim = 2;
  for (PetscInt d = 0; d < 3; d++) heat->bc[d] = RW_HEAT_PERIODIC;
  model->data                = heat;
  model->ops->setfromoptions = RwModelSetFromOptions_Heat;
  model->ops->setup          = RwModelSetUp_Heat;
  model->ops->view           = RwModelView_Heat;
  model->ops->destroy        = RwModelDestroy_Heat;
  model->ops->defaults       = RwModelDefaults_Heat;
  model->ops->coordinate     = RwModelCoordinate_Heat;
  model->ops->ghostrule      = RwModelGhostRule_Heat;
  model->ops->identity       = RwModelIdentity_Heat;
  model->ops->globaltolocal  = RwHeatGlobalToLocal;
  model->ops->setparameters  = RwHeatSetParameters;
  model->ops->setdirection   = RwHeatSetDirection;
  model->ops->step           = RwHeatStep;
  model->ops->steptangent    = RwHeatStepTangent;
  model->ops->adjointbegin   = RwHeatAdjointBegin;
  model->ops->stepadjoint    = RwHeatStepAdjoint;
  model->ops->adjointend     = RwHeatAdjointEnd;
  model->ops->adjointaccumulators = RwHeatAdjointAccumulators;
  PetscFunctionReturn(PETSC_SUCCESS);
}
