/*
  The adjoint of the heat model's learned reaction, tile by tile.

  The weight gradient dJ/dtheta sums a term per weight, point and step: 321
  terms a point-step for 1 -> 16 -> 16 -> 1.  Adding each exactly
  (RwReproSum, ~4 ns a term) cost more than the network itself.  Instead the
  grid's points are cut into fixed tiles of RW_NN_TILE consecutive points
  of the natural ordering (the last one shorter): a tile is the same set of
  points, evaluated by the same code, whatever the decomposition, so its
  plain sums (RwNNAdjoint()'s gsum) have the same bits on any number of ranks,
  and only those sums, a handful per weight and step, are added exactly.

  Tiles go to ranks in contiguous, balanced runs; each rank gathers its tiles'
  u_k and mu (a VecScatter from the state's layout, PETSc's DMDA ordering) and
  scatters N_u^T (dt mu) back, adding it to lambda_k.  On one rank the natural
  ordering is the state's own, so the arrays are used in place.
*/
#include "heatimpl.h"

/* The natural-ordering range of this rank's tiles, and the scatter that gathers them */
PetscErrorCode RwHeatNNTilesSetUp(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  MPI_Comm      comm = PetscObjectComm((PetscObject)model);
  PetscMPIInt   size, rank;
  PetscInt64    total = (PetscInt64)heat->st->M[0] * heat->st->M[1] * heat->st->M[2], ntiles, t0, t1;
  PetscInt      n, *idx;
  AO            ao;
  IS            is;
  Vec           g;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  ntiles        = (total + RW_NN_TILE - 1) / RW_NN_TILE;
  t0            = ntiles * rank / size;
  t1            = ntiles * (rank + 1) / size;
  heat->nnfirst = (PetscInt)(t0 * RW_NN_TILE);
  heat->nnpts   = (PetscInt)(PetscMin(t1 * RW_NN_TILE, total) - heat->nnfirst);
  n             = PetscMax(heat->nnpts, 0);
  heat->nnpts   = n;
  PetscCall(PetscMalloc2(RW_NN_TILE, &heat->nnybar, heat->nn->nweights, &heat->nnsum));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(n, &idx));
  for (PetscInt p = 0; p < n; p++) idx[p] = heat->nnfirst + p;
  PetscCall(DMDAGetAO(heat->st->da, &ao));
  PetscCall(AOApplicationToPetsc(ao, n, idx));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, idx, PETSC_OWN_POINTER, &is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &heat->nnu));
  PetscCall(VecDuplicate(heat->nnu, &heat->nnmu));
  PetscCall(VecDuplicate(heat->nnu, &heat->nnxbar));
  PetscCall(DMGetGlobalVector(heat->st->da, &g));
  PetscCall(VecScatterCreate(g, is, heat->nnu, NULL, &heat->nnscatter));
  PetscCall(DMRestoreGlobalVector(heat->st->da, &g));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatNNTilesDestroy(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscFree2(heat->nnybar, heat->nnsum));
  PetscCall(VecScatterDestroy(&heat->nnscatter));
  PetscCall(VecDestroy(&heat->nnu));
  PetscCall(VecDestroy(&heat->nnmu));
  PetscCall(VecDestroy(&heat->nnxbar));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every tile of n points at u: xbar += N_u(u)^T (dt mu), the tile's weight sums
   added exactly; NaN or Inf in xbar shows in *probe */
static PetscErrorCode HeatNNTiles(RwModel model, const PetscScalar *u, const PetscScalar *mu, PetscScalar *xbar, PetscReal *probe)
{
  RwModel_Heat    *heat  = (RwModel_Heat *)model->data;
  const PetscReal *theta = RwModelBlockValues(model, heat->nnblock);
  const PetscInt   nw    = heat->nn->nweights;
  PetscReal        nan   = 0;

  PetscFunctionBegin;
  for (PetscInt p0 = 0; p0 < heat->nnpts; p0 += RW_NN_TILE) {
    const PetscInt n = PetscMin(RW_NN_TILE, heat->nnpts - p0);

    for (PetscInt p = 0; p < n; p++) heat->nnybar[p] = model->dt * mu[p0 + p];
    for (PetscInt w = 0; w < nw; w++) heat->nnsum[w] = 0;
    RwNNAdjoint(heat->nn, theta, n, u + p0, n, heat->nnybar, n, xbar + p0, NULL, 0, heat->nnsum);
    for (PetscInt p = 0; p < n; p++) nan += xbar[p0 + p] * 0;
    for (PetscInt w = 0; w < nw; w++) PetscCall(RwModelAddScalarGradient(model, heat->nnblock, w, heat->nnsum[w]));
  }
  *probe += nan;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* l += N_u(u)^T (dt mu) and dJ/dtheta += N_theta(u)^T (dt mu), from the states' own layout */
PetscErrorCode RwHeatNNAdjoint(RwModel model, Vec u, Vec mu, Vec l, PetscReal *probe)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  const PetscScalar *ua, *ma;
  PetscScalar       *xa;

  PetscFunctionBegin;
  heat->nn->isa = model->isa; /* as the rows do (RwHeatNNRowSetUp) */
  if (!heat->nnscatter) { /* one rank: the natural ordering is the state's */
    PetscCall(VecGetArrayRead(u, &ua));
    PetscCall(VecGetArrayRead(mu, &ma));
    PetscCall(VecGetArray(l, &xa));
    PetscCall(HeatNNTiles(model, ua, ma, xa, probe));
    PetscCall(VecRestoreArray(l, &xa));
    PetscCall(VecRestoreArrayRead(mu, &ma));
    PetscCall(VecRestoreArrayRead(u, &ua));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecScatterBegin(heat->nnscatter, u, heat->nnu, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(heat->nnscatter, u, heat->nnu, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterBegin(heat->nnscatter, mu, heat->nnmu, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(heat->nnscatter, mu, heat->nnmu, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecZeroEntries(heat->nnxbar));
  PetscCall(VecGetArrayRead(heat->nnu, &ua));
  PetscCall(VecGetArrayRead(heat->nnmu, &ma));
  PetscCall(VecGetArray(heat->nnxbar, &xa));
  PetscCall(HeatNNTiles(model, ua, ma, xa, probe));
  PetscCall(VecRestoreArray(heat->nnxbar, &xa));
  PetscCall(VecRestoreArrayRead(heat->nnmu, &ma));
  PetscCall(VecRestoreArrayRead(heat->nnu, &ua));
  /* each point receives its one value: l_p + xbar_p, as on one rank */
  PetscCall(VecScatterBegin(heat->nnscatter, heat->nnxbar, l, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(heat->nnscatter, heat->nnxbar, l, ADD_VALUES, SCATTER_REVERSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
