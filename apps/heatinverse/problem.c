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

/* The program's defaults, set on every model the problem makes, so that an
   observation file's grid and steps and then the options override them, and
   the options database holds only what the user gave (-options_view) */
PetscErrorCode InvModelDefaults(RwModel model, void *ctx)
{
  const PetscInt M[3] = {128, 128, 0};

  PetscFunctionBegin;
  PetscCall(RwModelHeatSetDimension(model, 2));
  PetscCall(RwModelSetGridSizes(model, M));
  PetscCall(RwModelHeatSetBoundaries(model, "neumann"));
  PetscCall(RwModelHeatSetScheme(model, 1)); /* backward Euler */
  PetscCall(RwModelSetSteps(model, 30));
  PetscCall(RwModelSetTimeStep(model, 1e-3));
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

/* Sensors on a regular array, read every `every` steps */
static PetscErrorCode DefaultSensors(Inverse *inv, PetscInt per, PetscInt every, PetscInt64 n)
{
  PetscInt    nsensors = per * per, ntimes = (PetscInt)(n / every);
  PetscReal  *coords;
  PetscInt64 *steps;

  PetscFunctionBegin;
  PetscCheck(ntimes >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_inv_observe_every %" PetscInt_FMT " leaves no observation in %" PetscInt64_FMT " steps", every, n);
  PetscCall(PetscMalloc2(2 * nsensors, &coords, ntimes, &steps));
  for (PetscInt j = 0; j < per; j++)
    for (PetscInt i = 0; i < per; i++) {
      coords[2 * (j * per + i)]     = (i + 0.5) / per;
      coords[2 * (j * per + i) + 1] = (j + 0.5) / per;
    }
  for (PetscInt t = 0; t < ntimes; t++) steps[t] = (t + 1) * every;
  PetscCall(RwObservationsSetSteps(inv->obs, ntimes, steps));
  PetscCall(RwObservationsSetSensors(inv->obs, RW_OBS_ALL_MEMBERS, nsensors, coords));
  PetscCall(PetscFree2(coords, steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Experiment e's truth: its parameters and initial state; what the inversion knows of them, for the observations */
static PetscErrorCode Experiment(Inverse *inv, PetscInt e, Vec m, Vec u0)
{
  Vec f;

  PetscFunctionBegin;
  PetscCall(VecSet(m, 0));
  PetscCall(VecSet(u0, 0));
  PetscCall(RwModelGetParameterField(inv->model, m, 0, &f));
  PetscCall(RwModelFillField(inv->model, f, TrueKappa, &e));
  if (inv->target != INV_KAPPA && e == 0) PetscCall(RwObservationsSetKnown(inv->obs, RW_OBS_ALL_MEMBERS, "kappa", f));
  if (inv->target == INV_KAPPA) PetscCall(VecCopy(f, inv->xtrue));
  PetscCall(RwModelRestoreParameterField(inv->model, m, 0, &f));
  PetscCall(RwModelGetParameterField(inv->model, m, 1, &f));
  if (inv->target == INV_KAPPA) PetscCall(RwModelFillField(inv->model, f, ExperimentSource, &e));
  else if (inv->target == INV_S) PetscCall(RwModelFillField(inv->model, f, TrueSource, &e));
  if (inv->target == INV_S) PetscCall(VecCopy(f, inv->xtrue));
  if (inv->target != INV_S) PetscCall(RwObservationsSetKnown(inv->obs, e, "s", f)); /* the unknown's truth is not known */
  PetscCall(RwModelRestoreParameterField(inv->model, m, 1, &f));
  if (inv->target == INV_U0) {
    PetscCall(RwModelFillField(inv->model, u0, TrueU0, &e));
    PetscCall(VecCopy(u0, inv->xtrue));
  } else PetscCall(RwObservationsSetKnown(inv->obs, e, "u0", u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvCreateDefault - the embedded problem's observations on the problem's
  model: the experiments' known fields, the sensors, and data synthesised
  from the truth with 1% noise; the truth itself
*/
PetscErrorCode InvCreateDefault(Inverse *inv)
{
  PetscInt    per = 10, every = 1, nexp = 4;
  PetscReal   level = 0.01;
  PetscInt64  n;
  RwAdjoint   adj;
  Vec         m, u0;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Default problem", "rewind-heat-inverse");
  PetscCall(RwOptionsInt("-rw_inv_sensors", "Sensors per direction of the default sensor array", NULL, per, &per, NULL, 1, 1000));
  PetscCall(RwOptionsInt("-rw_inv_observe_every", "Steps between observations of the default problem", NULL, every, &every, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_inv_experiments", "Experiments of the default conductivity problem (1-4)", NULL, nexp, &nexp, NULL, 1, 4));
  PetscCall(RwOptionsReal("-rw_inv_noise", "Noise level of the synthetic data, relative to the largest clean value", NULL, level, &level, NULL, 0, 1, RW_RANGE_OPEN_LO));
  PetscOptionsEnd();
  if (inv->target != INV_KAPPA) nexp = 1;
  PetscCall(RwProblemGetModel(inv->prob, &inv->model));
  PetscCall(RwProblemGetAdjoint(inv->prob, &adj));
  PetscCall(RwAdjointGetSteps(adj, &n));
  PetscCall(RwObservationsCreate(PETSC_COMM_WORLD, &inv->obs));
  PetscCall(RwObservationsSetModel(inv->obs, inv->model));
  PetscCall(RwObservationsSetNumMembers(inv->obs, nexp));
  PetscCall(DefaultSensors(inv, per, every, n));
  PetscCall(RwModelCreateParameters(inv->model, &m));
  PetscCall(RwModelCreateState(inv->model, &u0));
  PetscCall(RwModelCreateState(inv->model, &inv->xtrue));
  for (PetscInt e = 0; e < nexp; e++) {
    PetscCall(Experiment(inv, e, m, u0));
    PetscCall(RwObservationsSynthesize(inv->obs, e, m, u0, level, PETSC_TRUE, 20261130)); /* noise: level x the largest clean value */
  }
  PetscCall(VecDestroy(&m));
  PetscCall(VecDestroy(&u0));
  PetscCall(RwProblemSetObservations(inv->prob, inv->obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
