static char help[] = "rewind-heat-inverse: recover a hidden field of the heat model from sparse, noisy sensors with PETSc TAO.\n"
                     "Without input files it solves an embedded problem: a 128 x 128 conductivity with three\n"
                     "inclusions, four heating experiments, 100 sensors read at each of 30 steps, 1% noise.\n\n"
                     "  -rw_invert kappa|s|u0     what to recover: conductivity, source, or initial state\n"
                     "  -rw_obs file.h5           observations (schema in doc/inverse.md) instead of the embedded problem\n"
                     "  -rw_obs_write file.h5     write the embedded problem's observations in that schema\n"
                     "  -rw_kappa0 file.h5        starting conductivity (dataset /kappa); default uniform 1\n"
                     "  -rw_kappa0_clip           clip a -rw_kappa0 start outside the bounds (default: refuse it)\n"
                     "  -rw_kappa_min, -rw_kappa_max   bounds on kappa (default 0.05, 10)\n"
                     "  -rw_reg_type l2|h1|tv     regulariser (default tv for kappa, h1 otherwise), -rw_reg_alpha weight, -rw_reg_tv_eps smoothing\n"
                     "  -rw_output prefix         write prefix.h5 and prefix.xmf (fields, history); plot with jobs/plot_inverse.py\n"
                     "  -rw_restart               resume a killed run from its journal of evaluations (doc/problem.md)\n"
                     "  -rw_journal dir           that journal (default prefix.state, or rewind-heat-inverse.state without -rw_output);\n"
                     "                            removed when the run completes unless -rw_journal_keep; an existing one is\n"
                     "                            refused without -rw_restart unless -rw_journal_overwrite\n"
                     "  -rw_history_view ascii|hdf5:file   the history of the iterations (J, misfit, regularizer, |g|, seconds, error)\n"
                     "  -rw_ensemble_groups g     solve the experiments g at a time on g groups of the ranks (default 1); the same\n"
                     "                            result for explicit schemes, to solver tolerance for implicit ones (doc/ensemble.md)\n"
                     "TAO: -tao_type (default blmvm), -tao_max_it (default 30), -tao_monitor, ...\n"
                     "Checkpointing: -rw_schedule_type, -rw_schedule_ram_slots, -rw_checkpoint_ram, -rw_store_type, ...\n\n";

#include "heatinverse/inverse.h"
#include "common/plot.h"

typedef struct {
  char      obs[PETSC_MAX_PATH_LEN], obswrite[PETSC_MAX_PATH_LEN], kappa0[PETSC_MAX_PATH_LEN], output[PETSC_MAX_PATH_LEN];
  PetscReal kmin, kmax;
  PetscBool kclip; /* -rw_kappa0_clip */
  PetscBool png;   /* -rw_output_png */
} AppOptions;

