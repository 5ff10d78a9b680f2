static char help[] = "rewind-hybrid: learn the reaction term of a reaction-diffusion system from observed\n"
                     "trajectories with a pointwise network inside the heat model (-rw_heat_nn), trained\n"
                     "through the checkpointed adjoint.  Embedded problem: Fisher-KPP on the periodic unit\n"
                     "square, true reaction rho u (1 - u), trajectories from Gaussian bumps, observed every\n"
                     "few steps; J = 1/2 h^2 sum over trajectories, observed steps and points of (u - d)^2.\n\n"
                     "  -rw_hybrid_trajectories <4>   training trajectories (ensemble members: -rw_ensemble_groups)\n"
                     "  -rw_hybrid_steps <40>         steps per trajectory; -rw_hybrid_dt <0.025>\n"
                     "  -rw_hybrid_observe_every <4>  observe every this many steps\n"
                     "  -rw_hybrid_rho <5> -rw_hybrid_kappa <1e-3>   the true reaction rate and conductivity\n"
                     "  -rw_hybrid_grid <32>          grid points per direction\n"
                     "  -rw_hybrid_optimizer <tao|adam> -rw_hybrid_epochs <100>\n"
                     "  -rw_hybrid_lr <0.01> -rw_hybrid_lr_decay <1>   Adam's learning rate lr decay^epoch (-tao_adam_learning_rate*)\n"
                     "  -rw_hybrid_train_kappa        learn a uniform kappa too (as log kappa)\n"
                     "  -rw_hybrid_kappa0 <kappa>     its initial guess (default the true kappa)\n"
                     "  -rw_hybrid_seed <1>           initial states; -rw_nn_seed, -rw_nn_layers, -rw_nn_weights for the network\n"
                     "  -rw_obs file.h5               trajectories from a file (experiments schema, doc/observations.md) instead\n"
                     "  -rw_obs_write file.h5         write the embedded trajectories in that schema (rewind-gradient -rw_obs reads it)\n"
                     "  -rw_output <name>             name.h5: theta, theta_initial, gradient_first, /history, learned and true reaction\n"
                     "  -rw_output_png                with -rw_output: also draw name.png (jobs/plot_hybrid.py, by the Python configure found)\n"
                     "  -rw_restart                   resume a killed run from its journal of evaluations (doc/problem.md)\n"
                     "  -rw_journal dir               that journal (default name.state with -rw_output name, else none); removed when\n"
                     "                                the run completes unless -rw_journal_keep (-rw_journal_overwrite: discard one)\n"
                     "  -rw_history_view ascii|hdf5:file   the history of the iterations (J, misfit, |g|, seconds)\n"
                     "TAO: -tao_type (default lmvm, blmvm with -rw_hybrid_train_kappa, adam with -rw_hybrid_optimizer adam), -tao_monitor, ...\n\n";

#include "hybrid/hybrid.h"
#include "common/plot.h"

