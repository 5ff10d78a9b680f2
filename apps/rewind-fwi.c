static char help[] = "rewind-fwi: full-waveform inversion of the acoustic wave model, 2D or 3D (doc/wave.md).\n"
                     "Embedded default problem: a layered model (a dipping interface, a fast body), shots near\n"
                     "the top, a line (2D) or grid (3D) of receivers, observed data from the true model with\n"
                     "noise, a smoothed start. Or field data: observations and a starting model from files.\n"
                     "TAO bounded quasi-Newton (BLMVM) on m = 1/c^2 with frequency continuation. Shots run on\n"
                     "groups of ranks (RwEnsemble); J and the gradient are summed in shot order.\n\n"
                     "  -rw_fwi_dim 2|3              dimension of the embedded problem (default 2; files give theirs)\n"
                     "  -rw_fwi_grid nx,nz[,...]     physical grid points (default 101,51; 3D 31,31,21), x first, depth last\n"
                     "  -rw_fwi_spacing h            grid spacing in m (default 20, or the starting model's)\n"
                     "  -rw_fwi_origin x,z[,...]     the physical region's first point (default 0, or the starting model's)\n"
                     "  -rw_fwi_obs FILE[,FILE...]   observations: rewind's HDF5 schema (doc/wave.md), or SEG-Y shot\n"
                     "                               gathers (3D: with -rw_fwi_dim 3): several files or a pattern obs-shot%d.sgy\n"
                     "  -rw_fwi_start SPEC           starting velocity: file.h5:dataset (physical region or whole\n"
                     "                               grid, C order x last) or a SEG-Y depth section (a trace a column)\n"
                     "  -rw_fwi_true SPEC            a known true velocity (same forms) for the model error\n"
                     "  -rw_fwi_shots n              shots of the embedded problem (default 8; 3D 4); with -rw_fwi_obs,\n"
                     "                               the shots the files must hold\n"
                     "  -rw_fwi_receiver_spacing d   receivers every d m (default 40)\n"
                     "  -rw_fwi_offset_max d         a moving spread: each shot's receivers within d m of it (default 0: all)\n"
                     "  -rw_fwi_record T             record length in ms (default 1000)\n"
                     "  -rw_fwi_bands f1,f2,...      low-pass corners in kHz, 0 = the full band (default 0.004,0)\n"
                     "  -rw_fwi_iterations k         TAO iterations per band (default 10)\n"
                     "  -rw_fwi_noise s              noise, relative to the largest observed sample (default 0.01)\n"
                     "  -rw_fwi_smooth r             the embedded start: the truth smoothed over r m (default 150)\n"
                     "  -rw_fwi_cmin, -rw_fwi_cmax   bounds on the velocity (km/s, default 1.4, 4)\n"
                     "  -rw_fwi_water c              top levels whose starting velocity is c everywhere are held (default 1.5)\n"
                     "  -rw_ensemble_groups G        shot groups (default gcd(ranks, shots); -rw_fwi_shot_groups is deprecated)\n"
                     "  -rw_obs_write obs.h5         write the observations (HDF5, with c_true and c_start) and\n"
                     "                               obs-shot<i>.sgy, obs-start.sgy, obs-true.sgy\n"
                     "  -rw_output prefix            write prefix.h5 / prefix.xmf (c_true, c_start, c_recovered,\n"
                     "                               gradient of the first iteration, history) and prefix-gather.h5\n"
                     "  -rw_output_png               with -rw_output: also draw prefix-models.png, prefix-gather.png and\n"
                     "                               prefix-history.png (jobs/plot_fwi.py, by the Python configure found)\n"
                     "  -rw_restart                  resume a killed run from its journal of evaluations, bit for bit (doc/problem.md)\n"
                     "  -rw_journal dir              that journal (default prefix.state with -rw_output; none without either);\n"
                     "                               -rw_journal_keep keeps it after the run, -rw_journal_overwrite discards one\n"
                     "  -rw_history_view ascii|hdf5:file   the history of the iterations (band = solve, J, |g|, seconds, error)\n"
                     "Wave options (-rw_wave_space_order, -rw_wave_nbl (default 20; 3D 10), -rw_wave_f0, -rw_dt) and\n"
                     "checkpointing (-rw_schedule_type, -rw_store_type hdf5: a file per group) apply to every shot;\n"
                     "-rw_checkpoint_ram B alone: every state if they fit in B bytes a rank, else the multilevel schedule\n"
                     "in B bytes with hdf5 beyond it.\n\n";

