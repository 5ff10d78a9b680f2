static char help[] = "rewind-horizon: how gradients of a chaotic run grow with its window (doc/chaos.md).\n"
                     "For each window length T, an ensemble of windows starting on the attractor (the model's default start run\n"
                     "for -rw_horizon_spinup time units, then a start every -rw_horizon_spacing) is solved with the adjoint;\n"
                     "J is the time average of the mean state over the window. The table gives, per T, the mean of dJ/dp\n"
                     "(p a global scalar, default Lorenz-96's forcing F) with its standard error and spread, and of |dJ/dx0|.\n"
                     "Past the horizon (a few Lyapunov times) the spread and |dJ/dx0| grow like exp(lambda_1 T).\n\n"
                     "  -rw_horizon_windows T,... the window lengths in time units (default 0.5,1,2,5,10)\n"
                     "  -rw_horizon_members n     windows per length (default 40)\n"
                     "  -rw_horizon_spinup T      time units from the default start to the first window (default 20)\n"
                     "  -rw_horizon_spacing T     time units between window starts (default 2)\n"
                     "  -rw_horizon_parameter p   the block of global scalars differentiated (default F; its first scalar)\n"
                     "  -rw_ensemble_groups g     windows solved g at a time on g groups of ranks (the same table)\n"
                     "  -rw_horizon_exponents p   also the first p Lyapunov exponents (QR method) from the first window's start,\n"
                     "                            over -rw_horizon_exponents_blocks blocks (default 20) of -rw_horizon_exponents_block\n"
                     "                            time units (default 10) after one block of transient: the number of positive\n"
                     "                            ones (the unstable directions) and the Kaplan-Yorke dimension\n"
                     "  -rw_horizon_shadowing u   also d<J>/dp by NILSS (shadowing) with u homogeneous tangents (at least the\n"
                     "                            number of positive exponents): -rw_horizon_shadowing_runs runs (default 8) of\n"
                     "                            -rw_horizon_shadowing_time time units (default 20) from the first window's start\n"
                     "                            on, cut into segments of -rw_horizon_shadowing_segment time units (default 1)\n"
                     "Model: -rw_model_type (default l96), -da_grid_x N, -rw_l96_forcing F, -rw_dt; each window's steps are T / dt\n"
                     "(no -rw_steps). Checkpointing: -rw_schedule_type, ...\n\n";

#include <rewind.h>
#include <rewind/horizon.h>

#define MAXWINDOWS 32

typedef struct {
  PetscReal  windows[MAXWINDOWS], spinup, spacing, block;
  PetscInt   nwindows, members, nexp, nblocks;
  PetscInt   shadow, sruns; /* NILSS: homogeneous tangents (0: none) and runs */
  PetscReal  stime, sseg;   /* NILSS: time units of a run and of a segment */
  char       param[64];
  PetscInt64 steps; /* the window being solved */
} Horizon;

