/*
  The embedded default problem.  A conductivity with three inclusions of
  different contrast and size on a smooth background; four experiments, each
  heating the insulated unit square with a steady Gaussian source in one
  quadrant from a cold start, 30 backward-Euler steps to t = 0.03; a 10 x 10
  array of sensors read at every step;
  1% Gaussian noise from a seeded generator, drawn per (experiment, time,
  sensor) so the data are the same on any number of ranks.
*/
#include "inverse.h"

const char *const InvTargets[] = {"kappa", "s", "u0", "InvTarget", "INV_", NULL};

/* The default problem's settings, or an observation file's grid, steps and
   time step: read once, then given to every model the program makes */
PetscErrorCode InvReadDefaults(InvDefaults *d, const char obs[])
{
  const char *attr[] = {"grid_x", "grid_y", "grid_z", "steps"};
  PetscBool   found;

  PetscFunctionBegin;
  d->dim   = 2;
  d->M[0]  = d->M[1] = 128;
  d->M[2]  = 0;
  d->steps = 30;
  d->dt    = 1e-3;
  if (!obs[0]) PetscFunctionReturn(PETSC_SUCCESS);
  d->dim = 0;
  for (int i = 0; i < 4; i++) { /* grid sizes and steps: whole numbers, checked as they are read */
    PetscInt64 k = 0;

    PetscCall(RwIOReadAttributeInt(PETSC_COMM_WORLD, obs, "/", attr[i], 1, PETSC_MAX_INT, &k, &found));
    if (found && i < 3) {
      d->M[i] = (PetscInt)k;
      d->dim++;
    }
    if (found && i == 3) d->steps = k;
  }
  if (!d->dim) d->dim = 2;
  PetscCall(RwIOReadAttribute(PETSC_COMM_WORLD, obs, "/", "dt", &d->dt, &found));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Only the unknown's gradient is wanted: the reverse sweep skips the others'
   accumulators (the initial state's gradient is always there) */
PetscErrorCode InvSetActive(Inverse *inv, RwModel model)
{
  const char *name = InvTargets[inv->target];

  PetscFunctionBegin;
  PetscCall(RwModelSetActiveParameters(model, inv->target == INV_U0 ? 0 : 1, &name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A program's defaults, set on the model, so that the options override them
   and the options database holds only what the user gave (-options_view) */
PetscErrorCode InvModelDefaults(const InvDefaults *d, RwModel model)
{
  PetscFunctionBegin;
  PetscCall(RwModelHeatSetDimension(model, d->dim));
  PetscCall(RwModelSetGridSizes(model, d->M));
  PetscCall(RwModelHeatSetBoundaries(model, "neumann"));
  PetscCall(RwModelHeatSetScheme(model, 1)); /* backward Euler */
  PetscCall(RwModelSetSteps(model, d->steps));
  PetscCall(RwModelSetTimeStep(model, d->dt));
  /* backward Euler far beyond the explicit limit: multigrid-preconditioned CG */
  PetscCall(RwModelHeatSetSolverDefaults(model, KSPCG, PCGAMG, 1e-8));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A disk of radius R with a smooth edge of width w: 1 inside, 0 outside */
static PetscReal Disk(const PetscReal x[3], PetscReal cx, PetscReal cy, PetscReal R, PetscReal w)
{
  PetscReal r = PetscSqrtReal((x[0] - cx) * (x[0] - cx) + (x[1] - cy) * (x[1] - cy));
  return 0.5 * (1 - PetscTanhReal((r - R) / w));
}

static PetscReal Blob(const PetscReal x[3], PetscReal cx, PetscReal cy, PetscReal s)
{
  return PetscExpReal(-((x[0] - cx) * (x[0] - cx) + (x[1] - cy) * (x[1] - cy)) / (2 * s * s));
}

static PetscReal TrueKappa(PetscInt dim, const PetscReal x[], void *ctx)
{
  return 1 + 0.2 * PetscSinReal(2 * PETSC_PI * x[0]) * PetscSinReal(2 * PETSC_PI * x[1]) + 1.0 * Disk(x, 0.32, 0.36, 0.12, 0.012) - 0.6 * Disk(x, 0.68, 0.70, 0.09, 0.012) + 1.5 * Disk(x, 0.72, 0.27, 0.06, 0.012);
}

static const PetscReal quadrant[4][2] = {{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}};

static PetscReal ExperimentSource(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscInt e = *(const PetscInt *)ctx;

  return 40 * Blob(x, quadrant[e][0], quadrant[e][1], 0.05);
}

static PetscReal TrueSource(PetscInt dim, const PetscReal x[], void *ctx)
{
  return 40 * Blob(x, 0.35, 0.6, 0.07) - 25 * Blob(x, 0.7, 0.35, 0.05);
}

static PetscReal TrueU0(PetscInt dim, const PetscReal x[], void *ctx)
{
  return Blob(x, 0.3, 0.3, 0.08) + 0.7 * Blob(x, 0.65, 0.7, 0.1) - 0.4 * Blob(x, 0.75, 0.25, 0.05);
}

/* The field the inversion recovers, inside an experiment's parameters or initial state */
PetscErrorCode InvFieldOf(Inverse *inv, Vec m, PetscInt e, Vec *f)
{
  PetscFunctionBegin;
  if (inv->target == INV_U0) *f = inv->exp[e].u0;
  else PetscCall(RwModelGetParameterField(inv->model, m, inv->target == INV_KAPPA ? 0 : 1, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InvRestoreFieldOf(Inverse *inv, Vec m, PetscInt e, Vec *f)
{
  PetscFunctionBegin;
  if (inv->target != INV_U0) PetscCall(RwModelRestoreParameterField(inv->model, m, inv->target == INV_KAPPA ? 0 : 1, f));
  *f = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sensors on a regular array, read every `every` steps */
static PetscErrorCode DefaultSensors(Inverse *inv, PetscInt per, PetscInt every, PetscInt64 n)
{
  PetscFunctionBegin;
  inv->nsensors = per * per;
  inv->ntimes   = (PetscInt)(n / every);
  inv->nobs     = inv->nsensors * inv->ntimes;
  PetscCheck(inv->ntimes >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_inv_observe_every %" PetscInt_FMT " leaves no observation in %" PetscInt64_FMT " steps", every, n);
  PetscCall(PetscMalloc1(2 * inv->nsensors, &inv->coords));
  PetscCall(PetscMalloc1(inv->ntimes, &inv->steps));
  for (PetscInt j = 0; j < per; j++)
    for (PetscInt i = 0; i < per; i++) {
      inv->coords[2 * (j * per + i)]     = (i + 0.5) / per;
      inv->coords[2 * (j * per + i) + 1] = (j + 0.5) / per;
    }
  for (PetscInt t = 0; t < inv->ntimes; t++) inv->steps[t] = (t + 1) * every;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvCreateDefault - the default problem's experiments (their parameters and
  initial states, true except for the unknown field), sensors and truth.
*/
PetscErrorCode InvCreateDefault(Inverse *inv, PetscInt64 n)
{
  PetscInt per = 10, every = 1;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Default problem", "rewind-heat-inverse");
  PetscCall(RwOptionsInt("-rw_inv_sensors", "Sensors per direction of the default sensor array", NULL, per, &per, NULL, 1, 1000));
  PetscCall(RwOptionsInt("-rw_inv_observe_every", "Steps between observations of the default problem", NULL, every, &every, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_inv_experiments", "Experiments of the default conductivity problem (1-4)", NULL, inv->nexp, &inv->nexp, NULL, 1, 4));
  PetscOptionsEnd();
  PetscCheck(per >= 1 && every >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_inv_sensors and -rw_inv_observe_every must be >= 1");
  PetscCheck(inv->nexp >= 1 && inv->nexp <= 4, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_inv_experiments %" PetscInt_FMT " must be in 1..4", inv->nexp);
  if (inv->target != INV_KAPPA) inv->nexp = 1;
  PetscCall(DefaultSensors(inv, per, every, n));
  PetscCall(VecDuplicate(inv->x, &inv->xtrue));
  for (PetscInt e = 0; e < inv->nexp; e++) {
    Vec f;
    PetscCall(RwModelCreateParameters(inv->model, &inv->exp[e].m));
    PetscCall(RwModelCreateState(inv->model, &inv->exp[e].u0));
    PetscCall(RwModelGetParameterField(inv->model, inv->exp[e].m, 0, &f));
    PetscCall(RwModelFillField(inv->model, f, TrueKappa, &e));
    PetscCall(RwModelRestoreParameterField(inv->model, inv->exp[e].m, 0, &f));
    PetscCall(RwModelGetParameterField(inv->model, inv->exp[e].m, 1, &f));
    if (inv->target == INV_KAPPA) PetscCall(RwModelFillField(inv->model, f, ExperimentSource, &e));
    else if (inv->target == INV_S) PetscCall(RwModelFillField(inv->model, f, TrueSource, &e));
    PetscCall(RwModelRestoreParameterField(inv->model, inv->exp[e].m, 1, &f));
    if (inv->target == INV_U0) PetscCall(RwModelFillField(inv->model, inv->exp[e].u0, TrueU0, &e));
  }
  /* the truth is what experiment 0 holds now */
  {
    Vec f;
    PetscCall(InvFieldOf(inv, inv->exp[0].m, 0, &f));
    PetscCall(VecCopy(f, inv->xtrue));
    PetscCall(InvRestoreFieldOf(inv, inv->exp[0].m, 0, &f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A standard normal number from a hash of (seed, index): Box-Muller on two hashed uniforms */
static PetscReal HashNormal(PetscInt64 seed, PetscInt64 index)
{
  PetscReal u0 = RwHashUniform01(seed, 2 * index) + 0x1p-54, u1 = RwHashUniform01(seed, 2 * index + 1);

  return PetscSqrtReal(-2 * PetscLogReal(u0)) * PetscCosReal(2 * PETSC_PI * u1);
}

/*
  InvSynthesize - observations of the truth: each experiment is run forward,
  its sensors read at the observation steps, and noise of `level` times the
  largest clean value added.
*/
PetscErrorCode InvSynthesize(Inverse *inv, PetscInt64 seed)
{
  PetscReal level = 0.01;
  Vec       u, unew;
  PetscInt64 n;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Synthetic data", "rewind-heat-inverse");
  PetscCall(PetscOptionsReal("-rw_inv_noise", "Noise level of the synthetic data, relative to the largest clean value", NULL, level, &level, NULL));
  PetscOptionsEnd();
  PetscCheck(level > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_inv_noise %g must be > 0", (double)level);
  PetscCall(RwAdjointGetSteps(inv->adj, &n));
  PetscCall(RwModelCreateState(inv->model, &u));
  PetscCall(VecDuplicate(u, &unew));
  for (PetscInt e = 0; e < inv->nexp; e++) {
    InvExperiment *x = &inv->exp[e];
    PetscReal      peak = 0;
    PetscInt       t    = 0;

    PetscCall(PetscMalloc1(inv->nobs, &x->data));
    PetscCall(RwModelSetParameters(inv->model, x->m));
    PetscCall(VecCopy(x->u0, u));
    for (PetscInt64 k = 0; k < n && t < inv->ntimes; k++) {
      PetscCall(RwModelStep(inv->model, k, u, unew));
      PetscCall(VecCopy(unew, u));
      if (inv->steps[t] == k + 1) PetscCall(RwObjectiveInterpolate(inv->obj, 0, u, x->data + inv->nsensors * t++));
    }
    PetscCall(RwModelCheckFinite(inv->model));
    for (PetscInt i = 0; i < inv->nobs; i++) peak = PetscMax(peak, PetscAbsReal(x->data[i]));
    x->sigma = level * peak;
    for (PetscInt i = 0; i < inv->nobs; i++) x->data[i] += x->sigma * HashNormal(seed, e * inv->nobs + i);
  }
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&unew));
  PetscFunctionReturn(PETSC_SUCCESS);
}
