/*
  The embedded problem: Fisher-KPP on the periodic unit square,
  du/dt = kappa lap u + rho u (1 - u), kappa = 1e-3, rho = 5, observed at
  every few steps from several initial states (Gaussian bumps).  The truth is
  heat's own explicit step plus dt rho u_k (1 - u_k): exactly the scheme the
  learned model runs with N_theta in place of the reaction, so a perfect
  network would fit the data to rounding.

  Trajectories are members of an RwEnsemble: with -rw_ensemble_groups g each
  group of ranks solves its members; every member's J and dJ/dtheta go to
  every rank (one value per member from one rank, the others add zeros, so
  the reduction is exact) and are summed in member order: the same bits for
  any split of the ranks.
*/
#include "hybrid.h"

/* ---- the misfit term: 1/2 h^2 sum_i (u_i - d_k,i)^2 at the observed steps ---- */
static PetscErrorCode ObsValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  Hybrid            *h = (Hybrid *)ctx;
  HybData           *D = h->current;
  const PetscScalar *a, *d;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(D->d[k / D->every - 1], &d));
  for (PetscInt i = 0; i < n; i++) PetscCall(RwReproSumAdd(acc, slot, w * 0.5 * D->vol * (a[i] - d[i]) * (a[i] - d[i])));
  PetscCall(VecRestoreArrayRead(D->d[k / D->every - 1], &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ObsAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  Hybrid            *h = (Hybrid *)ctx;
  HybData           *D = h->current;
  const PetscScalar *a, *d;
  PetscScalar       *l;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(D->d[k / D->every - 1], &d));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < n; i++) l[i] += w * D->vol * (a[i] - d[i]);
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(D->d[k / D->every - 1], &d));
  PetscCall(VecRestoreArrayRead(u, &a));
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
  PetscCall(RwModelFillField(h->plain, u0, BumpsAt, &b));
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