static PetscErrorCode ReadOptions(Hybrid *h)
{
  const char *const opt[] = {"tao", "adam"};
  PetscInt          which = 0;

  PetscFunctionBegin;
  h->ntraj = 4, h->nsteps = 40, h->every = 4, h->epochs = 100, h->grid = 32, h->seed = 1;
  h->rho = 5, h->kappa = 1e-3, h->dt = 0.025, h->lr = 0.01, h->decay = 1;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-hybrid options", "rewind");
  PetscCall(RwOptionsInt("-rw_hybrid_trajectories", "Training trajectories", NULL, h->ntraj, &h->ntraj, NULL, 1, 1000000));
  PetscCall(RwOptionsInt64("-rw_hybrid_steps", "Steps per trajectory", NULL, h->nsteps, &h->nsteps, NULL, 1, 1000000));
  PetscCall(RwOptionsInt("-rw_hybrid_observe_every", "Observe every this many steps", NULL, h->every, &h->every, NULL, 1, 1000000));
  PetscCall(RwOptionsInt("-rw_hybrid_epochs", "Epochs (TAO iterations or Adam steps)", NULL, h->epochs, &h->epochs, NULL, 0, 1000000));
  PetscCall(RwOptionsInt("-rw_hybrid_grid", "Grid points per direction", NULL, h->grid, &h->grid, NULL, 4, 65536));
  PetscCall(RwOptionsInt64("-rw_hybrid_seed", "Seed of the initial states", NULL, h->seed, &h->seed, NULL, 0, RW_INT64_MAX));
  PetscCall(RwOptionsReal("-rw_hybrid_rho", "True reaction rate rho", NULL, h->rho, &h->rho, NULL, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_hybrid_kappa", "Conductivity kappa", NULL, h->kappa, &h->kappa, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_hybrid_dt", "Time step", NULL, h->dt, &h->dt, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_hybrid_lr", "Adam's learning rate (default of -tao_adam_learning_rate; a negative one would climb)", NULL, h->lr, &h->lr, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_hybrid_lr_decay", "Adam's learning rate decay per epoch, lr decay^epoch (default of -tao_adam_learning_rate_decay)", NULL, h->decay, &h->decay, NULL, 0, 1, RW_RANGE_OPEN_LO));
  PetscCall(PetscOptionsEList("-rw_hybrid_optimizer", "tao (quasi-Newton, any -tao_type) or adam (-tao_type adam)", NULL, opt, 2, opt[0], &which, NULL));
  PetscCall(PetscOptionsBool("-rw_hybrid_train_kappa", "Learn a uniform kappa too", NULL, h->trainkappa, &h->trainkappa, NULL));
  h->kappa0 = h->kappa;
  PetscCall(RwOptionsReal("-rw_hybrid_kappa0", "Initial guess of a learned kappa (-rw_hybrid_train_kappa; default the true kappa)", NULL, h->kappa0, &h->kappa0, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(PetscOptionsString("-rw_obs_write", "Write the embedded trajectories to this HDF5 file (experiments schema)", NULL, h->obswrite, h->obswrite, sizeof(h->obswrite), NULL));
  PetscCall(PetscOptionsString("-rw_output", "Write name.h5", NULL, h->output, h->output, sizeof(h->output), NULL));
  PetscCall(PetscOptionsBool("-rw_output_png", "With -rw_output: also draw name.png (jobs/plot_hybrid.py, by the Python configure found)", NULL, h->png, &h->png, NULL));
  PetscCheck(!h->png || h->output[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_output_png draws the result that -rw_output writes: give -rw_output name too");
  PetscOptionsEnd();
  PetscCheck(h->kappa > 0 && h->kappa0 > 0 && h->dt > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_hybrid_kappa %g, -rw_hybrid_kappa0 %g and -rw_hybrid_dt %g must be positive", (double)h->kappa, (double)h->kappa0, (double)h->dt);
  h->adam = which == 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The job itself: everything that -help does not do */
static PetscErrorCode Run(Hybrid *h)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Fisher-KPP: %" PetscInt_FMT "^2 grid, %" PetscInt_FMT " trajectories of %" PetscInt64_FMT " steps (dt %g), observed every %" PetscInt_FMT ", rho %g, kappa %g; %" PetscInt_FMT " weights, %s, %" PetscInt_FMT " group(s)\n", h->grid,
                        h->ntraj, h->nsteps, (double)h->dt, h->every, (double)h->rho, (double)h->kappa, h->P, h->adam ? "Adam" : "TAO", h->ngroups));
  PetscCall(HybTrain(h));
  PetscCall(HybReport(h)); /* and the output */
  if (h->png) PetscCall(RwAppPlotOutput("plot_hybrid.py", h->output));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Hybrid    h;
  PetscBool stop;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&h, sizeof(h)));
  PetscCall(ReadOptions(&h));
  PetscCall(HybSetUp(&h));
  PetscCall(HybSetUpTraining(&h));
  PetscCall(RwHelpStop(PETSC_COMM_WORLD, &stop)); /* every option is read by now */
  if (!stop) PetscCall(Run(&h));
  PetscCall(HybDestroy(&h));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
