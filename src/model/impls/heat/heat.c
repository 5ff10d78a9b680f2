/*
  The heat model: set-up, options, defaults.  The grid, its geometry and
  boundary ghosts are the shared layer's (RwStencil, src/model/utils); the
  steps are in heatstep.c, their kernels in heatkernels.c.

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

/* "neumann" or "periodic,dirichlet": one boundary condition for all directions, or one per direction */
static PetscErrorCode RwHeatParseBoundaries(RwModel model, const char bcs[])
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  char   **names;
  int      n;
  PetscInt found;

  PetscFunctionBegin;
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_heat_scheme by name, or -rw_heat_theta by number: both given, they must agree
   (explicit with theta 1 would otherwise run backward Euler in silence) */
static PetscErrorCode RwHeatSchemeFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  RwModel_Heat     *heat      = (RwModel_Heat *)model->data;
  const char *const schemes[] = {"explicit", "crank-nicolson", "implicit"};
  const PetscReal   thetas[]  = {0, 0.5, 1};
  PetscInt          which     = heat->theta == 0 ? 0 : heat->theta == 1 ? 2 : 1;
  PetscReal         theta     = heat->theta;
  const char       *pre       = PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "";
  PetscBool         chosen, set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEList("-rw_heat_scheme", "Time discretisation by name: explicit (theta 0), crank-nicolson (0.5), implicit (backward Euler, 1)", "RwModelCreate_Heat", schemes, 3, schemes[which], &which, &chosen));
  PetscCall(RwOptionsReal("-rw_heat_theta", "Time discretisation: 0 explicit Euler, 0.5 Crank-Nicolson, 1 backward Euler", "RwModelCreate_Heat", theta, &theta, &set, 0, 1, RW_RANGE_CLOSED));
  PetscCheck(!chosen || !set || theta == thetas[which], PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_INCOMP, "-%srw_heat_scheme %s (theta %g) and -%srw_heat_theta %g disagree: give one of them", pre, schemes[which], (double)thetas[which], pre, (double)theta);
  if (chosen) heat->theta = thetas[which];
  if (set) heat->theta = theta;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelSetFromOptions_Heat(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  char          bcs[256];
  PetscBool     set;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Heat model options");
  PetscCall(RwOptionsInt("-rw_heat_dim", "Space dimension: 1, 2 or 3", "RwModelCreate_Heat", heat->dim, &heat->dim, NULL, 1, 3));
  PetscCheck(heat->dim >= 1 && heat->dim <= 3, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "-rw_heat_dim %" PetscInt_FMT " must be 1, 2 or 3", heat->dim);
  PetscCall(RwHeatSchemeFromOptions(model, PetscOptionsObject));
  PetscCall(PetscOptionsBool("-rw_heat_source_amplitude", "Give the source s an amplitude a_k per step (a time-indexed parameter block a, default 1): s(t_k) = a_k s", "RwModelCreate_Heat", heat->amplitude, &heat->amplitude, NULL));
  PetscCall(PetscOptionsBool("-rw_heat_nn", "Add a learned reaction N_theta(u), a pointwise network (-rw_nn_layers, -rw_nn_activation, ...) whose weights are the block theta; explicit in every scheme", "RwModelHeatSetNN", heat->usenn, &heat->usenn, NULL));
  PetscCall(PetscStrncpy(bcs, RwHeatBCs[heat->bc[0]], sizeof(bcs)));
  PetscCall(PetscOptionsString("-rw_heat_bc", "Boundary conditions: periodic, dirichlet or neumann; one for all directions, or one per direction separated by commas", "RwModelHeatSetBoundaries", bcs, bcs, sizeof(bcs), &set));
  if (set) PetscCall(RwHeatParseBoundaries(model, bcs));
  PetscCall(RwHeatActuatorsSetFromOptions(model, PetscOptionsObject));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The grid, through the shared layer: a periodic direction puts its points
   at i h, a Dirichlet or Neumann one at cell centres with mirrored ghosts */
static PetscErrorCode RwHeatCreateGrid(RwModel model)
{
  RwModel_Heat  *heat = (RwModel_Heat *)model->data;
  const PetscInt def[3] = {heat->dim == 3 ? 32 : 64, heat->dim == 3 ? 32 : 64, 32};

  PetscFunctionBegin;
  PetscCall(RwStencilCreate(model, heat->dim, 1, 1, DMDA_STENCIL_STAR, &heat->st));
  for (PetscInt d = 0; d < 3; d++) {
    PetscBool periodic = heat->bc[d] == RW_HEAT_PERIODIC ? PETSC_TRUE : PETSC_FALSE;

    PetscCall(RwStencilSetBoundaries(heat->st, d, periodic ? RW_STENCIL_PERIODIC : RW_STENCIL_MIRROR, heat->bc[d] == RW_HEAT_DIRICHLET ? -1.0 : 1.0));
    PetscCall(RwStencilSetGeometry(heat->st, d, 0, 1, periodic ? PETSC_FALSE : PETSC_TRUE));
  }
  PetscCall(RwStencilSetUp(heat->st, "heat", def, 3));
  for (PetscInt d = 0; d < 3; d++) heat->ih2[d] = d < heat->dim ? 1.0 / (heat->st->h[d] * heat->st->h[d]) : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelIdentity_Heat(RwModel model, char id[], size_t len)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(id, len, "%" PetscInt_FMT "D, boundaries %s,%s,%s, theta %.17g%s", heat->dim, RwHeatBCs[heat->bc[0]], RwHeatBCs[heat->bc[1]], RwHeatBCs[heat->bc[2]], (double)heat->theta, heat->amplitude ? ", source amplitude per step" : ""));
  PetscCall(RwHeatActuatorsIdentity(model, id, len));
  if (heat->nn) { /* the network's shape changes the states; its weights are in m */
    size_t used;

    PetscCall(PetscStrlen(id, &used));
    PetscCall(PetscSNPrintf(id + used, len - used, ", reaction "));
    PetscCall(PetscStrlen(id, &used));
    PetscCall(RwNNIdentity(heat->nn, id + used, len - used));
  }
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
    if (((RwModel_Heat *)model->data)->amplitude) { /* a_k = 1: the source as without an amplitude */
      PetscReal *a;
      PetscInt   size;

      PetscCall(RwModelGetParameterBlockInfo(model, RW_HEAT_BLOCK_A, NULL, &size, NULL, NULL));
      PetscCall(PetscMalloc1(size, &a));
      for (PetscInt k = 0; k < size; k++) a[k] = 1;
      PetscCall(RwModelSetParameterBlock(model, m, RW_HEAT_BLOCK_A, a));
      PetscCall(PetscFree(a));
    }
    if (((RwModel_Heat *)model->data)->nact) { /* actuators off: the plate as without them */
      RwModel_Heat *heat = (RwModel_Heat *)model->data;
      PetscReal    *a;
      PetscInt      size;

      PetscCall(RwModelGetParameterBlockInfo(model, heat->actblock, NULL, &size, NULL, NULL));
      PetscCall(PetscCalloc1(size, &a));
      PetscCall(RwModelSetParameterBlock(model, m, heat->actblock, a));
      PetscCall(PetscFree(a));
    }
    if (((RwModel_Heat *)model->data)->usenn) { /* -rw_nn_weights, or Xavier-uniform from -rw_nn_seed */
      RwModel_Heat *heat = (RwModel_Heat *)model->data;
      PetscReal    *theta;

      PetscCall(PetscMalloc1(heat->nn->nweights, &theta));
      PetscCall(RwNNGetInitialWeights(heat->nn, theta));
      PetscCall(RwModelSetParameterBlock(model, m, heat->nnblock, theta));
      PetscCall(PetscFree(theta));
    }
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

/* I - theta dt B is symmetric positive definite and close to I for moderate dt */
static PetscErrorCode RwHeatCreateSolver(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  PC            pc;

  PetscFunctionBegin;
  PetscCall(RwStencilCreateKSP(heat->st, &heat->P, &heat->ksp));
  PetscCall(KSPSetType(heat->ksp, heat->ksptype));
  PetscCall(KSPGetPC(heat->ksp, &pc));
  PetscCall(PCSetType(pc, heat->pctype));
  PetscCall(KSPSetTolerances(heat->ksp, heat->rtol, 1e-50, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetFromOptions(heat->ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The learned reaction: a network 1 -> ... -> 1 under the model's prefix, its
   weights the block theta, and one row's work (rows are at most the owned
   box's width) */
static PetscErrorCode RwHeatCreateNN(RwModel model)
{
  RwModel_Heat   *heat = (RwModel_Heat *)model->data;
  const char     *prefix;
  const PetscInt *sizes;
  PetscInt        ns, row = heat->st->own.n[0];

  PetscFunctionBegin;
  PetscCall(RwNNCreate(PetscObjectComm((PetscObject)model), &heat->nn));
  PetscCall(RwModelGetOptionsPrefix(model, &prefix));
  PetscCall(RwNNSetOptionsPrefix(heat->nn, prefix));
  PetscCall(RwNNSetFromOptions(heat->nn));
  PetscCall(RwNNSetUp(heat->nn));
  PetscCall(RwNNGetLayers(heat->nn, &ns, &sizes));
  PetscCheck(sizes[0] == 1 && sizes[ns - 1] == 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_WRONG, "-rw_nn_layers: heat's learned reaction maps u to a rate, so it has 1 input and 1 output; got %" PetscInt_FMT " inputs and %" PetscInt_FMT " outputs", sizes[0], sizes[ns - 1]);
  heat->nnblock = model->nblocks;
  PetscCall(RwModelAddParameterBlock(model, "theta", heat->nn->nweights, PETSC_FALSE));
  PetscCall(PetscMalloc1(row, &heat->nnrow));
  PetscCall(RwHeatNNTilesSetUp(model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelSetUp_Heat(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(RwHeatCreateGrid(model));
  model->nfields    = 2;
  model->fieldnames = RwHeatFieldNames;
  PetscCall(RwModelAddParameterBlock(model, "r", 1, PETSC_FALSE));
  if (heat->amplitude) PetscCall(RwModelAddParameterBlock(model, "a", 1, PETSC_TRUE));
  PetscCall(RwHeatActuatorsSetUp(model));
  if (heat->usenn) PetscCall(RwHeatCreateNN(model));
  PetscCall(RwModelCreatePack_Private(model));
  if (!model->dtset) PetscCall(RwHeatDefaultTimeStep(model));
  /* everything the time loop needs, allocated once here */
  PetscCall(RwDMCreateVecStaggered(model->da, PETSC_TRUE, &heat->kappa)); /* staggered: a pass streams these beside the states */
  PetscCall(RwDMCreateVecStaggered(model->da, PETSC_TRUE, &heat->dkappa));
  PetscCall(RwDMCreateVecStaggered(model->da, PETSC_FALSE, &heat->s));
  PetscCall(RwVecDuplicateStaggered(heat->s, &heat->ds));
  PetscCall(RwVecDuplicateStaggered(heat->s, &heat->gkappa));
  PetscCall(RwVecDuplicateStaggered(heat->s, &heat->gs));
  PetscCall(RwVecDuplicateStaggered(heat->s, &heat->gr));
  if (heat->amplitude) PetscCall(RwVecDuplicateStaggered(heat->s, &heat->sw));
  PetscCall(RwHeatActuatorsSetUpVectors(model));
  if (heat->theta > 0) {
    PetscCall(RwVecDuplicateStaggered(heat->s, &heat->rhs));
    PetscCall(RwVecDuplicateStaggered(heat->s, &heat->mu));
    PetscCall(RwHeatCreateSolver(model));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelView_Heat(RwModel model, PetscViewer viewer)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  const char   *scheme = heat->theta == 0 ? "explicit Euler" : heat->theta == 0.5 ? "Crank-Nicolson" : heat->theta == 1 ? "backward Euler" : "theta-scheme";

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "du/dt = div(kappa grad u) - r u + s%s on the unit box, %" PetscInt_FMT "D\n", heat->usenn ? " + N_theta(u)" : "", heat->dim));
  if (!model->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStencilViewGrid(heat->st, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, ", boundaries"));
  for (PetscInt d = 0; d < heat->dim; d++) PetscCall(PetscViewerASCIIPrintf(viewer, " %c:%s", "xyz"[d], RwHeatBCs[heat->bc[d]]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\ntime stepping: %s (theta = %g)\n", scheme, (double)heat->theta));
  if (heat->amplitude) PetscCall(PetscViewerASCIIPrintf(viewer, "source amplitude per step: block a of %" PetscInt64_FMT " values, s(t_k) = a_k s\n", model->n));
  PetscCall(RwHeatActuatorsView(model, viewer));
  if (heat->nn) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "learned reaction N_theta(u), explicit in every scheme: "));
    PetscCall(RwNNView(heat->nn, viewer));
  }
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
  PetscCall(VecDestroy(&heat->s));
  PetscCall(VecDestroy(&heat->ds));
  PetscCall(VecDestroy(&heat->gkappa));
  PetscCall(VecDestroy(&heat->gs));
  PetscCall(VecDestroy(&heat->gr));
  PetscCall(VecDestroy(&heat->sw));
  PetscCall(VecDestroy(&heat->rhs));
  PetscCall(VecDestroy(&heat->mu));
  PetscCall(MatDestroy(&heat->P));
  PetscCall(KSPDestroy(&heat->ksp));
  PetscCall(RwStencilDestroy(&heat->st));
  PetscCall(RwNNDestroy(&heat->nn));
  PetscCall(PetscFree(heat->nnrow));
  PetscCall(RwHeatNNTilesDestroy(model));
  PetscCall(RwHeatActuatorsDestroy(model));
  PetscCall(RwHeatActuatorsCompose(model, PETSC_FALSE));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetNN_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatGetNN_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetScheme_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetDimension_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetBoundaries_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetSolverDefaults_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetSourceAmplitude_C", NULL));
  PetscCall(PetscFree(model->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatSetScheme_Heat(RwModel model, PetscReal theta)
{
  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the heat scheme before RwModelSetUp()");
  PetscCheck(theta >= 0 && theta <= 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Heat scheme theta %g must be in [0, 1] (0 explicit, 0.5 Crank-Nicolson, 1 backward Euler)", (double)theta);
  ((RwModel_Heat *)model->data)->theta = theta;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatSetDimension_Heat(RwModel model, PetscInt dim)
{
  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the heat dimension before RwModelSetUp()");
  PetscCheck(dim >= 1 && dim <= 3, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Heat dimension %" PetscInt_FMT " must be 1, 2 or 3", dim);
  ((RwModel_Heat *)model->data)->dim = dim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatSetBoundaries_Heat(RwModel model, const char bcs[])
{
  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the heat boundaries before RwModelSetUp()");
  PetscCall(RwHeatParseBoundaries(model, bcs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatSetSolverDefaults_Heat(RwModel model, KSPType ksptype, PCType pctype, PetscReal rtol)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the heat solver's defaults before RwModelSetUp()");
  PetscCheck(rtol > 0 && rtol < 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Solver tolerance %g must be in (0, 1)", (double)rtol);
  if (ksptype) PetscCall(PetscStrncpy(heat->ksptype, ksptype, sizeof(heat->ksptype)));
  if (pctype) PetscCall(PetscStrncpy(heat->pctype, pctype, sizeof(heat->pctype)));
  heat->rtol = rtol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatSetSourceAmplitude_Heat(RwModel model, PetscBool on)
{
  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the source amplitude before RwModelSetUp(): it changes the parameter layout");
  ((RwModel_Heat *)model->data)->amplitude = on;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatSetNN_Heat(RwModel model, PetscBool on)
{
  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the learned reaction before RwModelSetUp(): it changes the parameter layout");
  ((RwModel_Heat *)model->data)->usenn = on;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatGetNN_Heat(RwModel model, RwNN *nn)
{
  PetscFunctionBegin;
  PetscCheck(model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetUp() before RwModelHeatGetNN()");
  *nn = ((RwModel_Heat *)model->data)->nn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelHeatSetNN - adds a learned reaction N_theta(u) to a heat model,
  du/dt = div(kappa grad u) - r u + s + N_theta(u): a pointwise network
  (RwNN, options -rw_nn_* under the model's prefix) whose weights are the
  parameter block "theta"; the term is explicit in every scheme (for
  implicit ones: u_k+1 = P^-1 ((I + (1 - theta) dt B) u_k + dt s + dt N(u_k)));
  ignored by other model types

  Logically collective; before RwModelSetUp()

  Options Database Key:
. -rw_heat_nn - the same

  Level: intermediate

.seealso: RWMODELHEAT, RwModelHeatGetNN(), RwNNCreate()
@*/
PetscErrorCode RwModelHeatSetNN(RwModel model, PetscBool on)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscTryMethod(model, "RwModelHeatSetNN_C", (RwModel, PetscBool), (model, on));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelHeatGetNN - the network of a heat model's learned reaction (NULL without one)

  Not collective; after RwModelSetUp()

  Level: intermediate

.seealso: RwModelHeatSetNN()
@*/
PetscErrorCode RwModelHeatGetNN(RwModel model, RwNN *nn)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  *nn = NULL;
  PetscUseMethod(model, "RwModelHeatGetNN_C", (RwModel, RwNN *), (model, nn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelHeatSetScheme - the theta-scheme of a heat model: 0 explicit Euler,
  0.5 Crank-Nicolson, 1 backward Euler; ignored by other model types

  Logically collective; before RwModelSetUp()

  Options Database Keys:
+ -rw_heat_theta <theta>                              - theta
- -rw_heat_scheme <explicit,crank-nicolson,implicit> - by name

  Level: intermediate

.seealso: RWMODELHEAT, RwModelHeatSetSourceAmplitude()
@*/
PetscErrorCode RwModelHeatSetScheme(RwModel model, PetscReal theta)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscTryMethod(model, "RwModelHeatSetScheme_C", (RwModel, PetscReal), (model, theta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelHeatSetDimension - the space dimension of a heat model (1, 2 or 3); ignored by other types

  Logically collective; before RwModelSetUp()

  Options Database Key:
. -rw_heat_dim <dim> - overrides it

  Level: intermediate

.seealso: RWMODELHEAT
@*/
PetscErrorCode RwModelHeatSetDimension(RwModel model, PetscInt dim)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscTryMethod(model, "RwModelHeatSetDimension_C", (RwModel, PetscInt), (model, dim));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelHeatSetBoundaries - a heat model's boundary conditions, as -rw_heat_bc takes them:
  periodic, dirichlet or neumann, one for all directions or one per direction separated
  by commas (set the dimension first); ignored by other types

  Logically collective; before RwModelSetUp()

  Options Database Key:
. -rw_heat_bc <bcs> - overrides them

  Level: intermediate

.seealso: RWMODELHEAT, RwModelHeatSetDimension()
@*/
PetscErrorCode RwModelHeatSetBoundaries(RwModel model, const char bcs[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscTryMethod(model, "RwModelHeatSetBoundaries_C", (RwModel, const char[]), (model, bcs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelHeatSetSolverDefaults - the implicit schemes' solver before the options
  (-ksp_type, -pc_type, -ksp_rtol) override it: a program's defaults that do not
  go into the options database; ignored by other types

  Logically collective; before RwModelSetUp()

  Input Parameters:
+ model   - the model
. ksptype - the Krylov method (NULL: keep; the default is CG)
. pctype  - the preconditioner (NULL: keep; the default is Jacobi)
- rtol    - the relative tolerance (the default is 1e-12)

  Level: intermediate

.seealso: RWMODELHEAT
@*/
PetscErrorCode RwModelHeatSetSolverDefaults(RwModel model, KSPType ksptype, PCType pctype, PetscReal rtol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscTryMethod(model, "RwModelHeatSetSolverDefaults_C", (RwModel, KSPType, PCType, PetscReal), (model, ksptype, pctype, rtol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelHeatSetSourceAmplitude - gives a heat model's source a per-step
  amplitude, a time-indexed parameter block "a" (s(t_k) = a_k s, default a_k = 1);
  ignored by other model types

  Logically collective; before RwModelSetUp(), after the number of steps is set

  Options Database Key:
. -rw_heat_source_amplitude - the same

  Level: intermediate

.seealso: RWMODELHEAT, RwModelSetSteps()
@*/
PetscErrorCode RwModelHeatSetSourceAmplitude(RwModel model, PetscBool on)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscTryMethod(model, "RwModelHeatSetSourceAmplitude_C", (RwModel, PetscBool), (model, on));
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
. -rw_heat_source_amplitude          - a per-step amplitude of the source: a time-indexed block a (default 1), s(t_k) = a_k s
. -rw_heat_heaters <x0,y0,...>       - heaters (Gaussian footprints) at these positions, amplitudes in block control
. -rw_heat_heater_width <sigma>      - their widths (default 0.05)
. -rw_heat_flux_sides <x-,y+,...>    - boundary-flux actuators on Neumann sides
. -rw_heat_control_nodes <C>         - amplitudes per step (0, default) or piecewise linear on C nodes
. -rw_heat_nn                        - a learned reaction N_theta(u) (block theta; -rw_nn_layers, -rw_nn_activation, -rw_nn_seed, -rw_nn_weights)
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
  heat->rtol = 1e-12;
  PetscCall(PetscStrncpy(heat->ksptype, KSPCG, sizeof(heat->ksptype)));
  PetscCall(PetscStrncpy(heat->pctype, PCJACOBI, sizeof(heat->pctype)));
  for (PetscInt d = 0; d < 3; d++) heat->bc[d] = RW_HEAT_PERIODIC;
  model->data                = heat;
  model->ops->setfromoptions = RwModelSetFromOptions_Heat;
  model->ops->setup          = RwModelSetUp_Heat;
  model->ops->view           = RwModelView_Heat;
  model->ops->destroy        = RwModelDestroy_Heat;
  model->ops->defaults       = RwModelDefaults_Heat;
  model->ops->identity       = RwModelIdentity_Heat;
  model->ops->setparameters  = RwHeatSetParameters;
  model->ops->setdirection   = RwHeatSetDirection;
  model->ops->step           = RwHeatStep;
  model->ops->steptangent    = RwHeatStepTangent;
  model->ops->adjointbegin   = RwHeatAdjointBegin;
  model->ops->stepadjoint    = RwHeatStepAdjoint;
  model->ops->adjointend     = RwHeatAdjointEnd;
  model->ops->adjointaccumulators = RwHeatAdjointAccumulators;
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetScheme_C", RwModelHeatSetScheme_Heat));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetDimension_C", RwModelHeatSetDimension_Heat));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetBoundaries_C", RwModelHeatSetBoundaries_Heat));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetSolverDefaults_C", RwModelHeatSetSolverDefaults_Heat));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetSourceAmplitude_C", RwModelHeatSetSourceAmplitude_Heat));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetNN_C", RwModelHeatSetNN_Heat));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatGetNN_C", RwModelHeatGetNN_Heat));
  PetscCall(RwHeatActuatorsCompose(model, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
