static char help[] = "rewind-fwi: full-waveform inversion of the acoustic wave model (doc/wave.md).\n"
                     "Embedded default problem: a 2D section (layers, a dipping interface, a fast body),\n"
                     "shots along the top, receivers every few tens of metres, observed data from the true\n"
                     "model with noise, a smoothed start; TAO bounded quasi-Newton (BLMVM) on m = 1/c^2\n"
                     "with frequency continuation (low-passed wavelet and data first). Shots run on\n"
                     "groups of ranks (RwEnsemble); J and the gradient are summed in shot order.\n\n"
                     "  -rw_fwi_grid nx,nz         physical grid points (default 101,51)\n"
                     "  -rw_fwi_spacing h          grid spacing in m (default 20)\n"
                     "  -rw_fwi_shots n            shots along the top (default 8)\n"
                     "  -rw_fwi_receiver_spacing d receivers every d m (default 40)\n"
                     "  -rw_fwi_record T           record length in ms (default 1000)\n"
                     "  -rw_fwi_bands f1,f2,...    low-pass corners in kHz, 0 = the full band (default 0.004,0)\n"
                     "  -rw_fwi_iterations k       TAO iterations per band (default 10)\n"
                     "  -rw_fwi_noise s            noise, relative to the largest observed sample (default 0.01)\n"
                     "  -rw_fwi_smooth r           the start: the true model smoothed over r m (default 150)\n"
                     "  -rw_fwi_cmin, -rw_fwi_cmax bounds on the velocity (km/s, default 1.4, 4)\n"
                     "  -rw_fwi_shot_groups G      shot groups (default: RwEnsemble's choice, gcd(ranks, shots))\n"
                     "  -rw_obs_write obs.h5       write the observations (HDF5 schema of doc/wave.md)\n"
                     "  -rw_output prefix          write prefix.h5 / prefix.xmf (c_true, c_start, c_recovered,\n"
                     "                             gradient of the first iteration, history) and prefix-gather.h5\n"
                     "Wave options (-rw_wave_space_order, -rw_wave_nbl, -rw_wave_f0, -rw_dt) and checkpointing\n"
                     "(-rw_checkpoint_ram, -rw_schedule_type, ...) apply to every shot.\n\n";

#include <rewind.h>
#include <rewind/private/modelimpl.h>
#include <petsctao.h>
#include <petscviewerhdf5.h>

typedef struct {
  /* options */
  PetscInt  nx, nz, nshots, iterations, nbands, groups;
  PetscReal h, recspacing, record, bands[8], noise, smooth, cmin, cmax;
  char      obswrite[PETSC_MAX_PATH_LEN], output[PETSC_MAX_PATH_LEN];
  /* the survey */
  PetscInt   nrec, nt, band;
  PetscReal *src, *rec, *dobs, *dband, *wavelet, dt;
  /* the parent model (layout, outputs) and this group's */
  RwModel     model, gmodel;
  RwObjective obj;
  RwAdjoint   adj;
  RwEnsemble  e;
  Vec         ctrue, cstart, mtrue, m, x, xg, mg, u0, gg, gu0, gi, G, lo, hi, mask, grad0;
  /* history */
  PetscInt       it, nhist;
  PetscReal      J0, hist[4 * 1024];
  PetscLogDouble t0;
  PetscInt64     fsteps, gradients;
  PetscMPIInt    subrank;
} Fwi;