/* theta (and log kappa with -rw_hybrid_train_kappa) into the group's m */
PetscErrorCode HybSetUnknowns(Hybrid *h, const PetscReal x[], Vec m)
{
  PetscFunctionBegin;
  PetscCall(RwModelSetParameterBlock(h->model, m, h->block, x));
  if (h->trainkappa) {
    Vec k;
    PetscCall(RwModelGetParameterField(h->model, m, 0, &k));
    PetscCall(VecSet(k, PetscExpReal(x[h->P])));
    PetscCall(RwModelRestoreParameterField(h->model, m, 0, &k));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateModel(Hybrid *h, PetscBool nn, RwModel *model)
{
  PetscFunctionBegin;
  PetscCall(RwModelCreate(h->sub, model));
  PetscCall(RwModelSetType(*model, RWMODELHEAT));
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelHeatSetScheme(*model, 0));
  PetscCall(RwModelHeatSetNN(*model, nn));
  PetscCall(RwModelSetSteps(*model, h->nsteps));
  PetscCall(RwModelSetTimeStep(*model, h->dt));
  PetscCall(RwModelSetUp(*model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetPhysical(Hybrid *h, RwModel model, Vec m)
{
  Vec k, s;

  PetscFunctionBegin;
  PetscCall(RwModelGetDefaults(model, m, NULL, NULL));
  PetscCall(RwModelGetParameterField(model, m, 0, &k));
  PetscCall(VecSet(k, h->kappa));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &k));
  PetscCall(RwModelGetParameterField(model, m, 1, &s));
  PetscCall(VecSet(s, 0));
  PetscCall(RwModelRestoreParameterField(model, m, 1, &s));
  PetscCall(RwModelSetParameterScalar(model, m, 0, 0)); /* r = 0 */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HybSetUp(Hybrid *h)
{
  RwObjectiveTermOps ops = {0};
  PetscInt64        *steps;
  PetscInt           nobs = h->nsteps / h->every, nm;
  const PetscInt    *members;
  PetscReal          vol;

  PetscFunctionBegin;
  PetscCall(RwEnsembleCreate(PETSC_COMM_WORLD, &h->ens));
  PetscCall(RwEnsembleSetSize(h->ens, h->ntraj));
  PetscCall(RwEnsembleSetFromOptions(h->ens));
  PetscCall(RwEnsembleSetUp(h->ens));
  PetscCall(RwEnsembleGetGroup(h->ens, &h->group, &h->ngroups));
  PetscCall(RwEnsembleGetSubComm(h->ens, &h->sub));
  PetscCall(CreateModel(h, PETSC_TRUE, &h->model));
  PetscCall(CreateModel(h, PETSC_FALSE, &h->plain));
  PetscCall(RwModelHeatGetNN(h->model, &h->nn));
  PetscCall(RwModelFindParameterBlock(h->model, "theta", &h->block));
  PetscCall(RwNNGetNumWeights(h->nn, &h->P));
  h->nx = h->P + (h->trainkappa ? 1 : 0);
  PetscCall(RwModelCreateParameters(h->model, &h->m));
  PetscCall(RwModelCreateParameters(h->plain, &h->mplain));
  PetscCall(SetPhysical(h, h->model, h->m));
  PetscCall(SetPhysical(h, h->plain, h->mplain));
  PetscCall(RwModelSetParameters(h->plain, h->mplain));
  PetscCall(RwModelGetCellVolume(h->model, &vol));
  /* this group's trajectories: initial states and observations */
  PetscCall(RwEnsembleGetMembers(h->ens, &nm, &members));
  for (PetscInt j = 0; j < nm; j++) {
    PetscInt e = members[j];
    HybData *D = &h->data[e];

    D->nobs = nobs, D->every = h->every, D->vol = vol;
    PetscCall(RwModelCreateState(h->model, &h->u0[e]));
    PetscCall(HybInitialState(h, e, h->u0[e]));
    PetscCall(VecDuplicateVecs(h->u0[e], nobs, &D->d));
    PetscCall(HybTruth(h, h->u0[e], h->nsteps, h->every, D->d, NULL));
  }
  PetscCall(RwObjectiveCreate(h->model, &h->obj));
  PetscCall(PetscMalloc1(nobs, &steps));
  for (PetscInt j = 0; j < nobs; j++) steps[j] = (j + 1) * h->every;
  ops.value   = ObsValue;
  ops.adjoint = ObsAdjoint;
  PetscCall(RwObjectiveAddTerm(h->obj, "observations", &ops, nobs, steps, NULL, h));
  PetscCall(PetscFree(steps));
  PetscCall(RwAdjointCreate(h->model, h->obj, &h->adj));
  PetscCall(RwAdjointSetFromOptions(h->adj));
  PetscCall(RwAdjointSetUp(h->adj));
  PetscCall(VecDuplicate(h->m, &h->g));
  PetscCall(RwModelCreateState(h->model, &h->gu0));
  PetscCall(PetscCalloc3(h->nx, &h->x, h->nx, &h->G, h->ntraj * (h->nx + 1), &h->R));
  PetscCall(RwModelGetParameterBlock(h->model, h->m, h->block, h->x)); /* -rw_nn_weights or Xavier */
  /* explicit heat on square cells is stable for dt <= h^2 / (4 kappa): a learned
     kappa is kept below that bound, or one line-search step stops the run */
  h->logkmax = PetscLogReal(vol / (4 * h->dt));
  h->logkmin = h->logkmax - PetscLogReal(1e6);
  PetscCheck(!h->trainkappa || (h->kappa0 <= PetscExpReal(h->logkmax) && h->kappa0 >= PetscExpReal(h->logkmin)), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_hybrid_kappa0 %g is outside [%g, %g]: the explicit scheme's stability limit h^2 / (4 dt) and 1e-6 of it", (double)h->kappa0, (double)PetscExpReal(h->logkmin), (double)PetscExpReal(h->logkmax));
  if (h->trainkappa) h->x[h->P] = PetscLogReal(h->kappa0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J and dJ/dx summed over the trajectories in member order; x and the
   results are the same on every rank */
PetscErrorCode HybEvaluate(Hybrid *h, const PetscReal x[], PetscReal *J, PetscReal G[])
{
  PetscInt        nm, w = h->nx + 1;
  const PetscInt *members;
  PetscMPIInt     subrank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(h->sub, &subrank));
  PetscCall(PetscArrayzero(h->R, h->ntraj * w));
  PetscCall(HybSetUnknowns(h, x, h->m));
  PetscCall(RwEnsembleGetMembers(h->ens, &nm, &members));
  for (PetscInt j = 0; j < nm; j++) {
    PetscInt   e = members[j];
    PetscReal  Je, *r = h->R + e * w;

    h->current = &h->data[e];
    PetscCall(RwAdjointSolve(h->adj, h->m, h->u0[e], &Je, h->g, h->gu0));
    PetscCall(RwModelGetParameterBlock(h->model, h->g, h->block, r + 1));
    if (h->trainkappa) { /* d/d(log kappa) of a uniform kappa: kappa sum_i dJ/dkappa_i, summed exactly */
      Vec gk;
      PetscCall(RwModelGetParameterField(h->model, h->g, 0, &gk));
      PetscCall(RwVecSumRepro(gk, &r[1 + h->P]));
      PetscCall(RwModelRestoreParameterField(h->model, h->g, 0, &gk));
      r[1 + h->P] *= PetscExpReal(x[h->P]);
    }
    r[0] = Je;
    if (subrank) PetscCall(PetscArrayzero(r, w)); /* one rank of the group gives the member's values */
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, h->R, (PetscMPIInt)(h->ntraj * w), MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  *J = 0;
  for (PetscInt i = 0; i < h->nx; i++) G[i] = 0;
  for (PetscInt e = 0; e < h->ntraj; e++) { /* member order */
    *J += h->R[e * w];
    for (PetscInt i = 0; i < h->nx; i++) G[i] += h->R[e * w + 1 + i];
  }
  h->nevals++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HybDestroy(Hybrid *h)
{
  PetscFunctionBegin;
  for (PetscInt e = 0; e < h->ntraj; e++) {
    if (h->data[e].d) PetscCall(VecDestroyVecs(h->data[e].nobs, &h->data[e].d));
    PetscCall(VecDestroy(&h->u0[e]));
  }
  PetscCall(VecDestroy(&h->m));
  PetscCall(VecDestroy(&h->mplain));
  PetscCall(VecDestroy(&h->g));
  PetscCall(VecDestroy(&h->gu0));
  PetscCall(RwAdjointDestroy(&h->adj));
  PetscCall(RwObjectiveDestroy(&h->obj));
  PetscCall(RwModelDestroy(&h->model));
  PetscCall(RwModelDestroy(&h->plain));
  PetscCall(RwEnsembleDestroy(&h->ens));
  PetscCall(PetscFree3(h->x, h->G, h->R));
  PetscCall(PetscFree(h->hist));
  PetscFunctionReturn(PETSC_SUCCESS);
}