#include "fwi/fwi.h"
#include "common/plot.h"

static PetscErrorCode ReadGrid(Fwi *f, PetscOptionItems *PetscOptionsObject)
{
  PetscInt  n = 3, g[3];
  PetscReal o[3] = {0, 0, 0};
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(RwOptionsIntArray("-rw_fwi_grid", "Physical grid points, x first, depth last", NULL, g, &n, &f->gridset, 8, PETSC_MAX_INT));
  if (f->gridset) {
    PetscCheck(n == f->dim, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-rw_fwi_grid: %" PetscInt_FMT " values for a %" PetscInt_FMT "D problem: expected %" PetscInt_FMT, n, f->dim, f->dim);
    for (PetscInt d = 0; d < f->dim; d++) f->n[d] = g[d];
    PetscCall(RwCheckArraySize(PETSC_COMM_WORLD, "the velocity models of the physical grid", 3.0 * g[0] * g[1] * (f->dim > 2 ? g[2] : 1), sizeof(PetscReal), "-rw_fwi_grid"));
  }
  PetscCall(RwOptionsReal("-rw_fwi_spacing", "Grid spacing (m)", NULL, f->h, &f->h, &f->spacingset, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  n = 3;
  PetscCall(RwOptionsRealArray("-rw_fwi_origin", "The physical region's first point (m)", NULL, NULL, o, &n, &set, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  if (set) {
    PetscCheck(n == f->dim, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-rw_fwi_origin: %" PetscInt_FMT " values for a %" PetscInt_FMT "D problem: expected %" PetscInt_FMT, n, f->dim, f->dim);
    PetscCall(FwiSetOrigin(f, "-rw_fwi_origin", o, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The wave model's grid options contradict the app's grid (-rw_fwi_grid, -rw_fwi_spacing, ...): refused by name */
static PetscErrorCode RefuseModelGrid(void)
{
  const char *const wave[7] = {"-da_grid_x", "-da_grid_y", "-da_grid_z", "-rw_wave_spacing", "-rw_wave_dim", "-rw_wave_origin", "-rw_wave_sources"};
  const char *const mine[7] = {"-rw_fwi_grid", "-rw_fwi_grid", "-rw_fwi_grid", "-rw_fwi_spacing", "-rw_fwi_dim", "-rw_fwi_origin", "-rw_fwi_shots (a source a shot, along the surface) or the shots' sources in the -rw_fwi_obs files"};

  PetscFunctionBegin;
  for (int i = 0; i < 7; i++) {
    PetscBool set;

    PetscCall(PetscOptionsHasName(NULL, NULL, wave[i], &set));
    PetscCheck(!set, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "%s: rewind-fwi lays out the wave model's grid and places each shot's source itself (the physical points plus -rw_wave_nbl a side): give %s instead", wave[i], mine[i]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadOptions(Fwi *f)
{
  PetscInt  n;
  PetscBool set;

  PetscFunctionBegin;
  f->dim = 2, f->h = 20, f->recspacing = 40, f->record = 1000, f->iterations = 10, f->nbands = 2, f->bands[0] = 0.004, f->bands[1] = 0;
  f->noise = 0.01, f->smooth = 150, f->cmin = 1.4, f->cmax = 4, f->water = 1.5;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-fwi options", "rewind");
  n = FWI_MAX_FILES;
  PetscCall(PetscOptionsStringArray("-rw_fwi_obs", "Observations: HDF5 (doc/wave.md) or SEG-Y shot gathers (files, or a pattern with %d)", NULL, f->obs, &n, &set));
  f->nobs = set ? n : 0;
  PetscCall(RwOptionsInt("-rw_fwi_dim", "Dimension (2 or 3)", NULL, f->dim, &f->dim, &set, 2, 3));
  if (f->nobs && !set) f->dim = 0; /* the observations say */
  f->nshots = f->dim > 2 ? 4 : 8;
  PetscCall(RwOptionsInt("-rw_fwi_shots", "Shots of the embedded problem; with -rw_fwi_obs, those the files must hold", NULL, f->nshots, &f->nshots, &f->shotsset, 1, 100000));
  PetscCall(PetscOptionsString("-rw_fwi_start", "Starting velocity: file.h5:dataset or a SEG-Y depth section", NULL, f->start, f->start, sizeof(f->start), NULL));
  PetscCall(PetscOptionsString("-rw_fwi_true", "A known true velocity, for the model error", NULL, f->truth, f->truth, sizeof(f->truth), NULL));
  PetscCall(RwOptionsReal("-rw_fwi_receiver_spacing", "Receiver spacing (m)", NULL, f->recspacing, &f->recspacing, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_fwi_offset_max", "A moving spread: receivers within this horizontal offset (m) of the shot (0: all)", NULL, f->offmax, &f->offmax, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_fwi_record", "Record length (ms)", NULL, f->record, &f->record, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  n = 8;
  PetscCall(RwOptionsRealArray("-rw_fwi_bands", "Low-pass corners (kHz) of the frequency continuation; 0: the full band", NULL, NULL, f->bands, &n, &set, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  if (set) f->nbands = n;
  PetscCall(RwOptionsInt("-rw_fwi_iterations", "TAO iterations per band", NULL, f->iterations, &f->iterations, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsReal("-rw_fwi_noise", "Noise relative to the largest observed sample", NULL, f->noise, &f->noise, NULL, 0, 1, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_fwi_smooth", "Smoothing radius (m) of the embedded starting model (0: the true model)", NULL, f->smooth, &f->smooth, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_fwi_cmin", "Lower bound on the velocity", NULL, f->cmin, &f->cmin, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_fwi_cmax", "Upper bound on the velocity", NULL, f->cmax, &f->cmax, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_fwi_water", "Held top levels: the starting velocity is this everywhere", NULL, f->water, &f->water, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(PetscOptionsDeprecated("-rw_fwi_shot_groups", "-rw_ensemble_groups", "0.2", "shots are the problem's members"));
  PetscCall(PetscOptionsDeprecated("-rw_fwi_state", "-rw_journal", "0.2", NULL));
  PetscCall(PetscOptionsDeprecated("-rw_fwi_state_keep", "-rw_journal_keep", "0.2", NULL));
  PetscCall(PetscOptionsDeprecated("-rw_fwi_state_overwrite", "-rw_journal_overwrite", "0.2", NULL));
  PetscCall(PetscOptionsString("-rw_obs_write", "Write the observations to this HDF5 file (and SEG-Y)", NULL, f->obswrite, f->obswrite, sizeof(f->obswrite), NULL));
  PetscCall(PetscOptionsString("-rw_output", "Prefix of the HDF5/XDMF outputs", NULL, f->output, f->output, sizeof(f->output), NULL));
  PetscCall(PetscOptionsBool("-rw_output_png", "With -rw_output: also draw the pictures (jobs/plot_fwi.py, by the Python configure found)", NULL, f->png, &f->png, NULL));
  PetscCheck(!f->png || f->output[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_output_png draws the result that -rw_output writes: give -rw_output prefix too");
  PetscCall(RwOptionsReal("-rw_dt", "Time step (ms); with -rw_fwi_obs, it must be the files' sample interval", NULL, f->sv.dt, &f->sv.dt, &f->dtset, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsInt("-rw_wave_nbl", "Absorbing points at each end of each direction (default 20; 3D 10)", NULL, f->nbl, &f->nbl, &f->nblset, 0, PETSC_MAX_INT));
  PetscOptionsEnd();
  PetscCall(RefuseModelGrid());
  PetscCheck(f->nshots >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_fwi_shots %" PetscInt_FMT ": expected at least one shot", f->nshots);
  PetscCheck(f->cmin > 0 && f->cmax > f->cmin, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_fwi_cmin %g -rw_fwi_cmax %g: expected 0 < cmin < cmax", (double)f->cmin, (double)f->cmax);
  PetscCheck(!f->dtset || f->sv.dt > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_dt %g: expected a positive time step", (double)f->sv.dt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The survey and the models: from files where given, else the embedded problem's */
static PetscErrorCode SetUpProblem(Fwi *f)
{
  PetscFunctionBegin;
  if (f->nobs) PetscCall(FwiReadSurvey(f));
  if (!f->nblset) f->nbl = f->dim > 2 ? 10 : 20;
  if (f->dim > 2) f->n[0] = 31, f->n[1] = 31, f->n[2] = 21;
  else f->n[0] = 101, f->n[1] = 51;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-fwi grid", "rewind");
  PetscCall(ReadGrid(f, PetscOptionsObject));
  PetscOptionsEnd();
  if (f->start[0]) PetscCall(FwiReadVelocity(f, "-rw_fwi_start", f->start, &f->vstart));
  if (f->truth[0]) PetscCall(FwiReadVelocity(f, "-rw_fwi_true", f->truth, &f->vtrue));
  if (!f->start[0] || (!f->nobs && !f->truth[0])) { /* the embedded models: the start, and the truth of embedded data */
    FwiVelocity t = f->vtrue, s = f->vstart;

    PetscCall(FwiEmbeddedModels(f));
    if (f->truth[0]) {
      PetscCall(PetscFree(f->vtrue.c));
      f->vtrue = t;
    }
    if (f->start[0]) {
      PetscCall(PetscFree(f->vstart.c));
      f->vstart = s;
    }
  }
  f->hastrue = (PetscBool)(f->truth[0] || !f->nobs);
  if (!f->nobs) PetscCall(FwiEmbeddedSurvey(f));
  PetscCall(FwiTimeGrid(f));
  PetscCall(FwiSetUpProblem(f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The job itself: everything that -help does not do */
static PetscErrorCode Run(Fwi *f)
{
  PetscReal   err0;
  PetscMPIInt size;

  PetscFunctionBegin;
  if (!f->nobs) { /* the embedded data: the true model's traces plus noise (the same on every rank) */
    PetscCall(FwiRecordAll(f, f->mtrue, f->sv.data));
    PetscCall(FwiAddNoise(f));
  }
  if (f->obswrite[0]) PetscCall(FwiWriteObservations(f));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(FwiModelError(f, f->x, &err0));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rewind-fwi: %" PetscInt_FMT "D, %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " physical points (h %g m), %" PetscInt_FMT " shots, %" PetscInt_FMT " receivers in all, %" PetscInt_FMT " steps of dt %.4g ms, %d ranks; ", f->dim, f->n[0], f->n[1], f->dim > 2 ? f->n[2] : 1, (double)f->h, f->sv.nshots, f->sv.ntotal, f->sv.nt - 1, (double)f->sv.dt, size));
  if (f->hastrue) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "starting model error %.4f\n", (double)err0));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "no true model (-rw_fwi_true): no model error\n"));
  PetscCall(FwiInvert(f));
  if (f->output[0]) PetscCall(FwiWriteOutputs(f));
  if (f->png) PetscCall(RwAppPlot("-rw_output_png", "plot_fwi.py", f->output, f->output));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Fwi       f;
  PetscBool stop;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&f, sizeof(f)));
  PetscCall(PetscTime(&f.t0));
  PetscCall(ReadOptions(&f));
  PetscCall(SetUpProblem(&f));
  PetscCall(FwiReadTaoOptions(&f));
  PetscCall(RwHelpStop(PETSC_COMM_WORLD, &stop)); /* every option is read by now */
  if (!stop) PetscCall(Run(&f));
  PetscCall(FwiDestroy(&f));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