static PetscErrorCode ReadOptions(Fwi *f)
{
  PetscInt n;

  PetscFunctionBegin;
  f->nx = 101, f->nz = 51, f->h = 20, f->nshots = 8, f->recspacing = 40, f->record = 1000, f->iterations = 10;
  f->nbands = 2, f->bands[0] = 0.004, f->bands[1] = 0, f->noise = 0.01, f->smooth = 150, f->cmin = 1.4, f->cmax = 4, f->groups = 0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-fwi options", "rewind");
  {
    PetscInt g[2] = {f->nx, f->nz};
    n = 2;
    PetscCall(PetscOptionsIntArray("-rw_fwi_grid", "Physical grid points nx,nz", NULL, g, &n, NULL));
    f->nx = g[0], f->nz = g[1];
  }
  PetscCall(PetscOptionsReal("-rw_fwi_spacing", "Grid spacing (m)", NULL, f->h, &f->h, NULL));
  PetscCall(PetscOptionsInt("-rw_fwi_shots", "Shots along the top", NULL, f->nshots, &f->nshots, NULL));
  PetscCall(PetscOptionsReal("-rw_fwi_receiver_spacing", "Receiver spacing (m)", NULL, f->recspacing, &f->recspacing, NULL));
  PetscCall(PetscOptionsReal("-rw_fwi_record", "Record length (ms)", NULL, f->record, &f->record, NULL));
  {
    PetscBool set;
    n = 8;
    PetscCall(PetscOptionsRealArray("-rw_fwi_bands", "Low-pass corners (kHz) of the frequency continuation; 0: the full band", NULL, f->bands, &n, &set));
    if (set) f->nbands = n;
  }
  PetscCall(PetscOptionsInt("-rw_fwi_iterations", "TAO iterations per band", NULL, f->iterations, &f->iterations, NULL));
  PetscCall(PetscOptionsReal("-rw_fwi_noise", "Noise relative to the largest observed sample", NULL, f->noise, &f->noise, NULL));
  PetscCall(PetscOptionsReal("-rw_fwi_smooth", "Smoothing radius (m) of the starting model", NULL, f->smooth, &f->smooth, NULL));
  PetscCall(PetscOptionsReal("-rw_fwi_cmin", "Lower bound on the velocity", NULL, f->cmin, &f->cmin, NULL));
  PetscCall(PetscOptionsReal("-rw_fwi_cmax", "Upper bound on the velocity", NULL, f->cmax, &f->cmax, NULL));
  PetscCall(PetscOptionsInt("-rw_fwi_shot_groups", "Shot groups (0: gcd of ranks and shots)", NULL, f->groups, &f->groups, NULL));
  PetscCall(PetscOptionsString("-rw_obs_write", "Write the observations to this HDF5 file", NULL, f->obswrite, f->obswrite, sizeof(f->obswrite), NULL));
  PetscCall(PetscOptionsString("-rw_output", "Prefix of the HDF5/XDMF outputs", NULL, f->output, f->output, sizeof(f->output), NULL));
  PetscOptionsEnd();
  PetscCheck(f->nx >= 8 && f->nz >= 8, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_fwi_grid %" PetscInt_FMT ",%" PetscInt_FMT ": expected at least 8 points per direction", f->nx, f->nz);
  PetscCheck(f->nshots >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_fwi_shots %" PetscInt_FMT ": expected at least one shot", f->nshots);
  PetscCheck(f->cmin > 0 && f->cmax > f->cmin, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_fwi_cmin %g -rw_fwi_cmax %g: expected 0 < cmin < cmax", (double)f->cmin, (double)f->cmax);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The true section: layers 1.5 / 2.0 / 2.6 / 3.2 km/s with a dipping interface and a 3.6 km/s body */
static PetscReal TrueVelocity(PetscReal x, PetscReal z, PetscReal X, PetscReal Z)
{
  PetscReal c = 1.5, dx = (x - 0.62 * X) / (0.12 * X), dz = (z - 0.55 * Z) / (0.12 * Z);

  if (z > 0.22 * Z) c = 2.0;
  if (z > 0.42 * Z + 0.15 * (x - 0.5 * X)) c = 2.6; /* the dipping interface */
  if (z > 0.78 * Z) c = 3.2;
  if (dx * dx + dz * dz < 1) c = 3.6; /* the fast body */
  return c;
}

/* The physical model (nx x nz, x fastest) and its smoothed version */
static PetscErrorCode MakeModels(Fwi *f, PetscReal **ct, PetscReal **cs)
{
  const PetscInt nx = f->nx, nz = f->nz, r = (PetscInt)(f->smooth / f->h);
  PetscReal     *a, *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nx * nz, ct));
  PetscCall(PetscMalloc1(nx * nz, cs));
  PetscCall(PetscMalloc1(nx * nz, &b));
  a = *ct;
  for (PetscInt j = 0; j < nz; j++)
    for (PetscInt i = 0; i < nx; i++) a[i + nx * j] = TrueVelocity(i * f->h, j * f->h, (nx - 1) * f->h, (nz - 1) * f->h);
  /* three box passes per direction: close to a Gaussian; the water layer is kept */
  PetscCall(PetscArraycpy(*cs, a, nx * nz));
  for (int pass = 0; pass < 3; pass++) {
    for (PetscInt j = 0; j < nz; j++)
      for (PetscInt i = 0; i < nx; i++) {
        PetscReal s = 0;
        for (PetscInt t = -r; t <= r; t++) s += (*cs)[PetscMin(PetscMax(i + t, 0), nx - 1) + nx * j];
        b[i + nx * j] = s / (2 * r + 1);
      }
    for (PetscInt j = 0; j < nz; j++)
      for (PetscInt i = 0; i < nx; i++) {
        PetscReal s = 0;
        for (PetscInt t = -r; t <= r; t++) s += b[i + nx * PetscMin(PetscMax(j + t, 0), nz - 1)];
        (*cs)[i + nx * j] = s / (2 * r + 1);
      }
  }
  for (PetscInt j = 0; j < nz; j++)
    for (PetscInt i = 0; i < nx; i++)
      if (a[i + nx * j] == 1.5) (*cs)[i + nx * j] = 1.5;
  PetscCall(PetscFree(b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Geometry(Fwi *f)
{
  const PetscReal X = (f->nx - 1) * f->h;

  PetscFunctionBegin;
  f->nrec = (PetscInt)(X / f->recspacing) + 1;
  PetscCall(PetscMalloc1(2 * f->nshots, &f->src));
  PetscCall(PetscMalloc1(2 * f->nrec, &f->rec));
  for (PetscInt s = 0; s < f->nshots; s++) {
    f->src[2 * s]     = (s + 0.5) * X / f->nshots + 0.3 * f->h; /* off the grid points */
    f->src[2 * s + 1] = 2.4 * f->h;
  }
  for (PetscInt r = 0; r < f->nrec; r++) {
    f->rec[2 * r]     = PetscMin(r * f->recspacing + 0.5 * f->h, X);
    f->rec[2 * r + 1] = 1.3 * f->h;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A model on comm with the app's grid (whole grid = physical + 2 nbl) */
static PetscErrorCode CreateModel(Fwi *f, MPI_Comm comm, RwModel *model)
{
  char     opt[64];
  PetscInt nbl = 20;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rw_wave_nbl", &nbl, NULL));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%" PetscInt_FMT, f->nx + 2 * nbl));
  PetscCall(PetscOptionsSetValue(NULL, "-da_grid_x", opt));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%" PetscInt_FMT, f->nz + 2 * nbl));
  PetscCall(PetscOptionsSetValue(NULL, "-da_grid_y", opt));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%" PetscInt_FMT, nbl));
  PetscCall(PetscOptionsSetValue(NULL, "-rw_wave_nbl", opt));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%g", (double)f->h));
  PetscCall(PetscOptionsSetValue(NULL, "-rw_wave_spacing", opt));
  PetscCall(PetscOptionsSetValue(NULL, "-rw_wave_dim", "2"));
  PetscCall(RwModelCreate(comm, model));
  PetscCall(RwModelSetType(*model, RWMODELWAVE));
  PetscCall(RwModelSetFromOptions(*model));
  if (f->dt > 0) PetscCall(RwModelSetTimeStep(*model, f->dt));
  PetscCall(RwModelSetSteps(*model, f->nt - 1));
  PetscCall(RwModelSetUp(*model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The time step: -rw_dt, or 0.8 of the stability limit for cmax; the samples */
static PetscErrorCode TimeGrid(Fwi *f)
{
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rw_dt", &f->dt, &set));
  if (!set) {
    RwModel probe;
    f->nt = 2;
    f->dt = 0;
    PetscCall(CreateModel(f, PETSC_COMM_WORLD, &probe));
    PetscCall(RwModelWaveStableTimeStep(probe, f->cmax, &f->dt));
    f->dt = PetscFloorReal(0.8 * f->dt * 1000) / 1000; /* whole microseconds: a SEG-Y sample interval */
    PetscCall(RwModelDestroy(&probe));
  }
  f->nt = (PetscInt)PetscCeilReal(f->record / f->dt) + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Data of every shot (rows k, columns receivers) from model m, computed by the groups and gathered */
static PetscErrorCode RecordAll(Fwi *f, Vec mparent, PetscReal *d)
{
  const PetscInt  per = f->nt * f->nrec;
  PetscInt        n;
  const PetscInt *ids;
  PetscReal      *mine;
  PetscMPIInt     rank, grank;
  MPI_Comm        sub;
  Vec             fg, fp;

  PetscFunctionBegin;
  PetscCall(RwEnsembleGetSubComm(f->e, &sub));
  PetscCall(RwModelGetParameterField(f->model, mparent, 0, &fp));
  PetscCall(RwModelGetParameterField(f->gmodel, f->mg, 0, &fg));
  PetscCall(RwEnsembleScatterToGroups(f->e, fp, fg));
  PetscCall(RwModelRestoreParameterField(f->gmodel, f->mg, 0, &fg));
  PetscCall(RwModelRestoreParameterField(f->model, mparent, 0, &fp));
  PetscCall(RwEnsembleGetMembers(f->e, &n, &ids));
  PetscCall(PetscCalloc1(f->nshots * per, &mine));
  for (PetscInt j = 0; j < n; j++) {
    PetscCall(RwModelWaveSetSources(f->gmodel, 1, f->src + 2 * ids[j]));
    PetscCall(RwModelWaveRecord(f->gmodel, f->mg, f->nrec, f->rec, mine + ids[j] * per));
  }
  /* each shot's traces come from its group's first rank; the others add zeros: exact */
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_rank(sub, &grank));
  if (grank) PetscCall(PetscArrayzero(mine, f->nshots * per));
  PetscCall(MPIU_Allreduce(mine, d, f->nshots * per, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscFree(mine));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* || c(x) - c_true || / || c_true || over the physical region, with c = 1/sqrt(m) */
static PetscErrorCode ModelError(Fwi *f, Vec x, PetscReal *err)
{
  PetscInt           M[3], nbl, xs, ys, xm, ym, p = 0;
  const PetscScalar *a, *t;
  PetscReal          s[2] = {0, 0}, g[2];

  PetscFunctionBegin;
  PetscCall(RwModelWaveGetGeometry(f->model, NULL, M, &nbl, NULL, NULL));
  PetscCall(DMDAGetCorners(f->model->fda, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(f->ctrue, &t));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++, p++) {
      if (i < nbl || i >= M[0] - nbl || j < nbl || j >= M[1] - nbl) continue;
      s[0] += PetscSqr(1 / PetscSqrtReal(a[p]) - t[p]);
      s[1] += PetscSqr(t[p]);
    }
  PetscCall(VecRestoreArrayRead(f->ctrue, &t));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(MPIU_Allreduce(s, g, 2, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  *err = PetscSqrtReal(g[0] / g[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J and dJ/dm summed over the shots in shot order (RwEnsemble by rounds), masked */
static PetscErrorCode FormFunctionGradient(Tao tao, Vec X, PetscReal *J, Vec G, void *ctx)
{
  Fwi     *f = (Fwi *)ctx;
  PetscInt nr;
  Vec      fg;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(f->gmodel, f->mg, 0, &fg));
  PetscCall(RwEnsembleScatterToGroups(f->e, X, fg));
  PetscCall(RwModelRestoreParameterField(f->gmodel, f->mg, 0, &fg));
  PetscCall(RwEnsembleGetRounds(f->e, &nr));
  PetscCall(RwEnsembleSumBegin(f->e, G));
  for (PetscInt r = 0; r < nr; r++) {
    PetscInt  i;
    PetscReal Ji = 0;

    PetscCall(RwEnsembleGetRoundMember(f->e, r, &i));
    if (i >= 0) {
      RwAdjointCounts c;

      PetscCall(RwModelWaveSetSources(f->gmodel, 1, f->src + 2 * i));
      PetscCall(RwObjectiveSetWaveReceiverData(f->obj, f->dband + i * f->nt * f->nrec));
      PetscCall(RwAdjointSolve(f->adj, f->mg, f->u0, &Ji, f->gg, f->gu0));
      PetscCall(RwModelGetParameterField(f->gmodel, f->gg, 0, &fg));
      PetscCall(VecCopy(fg, f->gi));
      PetscCall(RwModelRestoreParameterField(f->gmodel, f->gg, 0, &fg));
      PetscCall(RwAdjointGetCounts(f->adj, &c));
      if (!f->subrank) { /* one count per shot, whatever the group's size */
        f->fsteps += c.forward_steps;
        f->gradients++;
      }
    }
    PetscCall(RwEnsembleSumAdd(f->e, Ji, i >= 0 ? f->gi : NULL));
  }
  PetscCall(RwEnsembleSumEnd(f->e, J));
  PetscCall(VecPointwiseMult(G, G, f->mask));
  if (!f->grad0) {
    PetscCall(VecDuplicate(G, &f->grad0));
    PetscCall(VecCopy(G, f->grad0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Monitor(Tao tao, void *ctx)
{
  Fwi           *f = (Fwi *)ctx;
  PetscInt       it;
  PetscReal      J, gnorm, err;
  PetscLogDouble t;

  PetscFunctionBegin;
  PetscCall(TaoGetSolutionStatus(tao, &it, &J, &gnorm, NULL, NULL, NULL));
  if (f->J0 < 0) f->J0 = J;
  PetscCall(ModelError(f, f->x, &err));
  PetscCall(PetscTime(&t));
  if (f->bands[f->band] > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "band %" PetscInt_FMT " (< %g kHz) ", f->band, (double)f->bands[f->band]));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "band %" PetscInt_FMT " (full)    ", f->band));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iteration %3" PetscInt_FMT "  J %.6e  relative misfit %.4f  model error %.4f  %.1f s\n", it, (double)J, (double)(J / f->J0), (double)err, t - f->t0));
  if (f->nhist < 1024) {
    PetscReal *h = f->hist + 4 * f->nhist++;
    h[0] = f->band, h[1] = J, h[2] = J / f->J0, h[3] = err;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data of band b: the observations and the wavelet through the same causal low-pass */
static PetscErrorCode SetBand(Fwi *f, PetscInt b)
{
  PetscFunctionBegin;
  f->band = b;
  f->J0   = -1;
  PetscCall(PetscArraycpy(f->dband, f->dobs, f->nshots * f->nt * f->nrec));
  PetscCall(RwModelWaveSetWavelet(f->gmodel, 0, NULL));
  PetscCall(RwModelWaveGetWavelet(f->gmodel, f->nt - 1, f->wavelet));
  if (f->bands[b] > 0) {
    for (PetscInt s = 0; s < f->nshots; s++) PetscCall(RwWaveLowPass(f->bands[b], f->dt, f->nt, f->nrec, f->dband + s * f->nt * f->nrec));
    PetscCall(RwWaveLowPass(f->bands[b], f->dt, f->nt - 1, 1, f->wavelet));
    PetscCall(RwModelWaveSetWavelet(f->gmodel, f->nt - 1, f->wavelet));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fields on the whole grid from physical velocities: c itself, and the bounds on m */
static PetscErrorCode SetUpFields(Fwi *f, const PetscReal *ct, const PetscReal *cs)
{
  const PetscInt shape[3] = {f->nx, f->nz, 1};
  PetscInt       M[3], nbl, xs, ys, xm, ym, p = 0, top;
  Vec            fm;
  PetscScalar   *mk, *l, *u, *x;

  PetscFunctionBegin;
  PetscCall(RwModelCreateField(f->model, &f->ctrue));
  PetscCall(VecDuplicate(f->ctrue, &f->cstart));
  PetscCall(RwModelWaveFillFromPhysical(f->model, shape, ct, PETSC_FALSE, f->ctrue));
  PetscCall(RwModelWaveFillFromPhysical(f->model, shape, cs, PETSC_FALSE, f->cstart));
  PetscCall(RwModelCreateParameters(f->model, &f->mtrue));
  PetscCall(RwModelGetParameterField(f->model, f->mtrue, 0, &fm));
  PetscCall(RwModelWaveFillFromPhysical(f->model, shape, ct, PETSC_TRUE, fm));
  PetscCall(RwModelRestoreParameterField(f->model, f->mtrue, 0, &fm));
  PetscCall(VecDuplicate(f->ctrue, &f->x));
  PetscCall(RwModelWaveFillFromPhysical(f->model, shape, cs, PETSC_TRUE, f->x));
  PetscCall(VecDuplicate(f->x, &f->G));
  PetscCall(VecDuplicate(f->x, &f->lo));
  PetscCall(VecDuplicate(f->x, &f->hi));
  PetscCall(VecDuplicate(f->x, &f->mask));
  /* the absorbing layer and the water (the shallowest 22%) stay as they start: bounds pinned, gradient masked */
  PetscCall(RwModelWaveGetGeometry(f->model, NULL, M, &nbl, NULL, NULL));
  top = nbl + (PetscInt)(0.22 * (f->nz - 1)) + 1;
  PetscCall(DMDAGetCorners(f->model->fda, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(VecGetArray(f->mask, &mk));
  PetscCall(VecGetArray(f->lo, &l));
  PetscCall(VecGetArray(f->hi, &u));
  PetscCall(VecGetArray(f->x, &x));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++, p++) {
      PetscBool fixed = (PetscBool)(i < nbl || i >= M[0] - nbl || j < top || j >= M[1] - nbl);
      mk[p] = fixed ? 0 : 1;
      l[p]  = fixed ? x[p] : 1 / (f->cmax * f->cmax);
      u[p]  = fixed ? x[p] : 1 / (f->cmin * f->cmin);
    }
  PetscCall(VecRestoreArray(f->x, &x));
  PetscCall(VecRestoreArray(f->hi, &u));
  PetscCall(VecRestoreArray(f->lo, &l));
  PetscCall(VecRestoreArray(f->mask, &mk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x, in m, to c = 1/sqrt(m) */
static PetscErrorCode ToVelocity(Vec m, Vec c)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(m, c));
  PetscCall(VecSqrtAbs(c));
  PetscCall(VecReciprocal(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteOutputs(Fwi *f)
{
  char        h5[PETSC_MAX_PATH_LEN], xmf[PETSC_MAX_PATH_LEN], gather[PETSC_MAX_PATH_LEN];
  const char *names[4] = {"c_true", "c_start", "c_recovered", "gradient_first"}, *base;
  PetscViewer v;
  Vec         c;
  PetscMPIInt rank;
  PetscReal  *pred;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(h5, sizeof(h5), "%s.h5", f->output));
  PetscCall(PetscSNPrintf(xmf, sizeof(xmf), "%s.xmf", f->output));
  PetscCall(PetscSNPrintf(gather, sizeof(gather), "%s-gather.h5", f->output));
  PetscCall(VecDuplicate(f->x, &c));
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, h5, FILE_MODE_WRITE, &v));
  PetscCall(RwIOWriteField(f->model, v, names[0], f->ctrue));
  PetscCall(RwIOWriteField(f->model, v, names[1], f->cstart));
  PetscCall(ToVelocity(f->x, c));
  PetscCall(RwIOWriteField(f->model, v, names[2], c));
  PetscCall(RwIOWriteField(f->model, v, names[3], f->grad0 ? f->grad0 : f->G));
  PetscCall(PetscViewerDestroy(&v));
  base = strrchr(h5, '/') ? strrchr(h5, '/') + 1 : h5;
  PetscCall(RwIOWriteXDMF(f->model, xmf, base, 4, names));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) { /* the history: band, J, relative misfit, model error per iteration */
    hid_t   file;
    hsize_t dims[2] = {(hsize_t)f->nhist, 4};

    RwCallHDF5Return(file, H5Fopen, (h5, H5F_ACC_RDWR, H5P_DEFAULT));
    PetscCall(RwH5WriteArray(file, "history", 2, dims, f->hist));
    RwCallHDF5(H5Fclose, (file));
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  /* shot 0's gather: observed (full band), predicted by the recovered model; the plot takes the residual */
  {
    Vec m, fm;
    PetscCall(RwModelCreateParameters(f->model, &m));
    PetscCall(RwModelGetParameterField(f->model, m, 0, &fm));
    PetscCall(VecCopy(f->x, fm));
    PetscCall(RwModelRestoreParameterField(f->model, m, 0, &fm));
    PetscCall(PetscMalloc1(f->nshots * f->nt * f->nrec, &pred));
    PetscCall(RwModelWaveSetWavelet(f->gmodel, 0, NULL));
    PetscCall(RecordAll(f, m, pred));
    PetscCall(PetscArraycpy(pred + f->nt * f->nrec, f->dobs, f->nt * f->nrec)); /* shot slot 1 of the file: the observed gather of shot 0 */
    PetscCall(RwWaveObsWrite(PETSC_COMM_WORLD, gather, 2, 2, f->dt, f->src, f->nrec, f->rec, f->nt, pred));
    PetscCall(PetscFree(pred));
    PetscCall(VecDestroy(&m));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s, %s (c_true, c_start, c_recovered, gradient_first, history) and %s (shot 0: shot0 predicted, shot1 observed)\n", h5, xmf, gather));
  PetscCall(VecDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Fwi         f;
  PetscReal  *ct, *cs, amax = 0, err0, err, Jfirst = -1, Jlast = 0;
  MPI_Comm    sub;
  Tao         tao;
  PetscRandom rnd;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&f, sizeof(f)));
  PetscCall(PetscTime(&f.t0));
  PetscCall(ReadOptions(&f));
  PetscCall(Geometry(&f));
  PetscCall(TimeGrid(&f));
  PetscCall(CreateModel(&f, PETSC_COMM_WORLD, &f.model));
  PetscCall(MakeModels(&f, &ct, &cs));
  PetscCall(SetUpFields(&f, ct, cs));
  /* the shot groups, each with its model, receivers and driver */
  PetscCall(RwEnsembleCreate(PETSC_COMM_WORLD, &f.e));
  PetscCall(RwEnsembleSetSize(f.e, f.nshots));
  PetscCall(RwEnsembleSetGroups(f.e, f.groups));
  PetscCall(RwEnsembleSetFromOptions(f.e));
  PetscCall(RwEnsembleSetUp(f.e));
  PetscCall(RwEnsembleGetSubComm(f.e, &sub));
  PetscCallMPI(MPI_Comm_rank(sub, &f.subrank));
  PetscCall(CreateModel(&f, sub, &f.gmodel));
  PetscCall(RwEnsembleSetDM(f.e, f.gmodel->fda, f.model->fda));
  PetscCall(RwModelCreateParameters(f.gmodel, &f.mg));
  PetscCall(VecDuplicate(f.mg, &f.gg));
  PetscCall(RwModelCreateState(f.gmodel, &f.u0));
  PetscCall(VecDuplicate(f.u0, &f.gu0));
  PetscCall(DMCreateGlobalVector(f.gmodel->fda, &f.gi));
  PetscCall(RwObjectiveCreate(f.gmodel, &f.obj));
  PetscCall(RwObjectiveAddWaveReceivers(f.obj, f.nrec, f.rec, NULL));
  PetscCall(RwAdjointCreate(f.gmodel, f.obj, &f.adj));
  PetscCall(RwAdjointSetFromOptions(f.adj));
  PetscCall(RwAdjointSetUp(f.adj));
  /* observations: the true model's traces plus noise (the same on every rank) */
  PetscCall(PetscMalloc3(f.nshots * f.nt * f.nrec, &f.dobs, f.nshots * f.nt * f.nrec, &f.dband, f.nt, &f.wavelet));
  PetscCall(RecordAll(&f, f.mtrue, f.dobs));
  for (PetscInt q = 0; q < f.nshots * f.nt * f.nrec; q++) amax = PetscMax(amax, PetscAbsReal(f.dobs[q]));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261201));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt q = 0; q < f.nshots * f.nt * f.nrec; q++) {
    PetscReal a, b;
    PetscCall(PetscRandomGetValueReal(rnd, &a));
    PetscCall(PetscRandomGetValueReal(rnd, &b));
    f.dobs[q] += f.noise * amax * PetscSqrtReal(-2 * PetscLogReal(PetscMax(a, 1e-300))) * PetscCosReal(2 * PETSC_PI * b);
  }
  PetscCall(PetscRandomDestroy(&rnd));
  if (f.obswrite[0]) {
    PetscReal *recs;
    PetscCall(PetscMalloc1(f.nshots * f.nrec * 2, &recs));
    for (PetscInt s = 0; s < f.nshots; s++) PetscCall(PetscArraycpy(recs + s * f.nrec * 2, f.rec, 2 * f.nrec));
    PetscCall(RwWaveObsWrite(PETSC_COMM_WORLD, f.obswrite, f.nshots, 2, f.dt, f.src, f.nrec, recs, f.nt, f.dobs));
    PetscCall(PetscFree(recs));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote the observations to %s\n", f.obswrite));
    { /* and as SEG-Y shot gathers, one a shot: <name>-shot<i>.sgy */
      char base[PETSC_MAX_PATH_LEN], sgy[PETSC_MAX_PATH_LEN + 32], *dot;

      PetscCall(PetscStrncpy(base, f.obswrite, sizeof(base)));
      if ((dot = strrchr(base, '.')) && !strchr(dot, '/')) *dot = 0;
      for (PetscInt s = 0; s < f.nshots; s++) {
        PetscCall(PetscSNPrintf(sgy, sizeof(sgy), "%s-shot%" PetscInt_FMT ".sgy", base, s));
        PetscCall(RwWaveSegyWrite(PETSC_COMM_WORLD, sgy, f.dt, f.src + 2 * s, f.nrec, f.rec, f.nt, f.dobs + s * f.nt * f.nrec));
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote SEG-Y shot gathers %s-shot0.sgy .. %s-shot%" PetscInt_FMT ".sgy\n", base, base, f.nshots - 1));
    }
  }
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(ModelError(&f, f.x, &err0));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rewind-fwi: %" PetscInt_FMT " x %" PetscInt_FMT " physical points (h %g m), %" PetscInt_FMT " shots, %" PetscInt_FMT " receivers, %" PetscInt_FMT " steps of dt %.4g ms, %d ranks; starting model error %.4f\n", f.nx, f.nz, (double)f.h, f.nshots, f.nrec, f.nt - 1, (double)f.dt, size, (double)err0));
  /* the full-band misfit of the starting model, to state the reduction against */
  PetscCall(SetBand(&f, f.nbands - 1));
  PetscCall(FormFunctionGradient(NULL, f.x, &Jfirst, f.G, &f));
  PetscCall(VecDestroy(&f.grad0));
  for (PetscInt b = 0; b < f.nbands; b++) {
    PetscReal J;
    PetscCall(SetBand(&f, b));
    PetscCall(TaoCreate(PETSC_COMM_WORLD, &tao));
    PetscCall(TaoSetType(tao, TAOBLMVM));
    PetscCall(TaoSetSolution(tao, f.x));
    PetscCall(TaoSetObjectiveAndGradient(tao, NULL, FormFunctionGradient, &f));
    PetscCall(TaoSetVariableBounds(tao, f.lo, f.hi));
    PetscCall(TaoSetMonitor(tao, Monitor, &f, NULL));
    PetscCall(TaoSetMaximumIterations(tao, f.iterations));
    PetscCall(TaoSetTolerances(tao, 0, 0, 0));
    PetscCall(TaoSetFromOptions(tao));
    PetscCall(TaoSolve(tao));
    PetscCall(TaoGetSolutionStatus(tao, NULL, &J, NULL, NULL, NULL, NULL));
    if (b == f.nbands - 1) Jlast = J;
    PetscCall(TaoDestroy(&tao));
  }
  PetscCall(ModelError(&f, f.x, &err));
  {
    PetscInt64 c[2] = {f.fsteps, f.gradients}, t[2];
    PetscCallMPI(MPI_Allreduce(c, t, 2, MPIU_INT64, MPI_SUM, PETSC_COMM_WORLD));
    f.fsteps = t[0], f.gradients = t[1];
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "J_start %.17g J_final %.17g\n", (double)Jfirst, (double)Jlast));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "final: full-band misfit reduced by a factor %.3f (J %.6e at the start -> %.6e); model error %.4f -> %.4f; %.2f forward sweeps per gradient (%" PetscInt64_FMT " shot gradients)\n", (double)(Jfirst / Jlast), (double)Jfirst, (double)Jlast, (double)err0, (double)err, f.gradients ? (double)f.fsteps / ((double)f.gradients * (f.nt - 1)) : 0.0, f.gradients));
  if (f.output[0]) PetscCall(WriteOutputs(&f));
  PetscCall(PetscFree(ct));
  PetscCall(PetscFree(cs));
  PetscCall(PetscFree3(f.dobs, f.dband, f.wavelet));
  PetscCall(PetscFree(f.src));
  PetscCall(PetscFree(f.rec));
  PetscCall(VecDestroy(&f.ctrue));
  PetscCall(VecDestroy(&f.cstart));
  PetscCall(VecDestroy(&f.mtrue));
  PetscCall(VecDestroy(&f.x));
  PetscCall(VecDestroy(&f.G));
  PetscCall(VecDestroy(&f.lo));
  PetscCall(VecDestroy(&f.hi));
  PetscCall(VecDestroy(&f.mask));
  PetscCall(VecDestroy(&f.grad0));
  PetscCall(VecDestroy(&f.mg));
  PetscCall(VecDestroy(&f.gg));
  PetscCall(VecDestroy(&f.u0));
  PetscCall(VecDestroy(&f.gu0));
  PetscCall(VecDestroy(&f.gi));
  PetscCall(RwAdjointDestroy(&f.adj));
  PetscCall(RwObjectiveDestroy(&f.obj));
  PetscCall(RwModelDestroy(&f.gmodel));
  PetscCall(RwModelDestroy(&f.model));
  PetscCall(RwEnsembleDestroy(&f.e));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