static PetscErrorCode ReadOptions(Inverse *inv, AppOptions *o)
{
  PetscInt target = INV_KAPPA;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(o, sizeof(*o)));
  o->kmin = 0.05;
  o->kmax = 10;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-heat-inverse options", "rewind");
  PetscCall(PetscOptionsEList("-rw_invert", "Field to recover", NULL, InvTargets, 3, InvTargets[target], &target, NULL));
  PetscCall(PetscOptionsString("-rw_obs", "Observations (HDF5, doc/observations.md); default: the embedded problem", NULL, o->obs, o->obs, sizeof(o->obs), NULL));
  PetscCall(PetscOptionsString("-rw_obs_write", "Write the embedded problem's observations to this HDF5 file", NULL, o->obswrite, o->obswrite, sizeof(o->obswrite), NULL));
  PetscCall(PetscOptionsString("-rw_kappa0", "Starting conductivity (HDF5 file with dataset /kappa)", NULL, o->kappa0, o->kappa0, sizeof(o->kappa0), NULL));
  PetscCall(PetscOptionsBool("-rw_kappa0_clip", "Clip a -rw_kappa0 start outside the bounds (with a warning) instead of refusing it", NULL, o->kclip, &o->kclip, NULL));
  PetscCall(RwOptionsReal("-rw_kappa_min", "Lower bound on kappa", NULL, o->kmin, &o->kmin, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_kappa_max", "Upper bound on kappa", NULL, o->kmax, &o->kmax, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  inv->discrepancy = 1.0;
  PetscCall(RwOptionsReal("-rw_inv_discrepancy", "Stop when the data misfit reaches tau times its expected value at the noise level (discrepancy principle; 1: at the noise level; 0: off)", NULL, inv->discrepancy, &inv->discrepancy, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(PetscOptionsString("-rw_output", "Prefix of the output files (prefix.h5, prefix.xmf)", NULL, o->output, o->output, sizeof(o->output), NULL));
  PetscCall(PetscOptionsBool("-rw_output_png", "With -rw_output: also draw prefix.png (jobs/plot_inverse.py, by the Python configure found)", NULL, o->png, &o->png, NULL));
  /* the journal's options are the library's now */
  PetscCall(PetscOptionsDeprecated("-rw_inverse_state", "-rw_journal", "0.2", NULL));
  PetscCall(PetscOptionsDeprecated("-rw_inverse_state_keep", "-rw_journal_keep", "0.2", NULL));
  PetscCall(PetscOptionsDeprecated("-rw_inverse_state_overwrite", "-rw_journal_overwrite", "0.2", NULL));
  PetscOptionsEnd();
  PetscCheck(!o->png || o->output[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_output_png draws the result that -rw_output writes: give -rw_output prefix too");
  PetscCheck(o->kmin > 0 && o->kmax > o->kmin, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "Need 0 < -rw_kappa_min (%g) < -rw_kappa_max (%g)", (double)o->kmin, (double)o->kmax);
  PetscCheck(!(o->obs[0] && o->obswrite[0]), PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_obs_write writes the embedded problem; it cannot be used with -rw_obs");
  inv->target = (InvTarget)target;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The problem: the experiments (the embedded ones, or -rw_obs), J = their
  sensor misfit + a regulariser of the unknown (tv for kappa, which has
  edges; h1 for the smooth s and u0; -rw_reg_* change it), the journal
*/
static PetscErrorCode SetUp(Inverse *inv, AppOptions *o)
{
  char journal[PETSC_MAX_PATH_LEN + 8];

  PetscFunctionBegin;
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &inv->prob));
  PetscCall(RwProblemSetModelType(inv->prob, RWMODELHEAT));
  PetscCall(RwProblemSetModelDefaults(inv->prob, InvModelDefaults, inv));
  PetscCall(RwProblemSetUnknown(inv->prob, InvTargets[inv->target]));
  PetscCall(RwProblemAddRegularizer(inv->prob, NULL, inv->target == INV_KAPPA ? RW_REG_TV : RW_REG_H1, inv->target == INV_KAPPA ? 100 : 1e-3, 0.5, NULL));
  PetscCall(PetscSNPrintf(journal, sizeof(journal), "%s.state", o->output[0] ? o->output : "rewind-heat-inverse"));
  PetscCall(RwProblemSetJournal(inv->prob, journal));
  PetscCall(RwProblemAddHistoryColumn(inv->prob, "error", InvRelativeError, inv));
  PetscCall(RwProblemSetHistoryColumnInfo(inv->prob, "error", "1", "relative error of the iterate ||x - x_true|| / ||x_true|| (-1: no truth)"));
  PetscCall(RwProblemSetFromOptions(inv->prob));
  if (!o->obs[0]) PetscCall(InvCreateDefault(inv));
  PetscCall(RwProblemSetUp(inv->prob));
  PetscCall(RwProblemGetModel(inv->prob, &inv->model));
  PetscCall(RwProblemGetObservations(inv->prob, &inv->obs));
  if (o->obs[0]) {
    PetscBool known;

    PetscCall(RwObservationsGetKnown(inv->obs, 0, "kappa", NULL, NULL, &known));
    PetscCheck(inv->target == INV_KAPPA || known, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "-rw_invert %s recovers a field of a known conductivity: %s has no dataset /kappa", InvTargets[inv->target], o->obs);
    PetscCall(InvReadTruth(inv, o->obs));
  }
  {
    PetscInt         n, ns, nt;
    const PetscInt64 *steps;

    PetscCall(RwObservationsGetNumMembers(inv->obs, &n));
    PetscCall(RwObservationsGetSensors(inv->obs, 0, &ns, NULL));
    PetscCall(RwObservationsGetSteps(inv->obs, &nt, &steps));
    inv->noise = 0.5 * n * ns * nt;
  }
  PetscCall(RwProblemCreateUnknownVector(inv->prob, &inv->x));
  PetscCall(VecDuplicate(inv->x, &inv->xinit));
  PetscCall(VecDuplicate(inv->x, &inv->work));
  PetscCall(VecSet(inv->xinit, inv->target == INV_KAPPA ? 1 : 0));
  if (o->kappa0[0]) {
    PetscCheck(inv->target == INV_KAPPA, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_kappa0 gives the starting conductivity: it needs -rw_invert kappa");
    PetscCall(InvReadStart(inv, o->kappa0, o->kmin, o->kmax, o->kclip));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TAO from the options: the type, bounds and limits of the inversion */
static PetscErrorCode SetUpTao(Inverse *inv, AppOptions *o, Tao *tao)
{
  Vec lb, ub;

  PetscFunctionBegin;
  PetscCall(TaoCreate(PETSC_COMM_WORLD, tao));
  PetscCall(TaoSetType(*tao, TAOBLMVM));
  PetscCall(TaoSetMaximumIterations(*tao, 30));
  PetscCall(TaoSetTolerances(*tao, 1e-12, 1e-9, 0));
  PetscCall(VecCopy(inv->xinit, inv->x));
  PetscCall(TaoSetSolution(*tao, inv->x));
  PetscCall(VecDuplicate(inv->x, &lb));
  PetscCall(VecDuplicate(inv->x, &ub));
  PetscCall(VecSet(lb, inv->target == INV_KAPPA ? o->kmin : PETSC_NINFINITY));
  PetscCall(VecSet(ub, inv->target == INV_KAPPA ? o->kmax : PETSC_INFINITY));
  PetscCall(TaoSetVariableBounds(*tao, lb, ub));
  PetscCall(RwProblemSetUpTao(inv->prob, *tao));
  PetscCall(TaoSetMonitor(*tao, InvMonitor, inv, NULL));
  PetscCall(TaoSetFromOptions(*tao));
  PetscCall(VecDestroy(&lb));
  PetscCall(VecDestroy(&ub));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Why the inversion stopped, in the words its users use */
static const char *StopReason(const Inverse *inv, TaoConvergedReason reason)
{
  if (inv->atnoise) return "the data misfit reached the noise level (discrepancy principle, -rw_inv_discrepancy)";
  switch (reason) {
  case TAO_DIVERGED_MAXITS: return "the iteration limit (-tao_max_it) was reached before the noise level";
  case TAO_DIVERGED_LS_FAILURE: return "no further decrease: the line search failed before the noise level";
  case TAO_DIVERGED_MAXFCN: return "the evaluation limit (-tao_max_funcs) was reached";
  case TAO_CONVERGED_GATOL:
  case TAO_CONVERGED_GRTOL:
  case TAO_CONVERGED_GTTOL: return "the gradient is small: no further decrease is possible at this regularisation";
  case TAO_CONVERGED_STEPTOL:
  case TAO_CONVERGED_MINF: return "no further decrease";
  default: return reason > 0 ? "converged" : "stopped without converging";
  }
}

static PetscErrorCode Summary(Inverse *inv, Tao tao)
{
  TaoConvergedReason reason;
  PetscInt           n;
  PetscReal          m0 = 0, m1 = 0, e0 = 0, e1 = 0, sec = 0;

  PetscFunctionBegin;
  PetscCall(TaoGetConvergedReason(tao, &reason));
  PetscCall(RwProblemGetHistory(inv->prob, &n, NULL, NULL, NULL));
  if (n) {
    PetscCall(InvHistoryValue(inv, "misfit", 0, &m0));
    PetscCall(InvHistoryValue(inv, "misfit", -1, &m1));
    PetscCall(InvHistoryValue(inv, "error", 0, &e0));
    PetscCall(InvHistoryValue(inv, "error", -1, &e1));
    PetscCall(InvHistoryValue(inv, "seconds", -1, &sec));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nrecovered %s in %" PetscInt_FMT " iterations, %.1f s: %s (TAO: %s)\n", InvTargets[inv->target], n ? n - 1 : 0, (double)sec, StopReason(inv, reason), TaoConvergedReasons[reason]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "data misfit %.6e -> %.6e: %.3g x its expected value at the noise level (%g = observations / 2)\n", (double)m0, (double)m1, (double)(m1 / inv->noise), (double)inv->noise));
  if (inv->xtrue && n) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "relative %s error ||x - x_true|| / ||x_true||: %.4f -> %.4f\n", InvTargets[inv->target], (double)e0, (double)e1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Destroy(Inverse *inv)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&inv->x));
  PetscCall(VecDestroy(&inv->xtrue));
  PetscCall(VecDestroy(&inv->xinit));
  PetscCall(VecDestroy(&inv->work));
  /* after the outputs: a run killed before them resumes from its journal */
  PetscCall(RwProblemDestroy(&inv->prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The job itself: everything that -help does not do */
static PetscErrorCode Run(Inverse *inv, AppOptions *o, Tao tao)
{
  PetscFunctionBegin;
  if (o->obswrite[0]) PetscCall(InvWriteObservations(inv, o->obswrite));
  PetscCall(RwProblemSolve(inv->prob, tao));
  PetscCall(RwProblemComplete(inv->prob));
  PetscCall(Summary(inv, tao));
  if (o->output[0]) PetscCall(InvWriteOutput(inv, o->output));
  if (o->png) PetscCall(RwAppPlotOutput("plot_inverse.py", o->output));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Inverse    inv;
  AppOptions o;
  Tao        tao;
  PetscBool  stop;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&inv, sizeof(inv)));
  PetscCall(ReadOptions(&inv, &o));
  PetscCall(SetUp(&inv, &o));
  PetscCall(SetUpTao(&inv, &o, &tao));
  PetscCall(RwHelpStop(PETSC_COMM_WORLD, &stop)); /* every option is read by now */
  if (!stop) PetscCall(Run(&inv, &o, tao));
  PetscCall(TaoDestroy(&tao));
  PetscCall(Destroy(&inv));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD)); /* a misspelled option would otherwise pass in silence */
  PetscCall(PetscFinalize());
  return 0;
}