static PetscErrorCode ReadOptions(Horizon *h)
{
  PetscBool given;

  PetscFunctionBegin;
  h->nwindows   = MAXWINDOWS;
  h->members    = 40;
  h->spinup     = 20;
  h->spacing    = 2;
  h->windows[0] = 0.5, h->windows[1] = 1, h->windows[2] = 2, h->windows[3] = 5, h->windows[4] = 10;
  h->nblocks    = 20;
  h->block      = 10;
  h->sruns      = 8;
  h->stime      = 20;
  h->sseg       = 1;
  PetscCall(PetscStrncpy(h->param, "F", sizeof(h->param)));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-horizon options", "rewind");
  PetscCall(RwOptionsRealArray("-rw_horizon_windows", "Window lengths in time units, increasing", NULL, "0.5,1,2,5,10", h->windows, &h->nwindows, &given, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  if (!given) h->nwindows = 5;
  PetscCall(RwOptionsInt("-rw_horizon_members", "Windows per length (the ensemble's size)", NULL, h->members, &h->members, NULL, 2, PETSC_MAX_INT));
  PetscCall(RwOptionsReal("-rw_horizon_spinup", "Time units from the model's default start to the first window", NULL, h->spinup, &h->spinup, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_horizon_spacing", "Time units between window starts", NULL, h->spacing, &h->spacing, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(PetscOptionsString("-rw_horizon_parameter", "The block of global scalars differentiated (its first scalar)", NULL, h->param, h->param, sizeof(h->param), NULL));
  PetscCall(RwOptionsInt("-rw_horizon_exponents", "Also estimate the first p Lyapunov exponents (0: none)", "RwHorizonLyapunovSpectrum", h->nexp, &h->nexp, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_horizon_exponents_blocks", "Blocks the exponents average over (their spread gives the errors)", "RwHorizonLyapunovSpectrum", h->nblocks, &h->nblocks, NULL, 2, PETSC_MAX_INT));
  PetscCall(RwOptionsReal("-rw_horizon_exponents_block", "Time units of a block of the exponents' estimate", "RwHorizonLyapunovSpectrum", h->block, &h->block, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsInt("-rw_horizon_shadowing", "Also d<J>/dp by NILSS with this many homogeneous tangents (0: none)", "RwHorizonShadowingSensitivity", h->shadow, &h->shadow, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_horizon_shadowing_runs", "NILSS: independent runs (their spread gives the error)", "RwHorizonShadowingSensitivity", h->sruns, &h->sruns, NULL, 2, PETSC_MAX_INT));
  PetscCall(RwOptionsReal("-rw_horizon_shadowing_time", "NILSS: time units of a run", "RwHorizonShadowingSensitivity", h->stime, &h->stime, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_horizon_shadowing_segment", "NILSS: time units of a segment (must divide a run)", "RwHorizonShadowingSensitivity", h->sseg, &h->sseg, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscOptionsEnd();
  for (PetscInt i = 1; i < h->nwindows; i++) PetscCheck(h->windows[i] > h->windows[i - 1], PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_horizon_windows must increase: %g follows %g", (double)h->windows[i], (double)h->windows[i - 1]);
  PetscCall(PetscOptionsHasName(NULL, NULL, "-rw_steps", &given));
  PetscCheck(!given, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "rewind-horizon sets each window's steps from -rw_horizon_windows and -rw_dt: -rw_steps is not used (give the lengths in time units)");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetWindow(RwAdjoint adj, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointSetSteps(adj, ((Horizon *)ctx)->steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AddAverage(RwProblem prob, RwObjective obj, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(RwObjectiveAddTimeAverage(obj, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A problem whose members are the windows of h->steps steps from starts (NULL: make them on its model) */
static PetscErrorCode CreateProblem(Horizon *h, Vec *starts[], RwProblem *prob)
{
  RwObservations obs;
  RwModel        model;

  PetscFunctionBegin;
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, prob));
  PetscCall(RwProblemSetModelType(*prob, RWMODELL96));
  PetscCall(RwProblemSetAdjointDefaults(*prob, SetWindow, h));
  PetscCall(RwProblemSetObjectiveTerms(*prob, AddAverage, NULL));
  PetscCall(RwProblemGetModel(*prob, &model));
  if (!*starts) {
    PetscReal dt;
    Vec       m, u0;
    PetscBool help;

    PetscCall(RwModelGetTimeStep(model, &dt));
    PetscCall(RwModelCreateParameters(model, &m));
    PetscCall(RwModelCreateState(model, &u0));
    PetscCall(RwModelGetDefaults(model, m, u0, NULL));
    PetscCall(PetscMalloc1(h->members, starts));
    for (PetscInt i = 0; i < h->members; i++) PetscCall(VecDuplicate(u0, &(*starts)[i]));
    PetscCall(PetscOptionsHasHelp(NULL, &help)); /* -help solves nothing: the starts are the default start */
    PetscCall(RwHorizonWindowStarts(model, m, u0, help ? 0 : (PetscInt64)PetscFloorReal(h->spinup / dt + 0.5), help ? 1 : PetscMax(1, (PetscInt64)PetscFloorReal(h->spacing / dt + 0.5)), help ? 1 : h->members, *starts));
    for (PetscInt i = 1; help && i < h->members; i++) PetscCall(VecCopy((*starts)[0], (*starts)[i]));
    PetscCall(VecDestroy(&m));
    PetscCall(VecDestroy(&u0));
  }
  PetscCall(RwObservationsCreate(PETSC_COMM_WORLD, &obs));
  PetscCall(RwObservationsSetModel(obs, model));
  PetscCall(RwObservationsSetNumMembers(obs, h->members));
  for (PetscInt i = 0; i < h->members; i++) PetscCall(RwObservationsSetKnown(obs, i, "u0", (*starts)[i]));
  PetscCall(RwProblemSetObservations(*prob, obs));
  PetscCall(RwObservationsDestroy(&obs));
  PetscCall(RwProblemSetFromOptions(*prob));
  PetscCall(RwProblemSetUp(*prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One row of the table: the ensemble of windows of length T */
static PetscErrorCode Row(Horizon *h, PetscReal T, PetscReal dt, Vec starts[])
{
  RwProblem  prob;
  RwEstimate est;

  PetscFunctionBegin;
  h->steps = (PetscInt64)PetscFloorReal(T / dt + 0.5);
  PetscCheck(h->steps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_horizon_windows: a window of %g is shorter than a step of %g", (double)T, (double)dt);
  PetscCall(CreateProblem(h, &starts, &prob));
  PetscCall(RwHorizonEnsembleSensitivity(prob, h->param, 0, &est));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%8g %7" PetscInt64_FMT "  %12.5g +- %-10.3g %10.3g   %12.5g +- %-10.3g %10.5g\n", (double)T, h->steps, (double)est.value, (double)est.error, (double)(est.error * PetscSqrtReal((PetscReal)est.members)), (double)est.x0norm, (double)est.x0error, (double)est.J));
  PetscCall(RwProblemDestroy(&prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Kaplan-Yorke dimension of decreasing exponents: k + S_k / |l_k+1|, S_k the largest
   nonnegative partial sum; -1 when the exponents given do not reach a negative partial sum */
static PetscReal KaplanYorke(PetscInt p, const PetscReal l[])
{
  PetscReal S = 0;

  for (PetscInt k = 0; k < p; k++) {
    if (S + l[k] < 0) return k + S / PetscAbsReal(l[k]);
    S += l[k];
  }
  return -1;
}

static int Descending(const void *a, const void *b)
{
  const PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The first p exponents along the run from the first window's start: one block of transient, then the blocks */
static PetscErrorCode Exponents(Horizon *h, PetscReal dt, Vec starts[])
{
  RwProblem  prob;
  RwModel    model;
  RwAdjoint  adj;
  RwEnsemble ens;
  PetscInt   g, groups, npos = 0;
  PetscInt64 blen = (PetscInt64)PetscFloorReal(h->block / dt + 0.5);
  PetscReal *ex, *er, *sorted, sum = 0, possum = 0, ky;
  PetscInt64 interval = 10;
  Vec        m, u0;

  PetscFunctionBegin;
  PetscCheck(blen >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_horizon_exponents_block %g is shorter than a step of %g", (double)h->block, (double)dt);
  while (blen % interval) interval--; /* renormalise every 10 steps or a divisor of the block below it */
  h->steps = blen * (h->nblocks + 1);
  PetscCall(CreateProblem(h, &starts, &prob));
  PetscCall(RwProblemGetEnsemble(prob, &ens));
  PetscCall(RwEnsembleGetGroup(ens, &g, &groups));
  PetscCheck(groups == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_horizon_exponents runs one trajectory on all ranks: give it without -rw_ensemble_groups (%" PetscInt_FMT ")", groups);
  PetscCall(RwProblemGetMemberSolver(prob, &model, NULL, &adj));
  PetscCall(RwProblemGetMemberParameters(prob, 0, &m, &u0));
  PetscCall(PetscMalloc3(h->nexp, &ex, h->nexp, &er, h->nexp, &sorted));
  PetscCall(RwHorizonLyapunovSpectrum(adj, m, u0, h->nexp, blen, interval, h->nblocks, ex, er));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Lyapunov exponents (QR method): %" PetscInt_FMT " over %g time units (%" PetscInt_FMT " blocks of %g after one of transient), mean +- standard error\n", h->nexp, (double)(h->nblocks * blen * dt), h->nblocks, (double)(blen * dt)));
  for (PetscInt j = 0; j < h->nexp; j++) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  lambda_%-3" PetscInt_FMT " %10.4f +- %.4f\n", j + 1, (double)ex[j], (double)er[j]));
    sum += ex[j];
    npos += ex[j] > 0;
    possum += PetscMax(ex[j], 0);
    sorted[j] = ex[j];
  }
  qsort(sorted, (size_t)h->nexp, sizeof(sorted[0]), Descending);
  ky = KaplanYorke(h->nexp, sorted);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "positive exponents: %" PetscInt_FMT " of %" PetscInt_FMT " (their sum %.4f); the sum of all %.4f; Kaplan-Yorke dimension %s", npos, h->nexp, (double)possum, (double)sum, ky < 0 ? "beyond these exponents" : ""));
  if (ky >= 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%.2f", (double)ky));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscCall(PetscFree3(ex, er, sorted));
  PetscCall(RwProblemDestroy(&prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* d<J>/dp by NILSS: runs one after the other along the trajectory from the first window's start */
static PetscErrorCode Shadowing(Horizon *h, PetscReal dt, Vec starts[])
{
  RwProblem  prob;
  RwModel    model;
  RwAdjoint  adj;
  RwEnsemble ens;
  RwEstimate est;
  PetscInt   g, groups;
  PetscInt64 seglen = (PetscInt64)PetscFloorReal(h->sseg / dt + 0.5);
  Vec        m, u0, *runs;

  PetscFunctionBegin;
  h->steps = (PetscInt64)PetscFloorReal(h->stime / dt + 0.5);
  PetscCall(CreateProblem(h, &starts, &prob));
  PetscCall(RwProblemGetEnsemble(prob, &ens));
  PetscCall(RwEnsembleGetGroup(ens, &g, &groups));
  PetscCheck(groups == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_horizon_shadowing runs one trajectory on all ranks: give it without -rw_ensemble_groups (%" PetscInt_FMT ")", groups);
  PetscCall(RwProblemGetMemberSolver(prob, &model, NULL, &adj));
  PetscCall(RwProblemGetMemberParameters(prob, 0, &m, &u0));
  PetscCall(VecDuplicateVecs(u0, h->sruns, &runs));
  PetscCall(RwHorizonWindowStarts(model, m, u0, 0, h->steps, h->sruns, runs));
  PetscCall(RwHorizonShadowingSensitivity(adj, m, h->sruns, runs, h->param, 0, h->shadow, seglen, &est));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "NILSS d<J>/d%s = %.5g +- %.2g (%" PetscInt_FMT " runs of %g time units, segments of %g, %" PetscInt_FMT " homogeneous tangents: %" PetscInt_FMT " tangent steps a forward step; %" PetscInt64_FMT " model steps in all)\n", h->param, (double)est.value, (double)est.error, h->sruns, (double)(h->steps * dt), (double)(seglen * dt), h->shadow, h->shadow + 1, est.steps));
  PetscCall(VecDestroyVecs(h->sruns, &runs));
  PetscCall(RwProblemDestroy(&prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Horizon   h;
  RwProblem first;
  RwModel   model;
  Vec      *starts = NULL;
  PetscReal dt;
  PetscBool stop;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&h, sizeof(h)));
  PetscCall(ReadOptions(&h));
  h.steps = 1; /* the first problem: the starts, every option read for -help */
  PetscCall(CreateProblem(&h, &starts, &first));
  PetscCall(RwProblemGetModel(first, &model));
  PetscCall(RwModelGetTimeStep(model, &dt));
  PetscCall(RwHelpStop(PETSC_COMM_WORLD, &stop));
  PetscCall(RwProblemDestroy(&first));
  if (!stop) {
    char col[80];

    PetscCall(PetscSNPrintf(col, sizeof(col), "dJ/d%s", h.param));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "horizon table: J the time average of the mean state over a window; %" PetscInt_FMT " windows a length, starting every %g time units after %g; dt %g\n", h.members, (double)h.spacing, (double)h.spinup, (double)dt));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%8s %7s  %12s    %-10s %10s   %12s    %-10s %10s\n", "window", "steps", col, "error", "spread", "|dJ/dx0|", "error", "mean J"));
    for (PetscInt i = 0; i < h.nwindows; i++) PetscCall(Row(&h, h.windows[i], dt, starts));
    if (h.nexp) PetscCall(Exponents(&h, dt, starts));
    if (h.shadow) PetscCall(Shadowing(&h, dt, starts));
  }
  for (PetscInt i = 0; i < h.members; i++) PetscCall(VecDestroy(&starts[i]));
  PetscCall(PetscFree(starts));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
