/*
  The embedded problem: Fisher-KPP on the periodic unit square,
  du/dt = kappa lap u + rho u (1 - u), kappa = 1e-3, rho = 5, observed at
  every few steps from several initial states (Gaussian bumps).  The truth is
  heat's own explicit step plus dt rho u_k (1 - u_k): exactly the scheme the
  learned model runs with N_theta in place of the reaction, so a perfect
  network would fit the data to rounding.

  The trajectories are the members of RwObservations (each a known u0 and
  whole fields observed at steps every, 2 every, ...; kappa, s = 0 and r = 0
  known for all, so that a file written from them, -rw_obs_write, holds the
  whole problem), or -rw_obs gives them.  The unknown is the block theta,
  or with -rw_hybrid_train_kappa theta and log kappa (a map of the program's).
*/
#include "hybrid.h"

/* The program's defaults, set on every model the problem makes and on the truth's, before the options */
static PetscErrorCode ModelDefaults(RwModel model, void *ctx)
{
  Hybrid        *h    = (Hybrid *)ctx;
  const PetscInt M[3] = {h->grid, h->grid, 0};

  PetscFunctionBegin;
  PetscCall(RwModelSetGridSizes(model, M));
  PetscCall(RwModelHeatSetScheme(model, 0));
  PetscCall(RwModelHeatSetNN(model, PETSC_TRUE));
  PetscCall(RwModelSetSteps(model, h->nsteps));
  PetscCall(RwModelSetTimeStep(model, h->dt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A sum of two Gaussian bumps, centres and heights from (seed, member) alone */
typedef struct {
  PetscReal c[2][2], a[2];
} Bumps;

static PetscReal BumpsAt(PetscInt dim, const PetscReal x[], void *ctx)
{
  Bumps    *b = (Bumps *)ctx;
  PetscReal v = 0;

  for (int j = 0; j < 2; j++)
    for (int sx = -1; sx <= 1; sx++) /* periodic images */
      for (int sy = -1; sy <= 1; sy++) {
        PetscReal dx = x[0] - b->c[j][0] + sx, dy = x[1] - b->c[j][1] + sy;
        v += b->a[j] * PetscExpReal(-(dx * dx + dy * dy) / (2 * 0.08 * 0.08));
      }
  return v;
}

PetscErrorCode HybInitialState(Hybrid *h, PetscInt64 member, Vec u0)
{
  Bumps b;

  PetscFunctionBegin;
  for (int j = 0; j < 2; j++) {
    b.c[j][0] = RwHashUniform01(h->seed + 1000 * member, 3 * j);
    b.c[j][1] = RwHashUniform01(h->seed + 1000 * member, 3 * j + 1);
    b.a[j]    = 0.15 + 0.6 * RwHashUniform01(h->seed + 1000 * member, 3 * j + 2);
  }
  PetscCall(RwModelFillField(h->model, u0, BumpsAt, &b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The true trajectory from u0 for n steps: obs[j] = u_(j+1) every (if obs), un = u_n (if un) */
PetscErrorCode HybTruth(Hybrid *h, Vec u0, PetscInt64 n, PetscInt every, Vec *obs, Vec un)
{
  Vec u, v;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(u0, &u));
  PetscCall(VecDuplicate(u0, &v));
  PetscCall(VecCopy(u0, u));
  for (PetscInt64 k = 0; k < n; k++) {
    const PetscScalar *a;
    PetscScalar       *b;
    PetscInt           nl;

    PetscCall(RwModelStep(h->plain, k % h->nsteps, u, v));
    PetscCall(VecGetLocalSize(u, &nl));
    PetscCall(VecGetArrayRead(u, &a));
    PetscCall(VecGetArray(v, &b));
    for (PetscInt i = 0; i < nl; i++) b[i] += h->dt * (h->rho * a[i] * (1 - a[i]));
    PetscCall(VecRestoreArray(v, &b));
    PetscCall(VecRestoreArrayRead(u, &a));
    PetscCall(VecCopy(v, u));
    if (obs && (k + 1) % every == 0) PetscCall(VecCopy(u, obs[(k + 1) / every - 1]));
  }
  if (un) PetscCall(VecCopy(u, un));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values of x its rank holds (all on the first rank, none elsewhere) from v */
static PetscErrorCode SetValues(Vec x, const PetscReal v[])
{
  PetscScalar *a;
  PetscInt     nl;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &nl));
  PetscCall(VecGetArray(x, &a));
  for (PetscInt i = 0; i < nl; i++) a[i] = v[i];
  PetscCall(VecRestoreArray(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* HybSetUnknowns - theta (and a uniform kappa = exp(x[P]) with -rw_hybrid_train_kappa) into a model's m; x on every rank */
PetscErrorCode HybSetUnknowns(Hybrid *h, RwModel model, const PetscReal x[], Vec m)
{
  PetscInt b;

  PetscFunctionBegin;
  PetscCall(RwModelFindParameterBlock(model, "theta", &b));
  PetscCall(RwModelSetParameterBlock(model, m, b, x));
  if (h->trainkappa) {
    Vec k;
    PetscCall(RwModelGetParameterField(model, m, 0, &k));
    PetscCall(VecSet(k, PetscExpReal(x[h->P])));
    PetscCall(RwModelRestoreParameterField(model, m, 0, &k));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- -rw_hybrid_train_kappa: x = (theta, log kappa), P + 1 scalars on the first rank ---- */
static PetscErrorCode CreateDM_Kappa(RwProblem prob, RwModel model, DM *dm, void *ctx)
{
  Hybrid *h = (Hybrid *)ctx;

  PetscFunctionBegin;
  PetscCall(DMRedundantCreate(PetscObjectComm((PetscObject)model), 0, h->nx, dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ToParameters_Kappa(RwProblem prob, RwModel model, PetscInt member, Vec x, Vec m, Vec u0, void *ctx)
{
  Hybrid    *h = (Hybrid *)ctx;
  PetscReal *v;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(h->nx, &v));
  PetscCall(RwVecGetFirstRankValues(x, h->nx, v)); /* every rank sets kappa */
  PetscCall(HybSetUnknowns(h, model, v, m));
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The start: the base's theta (-rw_nn_weights, Xavier, or -rw_parameter theta=...) and log kappa0 */
static PetscErrorCode FromParameters_Kappa(RwProblem prob, RwModel model, Vec m, Vec u0, Vec x, void *ctx)
{
  Hybrid    *h = (Hybrid *)ctx;
  PetscReal *v;
  PetscInt   b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(h->nx, &v));
  PetscCall(RwModelFindParameterBlock(model, "theta", &b));
  PetscCall(RwModelGetParameterBlock(model, m, b, v));
  v[h->P] = PetscLogReal(h->kappa0);
  PetscCall(SetValues(x, v));
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dJ/dtheta, and d/d(log kappa) of a uniform kappa: kappa sum_i dJ/dkappa_i, summed exactly */
static PetscErrorCode Gradient_Kappa(RwProblem prob, RwModel model, PetscInt member, Vec x, Vec g, Vec gu0, Vec w, void *ctx)
{
  Hybrid            *h = (Hybrid *)ctx;
  PetscReal         *v;
  const PetscScalar *a;
  PetscInt           b, nl;
  Vec                gk;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(h->nx, &v));
  PetscCall(RwModelFindParameterBlock(model, "theta", &b));
  PetscCall(RwModelGetParameterBlock(model, g, b, v));
  PetscCall(RwModelGetParameterField(model, g, 0, &gk));
  PetscCall(RwVecSumRepro(gk, &v[h->P]));
  PetscCall(RwModelRestoreParameterField(model, g, 0, &gk));
  PetscCall(VecGetLocalSize(x, &nl));
  PetscCall(VecGetArrayRead(x, &a));
  if (nl) v[h->P] *= PetscExpReal(a[h->P]); /* the first rank, which keeps w */
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(SetValues(w, v));
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The truth's model: the same defaults (and a file's) and options, without the network */
static PetscErrorCode CreateTruth(Hybrid *h, RwObservations obs)
{
  PetscFunctionBegin;
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, &h->plain));
  PetscCall(RwModelSetType(h->plain, RWMODELHEAT));
  PetscCall(ModelDefaults(h->plain, h));
  if (obs) PetscCall(RwObservationsSetModelDefaults(obs, h->plain));
  PetscCall(RwModelSetFromOptions(h->plain));
  PetscCall(RwModelHeatSetNN(h->plain, PETSC_FALSE));
  PetscCall(RwModelSetUp(h->plain));
  PetscCall(RwModelCreateParameters(h->plain, &h->mplain));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The truth's parameters: the observations' known ones (kappa; s = 0, r = 0 embedded), the model's defaults where they give none */
static PetscErrorCode SetTruthParameters(Hybrid *h, RwObservations obs)
{
  const char *const names[2] = {"kappa", "s"};
  const PetscReal  *r;
  PetscBool         known;
  Vec               k, f;

  PetscFunctionBegin;
  PetscCall(RwModelGetDefaults(h->plain, h->mplain, NULL, NULL));
  for (PetscInt i = 0; i < 2; i++) {
    PetscCall(RwObservationsGetKnown(obs, 0, names[i], &k, NULL, &known));
    if (!known) continue;
    PetscCall(RwModelGetParameterField(h->plain, h->mplain, i, &f));
    PetscCall(VecCopy(k, f));
    if (i == 0) PetscCall(VecMax(f, NULL, &h->kappa)); /* uniform: the report's true kappa */
    PetscCall(RwModelRestoreParameterField(h->plain, h->mplain, i, &f));
  }
  PetscCall(RwObservationsGetKnown(obs, 0, "r", NULL, &r, &known));
  if (known) PetscCall(RwModelSetParameterScalar(h->plain, h->mplain, 0, r[0]));
  PetscCall(RwModelSetParameters(h->plain, h->mplain));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The trajectories as observations on the problem's model: a known u0 and the truth's fields each, the physics for all */
static PetscErrorCode CreateTrajectories(Hybrid *h)
{
  PetscInt        nobs = (PetscInt)(h->nsteps / h->every);
  const PetscReal zero = 0;
  RwObservations  obs;
  PetscInt64     *steps;
  Vec             u0, f, *d;

  PetscFunctionBegin;
  {
    PetscMPIInt size;

    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    /* ntraj * nobs vectors of a rank's part of the grid */
    PetscCall(RwCheckArraySize(PETSC_COMM_WORLD, "a rank's part of the observed states of every trajectory", PetscCeilReal((PetscReal)h->grid * h->grid / size), (size_t)h->ntraj * (size_t)nobs * sizeof(PetscScalar), "-rw_hybrid_trajectories, -rw_hybrid_steps, -rw_hybrid_observe_every or -rw_hybrid_grid"));
  }
  PetscCall(RwObservationsCreate(PETSC_COMM_WORLD, &obs));
  PetscCall(RwObservationsSetModel(obs, h->model));
  PetscCall(RwObservationsSetNumMembers(obs, h->ntraj));
  PetscCall(RwModelCreateField(h->model, &f));
  PetscCall(VecSet(f, h->kappa));
  PetscCall(RwObservationsSetKnown(obs, RW_OBS_ALL_MEMBERS, "kappa", f));
  PetscCall(VecSet(f, 0));
  PetscCall(RwObservationsSetKnown(obs, RW_OBS_ALL_MEMBERS, "s", f));
  PetscCall(RwObservationsSetKnownValues(obs, RW_OBS_ALL_MEMBERS, "r", 1, &zero));
  PetscCall(SetTruthParameters(h, obs));
  PetscCall(PetscMalloc1(nobs, &steps));
  for (PetscInt j = 0; j < nobs; j++) steps[j] = (j + 1) * h->every;
  PetscCall(RwModelCreateState(h->model, &u0));
  PetscCall(VecDuplicateVecs(f, nobs, &d));
  for (PetscInt e = 0; e < h->ntraj; e++) {
    PetscCall(HybInitialState(h, e, u0));
    PetscCall(RwObservationsSetKnown(obs, e, "u0", u0));
    PetscCall(HybTruth(h, u0, h->nsteps, h->every, d, NULL));
    PetscCall(RwObservationsSetStates(obs, e, nobs, steps, d));
  }
  PetscCall(RwProblemSetObservations(h->prob, obs));
  PetscCall(VecDestroyVecs(nobs, &d));
  PetscCall(VecDestroy(&u0));
  PetscCall(VecDestroy(&f));
  PetscCall(PetscFree(steps));
  PetscCall(RwObservationsDestroy(&obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run, the network and the bounds of a learned kappa, from the problem's model */
static PetscErrorCode GetSizes(Hybrid *h)
{
  RwAdjoint adj;
  PetscReal vol;
  DM        da;

  PetscFunctionBegin;
  PetscCall(RwProblemGetModel(h->prob, &h->model));
  PetscCall(RwModelGetStateDM(h->model, &da));
  PetscCall(DMDAGetInfo(da, NULL, &h->grid, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(RwProblemGetAdjoint(h->prob, &adj));
  PetscCall(RwAdjointGetSteps(adj, &h->nsteps)); /* -rw_steps and -rw_dt, or a file's, stand over the program's */
  PetscCall(RwModelGetTimeStep(h->model, &h->dt));
  PetscCheck(h->fromfile || h->every <= h->nsteps, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_hybrid_observe_every %" PetscInt_FMT " is more than the %" PetscInt64_FMT " steps: nothing would be observed", h->every, h->nsteps);
  PetscCall(RwModelHeatGetNN(h->model, &h->nn));
  PetscCheck(h->nn, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "rewind-hybrid learns the heat model's network: -rw_model_type heat with -rw_heat_nn (the default)");
  PetscCall(RwNNGetNumWeights(h->nn, &h->P));
  h->nx = h->P + (h->trainkappa ? 1 : 0);
  /* explicit heat on square cells is stable for dt <= h^2 / (4 kappa): a learned
     kappa is kept below that bound, or one line-search step stops the run */
  PetscCall(RwModelGetCellVolume(h->model, &vol));
  h->logkmax = PetscLogReal(vol / (4 * h->dt));
  h->logkmin = h->logkmax - PetscLogReal(1e6);
  PetscCheck(!h->trainkappa || (h->kappa0 <= PetscExpReal(h->logkmax) && h->kappa0 >= PetscExpReal(h->logkmin)), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_hybrid_kappa0 %g is outside [%g, %g]: the explicit scheme's stability limit h^2 / (4 dt) and 1e-6 of it", (double)h->kappa0, (double)PetscExpReal(h->logkmin), (double)PetscExpReal(h->logkmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A file's trajectories: their number and first observed step, and the truth's parameters */
static PetscErrorCode FromFile(Hybrid *h, RwObservations obs)
{
  const PetscInt64 *steps;
  PetscInt          n;

  PetscFunctionBegin;
  PetscCall(RwObservationsGetNumMembers(obs, &h->ntraj));
  PetscCall(RwObservationsGetStates(obs, 0, &n, &steps, NULL));
  h->every = n ? (PetscInt)steps[0] : 0;
  PetscCall(SetTruthParameters(h, obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  HybSetUp - the problem: the embedded trajectories or -rw_obs, the unknown,
  the journal (name.state with -rw_output name); the truth's model
*/
PetscErrorCode HybSetUp(Hybrid *h)
{
  const RwProblemUnknownOps kappa = {CreateDM_Kappa, ToParameters_Kappa, FromParameters_Kappa, Gradient_Kappa};
  char                      journal[PETSC_MAX_PATH_LEN + 8];
  RwObservations            obs;
  RwEnsemble                ens;
  PetscInt                  group;

  PetscFunctionBegin;
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &h->prob));
  PetscCall(RwProblemSetModelType(h->prob, RWMODELHEAT));
  PetscCall(RwProblemSetModelDefaults(h->prob, ModelDefaults, h));
  if (h->trainkappa) PetscCall(RwProblemSetUnknownOps(h->prob, &kappa, h));
  else PetscCall(RwProblemSetUnknown(h->prob, "theta"));
  PetscCall(PetscSNPrintf(journal, sizeof(journal), "%s.state", h->output));
  PetscCall(RwProblemSetJournal(h->prob, h->output[0] ? journal : NULL));
  PetscCall(RwProblemSetFromOptions(h->prob));
  PetscCall(RwProblemGetObservations(h->prob, &obs));
  h->fromfile = obs ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(!(h->fromfile && h->obswrite[0]), PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_obs_write writes the embedded trajectories; it cannot be used with -rw_obs");
  PetscCall(GetSizes(h));
  PetscCall(CreateTruth(h, obs));
  if (!h->fromfile) PetscCall(CreateTrajectories(h));
  PetscCall(RwProblemSetUp(h->prob));
  PetscCall(RwProblemGetObservations(h->prob, &obs));
  if (h->fromfile) PetscCall(FromFile(h, obs));
  if (h->obswrite[0]) PetscCall(RwObservationsWrite(obs, h->model, h->obswrite));
  PetscCall(RwProblemGetEnsemble(h->prob, &ens));
  PetscCall(RwEnsembleGetGroup(ens, &group, &h->ngroups));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HybDestroy(Hybrid *h)
{
  PetscFunctionBegin;
  PetscCall(TaoDestroy(&h->tao));
  PetscCall(VecDestroy(&h->x));
  PetscCall(PetscFree2(h->xs, h->xs0));
  PetscCall(VecDestroy(&h->mplain));
  PetscCall(RwModelDestroy(&h->plain));
  /* after the outputs: a run killed before them resumes from its journal */
  PetscCall(RwProblemDestroy(&h->prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}
