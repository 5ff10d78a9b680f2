/*
  rewind-fwi's grid: the wave model with the app's grid (the physical
  points plus -rw_wave_nbl absorbing points a side), the time step and its
  stability, the fields on the whole grid, the held region, the model error.
*/
#include "fwi.h"

/*
  FwiModelDefaults - the app's grid on a wave model, by calls before its
  options are read: the physical points plus -rw_wave_nbl absorbing points a
  side, the spacing, the dimension, the origin a file or -rw_fwi_origin
  gave, dt and the steps (ReadOptions() refuses the wave model's own grid
  options, which would contradict them)
*/
PetscErrorCode FwiModelDefaults(RwModel model, void *ctx)
{
  Fwi     *f    = (Fwi *)ctx;
  PetscInt M[3] = {0, 0, 0};

  PetscFunctionBegin;
  for (PetscInt d = 0; d < f->dim; d++) M[d] = f->n[d] + 2 * f->nbl;
  PetscCall(RwModelWaveSetDimension(model, f->dim));
  PetscCall(RwModelSetGridSizes(model, M));
  PetscCall(RwModelWaveSetAbsorbingLayer(model, f->nbl));
  PetscCall(RwModelWaveSetSpacing(model, 1, &f->h));
  if (f->originset) PetscCall(RwModelWaveSetOrigin(model, f->dim, f->origin));
  if (f->sv.dt > 0) PetscCall(RwModelSetTimeStep(model, f->sv.dt));
  PetscCall(RwModelSetSteps(model, f->sv.nt > 1 ? f->sv.nt - 1 : 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FwiCreateModel - a wave model on comm with the app's grid, dt and steps (the problem makes its own the same way) */
PetscErrorCode FwiCreateModel(Fwi *f, MPI_Comm comm, RwModel *model)
{
  PetscFunctionBegin;
  PetscCall(RwModelCreate(comm, model));
  PetscCall(RwModelSetType(*model, RWMODELWAVE));
  PetscCall(FwiModelDefaults(*model, f));
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelSetUp(*model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiTimeGrid - dt: the observations' sample interval, -rw_dt, or 0.8 of the
  stability limit for -rw_fwi_cmax in whole microseconds (a SEG-Y sample
  interval); any of them above the limit for the velocities the inversion
  may reach stops, naming where dt came from
*/
PetscErrorCode FwiTimeGrid(Fwi *f)
{
  RwModel   probe;
  PetscReal limit, dt = f->sv.dt;
  PetscInt  nt        = f->sv.nt;
  char      from[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBegin;
  f->sv.dt = 0, f->sv.nt = 2;
  PetscCall(FwiCreateModel(f, PETSC_COMM_WORLD, &probe));
  PetscCall(RwModelWaveStableTimeStep(probe, f->cmax, &limit));
  PetscCall(RwModelDestroy(&probe));
  if (f->nobs) PetscCall(PetscSNPrintf(from, sizeof(from), "the sample interval dt of the observations %s", f->obs[0]));
  else if (f->dtset) PetscCall(PetscSNPrintf(from, sizeof(from), "-rw_dt"));
  else dt = PetscFloorReal(0.8 * limit * 1000) / 1000;
  PetscCheck(dt <= limit, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "Time step %g ms (%s) is above the stability limit of this grid (spacing %g m, space order -rw_wave_space_order) for velocities up to -rw_fwi_cmax %g km/s: expected dt <= %.6g ms (resample the data, or lower -rw_fwi_cmax)", (double)dt, from, (double)f->h, (double)f->cmax, (double)limit);
  f->sv.dt = dt;
  if (!f->nobs) PetscCall(RwCheckArraySize(PETSC_COMM_WORLD, "the time samples of a trace (the record length over dt, plus 1)", PetscCeilReal(f->record / dt) + 1, sizeof(PetscScalar), "-rw_fwi_record or raise -rw_dt"));
  f->sv.nt = f->nobs ? nt : (PetscInt)PetscCeilReal(f->record / dt) + 1;
  PetscCall(RwCheckArraySize(PETSC_COMM_WORLD, "the traces of every shot's receivers (observed and band-limited)", 2 * (PetscReal)f->sv.ntotal * f->sv.nt, sizeof(PetscScalar), "-rw_fwi_record, -rw_fwi_shots or the receivers (-rw_fwi_receiver_spacing)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The loop over a rank's owned points of the field grid, with the global index (i, j, k) */
#define FWI_FOR_OWNED(i, j, k, p) \
  for (PetscInt k = xs[2], p = 0; k < xs[2] + xm[2]; k++) \
    for (PetscInt j = xs[1]; j < xs[1] + xm[1]; j++) \
      for (PetscInt i = xs[0]; i < xs[0] + xm[0]; i++, p++)

/*
  The held depth: from the top of the physical region down, the levels at
  which the starting velocity is -rw_fwi_water everywhere (the water the
  data cannot resolve: a level of all ranks agrees by a reduction)
*/
static PetscErrorCode HeldLevels(Fwi *f, PetscInt *top)
{
  const PetscInt     dz = f->dim - 1;
  PetscInt           M[3], xs[3] = {0, 0, 0}, xm[3] = {1, 1, 1};
  DM                 fda;
  int               *mine, *all;
  const PetscScalar *c;

  PetscFunctionBegin;
  PetscCall(RwModelWaveGetGeometry(f->model, NULL, M, NULL, NULL, NULL));
  PetscCall(RwModelGetFieldDM(f->model, &fda));
  PetscCall(DMDAGetCorners(fda, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  PetscCall(PetscMalloc2(M[dz], &mine, M[dz], &all));
  for (PetscInt l = 0; l < M[dz]; l++) mine[l] = 1;
  PetscCall(VecGetArrayRead(f->cstart, &c));
  FWI_FOR_OWNED(i, j, k, p)
  {
    const PetscInt ijk[3] = {i, j, k};

    if (PetscAbsReal(c[p] - f->water) > 1e-12 * f->water) mine[ijk[dz]] = 0;
  }
  PetscCall(VecRestoreArrayRead(f->cstart, &c));
  PetscCallMPI(MPI_Allreduce(mine, all, (PetscMPIInt)M[dz], MPI_INT, MPI_LAND, PETSC_COMM_WORLD));
  for (*top = f->nbl; *top < M[dz] - f->nbl && all[*top]; (*top)++) { }
  PetscCall(PetscFree2(mine, all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiSetUpFields - c_true, c_start and the iterate x = m on the whole grid
  (a physical model padded by its edge values), the bounds from
  -rw_fwi_cmin/-rw_fwi_cmax, and the mask: the absorbing layers and the
  water stay as they start (gradient masked, bounds pinned)
*/
PetscErrorCode FwiSetUpFields(Fwi *f)
{
  PetscInt     M[3], xs[3] = {0, 0, 0}, xm[3] = {1, 1, 1}, top = 0;
  DM           fda;
  Vec          fm;
  PetscScalar *mk, *l, *u, *x;

  PetscFunctionBegin;
  PetscCall(RwModelCreateField(f->model, &f->cstart));
  PetscCall(RwModelWaveFillFromPhysical(f->model, f->vstart.shape, f->vstart.c, PETSC_FALSE, f->cstart));
  PetscCall(VecDuplicate(f->cstart, &f->x));
  PetscCall(RwModelWaveFillFromPhysical(f->model, f->vstart.shape, f->vstart.c, PETSC_TRUE, f->x));
  if (f->hastrue) {
    PetscCall(VecDuplicate(f->cstart, &f->ctrue));
    PetscCall(RwModelWaveFillFromPhysical(f->model, f->vtrue.shape, f->vtrue.c, PETSC_FALSE, f->ctrue));
    PetscCall(RwModelCreateParameters(f->model, &f->mtrue));
    PetscCall(RwModelGetParameterField(f->model, f->mtrue, 0, &fm));
    PetscCall(RwModelWaveFillFromPhysical(f->model, f->vtrue.shape, f->vtrue.c, PETSC_TRUE, fm));
    PetscCall(RwModelRestoreParameterField(f->model, f->mtrue, 0, &fm));
  }
  PetscCall(VecDuplicate(f->x, &f->G));
  PetscCall(VecDuplicate(f->x, &f->lo));
  PetscCall(VecDuplicate(f->x, &f->hi));
  PetscCall(VecDuplicate(f->x, &f->mask));
  PetscCall(HeldLevels(f, &top));
  PetscCall(RwModelWaveGetGeometry(f->model, NULL, M, NULL, NULL, NULL));
  PetscCall(RwModelGetFieldDM(f->model, &fda));
  PetscCall(DMDAGetCorners(fda, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  PetscCall(VecGetArray(f->mask, &mk));
  PetscCall(VecGetArray(f->lo, &l));
  PetscCall(VecGetArray(f->hi, &u));
  PetscCall(VecGetArray(f->x, &x));
  FWI_FOR_OWNED(i, j, k, p)
  {
    const PetscInt ijk[3] = {i, j, k};
    PetscBool      fixed  = (PetscBool)(ijk[f->dim - 1] < top);

    for (PetscInt d = 0; d < f->dim; d++) fixed = (PetscBool)(fixed || ijk[d] < f->nbl || ijk[d] >= M[d] - f->nbl);
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

/* FwiModelError - || c(x) - c_true || / || c_true || over the physical region, c = 1/sqrt(m); -1 without a truth */
PetscErrorCode FwiModelError(Fwi *f, Vec x, PetscReal *err)
{
  PetscInt           M[3], xs[3] = {0, 0, 0}, xm[3] = {1, 1, 1};
  DM                 fda;
  const PetscScalar *a, *t;
  PetscReal          s[2] = {0, 0}, g[2];

  PetscFunctionBegin;
  *err = -1;
  if (!f->hastrue) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwModelWaveGetGeometry(f->model, NULL, M, NULL, NULL, NULL));
  PetscCall(RwModelGetFieldDM(f->model, &fda));
  PetscCall(DMDAGetCorners(fda, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(f->ctrue, &t));
  FWI_FOR_OWNED(i, j, k, p)
  {
    const PetscInt ijk[3] = {i, j, k};
    PetscBool      inside = PETSC_TRUE;

    for (PetscInt d = 0; d < f->dim; d++) inside = (PetscBool)(inside && ijk[d] >= f->nbl && ijk[d] < M[d] - f->nbl);
    if (!inside) continue;
    s[0] += PetscSqr(1 / PetscSqrtReal(a[p]) - t[p]);
    s[1] += PetscSqr(t[p]);
  }
  PetscCall(VecRestoreArrayRead(f->ctrue, &t));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(MPIU_Allreduce(s, g, 2, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  *err = PetscSqrtReal(g[0] / g[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
