/*
  The embedded problem of rewind-fwi: a layered section (2D) or block (3D)
  with a dipping interface and a fast body, shots near the top, a line (2D)
  or a grid (3D) of receivers, and the true model's data with noise.
*/
#include "fwi.h"

/* Layers 1.5 / 2.0 / 2.6 / 3.2 km/s, the interface dipping along x, a 3.6 km/s body; depth is x[dim-1] */
static PetscReal TrueVelocity(PetscInt dim, const PetscReal x[], const PetscReal L[])
{
  const PetscReal z = x[dim - 1], Z = L[dim - 1], X = L[0];
  PetscReal       c = 1.5, r2 = PetscSqr((x[0] - 0.62 * X) / (0.12 * X)) + PetscSqr((z - 0.55 * Z) / (0.12 * Z));

  if (dim > 2) r2 += PetscSqr((x[1] - 0.5 * L[1]) / (0.2 * L[1]));
  if (z > 0.22 * Z) c = 2.0;
  if (z > 0.42 * Z + 0.15 * (x[0] - 0.5 * X)) c = 2.6; /* the dipping interface */
  if (z > 0.78 * Z) c = 3.2;
  if (r2 < 1) c = 3.6; /* the fast body */
  return c;
}

/* Three box passes of radius r along direction d of an n[0] x n[1] (x n[2]) array: close to a Gaussian */
static void BoxPass(PetscInt d, const PetscInt n[3], PetscInt r, const PetscReal *a, PetscReal *b)
{
  const PetscInt stride = d == 0 ? 1 : d == 1 ? n[0] : n[0] * n[1], total = n[0] * n[1] * n[2];

  for (PetscInt q = 0; q < total; q++) {
    const PetscInt i = (q / stride) % n[d];
    PetscReal      s = 0;

    for (PetscInt t = -r; t <= r; t++) s += a[q + (PetscMin(PetscMax(i + t, 0), n[d] - 1) - i) * stride];
    b[q] = s / (2 * r + 1);
  }
}

/*
  FwiEmbeddedModels - the true model on the physical grid and the start: the
  truth smoothed over -rw_fwi_smooth m, the water kept
*/
PetscErrorCode FwiEmbeddedModels(Fwi *f)
{
  const PetscInt n[3] = {f->n[0], f->n[1], f->dim > 2 ? f->n[2] : 1}, total = n[0] * n[1] * n[2], r = (PetscInt)(f->smooth / f->h);
  PetscReal      L[3], *a, *s, *b;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) L[d] = (n[d] - 1) * f->h;
  PetscCall(PetscMalloc1(total, &f->vtrue.c));
  PetscCall(PetscMalloc1(total, &f->vstart.c));
  PetscCall(PetscMalloc1(total, &b));
  a = f->vtrue.c, s = f->vstart.c;
  for (PetscInt q = 0; q < total; q++) {
    const PetscReal x[3] = {(q % n[0]) * f->h, ((q / n[0]) % n[1]) * f->h, (q / (n[0] * n[1])) * f->h};
    a[q]                 = TrueVelocity(f->dim, x, L);
  }
  PetscCall(PetscArraycpy(s, a, total));
  for (int pass = 0; pass < 3; pass++)
    for (PetscInt d = 0; d < f->dim; d++) {
      BoxPass(d, n, r, s, b);
      PetscCall(PetscArraycpy(s, b, total));
    }
  for (PetscInt q = 0; q < total; q++)
    if (a[q] == 1.5) s[q] = 1.5;
  PetscCall(PetscFree(b));
  for (PetscInt d = 0; d < 3; d++) f->vtrue.shape[d] = f->vstart.shape[d] = n[d];
  f->hastrue = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The geometry of a survey with nrec[s] receivers for shot s; the data come later */
