/*
  Training: TAO (quasi-Newton by default, any -tao_type) or Adam over the
  unknowns x = theta (and log kappa), one full-batch gradient over every
  trajectory an epoch; then the report (learned against true reaction,
  generalisation from an unseen initial state) and the HDF5 output.
*/
#include "hybrid.h"
#include <petsctao.h>
#include <rewind/hdf5.h>

static PetscErrorCode Record(Hybrid *h, PetscInt it, PetscReal J, PetscReal gnorm)
{
  PetscFunctionBegin;
  if (h->nhist == 0) h->J0 = J;
  if (h->nhist < h->epochs + 1) {
    h->hist[3 * h->nhist]     = J;
    h->hist[3 * h->nhist + 1] = gnorm;
    h->hist[3 * h->nhist + 2] = MPI_Wtime() - h->t0;
    h->nhist++;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "epoch %4" PetscInt_FMT " J %.6e gnorm %.3e seconds %.2f\n", it, (double)J, (double)gnorm, MPI_Wtime() - h->t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal Norm2(PetscInt n, const PetscReal *g)
{
  PetscReal s = 0;
  for (PetscInt i = 0; i < n; i++) s += g[i] * g[i];
  return PetscSqrtReal(s);
}

/* ---- TAO: the unknowns on rank 0 of a world vector, given to every rank ---- */
static PetscErrorCode TaoFG(Tao tao, Vec X, PetscReal *J, Vec Gv, void *ctx)
{
  Hybrid            *h = (Hybrid *)ctx;
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           nl;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(X, &nl));
  PetscCall(VecGetArrayRead(X, &a));
  for (PetscInt i = 0; i < nl; i++) h->x[i] = a[i];
  PetscCall(VecRestoreArrayRead(X, &a));
  PetscCallMPI(MPI_Bcast(h->x, (PetscMPIInt)h->nx, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCall(HybEvaluate(h, h->x, J, h->G));
  PetscCall(VecGetArray(Gv, &b));
  for (PetscInt i = 0; i < nl; i++) b[i] = h->G[i];
  PetscCall(VecRestoreArray(Gv, &b));
  h->J     = *J;
  h->gnorm = Norm2(h->nx, h->G);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoMon(Tao tao, void *ctx)
{
  Hybrid   *h = (Hybrid *)ctx;
  PetscInt  it;
  PetscReal f, gn;

  PetscFunctionBegin;
  PetscCall(TaoGetSolutionStatus(tao, &it, &f, &gn, NULL, NULL, NULL));
  PetscCall(Record(h, it, f, gn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TrainTao(Hybrid *h)
{
  Tao          tao;
  Vec          X;
  PetscMPIInt  rank;
  PetscScalar *a;
  PetscInt     nl;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, rank ? 0 : h->nx, h->nx, &X));
  PetscCall(VecGetLocalSize(X, &nl));
  PetscCall(VecGetArray(X, &a));
  for (PetscInt i = 0; i < nl; i++) a[i] = h->x[i];
  PetscCall(VecRestoreArray(X, &a));
  PetscCall(TaoCreate(PETSC_COMM_WORLD, &tao));
  PetscCall(TaoSetType(tao, h->trainkappa ? TAOBLMVM : TAOLMVM));
  if (h->trainkappa) { /* log kappa in [logkmin, logkmax] (a bounded type: BLMVM unless -tao_type says otherwise) */
    Vec lo, hi;

    PetscCall(VecDuplicate(X, &lo));
    PetscCall(VecDuplicate(X, &hi));
    PetscCall(VecSet(lo, PETSC_NINFINITY));
    PetscCall(VecSet(hi, PETSC_INFINITY));
    if (!rank) PetscCall(VecSetValue(lo, h->P, h->logkmin, INSERT_VALUES));
    if (!rank) PetscCall(VecSetValue(hi, h->P, h->logkmax, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(lo));
    PetscCall(VecAssemblyEnd(lo));
    PetscCall(VecAssemblyBegin(hi));
    PetscCall(VecAssemblyEnd(hi));
    PetscCall(TaoSetVariableBounds(tao, lo, hi));
    PetscCall(VecDestroy(&lo));
    PetscCall(VecDestroy(&hi));
  }
  PetscCall(TaoSetSolution(tao, X));
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, TaoFG, h));
  PetscCall(TaoSetMaximumIterations(tao, h->epochs));
  PetscCall(TaoSetMaximumFunctionEvaluations(tao, 4 * h->epochs + 10));
  PetscCall(TaoSetTolerances(tao, 0, 1e-10, 0));
  PetscCall(TaoSetMonitor(tao, TaoMon, h, NULL));
  PetscCall(TaoSetFromOptions(tao));
  PetscCall(TaoSolve(tao));
  PetscCall(VecGetArray(X, &a));
  for (PetscInt i = 0; i < nl; i++) h->x[i] = a[i];
  PetscCall(VecRestoreArray(X, &a));
  PetscCallMPI(MPI_Bcast(h->x, (PetscMPIInt)h->nx, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCall(TaoDestroy(&tao));
  PetscCall(VecDestroy(&X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- Adam (Kingma and Ba 2015), learning rate lr decay^epoch; every rank
   does the same arithmetic on the same values, so x stays replicated ---- */
static PetscErrorCode TrainAdam(Hybrid *h)
{
  const PetscReal b1 = 0.9, b2 = 0.999, eps = 1e-8;
  PetscReal      *mo, *ve, J;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(h->nx, &mo, h->nx, &ve));
  for (PetscInt t = 0; t <= h->epochs; t++) {
    PetscReal lr = h->lr * PetscPowReal(h->decay, (PetscReal)t);

    PetscCall(HybEvaluate(h, h->x, &J, h->G));
    h->J     = J;
    h->gnorm = Norm2(h->nx, h->G);
    PetscCall(Record(h, t, J, h->gnorm));
    if (t == h->epochs) break;
    for (PetscInt i = 0; i < h->nx; i++) {
      mo[i] = b1 * mo[i] + (1 - b1) * h->G[i];
      ve[i] = b2 * ve[i] + (1 - b2) * h->G[i] * h->G[i];
      h->x[i] -= lr * (mo[i] / (1 - PetscPowReal(b1, t + 1))) / (PetscSqrtReal(ve[i] / (1 - PetscPowReal(b2, t + 1))) + eps);
    }
    if (h->trainkappa) h->x[h->P] = PetscMin(PetscMax(h->x[h->P], h->logkmin), h->logkmax); /* projected onto the bounds */
  }
  PetscCall(PetscFree2(mo, ve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HybTrain(Hybrid *h)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * (h->epochs + 1), &h->hist));
  h->t0 = MPI_Wtime();
  if (h->adam) PetscCall(TrainAdam(h));
  else PetscCall(TrainTao(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the report ---- */
#define NSAMPLE 101

/* max |u_learned - u_true| at steps n and 2n from an initial state no trajectory used */
static PetscErrorCode Generalisation(Hybrid *h, PetscReal err[2])
{
  Vec u0, ut, u, v;

  PetscFunctionBegin;
  PetscCall(RwModelCreateState(h->model, &u0));
  PetscCall(VecDuplicate(u0, &ut));
  PetscCall(VecDuplicate(u0, &u));
  PetscCall(VecDuplicate(u0, &v));
  PetscCall(HybInitialState(h, h->ntraj + 77, u0));
  PetscCall(HybSetUnknowns(h, h->x, h->m));
  PetscCall(RwModelSetParameters(h->model, h->m));
  PetscCall(VecCopy(u0, u));
  for (PetscInt r = 0; r < 2; r++) {
    for (PetscInt64 k = 0; k < h->nsteps; k++) {
      PetscCall(RwModelStep(h->model, k, u, v));
      PetscCall(VecCopy(v, u));
    }
    PetscCall(HybTruth(h, u0, (r + 1) * h->nsteps, h->every, NULL, ut));
    PetscCall(VecAXPY(ut, -1, u));
    PetscCall(VecNorm(ut, NORM_INFINITY, &err[r]));
  }
  PetscCall(VecDestroy(&u0));
  PetscCall(VecDestroy(&ut));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteOutput(Hybrid *h, const PetscReal *us, const PetscReal *learned, const PetscReal *truth, PetscReal maxerr, const PetscReal gen[2])
{
  char        file[PETSC_MAX_PATH_LEN + 8];
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(file, sizeof(file), "%s.h5", h->output));
  if (h->group == 0) PetscCall(RwNNWriteWeights(h->nn, file, h->x)); /* theta, its layers and activations */
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    hid_t       f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT), s;
    hsize_t     n = NSAMPLE, hd[2] = {(hsize_t)h->nhist, 3};
    const char *names[] = {"reaction_u", "reaction_learned", "reaction_true"};
    const PetscReal *vals[] = {us, learned, truth};
    const char *anames[] = {"reaction_max_error", "generalisation_error_T", "generalisation_error_2T", "J0", "J", "rho", "kappa"};
    PetscReal   avals[]  = {maxerr, gen[0], gen[1], h->J0, h->J, h->rho, h->trainkappa ? PetscExpReal(h->x[h->P]) : h->kappa};

    PetscCheck(f >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot reopen %s", file);
    for (int i = 0; i < 3; i++) PetscCall(RwH5WriteArray(f, names[i], 1, &n, vals[i]));
    PetscCall(RwH5WriteArray(f, "history", 2, hd, h->hist));
    s = H5Screate(H5S_SCALAR);
    for (int i = 0; i < 7; i++) {
      hid_t a = H5Acreate2(f, anames[i], H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT);
      H5Awrite(a, H5T_NATIVE_DOUBLE, &avals[i]);
      H5Aclose(a);
    }
    H5Sclose(s);
    PetscCheck(H5Fclose(f) >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s", file);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "output %s: theta, history (J, gnorm, seconds), reaction_u/learned/true\n", file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HybReport(Hybrid *h)
{
  PetscReal us[NSAMPLE], learned[NSAMPLE], truth[NSAMPLE], maxerr = 0, gen[2];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < NSAMPLE; i++) {
    us[i]    = (PetscReal)i / (NSAMPLE - 1);
    truth[i] = h->rho * us[i] * (1 - us[i]);
  }
  RwNNForward(h->nn, h->x, NSAMPLE, us, NSAMPLE, learned, NSAMPLE);
  for (PetscInt i = 0; i < NSAMPLE; i++) maxerr = PetscMax(maxerr, PetscAbsReal(learned[i] - truth[i]));
  PetscCall(Generalisation(h, gen));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "J0 %.6e J %.6e reduction %.4g evaluations %" PetscInt_FMT "\n", (double)h->J0, (double)h->J, (double)(h->J0 / h->J), h->nevals));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reaction_max_error %.4e (max |N_theta(u) - rho u (1 - u)| on [0, 1]; the true maximum is %.4g)\n", (double)maxerr, (double)(h->rho / 4)));
  if (h->trainkappa) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "kappa learned %.6e true %.6e\n", (double)PetscExpReal(h->x[h->P]), (double)h->kappa));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "generalisation_error T %.4e 2T %.4e (max |u_learned - u_true| from an unseen initial state)\n", (double)gen[0], (double)gen[1]));
  if (h->output[0]) PetscCall(WriteOutput(h, us, learned, truth, maxerr, gen));
  PetscFunctionReturn(PETSC_SUCCESS);
}
