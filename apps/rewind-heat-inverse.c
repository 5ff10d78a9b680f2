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
                     "  -rw_restart               resume a killed run from its journal of evaluations (doc/inverse.md)\n"
                     "  -rw_inverse_state dir     that journal (default prefix.state, or rewind-heat-inverse.state without -rw_output);\n"
                     "                            removed when the run completes unless -rw_inverse_state_keep; an existing one is\n"
                     "                            refused without -rw_restart unless -rw_inverse_state_overwrite\n"
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
  PetscInt target = INV_KAPPA, reg;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(o, sizeof(*o)));
  o->kmin    = 0.05;
  o->kmax    = 10;
  inv->tveps = 0.5;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-heat-inverse options", "rewind");
  PetscCall(PetscOptionsEList("-rw_invert", "Field to recover", NULL, InvTargets, 3, InvTargets[target], &target, NULL));
  /* inclusions have edges: total variation; sources and initial states are smooth: h1 */
  reg        = target == INV_KAPPA ? RW_REG_TV : RW_REG_H1;
  inv->alpha = target == INV_KAPPA ? 100 : 1e-3;
  PetscCall(PetscOptionsString("-rw_obs", "Observations (HDF5); default: the embedded problem", NULL, o->obs, o->obs, sizeof(o->obs), NULL));
  PetscCall(PetscOptionsString("-rw_obs_write", "Write the embedded problem's observations to this HDF5 file", NULL, o->obswrite, o->obswrite, sizeof(o->obswrite), NULL));
  PetscCall(PetscOptionsString("-rw_kappa0", "Starting conductivity (HDF5 file with dataset /kappa)", NULL, o->kappa0, o->kappa0, sizeof(o->kappa0), NULL));
  PetscCall(PetscOptionsBool("-rw_kappa0_clip", "Clip a -rw_kappa0 start outside the bounds (with a warning) instead of refusing it", NULL, o->kclip, &o->kclip, NULL));
  PetscCall(PetscOptionsReal("-rw_kappa_min", "Lower bound on kappa", NULL, o->kmin, &o->kmin, NULL));
  PetscCall(PetscOptionsReal("-rw_kappa_max", "Upper bound on kappa", NULL, o->kmax, &o->kmax, NULL));
  PetscCall(PetscOptionsEList("-rw_reg_type", "Regulariser (default tv for kappa, h1 for s and u0)", NULL, RwRegTypes, 4, RwRegTypes[reg], &reg, NULL));
  PetscCall(PetscOptionsReal("-rw_reg_alpha", "Regularisation weight (default 100 for kappa, 1e-3 for s and u0)", NULL, inv->alpha, &inv->alpha, NULL));
  PetscCall(PetscOptionsReal("-rw_reg_tv_eps", "TV smoothing (gradient units)", NULL, inv->tveps, &inv->tveps, NULL));
  inv->discrepancy = 1.0;
  PetscCall(PetscOptionsReal("-rw_inv_discrepancy", "Stop when the data misfit reaches tau times its expected value at the noise level (discrepancy principle; 0: off)", NULL, inv->discrepancy, &inv->discrepancy, NULL));
  PetscCheck(inv->discrepancy >= 0 && PetscIsInfOrNanReal(inv->discrepancy) == PETSC_FALSE, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_inv_discrepancy %g: expected tau >= 0 (1: stop at the noise level, 0: off)", (double)inv->discrepancy);
  PetscCall(PetscOptionsString("-rw_output", "Prefix of the output files (prefix.h5, prefix.xmf)", NULL, o->output, o->output, sizeof(o->output), NULL));
  PetscCall(PetscOptionsBool("-rw_output_png", "With -rw_output: also draw prefix.png (jobs/plot_inverse.py, by the Python configure found)", NULL, o->png, &o->png, NULL));
  PetscOptionsEnd();
  PetscCheck(!o->png || o->output[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_output_png draws the result that -rw_output writes: give -rw_output prefix too");
  PetscCheck(o->kmin > 0 && o->kmax > o->kmin, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "Need 0 < -rw_kappa_min (%g) < -rw_kappa_max (%g)", (double)o->kmin, (double)o->kmax);
  PetscCheck(!(o->obs[0] && o->obswrite[0]), PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_obs_write writes the embedded problem; it cannot be used with -rw_obs");
  inv->target = (InvTarget)target;
  inv->reg    = (RwRegType)reg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  J(x) = sum over experiments of the sensor misfit + R(x), and its gradient:
  one adjoint solve per experiment, the field's part of each gradient summed
  in experiment order, then the regulariser's.  Each solve's result goes to
  the journal before the next starts (with -rw_ensemble_groups g, before the
  next round of g starts); a resumed run takes it from there instead of
  solving, and the sums come out bit for bit the same.
*/
static PetscErrorCode FormFunctionGradient(Tao tao, Vec x, PetscReal *f, Vec G, void *ctx)
{
  Inverse *inv = (Inverse *)ctx;

  PetscFunctionBegin;
  PetscCall(VecSet(G, 0));
  inv->misfit = 0;
  PetscCall(RwAppJournalBeginEvaluation(inv->journal, x, 0));
  PetscCall(InvEvaluate(inv, x, G));
  PetscCall(RwAppJournalEndEvaluation(inv->journal));
  PetscCall(RwRegularize(inv->model, inv->reg, inv->alpha, inv->tveps, x, inv->xinit, &inv->R, inv->gx));
  PetscCall(VecAXPY(G, 1, inv->gx));
  *f = inv->misfit + inv->R;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The compact progress line and the history (the TAO monitors run too, if asked) */
static PetscErrorCode Monitor(Tao tao, void *ctx)
{
  Inverse  *inv = (Inverse *)ctx;
  PetscInt  it;
  PetscReal f, gnorm;

  PetscFunctionBegin;
  PetscCall(TaoGetSolutionStatus(tao, &it, &f, &gnorm, NULL, NULL, NULL));
  PetscCall(InvHistoryRecord(inv, it, f, gnorm));
  /* the discrepancy principle: fitting the data closer than the noise fits the noise */
  if (inv->discrepancy > 0 && inv->misfit <= inv->discrepancy * 0.5 * inv->nexp * inv->nobs) {
    inv->atnoise = PETSC_TRUE;
    PetscCall(TaoSetConvergedReason(tao, TAO_CONVERGED_USER));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUp(Inverse *inv, AppOptions *o)
{
  PetscInt64 n;

  PetscFunctionBegin;
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, &inv->model));
  PetscCall(RwModelSetType(inv->model, RWMODELHEAT));
  PetscCall(InvModelDefaults(&inv->defaults, inv->model));
  PetscCall(RwModelSetFromOptions(inv->model));
  PetscCall(RwModelSetUp(inv->model));
  PetscCall(RwModelCreateState(inv->model, &inv->x));
  PetscCall(VecDuplicate(inv->x, &inv->xinit));
  PetscCall(VecDuplicate(inv->x, &inv->gx));
  PetscCall(VecDuplicate(inv->x, &inv->gu0));
  PetscCall(RwModelCreateParameters(inv->model, &inv->g));
  /* the driver owns -rw_steps; the observations must lie within its run.  One
     objective serves every experiment: its data are swapped in before each solve */
  PetscCall(RwObjectiveCreate(inv->model, &inv->obj));
  PetscCall(RwAdjointCreate(inv->model, inv->obj, &inv->adj));
  PetscCall(RwAdjointSetFromOptions(inv->adj));
  PetscCall(RwAdjointGetSteps(inv->adj, &n));
  inv->nexp = 4;
  if (o->obs[0]) PetscCall(InvReadObservations(inv, o->obs, n));
  else PetscCall(InvCreateDefault(inv, n));
  PetscCall(VecSet(inv->xinit, inv->target == INV_KAPPA ? 1 : 0));
  if (o->kappa0[0]) {
    PetscCheck(inv->target == INV_KAPPA, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_kappa0 gives the starting conductivity: it needs -rw_invert kappa");
    PetscCall(InvReadStart(inv, o->kappa0, o->kmin, o->kmax, o->kclip));
  }
  {
    PetscReal *zero;
    PetscCall(PetscCalloc1(inv->nobs, &zero));
    PetscCall(RwObjectiveAddSensors(inv->obj, inv->nsensors, inv->coords, inv->ntimes, inv->steps, zero, 1.0));
    PetscCall(PetscFree(zero));
  }
  PetscCall(InvSetActive(inv, inv->model));
  PetscCall(RwAdjointSetUp(inv->adj));
  if (!o->obs[0]) PetscCall(InvSynthesize(inv, 20261130));
  if (o->obswrite[0]) PetscCall(InvWriteObservations(inv, o->obswrite));
  PetscCall(InvGroupSetUp(inv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Solve(Inverse *inv, AppOptions *o, Tao *tao)
{
  Vec lb, ub;

  PetscFunctionBegin;
  PetscCall(TaoCreate(PETSC_COMM_WORLD, tao));
  PetscCall(TaoSetType(*tao, TAOBLMVM));
  PetscCall(TaoSetMaximumIterations(*tao, 30));
  PetscCall(TaoSetTolerances(*tao, 1e-12, 1e-9, 0));
  PetscCall(VecCopy(inv->xinit, inv->x));
  PetscCall(TaoSetSolution(*tao, inv->x));
  PetscCall(TaoSetObjectiveAndGradient(*tao, NULL, FormFunctionGradient, inv));
  PetscCall(VecDuplicate(inv->x, &lb));
  PetscCall(VecDuplicate(inv->x, &ub));
  PetscCall(VecSet(lb, inv->target == INV_KAPPA ? o->kmin : PETSC_NINFINITY));
  PetscCall(VecSet(ub, inv->target == INV_KAPPA ? o->kmax : PETSC_INFINITY));
  PetscCall(TaoSetVariableBounds(*tao, lb, ub));
  PetscCall(TaoSetMonitor(*tao, Monitor, inv, NULL));
  PetscCall(TaoSetFromOptions(*tao));
  PetscCall(InvJournalSetUp(inv, *tao, o->output));
  PetscCall(PetscTime(&inv->t0));
  PetscCall(TaoSolve(*tao));
  PetscCall(RwAppJournalComplete(inv->journal));
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
  InvHistory        *h = &inv->hist;
  PetscReal          noise = 0.5 * inv->nexp * inv->nobs;

  PetscFunctionBegin;
  PetscCall(TaoGetConvergedReason(tao, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nrecovered %s in %" PetscInt_FMT " iterations, %.1f s: %s (TAO: %s)\n", InvTargets[inv->target], h->n ? h->n - 1 : 0, h->n ? (double)h->seconds[h->n - 1] : 0.0, StopReason(inv, reason), TaoConvergedReasons[reason]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "data misfit %.6e -> %.6e: %.3g x its expected value at the noise level (%g = observations / 2)\n", h->n ? (double)h->misfit[0] : 0.0, h->n ? (double)h->misfit[h->n - 1] : 0.0, h->n ? (double)(h->misfit[h->n - 1] / noise) : 0.0, (double)noise));
  if (inv->xtrue && h->n) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "relative %s error ||x - x_true|| / ||x_true||: %.4f -> %.4f\n", InvTargets[inv->target], (double)h->error[0], (double)h->error[h->n - 1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Destroy(Inverse *inv)
{
  PetscFunctionBegin;
  /* after the outputs: a run killed before them resumes from its journal */
  PetscCall(RwAppJournalDestroy(&inv->journal));
  PetscCall(InvGroupDestroy(inv));
  for (PetscInt e = 0; e < inv->nexp; e++) {
    PetscCall(VecDestroy(&inv->exp[e].m));
    PetscCall(VecDestroy(&inv->exp[e].u0));
    PetscCall(PetscFree(inv->exp[e].data));
  }
  PetscCall(PetscFree(inv->coords));
  PetscCall(PetscFree(inv->steps));
  PetscCall(PetscFree(inv->hist.J));
  PetscCall(PetscFree(inv->hist.misfit));
  PetscCall(PetscFree(inv->hist.gnorm));
  PetscCall(PetscFree(inv->hist.error));
  PetscCall(PetscFree(inv->hist.seconds));
  PetscCall(VecDestroy(&inv->x));
  PetscCall(VecDestroy(&inv->xtrue));
  PetscCall(VecDestroy(&inv->xinit));
  PetscCall(VecDestroy(&inv->g));
  PetscCall(VecDestroy(&inv->gu0));
  PetscCall(VecDestroy(&inv->gx));
  PetscCall(RwAdjointDestroy(&inv->adj));
  PetscCall(RwObjectiveDestroy(&inv->obj));
  PetscCall(RwModelDestroy(&inv->model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Inverse    inv;
  AppOptions o;
  Tao        tao;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&inv, sizeof(inv)));
  PetscCall(ReadOptions(&inv, &o));
  PetscCall(InvReadDefaults(&inv.defaults, o.obs));
  PetscCall(SetUp(&inv, &o));
  PetscCall(Solve(&inv, &o, &tao));
  PetscCall(Summary(&inv, tao));
  if (o.output[0]) PetscCall(InvWriteOutput(&inv, o.output));
  if (o.png) {
    char h5[PETSC_MAX_PATH_LEN], png[PETSC_MAX_PATH_LEN];
    PetscCall(PetscSNPrintf(h5, sizeof(h5), "%s.h5", o.output));
    PetscCall(PetscSNPrintf(png, sizeof(png), "%s.png", o.output));
    PetscCall(RwAppPlot("-rw_output_png", "plot_inverse.py", h5, png));
  }
  PetscCall(TaoDestroy(&tao));
  PetscCall(Destroy(&inv));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD)); /* a misspelled option would otherwise pass in silence */
  PetscCall(PetscFinalize());
  return 0;
}