PetscErrorCode FwiSurveyAllocate(FwiSurvey *sv, PetscInt dim, PetscInt nshots, const PetscInt nrec[], PetscInt nt)
{
  PetscFunctionBegin;
  sv->dim = dim, sv->nshots = nshots, sv->nt = nt, sv->ntotal = 0;
  PetscCall(PetscMalloc3(nshots * dim, &sv->src, nshots, &sv->nrec, nshots, &sv->off));
  for (PetscInt s = 0; s < nshots; s++) {
    sv->nrec[s] = nrec[s];
    sv->off[s]  = sv->ntotal;
    sv->ntotal += nrec[s];
  }
  PetscCall(PetscMalloc1(sv->ntotal * dim, &sv->rec));
  if (nt > 0) PetscCall(PetscCalloc1(sv->ntotal * nt, &sv->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FwiSurveyDestroy(FwiSurvey *sv)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(sv->src, sv->nrec, sv->off));
  PetscCall(PetscFree(sv->rec));
  PetscCall(PetscFree(sv->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Receiver r of the embedded spread: every -rw_fwi_receiver_spacing m, a line (2D) or a grid (3D) near the top (from -rw_fwi_origin) */
static void SpreadPoint(Fwi *f, const PetscInt nr[2], const PetscReal L[2], PetscInt r, PetscReal y[])
{
  y[0] = f->origin[0] + PetscMin((r % nr[0]) * f->recspacing + 0.5 * f->h, L[0]);
  if (f->dim > 2) y[1] = f->origin[1] + PetscMin((r / nr[0]) * f->recspacing + 0.5 * f->h, L[1]);
  y[f->dim - 1] = f->origin[f->dim - 1] + 1.3 * f->h;
}

/* Whether receiver y records shot x: all do, or those within -rw_fwi_offset_max m along each horizontal axis (a moving spread) */
static PetscBool InSpread(Fwi *f, const PetscReal x[], const PetscReal y[])
{
  PetscBool in = PETSC_TRUE;

  for (PetscInt d = 0; d < f->dim - 1 && f->offmax > 0; d++) in = (PetscBool)(in && PetscAbsReal(y[d] - x[d]) <= f->offmax);
  return in;
}

/*
  FwiEmbeddedSurvey - shots near the top (a line in 2D, a grid in 3D), off the
  grid points; receivers every -rw_fwi_receiver_spacing m (a line, a grid),
  all of them for every shot or a moving spread (-rw_fwi_offset_max)
*/
PetscErrorCode FwiEmbeddedSurvey(Fwi *f)
{
  const PetscInt dim = f->dim, sx = dim > 2 ? (PetscInt)PetscCeilReal(PetscSqrtReal((PetscReal)f->nshots)) : f->nshots, sy = (f->nshots + sx - 1) / sx;
  PetscInt       nr[2] = {1, 1}, nall, *counts;
  PetscReal      L[2] = {0, 0}, *src, y[3];

  PetscFunctionBegin;
  for (PetscInt d = 0; d < dim - 1; d++) {
    L[d] = (f->n[d] - 1) * f->h;
    PetscCall(RwCheckArraySize(PETSC_COMM_WORLD, "the receivers of the embedded spread", (PetscReal)f->nshots * PetscFloorReal(L[d] / f->recspacing + 1) * (dim > 2 ? 1 + L[1 - d] / f->recspacing : 1) * dim, sizeof(PetscReal), "-rw_fwi_receiver_spacing"));
    nr[d] = (PetscInt)(L[d] / f->recspacing) + 1;
  }
  nall = nr[0] * nr[1];
  PetscCall(PetscMalloc2(f->nshots, &counts, f->nshots * dim, &src));
  for (PetscInt s = 0; s < f->nshots; s++) {
    PetscReal *x = src + s * dim;

    x[0] = f->origin[0] + ((s % sx) + 0.5) * L[0] / sx + 0.3 * f->h;
    if (dim > 2) x[1] = f->origin[1] + ((s / sx) + 0.5) * L[1] / sy + 0.3 * f->h;
    x[dim - 1] = f->origin[dim - 1] + 2.4 * f->h;
    counts[s]  = 0;
    for (PetscInt r = 0; r < nall; r++) {
      SpreadPoint(f, nr, L, r, y);
      if (InSpread(f, x, y)) counts[s]++;
    }
    PetscCheck(counts[s] > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_fwi_offset_max %g m leaves shot %" PetscInt_FMT " without receivers: expected at least the receiver spacing %g m", (double)f->offmax, s, (double)f->recspacing);
  }
  PetscCall(FwiSurveyAllocate(&f->sv, dim, f->nshots, counts, 0));
  PetscCall(PetscArraycpy(f->sv.src, src, f->nshots * dim));
  for (PetscInt s = 0; s < f->nshots; s++)
    for (PetscInt r = 0, k = 0; r < nall; r++) {
      SpreadPoint(f, nr, L, r, y);
      if (InSpread(f, src + s * dim, y)) PetscCall(PetscArraycpy(f->sv.rec + (f->sv.off[s] + k++) * dim, y, dim));
    }
  PetscCall(PetscFree2(counts, src));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gaussian noise of -rw_fwi_noise times the largest sample, the same sequence on every rank */
PetscErrorCode FwiAddNoise(Fwi *f)
{
  const PetscInt total = f->sv.ntotal * f->sv.nt;
  PetscReal      amax  = 0;
  PetscRandom    rnd;

  PetscFunctionBegin;
  for (PetscInt q = 0; q < total; q++) amax = PetscMax(amax, PetscAbsReal(f->sv.data[q]));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261201));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt q = 0; q < total; q++) {
    PetscReal a, b;

    PetscCall(PetscRandomGetValueReal(rnd, &a));
    PetscCall(PetscRandomGetValueReal(rnd, &b));
    f->sv.data[q] += f->noise * amax * PetscSqrtReal(-2 * PetscLogReal(PetscMax(a, 1e-300))) * PetscCosReal(2 * PETSC_PI * b);
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}
