/*
  Training: TAO over the unknowns x = theta (and log kappa), one full-batch
  gradient over every trajectory an evaluation: quasi-Newton by default, or
  Adam (the TAO type "adam") with -rw_hybrid_optimizer adam; the progress
  line from the problem's history; then the report (learned against true
  reaction, generalisation from an unseen initial state) and name.h5.
*/
#include "hybrid.h"
#include <rewind/hdf5.h>
#include <petscviewerhdf5.h>

/* The progress line, from the history's row of this iteration */
static PetscErrorCode Monitor(Tao tao, void *ctx)
{
  Hybrid           *h       = (Hybrid *)ctx;
  const char *const want[4] = {"iteration", "J", "gradient_norm", "seconds"};
  PetscReal         v[4];

  PetscFunctionBegin;
  PetscCall(RwProblemGetHistoryValues(h->prob, -1, 4, want, v));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "epoch %4" PetscInt_FMT " J %.6e gnorm %.3e seconds %.2f\n", (PetscInt)v[0], (double)v[1], (double)v[2], (double)v[3]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* log kappa in [logkmin, logkmax]: a bounded TAO type's bounds, Adam's projection */
static PetscErrorCode SetKappaBounds(Hybrid *h)
{
  Vec lo, hi;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(h->x, &lo));
  PetscCall(VecDuplicate(h->x, &hi));
  PetscCall(VecSet(lo, PETSC_NINFINITY));
  PetscCall(VecSet(hi, PETSC_INFINITY));
  PetscCall(VecSetValue(lo, h->P, h->logkmin, INSERT_VALUES));
  PetscCall(VecSetValue(hi, h->P, h->logkmax, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(lo));
  PetscCall(VecAssemblyEnd(lo));
  PetscCall(VecAssemblyBegin(hi));
  PetscCall(VecAssemblyEnd(hi));
  PetscCall(TaoSetVariableBounds(h->tao, lo, hi));
  PetscCall(VecDestroy(&lo));
  PetscCall(VecDestroy(&hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The optimiser's defaults, which the options override: TAO LMVM (BLMVM with
  kappa) for at most -rw_hybrid_epochs iterations; Adam at -rw_hybrid_lr for
  exactly that many steps, epochs + 1 evaluations (no tolerance can stop it)
*/
static PetscErrorCode SetUpTao(Hybrid *h)
{
  PetscFunctionBegin;
  PetscCall(TaoCreate(PETSC_COMM_WORLD, &h->tao));
  PetscCall(TaoSetType(h->tao, h->adam ? TAOADAM : h->trainkappa ? TAOBLMVM : TAOLMVM));
  PetscCall(TaoSetMaximumIterations(h->tao, h->epochs));
  if (h->adam) {
    PetscCall(TaoAdamSetLearningRate(h->tao, h->lr, h->decay));
    PetscCall(TaoSetMaximumFunctionEvaluations(h->tao, -1));
    PetscCall(TaoSetTolerances(h->tao, 0, 0, 0));
  } else {
    PetscCall(TaoSetMaximumFunctionEvaluations(h->tao, 4 * h->epochs + 10));
    PetscCall(TaoSetTolerances(h->tao, 0, 1e-10, 0));
  }
  PetscCall(TaoSetSolution(h->tao, h->x));
  if (h->trainkappa) PetscCall(SetKappaBounds(h));
  PetscCall(RwProblemSetUpTao(h->prob, h->tao));
  PetscCall(TaoSetMonitor(h->tao, Monitor, h, NULL));
  PetscCall(TaoSetFromOptions(h->tao));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* HybSetUpTraining - the problem's start (-rw_nn_weights or Xavier; log kappa0) and TAO from the options, before any solve */
PetscErrorCode HybSetUpTraining(Hybrid *h)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc2(h->nx, &h->xs, h->nx, &h->xs0));
  PetscCall(RwProblemCreateUnknownVector(h->prob, &h->x));
  PetscCall(RwProblemGetUnknown(h->prob, h->x));
  PetscCall(RwVecGetFirstRankValues(h->x, h->nx, h->xs0));
  PetscCall(SetUpTao(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* HybTrain - the optimisation from the start HybSetUpTraining() set; x on every rank after it */
PetscErrorCode HybTrain(Hybrid *h)
{
  PetscFunctionBegin;
  PetscCall(RwProblemSolve(h->prob, h->tao));
  PetscCall(RwProblemComplete(h->prob));
  PetscCall(RwVecGetFirstRankValues(h->x, h->nx, h->xs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the report ---- */
#define NSAMPLE 101

/* max |u_learned - u_true| at steps n and 2n from an initial state no trajectory used */
static PetscErrorCode Generalisation(Hybrid *h, PetscReal err[2])
{
  Vec u0, ut, u, v, base, m;

  PetscFunctionBegin;
  PetscCall(RwModelCreateState(h->model, &u0));
  PetscCall(VecDuplicate(u0, &ut));
  PetscCall(VecDuplicate(u0, &u));
  PetscCall(VecDuplicate(u0, &v));
  PetscCall(HybInitialState(h, h->ntraj + 77, u0));
  PetscCall(RwProblemGetParameters(h->prob, &base, NULL)); /* the known physics, with the learned unknowns */
  PetscCall(VecDuplicate(base, &m));
  PetscCall(VecCopy(base, m));
  PetscCall(HybSetUnknowns(h, h->model, h->xs, m));
  PetscCall(RwModelSetParameters(h->model, m));
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
  PetscCall(VecDestroy(&m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The library's part of name.h5, collectively: the history and the first gradient of the unknowns */
static PetscErrorCode WriteProblem(Hybrid *h, const char file[])
{
  PetscViewer v;
  Vec         G0;

  PetscFunctionBegin;
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, file, FILE_MODE_APPEND, &v));
  PetscCall(RwProblemHistoryView(h->prob, v));
  PetscCall(RwProblemGetFirstEvaluation(h->prob, NULL, &G0));
  if (G0) {
    PetscCall(PetscObjectSetName((PetscObject)G0, "gradient_first"));
    PetscCall(VecView(G0, v));
  }
  PetscCall(PetscViewerDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What every dataset of name.h5 holds: the heat model is nondimensional, so every one is a pure number */
static PetscErrorCode WriteUnits(const char file[])
{
  const RwIODatasetInfo info[] = {
    {"theta",            "1", "the network's weights and biases, layer by layer (attribute layers), then log kappa when learned"},
    {"theta_initial",    "1", "theta before training"                                                                           },
    {"gradient_first",   "1", "gradient dJ/dtheta of the first evaluation, at theta_initial"                                    },
    {"reaction_u",       "1", "states u at which the reactions are sampled, on [0, 1]"                                          },
    {"reaction_learned", "1", "learned reaction N_theta(u)"                                                                     },
    {"reaction_true",    "1", "true reaction rho u (1 - u)"                                                                     }
  };

  PetscFunctionBegin;
  PetscCall(RwIOWriteDatasetInfo(PETSC_COMM_WORLD, file, (PetscInt)PETSC_STATIC_ARRAY_LENGTH(info), info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* name.h5: theta (with its layers), the history, gradient_first, theta_initial, the reactions and the figures */
static PetscErrorCode WriteOutput(Hybrid *h, const PetscReal *us, const PetscReal *learned, const PetscReal *truth, PetscReal maxerr, const PetscReal gen[2])
{
  char        file[PETSC_MAX_PATH_LEN + 8];
  PetscMPIInt rank;
  PetscReal   J0, J;
  const PetscReal *terms;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(file, sizeof(file), "%s.h5", h->output));
  PetscCall(RwNNWriteWeights(h->nn, file, h->xs)); /* creates the file */
  PetscCall(WriteProblem(h, file));
  PetscCall(RwProblemGetFirstEvaluation(h->prob, &J0, NULL));
  PetscCall(RwProblemGetTerms(h->prob, NULL, NULL, &terms));
  J = terms[0]; /* the last evaluation's: no regulariser */
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    hid_t            f, s;
    hsize_t          n = NSAMPLE, np = (hsize_t)h->P;
    const char      *names[] = {"reaction_u", "reaction_learned", "reaction_true"};
    const PetscReal *vals[]  = {us, learned, truth};
    const char      *anames[] = {"reaction_max_error", "generalisation_error_T", "generalisation_error_2T", "J0", "J", "rho", "kappa"};
    PetscReal        avals[]  = {maxerr, gen[0], gen[1], J0, J, h->rho, h->trainkappa ? PetscExpReal(h->xs[h->P]) : h->kappa};

    RwCallHDF5Return(f, H5Fopen, (file, H5F_ACC_RDWR, H5P_DEFAULT));
    for (int i = 0; i < 3; i++) PetscCall(RwH5WriteArray(f, names[i], 1, &n, vals[i]));
    PetscCall(RwH5WriteArray(f, "theta_initial", 1, &np, h->xs0));
    RwCallHDF5Return(s, H5Screate, (H5S_SCALAR));
    for (int i = 0; i < 7; i++) {
      hid_t a;

      RwCallHDF5Return(a, H5Acreate2, (f, anames[i], H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT));
      RwCallHDF5(H5Awrite, (a, H5T_NATIVE_DOUBLE, &avals[i]));
      RwCallHDF5(H5Aclose, (a));
    }
    RwCallHDF5(H5Sclose, (s));
    RwCallHDF5(H5Fclose, (f));
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(WriteUnits(file));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "output %s: theta, theta_initial, gradient_first, /history, reaction_u/learned/true\n", file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HybReport(Hybrid *h)
{
  PetscReal  us[NSAMPLE], learned[NSAMPLE], truth[NSAMPLE], maxerr = 0, gen[2], J0, J = 0;
  const PetscReal *terms;
  PetscInt64 nevals;
  PetscInt   nterms;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < NSAMPLE; i++) {
    us[i]    = (PetscReal)i / (NSAMPLE - 1);
    truth[i] = h->rho * us[i] * (1 - us[i]);
  }
  RwNNForward(h->nn, h->xs, NSAMPLE, us, NSAMPLE, learned, NSAMPLE);
  for (PetscInt i = 0; i < NSAMPLE; i++) maxerr = PetscMax(maxerr, PetscAbsReal(learned[i] - truth[i]));
  PetscCall(Generalisation(h, gen));
  PetscCall(RwProblemGetFirstEvaluation(h->prob, &J0, NULL));
  PetscCall(RwProblemGetTerms(h->prob, &nterms, NULL, &terms));
  for (PetscInt i = 0; i < nterms; i++) J += terms[i]; /* the misfit and any regulariser (-rw_reg_*), as J0 */
  PetscCall(RwProblemGetCounts(h->prob, &nevals, NULL, NULL, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "J0 %.6e J %.6e reduction %.4g evaluations %" PetscInt64_FMT "\n", (double)J0, (double)J, (double)(J0 / J), nevals));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reaction_max_error %.4e (max |N_theta(u) - rho u (1 - u)| on [0, 1]; the true maximum is %.4g)\n", (double)maxerr, (double)(h->rho / 4)));
  if (h->trainkappa) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "kappa learned %.6e true %.6e\n", (double)PetscExpReal(h->xs[h->P]), (double)h->kappa));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "generalisation_error T %.4e 2T %.4e (max |u_learned - u_true| from an unseen initial state)\n", (double)gen[0], (double)gen[1]));
  if (h->output[0]) PetscCall(WriteOutput(h, us, learned, truth, maxerr, gen));
  PetscFunctionReturn(PETSC_SUCCESS);
}
