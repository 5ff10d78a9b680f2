/*
  The acoustic wave model "wave": set-up, options, geometry, the absorbing
  layer, sources, defaults and parameters.  The grid, its halos and points
  are the shared layer's (RwStencil, src/model/utils); the three forms of a
  step are in wavekernels.c, the receivers in wavereceivers.c.

  Geometry: M_d points per direction d (-da_grid_x ..., the whole grid),
  spacing h_d (-rw_wave_spacing), of which nbl (-rw_wave_nbl) at each end
  are the absorbing layer; the physical region starts at point nbl, whose
  coordinate is the origin (-rw_wave_origin).  Point i sits at
  origin + (i - nbl) h.  The state is zero outside the grid.

  Absorbing layer (Devito's initialize_damp): for each direction d, in the
  left layer point i = 0..nbl-1 has pos = (nbl - i + 1)/nbl, in the right
  layer point i = M-nbl..M-1 has pos = (nbl - (M-1-i) + 1)/nbl, and
  eta += (1.5 ln(1000)/nbl) (pos - sin(2 pi pos)/(2 pi)) / h_d; the
  directions add (corners).

  Stability: for a Fourier mode with -L = lambda the damped update's
  characteristic polynomial (m + eta dt) z^2 - (2m + eta dt - dt^2 lambda) z + m
  has its roots in the unit disc when dt^2 lambda <= 4 m + 2 eta dt; damping
  only helps, so dt <= 2 sqrt(min m / rho) with rho the sharp bound of -L
  (RwStencilLaplacianBound()) is the limit checked at every parameter set.
*/
#include "waveimpl.h"
#include <rewind/io.h>
#include <float.h>

static const char *const RwWaveCompNames[]  = {"u", "u_prev"};
static const char *const RwWaveFieldNames[] = {"m"};

/* ---- geometry --------------------------------------------------------------- */

/* The physical region's extent along d: [origin, origin + (M - 2 nbl - 1) h] */
static void WavePhysicalBox(RwModel_Wave *w, PetscInt d, PetscReal *lo, PetscReal *hi)
{
  *lo = w->origin[d];
  *hi = w->origin[d] + (w->st->M[d] - 2 * w->nbl - 1) * w->h[d];
}

/* The whole grid's extent along d */
static void WaveGridBox(RwModel_Wave *w, PetscInt d, PetscReal *lo, PetscReal *hi)
{
  *lo = w->origin[d] - w->nbl * w->h[d];
  *hi = *lo + (w->st->M[d] - 1) * w->h[d];
}

/*@C
  RwModelWaveCheckPoints - stops if a point lies outside the grid (the error
  names what[] and the point's index, e.g. "obs.h5 shot 3: receiver"); warns,
  once a call, if one lies in the absorbing layer

  Collective

  Level: intermediate
@*/
PetscErrorCode RwModelWaveCheckPoints(RwModel model, const char what[], PetscInt n, const PetscReal x[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidCharPointer(what, 2);
  if (n) PetscValidRealPointer(x, 4);
  RwModelUseMethod(model, RWMODELWAVE, "RwModelWaveCheckPoints", (RwModel, const char[], PetscInt, const PetscReal[]), (model, what, n, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Stops if a point (a source or a receiver) lies outside the grid; warns,
   once, if it lies in the absorbing layer: RwModelWaveCheckPoints() for a
   wave model, and what the sources and receivers check */
PETSC_INTERN PetscErrorCode RwWaveCheckPoints(RwModel model, const char what[], PetscInt n, const PetscReal x[])
{
  RwModel_Wave *w     = (RwModel_Wave *)model->data;
  PetscBool     warned = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < n; s++)
    for (PetscInt d = 0; d < w->dim; d++) {
      PetscReal lo, hi, plo, phi, v = x[s * w->dim + d];

      WaveGridBox(w, d, &lo, &hi);
      WavePhysicalBox(w, d, &plo, &phi);
      PetscCheck(v >= lo && v <= hi && !PetscIsInfOrNanReal(v), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "%s %" PetscInt_FMT " has coordinate %g in direction %c, outside the grid [%g, %g] (origin -rw_wave_origin %g, spacing %g, %" PetscInt_FMT " points of which -rw_wave_nbl %" PetscInt_FMT " absorbing at each end)", what, s, (double)v, "xyz"[d], (double)lo, (double)hi, (double)w->origin[d], (double)w->h[d], w->st->M[d], w->nbl);
      if (!warned && (v < plo || v > phi)) {
        PetscCall(PetscPrintf(PetscObjectComm((PetscObject)model), "WARNING: %s %" PetscInt_FMT " at %c = %g lies inside the absorbing layer (the physical region is [%g, %g]): it is damped\n", what, s, "xyz"[d], (double)v, (double)plo, (double)phi));
        warned = PETSC_TRUE;
      }
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* eta at every owned point, from the layer's profile */
static PetscErrorCode WaveFillDamping(RwModel_Wave *w)
{
  const RwStencil st = w->st;
  const PetscReal a  = w->nbl ? 1.5 * PetscLogReal(1000.0) / w->nbl : 0;
  PetscScalar    *e;
  PetscInt        p = 0;

  PetscFunctionBegin;
  PetscCall(VecGetArray(w->eta, &e));
  for (PetscInt k = st->own.s[2]; k < st->own.s[2] + st->own.n[2]; k++)
    for (PetscInt j = st->own.s[1]; j < st->own.s[1] + st->own.n[1]; j++)
      for (PetscInt i = st->own.s[0]; i < st->own.s[0] + st->own.n[0]; i++, p++) {
        const PetscInt ijk[3] = {i, j, k};
        PetscReal      v      = 0;

        for (PetscInt d = 0; d < w->dim; d++) {
          PetscReal pos = -1;

          if (ijk[d] < w->nbl) pos = (PetscReal)(w->nbl - ijk[d] + 1) / w->nbl;
          else if (ijk[d] >= st->M[d] - w->nbl) pos = (PetscReal)(w->nbl - (st->M[d] - 1 - ijk[d]) + 1) / w->nbl;
          if (pos >= 0) v += a * (pos - PetscSinReal(2 * PETSC_PI * pos) / (2 * PETSC_PI)) / w->h[d];
        }
        e[p] = v;
      }
  PetscCall(VecRestoreArray(w->eta, &e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- sources ------------------------------------------------------------------ */

/* The owned grid points the sources' corners touch, with their summed
   weights: spread in gather form by the shared layer, so the same on any
   decomposition */
static PetscErrorCode WaveLocateSources(RwModel model)
{
  RwModel_Wave      *w = (RwModel_Wave *)model->data;
  RwStencilPoints    pts;
  Vec                s;
  PetscReal         *ones;
  PetscScalar       *a;
  PetscInt           n, stride, off, cnt = 0;

  PetscFunctionBegin;
  PetscCall(PetscFree4(w->srcidx, w->srcw, w->srcq, w->srcg));
  w->nsrcpts = 0;
  PetscCall(RwWaveCheckPoints(model, "Source", w->nsrc, w->srccoords));
  PetscCall(RwStencilPointsCreate(model, 0, w->nsrc, w->srccoords, &pts));
  PetscCall(DMCreateGlobalVector(model->da, &s));
  PetscCall(PetscMalloc1(w->nsrc + 1, &ones));
  for (PetscInt i = 0; i < w->nsrc; i++) ones[i] = 1;
  PetscCall(VecGetArray(s, &a));
  PetscCall(RwStencilPointsSpread(pts, ones, a));
  PetscCall(VecGetLocalSize(s, &n));
  n /= RW_WAVE_DOF; /* the owned points; the spread filled component 0, where the layout puts it */
  PetscCall(RwModelGetStateLayout(model, 0, n, &stride, &off));
  for (PetscInt p = 0; p < n; p++)
    if (a[off + p * stride] != 0) cnt++;
  PetscCall(PetscMalloc4(cnt, &w->srcidx, cnt, &w->srcw, cnt, &w->srcq, cnt, &w->srcg));
  for (PetscInt p = 0; p < n; p++)
    if (a[off + p * stride] != 0) {
      w->srcidx[w->nsrcpts] = p;
      w->srcw[w->nsrcpts++] = PetscRealPart(a[off + p * stride]);
    }
  PetscCall(VecRestoreArray(s, &a));
  PetscCall(PetscFree(ones));
  PetscCall(VecDestroy(&s));
  PetscCall(RwStencilPointsDestroy(&pts));
  w->srclocated = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* q = dt^2 w / m and q (ia/dt^2 - 1/m) at the sources' corners, for the current m */
static PetscErrorCode WaveSourceCoefficients(RwModel model)
{
  RwModel_Wave      *w = (RwModel_Wave *)model->data;
  const PetscReal    dt2 = model->dt * model->dt;
  const PetscScalar *m, *ia;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(w->mown, &m));
  PetscCall(VecGetArrayRead(w->iaown, &ia));
  for (PetscInt s = 0; s < w->nsrcpts; s++) {
    const PetscInt p = w->srcidx[s];

    w->srcq[s] = dt2 * w->srcw[s] / m[p];
    w->srcg[s] = w->srcq[s] * (ia[p] / dt2 - 1 / m[p]);
  }
  PetscCall(VecRestoreArrayRead(w->iaown, &ia));
  PetscCall(VecRestoreArrayRead(w->mown, &m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelWaveSetSources_Wave(RwModel model, PetscInt n, const PetscReal x[])
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " sources: expected at least 0", n);
  PetscCall(PetscFree(w->srccoords));
  PetscCall(PetscMalloc1(n * w->dim + 1, &w->srccoords));
  PetscCall(PetscArraycpy(w->srccoords, x, n * w->dim));
  w->nsrc = n;
  if (model->setupcalled) {
    PetscCall(WaveLocateSources(model));
    model->paramsset = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelWaveSetSources - the point sources of a wave model (one shot):
  n points at physical coordinates x[s * dim + d], anywhere in the grid,
  all fed the model's wavelet, each spread over its corners with multilinear
  weights: u_k+1[p] += w_p f(t_k) dt^2 / m[p]

  Collective; before or after RwModelSetUp() (after: set the parameters again before stepping)

  Options Database Key:
. -rw_wave_sources x,z[,x,z...] - the same

  Level: intermediate

.seealso: RwModelWaveSetWavelet(), RwObjectiveAddWaveReceivers()
@*/
PetscErrorCode RwModelWaveSetSources(RwModel model, PetscInt n, const PetscReal x[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (n > 0) PetscValidRealPointer(x, 3);
  RwModelUseMethod(model, RWMODELWAVE, "RwModelWaveSetSources", (RwModel, PetscInt, const PetscReal[]), (model, n, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelWaveSetWavelet_Wave(RwModel model, PetscInt n, const PetscReal f[])
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscFree(w->wavelet));
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(n == model->n, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_SIZ, "A wavelet of %" PetscInt_FMT " samples for %" PetscInt64_FMT " steps (-rw_steps): expected one sample per step", n, model->n);
  for (PetscInt k = 0; k < n; k++) PetscCheck(!PetscIsInfOrNanReal(f[k]), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Wavelet sample %" PetscInt_FMT " is %g: expected finite values", k, (double)f[k]);
  PetscCall(PetscMalloc1(n, &w->wavelet));
  PetscCall(PetscArraycpy(w->wavelet, f, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelWaveSetWavelet - the source wavelet f(t_k) for k = 0..n-1 (n the
  model's steps), instead of the Ricker wavelet; NULL restores the Ricker

  Collective; after the number of steps is set

  Level: intermediate

.seealso: RwModelWaveSetSources(), RwWaveRicker(), RwWaveLowPass()
@*/
PetscErrorCode RwModelWaveSetWavelet(RwModel model, PetscInt n, const PetscReal f[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelUseMethod(model, RWMODELWAVE, "RwModelWaveSetWavelet", (RwModel, PetscInt, const PetscReal[]), (model, n, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelWaveGetWavelet_Wave(RwModel model, PetscInt n, PetscReal f[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) f[k] = RwWaveSourceValue(model, k);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelWaveGetWavelet - the wavelet f(t_k) the model uses, k = 0..n-1

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwModelWaveGetWavelet(RwModel model, PetscInt n, PetscReal f[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (n > 0) PetscValidRealPointer(f, 3);
  RwModelUseMethod(model, RWMODELWAVE, "RwModelWaveGetWavelet", (RwModel, PetscInt, PetscReal[]), (model, n, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwWaveRicker - the Ricker wavelet (1 - 2 pi^2 f0^2 (t - t0)^2) exp(-pi^2 f0^2 (t - t0)^2) at t_k = k dt, k = 0..n-1

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwWaveRicker(PetscReal f0, PetscReal t0, PetscReal dt, PetscInt n, PetscReal f[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    PetscReal a = PETSC_PI * f0 * (k * dt - t0);

    a *= a;
    f[k] = (1 - 2 * a) * PetscExpReal(-a);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwWaveLowPass - a causal second-order Butterworth low-pass of corner fc,
  run forward over nt samples of ntr series stored x[k * ntr + r], in place.
  Causal and time-invariant, like the wave step: low-passed traces are the
  traces of the low-passed wavelet, so the same filter on the wavelet and
  the data keeps them consistent (frequency continuation)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwWaveLowPass(PetscReal fc, PetscReal dt, PetscInt nt, PetscInt ntr, PetscReal x[])
{
  const PetscReal K = PetscTanReal(PETSC_PI * fc * dt), q = PetscSqrtReal(2.0), nrm = 1 / (1 + q * K + K * K);
  const PetscReal b0 = K * K * nrm, b1 = 2 * b0, b2 = b0, a1 = 2 * (K * K - 1) * nrm, a2 = (1 - q * K + K * K) * nrm;

  PetscFunctionBegin;
  PetscCheck(fc > 0 && fc * dt < 0.5, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Low-pass corner %g with dt %g: expected 0 < fc < 1/(2 dt) = %g", (double)fc, (double)dt, (double)(0.5 / dt));
  for (PetscInt r = 0; r < ntr; r++) {
    PetscReal x1 = 0, x2 = 0, y1 = 0, y2 = 0;

    for (PetscInt k = 0; k < nt; k++) {
      PetscReal x0 = x[k * ntr + r], y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;

      x2 = x1, x1 = x0, y2 = y1, y1 = y0;
      x[k * ntr + r] = y0;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- configuration by calls ----------------------------------------------------- */

/* What a program chooses by calls rather than by writing the options
   database: before RwModelSetFromOptions() these are defaults that
   -rw_wave_dim, -rw_wave_nbl, -rw_wave_spacing and -rw_wave_origin
   override, with the options' checks; the grid is built at set-up, so after
   it they are errors */
#define WaveCheckNotSetUp(model, what) PetscCheck(!(model)->setupcalled, PetscObjectComm((PetscObject)(model)), PETSC_ERR_ORDER, "Choose the wave model's %s before RwModelSetUp()", what)

static PetscErrorCode RwModelWaveSetDimension_Wave(RwModel model, PetscInt dim)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  WaveCheckNotSetUp(model, "dimension");
  PetscCheck(dim == 2 || dim == 3, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Wave dimension %" PetscInt_FMT " (-rw_wave_dim): expected 2 or 3", dim);
  /* the sources hold dim coordinates each: read with another dim they would be other points */
  PetscCheck(dim == w->dim || !w->nsrc, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the wave dimension (%" PetscInt_FMT ", was %" PetscInt_FMT ") before the sources (RwModelWaveSetSources())", dim, w->dim);
  w->dim = dim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelWaveSetAbsorbingLayer_Wave(RwModel model, PetscInt nbl)
{
  PetscFunctionBegin;
  WaveCheckNotSetUp(model, "absorbing layer");
  PetscCheck(nbl >= 0, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Absorbing layer of %" PetscInt_FMT " points (-rw_wave_nbl): expected 0 or more points", nbl);
  ((RwModel_Wave *)model->data)->nbl = nbl;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One spacing for every direction, or one per direction, as -rw_wave_spacing */
static PetscErrorCode RwModelWaveSetSpacing_Wave(RwModel model, PetscInt n, const PetscReal h[])
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  WaveCheckNotSetUp(model, "spacing");
  PetscCheck(n == 1 || n == w->dim, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_SIZ, "RwModelWaveSetSpacing(): %" PetscInt_FMT " values; expected 1 or %" PetscInt_FMT " (one per direction of the %" PetscInt_FMT "D model: choose the dimension first)", n, w->dim, w->dim);
  for (PetscInt d = 0; d < n; d++) PetscCheck(h[d] > 0, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Spacing %g in direction %c (-rw_wave_spacing): expected a positive spacing", (double)h[d], "xyz"[d]);
  for (PetscInt d = 0; d < 3; d++) w->h[d] = h[PetscMin(d, n - 1)];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelWaveSetOrigin_Wave(RwModel model, PetscInt n, const PetscReal o[])
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  WaveCheckNotSetUp(model, "origin");
  PetscCheck(n == w->dim, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_SIZ, "RwModelWaveSetOrigin(): %" PetscInt_FMT " values; expected %" PetscInt_FMT " (one per direction of the %" PetscInt_FMT "D model: choose the dimension first)", n, w->dim, w->dim);
  for (PetscInt d = 0; d < n; d++) w->origin[d] = o[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelWaveSetDimension - the space dimension of a wave model, 2 or 3;
  ignored by other model types

  Logically collective; after RwModelSetType(), before RwModelSetUp(); before
  the sources, the spacing and the origin, whose counts depend on it

  Input Parameters:
+ model - the model
- dim   - 2 or 3 (default 2)

  Options Database Key:
. -rw_wave_dim <2,3> - overrides it

  Level: intermediate

.seealso: RWMODELWAVE, RwModelWaveSetSpacing(), RwModelWaveSetOrigin(), RwModelWaveGetGeometry()
@*/
PetscErrorCode RwModelWaveSetDimension(RwModel model, PetscInt dim)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidLogicalCollectiveInt(model, dim, 2);
  PetscTryMethod(model, "RwModelWaveSetDimension_C", (RwModel, PetscInt), (model, dim));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelWaveSetAbsorbingLayer - the points of a wave model's absorbing
  layer at each end of each direction, inside the grid (the grid sizes
  count them); ignored by other model types

  Logically collective; after RwModelSetType(), before RwModelSetUp()

  Input Parameters:
+ model - the model
- nbl   - 0 or more (default 10)

  Options Database Key:
. -rw_wave_nbl <nbl> - overrides it

  Level: intermediate

.seealso: RWMODELWAVE, RwModelSetGridSizes(), RwModelWaveGetGeometry()
@*/
PetscErrorCode RwModelWaveSetAbsorbingLayer(RwModel model, PetscInt nbl)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidLogicalCollectiveInt(model, nbl, 2);
  PetscTryMethod(model, "RwModelWaveSetAbsorbingLayer_C", (RwModel, PetscInt), (model, nbl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelWaveSetSpacing - a wave model's grid spacing: one value for every
  direction, or one per direction; ignored by other model types

  Logically collective; after RwModelSetType() and RwModelWaveSetDimension(), before RwModelSetUp()

  Input Parameters:
+ model - the model
. n     - 1, or the dimension
- h     - the positive spacings (default 10, e.g. m)

  Options Database Key:
. -rw_wave_spacing <h[,h,h]> - overrides it

  Level: intermediate

.seealso: RWMODELWAVE, RwModelWaveSetDimension(), RwModelWaveSetOrigin(), RwModelWaveGetGeometry()
@*/
PetscErrorCode RwModelWaveSetSpacing(RwModel model, PetscInt n, const PetscReal h[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (n > 0) PetscValidRealPointer(h, 3);
  PetscTryMethod(model, "RwModelWaveSetSpacing_C", (RwModel, PetscInt, const PetscReal[]), (model, n, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelWaveSetOrigin - the coordinates of a wave model's physical region's
  first point (grid point nbl in each direction; the grid starts nbl
  spacings before); ignored by other model types

  Logically collective; after RwModelSetType() and RwModelWaveSetDimension(), before RwModelSetUp()

  Input Parameters:
+ model - the model
. n     - the dimension
- o     - the coordinates (default 0)

  Options Database Key:
. -rw_wave_origin <x,z> - overrides it

  Level: intermediate

.seealso: RWMODELWAVE, RwModelWaveSetDimension(), RwModelWaveSetSpacing(), RwModelWaveGetGeometry()
@*/
PetscErrorCode RwModelWaveSetOrigin(RwModel model, PetscInt n, const PetscReal o[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (n > 0) PetscValidRealPointer(o, 3);
  PetscTryMethod(model, "RwModelWaveSetOrigin_C", (RwModel, PetscInt, const PetscReal[]), (model, n, o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- options ------------------------------------------------------------------ */

/* "a,b,c": what -help shows as the value an array option will use */
static PetscErrorCode WaveNow(PetscInt n, const PetscReal v[], char now[], size_t len)
{
  PetscFunctionBegin;
  now[0] = 0;
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscSNPrintf(now + strlen(now), len - strlen(now), "%s%g", i ? "," : "", (double)v[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelSetFromOptions_Wave(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;
  MPI_Comm      comm = PetscObjectComm((PetscObject)model);
  PetscReal     v[3 * 1024];
  PetscInt      nv;
  PetscBool     set;
  char          now[128];

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Acoustic wave model options");
  PetscCall(RwOptionsInt("-rw_wave_dim", "Space dimension: 2 or 3", "RwModelCreate_Wave", w->dim, &w->dim, NULL, 2, 3));
  PetscCall(RwOptionsInt("-rw_wave_space_order", "Space order of the Laplacian: 2, 4 or 8", "RwModelCreate_Wave", w->order, &w->order, NULL, 2, 8));
  PetscCheck(w->order == 2 || w->order == 4 || w->order == 8, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_wave_space_order %" PetscInt_FMT ": expected 2, 4 or 8", w->order);
  PetscCall(RwOptionsInt("-rw_wave_nbl", "Absorbing layer: points at each end of each direction, inside the grid", "RwModelCreate_Wave", w->nbl, &w->nbl, NULL, 0, PETSC_MAX_INT));
  nv = 3;
  PetscCall(WaveNow(w->dim, w->h, now, sizeof(now)));
  PetscCall(RwOptionsRealArray("-rw_wave_spacing", "Grid spacing, one value or one per direction (e.g. m)", "RwModelCreate_Wave", now, v, &nv, &set, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  if (set) {
    PetscCheck(nv == 1 || nv == w->dim, comm, PETSC_ERR_ARG_SIZ, "-rw_wave_spacing: %" PetscInt_FMT " values; expected 1 or %" PetscInt_FMT, nv, w->dim);
    for (PetscInt d = 0; d < 3; d++) {
      w->h[d] = v[PetscMin(d, nv - 1)];
      PetscCheck(w->h[d] > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_wave_spacing %g in direction %c: expected a positive spacing", (double)w->h[d], "xyz"[d]);
    }
  }
  nv = 3;
  PetscCall(WaveNow(w->dim, w->origin, now, sizeof(now)));
  PetscCall(RwOptionsRealArray("-rw_wave_origin", "Coordinates of the physical region's first point (the grid starts nbl points before)", "RwModelCreate_Wave", now, v, &nv, &set, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  if (set) {
    PetscCheck(nv == w->dim, comm, PETSC_ERR_ARG_SIZ, "-rw_wave_origin: %" PetscInt_FMT " values; expected %" PetscInt_FMT, nv, w->dim);
    for (PetscInt d = 0; d < nv; d++) w->origin[d] = v[d];
  }
  PetscCall(RwOptionsReal("-rw_wave_f0", "Peak frequency of the Ricker wavelet (e.g. kHz, with ms and m)", "RwModelCreate_Wave", w->f0, &w->f0, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  w->t0 = 1 / w->f0;
  PetscCall(RwOptionsReal("-rw_wave_t0", "Delay of the Ricker wavelet (default 1/f0)", "RwModelCreate_Wave", w->t0, &w->t0, NULL, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  nv = 2;
  PetscCall(WaveNow(2, w->cdefault, now, sizeof(now)));
  PetscCall(RwOptionsRealArray("-rw_wave_velocity_range", "The default velocity: top,bottom (a gradient with depth and a lateral ripple)", "RwModelCreate_Wave", now, w->cdefault, &nv, &set, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCheck(!set || (nv == 2 && w->cdefault[0] > 0 && w->cdefault[1] > 0), comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_wave_velocity_range: expected two positive velocities top,bottom");
  PetscCall(PetscOptionsString("-rw_wave_velocity", "The default velocity from HDF5: file.h5:dataset, on the whole grid or the physical region (padded by its edge values)", "RwModelCreate_Wave", w->velocity, w->velocity, sizeof(w->velocity), NULL));
  PetscCall(RwOptionsReal("-rw_wave_dt_safety", "Default dt as a fraction of the stability limit", "RwModelCreate_Wave", w->safety, &w->safety, NULL, 0, 1, RW_RANGE_OPEN_LO));
  PetscCall(PetscOptionsEnum("-rw_wave_kernel_choice", "Under -rw_kernel_isa auto, how each form's instruction set is chosen: table (measured, in wavechoice.c) or time (a step of each form in each set at set-up)", "RwModelCreate_Wave", RwWaveChoices, (PetscEnum)w->choice, (PetscEnum *)&w->choice, NULL));
  nv = (PetscInt)(sizeof(v) / sizeof(v[0]));
  if (w->nsrc) PetscCall(PetscSNPrintf(now, sizeof(now), "%" PetscInt_FMT " sources set by the program", w->nsrc));
  else PetscCall(PetscStrncpy(now, "one source near the centre of the physical region, unless the program places its own (rewind-fwi: one a shot)", sizeof(now)));
  PetscCall(RwOptionsRealArray("-rw_wave_sources", "Source positions x,z[,x,z...] (dim values per source), physical coordinates", "RwModelWaveSetSources", now, v, &nv, &set, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  if (set) {
    PetscCheck(nv % w->dim == 0, comm, PETSC_ERR_ARG_SIZ, "-rw_wave_sources: %" PetscInt_FMT " values; expected %" PetscInt_FMT " per source", nv, w->dim);
    PetscCall(RwModelWaveSetSources_Wave(model, nv / w->dim, v));
    w->srcgiven = PETSC_TRUE;
  }
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- defaults ----------------------------------------------------------------- */

/* The default velocity at x, clamped to the physical region (a physical
   model padded by its edge values): a gradient with depth (the last
   direction) and a lateral ripple */
static PetscReal WaveDefaultVelocity(RwModel_Wave *w, const PetscReal x[])
{
  PetscReal f[3];

  for (PetscInt d = 0; d < w->dim; d++) {
    PetscReal lo, hi;

    WavePhysicalBox(w, d, &lo, &hi);
    f[d] = hi > lo ? PetscMin(PetscMax((x[d] - lo) / (hi - lo), 0.0), 1.0) : 0;
  }
  return w->cdefault[0] + (w->cdefault[1] - w->cdefault[0]) * f[w->dim - 1] + 0.1 * (w->cdefault[1] - w->cdefault[0]) * PetscSinReal(2 * PETSC_PI * f[0]);
}

static PetscReal WaveDefaultM(PetscInt dim, const PetscReal x[], void *ctx)
{
  PetscReal c = WaveDefaultVelocity((RwModel_Wave *)ctx, x);
  return 1 / (c * c);
}

static PetscErrorCode RwModelWaveFillFromPhysical_Wave(RwModel model, const PetscInt shape[3], const PetscReal values[], PetscBool isvelocity, Vec f)
{
  RwModel_Wave   *w  = (RwModel_Wave *)model->data;
  const RwStencil st = w->st;
  PetscBool       full = PETSC_TRUE, phys = PETSC_TRUE;
  PetscInt        off, p = 0;
  PetscScalar    *a;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < w->dim; d++) {
    full = (PetscBool)(full && shape[d] == st->M[d]);
    phys = (PetscBool)(phys && shape[d] == st->M[d] - 2 * w->nbl);
  }
  PetscCheck(full || phys, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_SIZ, "A model of shape %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ": expected the physical region %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " or the whole grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " (x fastest)", shape[0], shape[1], w->dim > 2 ? shape[2] : 1, st->M[0] - 2 * w->nbl, st->M[1] - 2 * w->nbl, w->dim > 2 ? st->M[2] - 2 * w->nbl : 1, st->M[0], st->M[1], w->dim > 2 ? st->M[2] : 1);
  off = full ? 0 : w->nbl;
  for (PetscInt q = 0, n = shape[0] * shape[1] * (w->dim > 2 ? shape[2] : 1); q < n; q++)
    PetscCheck(!isvelocity || (values[q] > 0 && !PetscIsInfOrNanReal(values[q])), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "The velocity c must be positive and finite everywhere; c = %g at point (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") of the %s", (double)values[q], q % shape[0], (q / shape[0]) % shape[1], w->dim > 2 ? q / (shape[0] * shape[1]) : 0, full ? "grid" : "physical region");
  PetscCall(VecGetArray(f, &a));
  for (PetscInt k = st->own.s[2]; k < st->own.s[2] + st->own.n[2]; k++)
    for (PetscInt j = st->own.s[1]; j < st->own.s[1] + st->own.n[1]; j++)
      for (PetscInt i = st->own.s[0]; i < st->own.s[0] + st->own.n[0]; i++, p++) {
        const PetscInt ijk[3] = {i, j, k};
        PetscInt       c[3]   = {0, 0, 0};
        PetscReal      v;

        for (PetscInt d = 0; d < w->dim; d++) c[d] = PetscMin(PetscMax(ijk[d] - off, 0), shape[d] - 1);
        v    = values[c[0] + shape[0] * (c[1] + shape[1] * c[2])];
        a[p] = isvelocity ? 1 / (v * v) : v;
      }
  PetscCall(VecRestoreArray(f, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelWaveFillFromPhysical - a field on the whole grid from values given
  on the physical region (shape M - 2 nbl per direction) or on the whole grid
  (shape M), x fastest; a physical model is padded by copying its edge
  values into the absorbing layer.  Velocities (isvelocity) become m = 1/c^2
  and must be positive and finite

  Collective; every rank passes the same values

  Level: intermediate
@*/
PetscErrorCode RwModelWaveFillFromPhysical(RwModel model, const PetscInt shape[3], const PetscReal values[], PetscBool isvelocity, Vec f)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidIntPointer(shape, 2);
  PetscValidRealPointer(values, 3);
  PetscValidHeaderSpecific(f, VEC_CLASSID, 5);
  RwModelUseMethod(model, RWMODELWAVE, "RwModelWaveFillFromPhysical", (RwModel, const PetscInt[3], const PetscReal[], PetscBool, Vec), (model, shape, values, isvelocity, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* m from -rw_wave_velocity file.h5:dataset, padded if physical */
static PetscErrorCode WaveReadVelocity(RwModel model, Vec f)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;
  char          file[PETSC_MAX_PATH_LEN], *colon;
  PetscInt64    dims[3] = {1, 1, 1}, any[3] = {-1, -1, -1};
  PetscInt      shape[3] = {1, 1, 1};
  PetscReal    *c;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(file, w->velocity, sizeof(file)));
  colon = strrchr(file, ':');
  PetscCheck(colon && colon[1], PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_WRONG, "-rw_wave_velocity %s: expected file.h5:dataset", w->velocity);
  *colon = 0;
  PetscCall(RwIOReadArray(PetscObjectComm((PetscObject)model), file, colon + 1, w->dim, any, dims, &c));
  for (PetscInt d = 0; d < w->dim; d++) shape[d] = (PetscInt)dims[w->dim - 1 - d]; /* HDF5 is C order: x is the last dimension */
  PetscCall(RwModelWaveFillFromPhysical_Wave(model, shape, c, PETSC_TRUE, f));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveDefaultParameters(RwModel model, Vec f)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  if (w->velocity[0]) PetscCall(WaveReadVelocity(model, f));
  else PetscCall(RwModelFillField(model, f, WaveDefaultM, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* m from the default velocity (or -rw_wave_velocity), u0 = u_-1 = 0, a zero target */
static PetscErrorCode RwModelDefaults_Wave(RwModel model, Vec m, Vec u0, Vec target)
{
  PetscFunctionBegin;
  if (m) {
    Vec f;

    PetscCall(RwModelGetParameterField(model, m, 0, &f));
    PetscCall(WaveDefaultParameters(model, f));
    PetscCall(RwModelRestoreParameterField(model, m, 0, &f));
  }
  if (u0) PetscCall(VecSet(u0, 0));
  if (target) PetscCall(VecSet(target, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelWaveStableTimeStep_Wave(RwModel model, PetscReal cmax, PetscReal *dt)
{
  PetscFunctionBegin;
  *dt = 2 / (cmax * PetscSqrtReal(((RwModel_Wave *)model->data)->rho));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelWaveStableTimeStep - the largest stable dt for velocities up to cmax: 2 / (cmax sqrt(rho)), rho the bound of -L

  Not collective; after RwModelSetUp()

  Level: intermediate
@*/
PetscErrorCode RwModelWaveStableTimeStep(RwModel model, PetscReal cmax, PetscReal *dt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidRealPointer(dt, 3);
  RwModelUseMethod(model, RWMODELWAVE, "RwModelWaveStableTimeStep", (RwModel, PetscReal, PetscReal *), (model, cmax, dt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelWaveGetGeometry_Wave(RwModel model, PetscInt *dim, PetscInt M[3], PetscInt *nbl, PetscReal h[3], PetscReal origin[3])
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  PetscCheck(!M || model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "RwModelWaveGetGeometry(): the grid sizes are known after RwModelSetUp(); pass NULL for them before");
  if (dim) *dim = w->dim;
  if (nbl) *nbl = w->nbl;
  for (PetscInt d = 0; d < 3; d++) {
    if (M) M[d] = w->st->M[d];
    if (h) h[d] = w->h[d];
    if (origin) origin[d] = w->origin[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelWaveGetGeometry - the grid of a wave model: dimension, points per
  direction (the whole grid), absorbing points at each end, spacing, and the
  physical region's origin (point nbl)

  Not collective; after RwModelSetUp()

  Level: intermediate
@*/
PetscErrorCode RwModelWaveGetGeometry(RwModel model, PetscInt *dim, PetscInt M[3], PetscInt *nbl, PetscReal h[3], PetscReal origin[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelUseMethod(model, RWMODELWAVE, "RwModelWaveGetGeometry", (RwModel, PetscInt *, PetscInt[3], PetscInt *, PetscReal[3], PetscReal[3]), (model, dim, M, nbl, h, origin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- parameters ----------------------------------------------------------------- */

static PetscErrorCode RwWaveSetParameters(RwModel model, Vec m)
{
  RwModel_Wave *w   = (RwModel_Wave *)model->data;
  const PetscReal dt = model->dt;
  Vec           f;
  PetscReal     mmin;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, m, 0, &f));
  PetscCall(RwStencilCheckField(w->st, f, DBL_MIN, PETSC_INFINITY, "The squared slowness m = 1/c^2 must be positive and finite everywhere (c > 0, not NaN)", "m"));
  PetscCall(VecMin(f, NULL, &mmin));
  w->dtlimit = 2 * PetscSqrtReal(mmin / w->rho);
  PetscCheck(dt <= w->dtlimit, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Time step -rw_dt %g is above the stability limit of the space-order-%" PetscInt_FMT " wave step for this model (max velocity %g): the largest stable time step is -rw_dt %.6e", (double)dt, w->order, (double)(1 / PetscSqrtReal(mmin)), (double)w->dtlimit);
  PetscCall(VecCopy(f, w->mown));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &f));
  PetscCall(VecCopy(w->mown, w->c1));
  PetscCall(VecScale(w->c1, 1 / (dt * dt)));
  PetscCall(VecCopy(w->eta, w->c2));
  PetscCall(VecScale(w->c2, 1 / dt));
  PetscCall(VecWAXPY(w->iaown, 1.0, w->c1, w->c2));
  PetscCall(VecReciprocal(w->iaown));
  PetscCall(RwStencilGlobalToLocal(w->st, w->iaown, w->ia, PETSC_FALSE));
  if (!w->srclocated) PetscCall(WaveLocateSources(model));
  PetscCall(WaveSourceCoefficients(model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwWaveSetDirection(RwModel model, Vec dm)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;
  Vec           f;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, dm, 0, &f));
  PetscCall(VecCopy(f, w->dm));
  PetscCall(RwModelRestoreParameterField(model, dm, 0, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwWaveAdjointBegin(RwModel model)
{
  PetscFunctionBegin;
  PetscCall(VecSet(((RwModel_Wave *)model->data)->gm, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwWaveAdjointEnd(RwModel model, Vec g)
{
  Vec f;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, g, 0, &f));
  PetscCall(VecCopy(((RwModel_Wave *)model->data)->gm, f));
  PetscCall(RwModelRestoreParameterField(model, g, 0, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwWaveAdjointAccumulators(RwModel model, PetscInt *n, Vec acc[])
{
  PetscFunctionBegin;
  *n     = 1;
  acc[0] = ((RwModel_Wave *)model->data)->gm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- set-up and the rest -------------------------------------------------------- */

/* The default source: one, near the physical region's centre and off the grid points */
static PetscErrorCode WaveDefaultSources(RwModel model)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;
  PetscReal     x[3];

  PetscFunctionBegin;
  for (PetscInt d = 0; d < w->dim; d++) {
    PetscReal lo, hi;

    WavePhysicalBox(w, d, &lo, &hi);
    x[d] = lo + PetscFloorReal(0.5 * (hi - lo) / w->h[d]) * w->h[d] + (0.37 - 0.11 * d) * w->h[d];
  }
  PetscCall(RwModelWaveSetSources_Wave(model, 1, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveDefaultTimeStep(RwModel model)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;
  Vec           f;
  PetscReal     mmin;

  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(model->fda, &f));
  PetscCall(WaveDefaultParameters(model, f));
  PetscCall(VecMin(f, NULL, &mmin));
  PetscCall(DMRestoreGlobalVector(model->fda, &f));
  model->dt = w->safety * 2 * PetscSqrtReal(mmin / w->rho);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  How many forward steps a pass takes (-rw_model_step_block, RwWaveStepBlock()):
  pairs in 2D where asked; by default at orders 2 and 4 where a rank's state
  is past the caches (-rw_kernel_stream_stores' size), where the pair's
  saved reads pay.  Two ranks, 2D, CPU ns a grid point a step, single / pair,
  four runs: order 2 2048^2 1.25-1.76 / 1.04-1.25, 4096^2 1.18-1.43 /
  1.03-1.08; order 4 2048^2 1.49-1.69 / 1.34-1.41, 4096^2 1.31-1.58 /
  1.20-1.28; order 8, bound by its Laplacian, 1.61-1.82 / 1.65-1.90.  A
  pair's second pass exchanges its own halo (a second ghosted work vector)
  and gathers from the pair's ring
*/
static PetscErrorCode WaveSetUpStepBlock(RwModel model)
{
  RwModel_Wave  *w   = (RwModel_Wave *)model->data;
  const PetscInt max = RwWaveStepBlockMax(w->dim);

  PetscFunctionBegin;
  PetscCheck(model->stepblock <= max, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "-rw_model_step_block %" PetscInt_FMT ": the wave model fuses at most %" PetscInt_FMT " step%s a pass in %" PetscInt_FMT "D", model->stepblock, max, max > 1 ? "s" : "", w->dim);
  if (!model->stepblock) { /* every rank must choose alike (a pair's halos are collective): by the largest rank's state */
    PetscInt64 bytes = (PetscInt64)RW_WAVE_DOF * sizeof(PetscScalar) * w->st->own.n[0] * w->st->own.n[1] * w->st->own.n[2];

    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)model)));
    model->stepblock = w->dim == 2 && w->r <= 2 && model->streammin >= 0 && bytes >= model->streammin ? max : 1;
  }
  if (model->stepblock > 1 && w->dim == 2) PetscCall(RwStencilSetUpPair(w->st));
  if (model->stepblock > 1 && w->dim == 3) PetscCall(RwStencilSetUpBlockTile_Private(w->st, model->stepblock));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelSetUp_Wave(RwModel model)
{
  RwModel_Wave  *w   = (RwModel_Wave *)model->data;
  MPI_Comm       comm = PetscObjectComm((PetscObject)model);
  const PetscInt def[3] = {w->dim == 3 ? 41 : 81, w->dim == 3 ? 41 : 81, 41};
  PetscReal      wts[RW_STENCIL_MAX_D2_RADIUS + 1];

  PetscFunctionBegin;
  PetscCall(RwStencilD2Weights(w->order, &w->r, wts));
  PetscCall(RwStencilCreate(model, w->dim, RW_WAVE_DOF, w->r, DMDA_STENCIL_STAR, &w->st));
  for (PetscInt d = 0; d < w->dim; d++) {
    PetscCall(RwStencilSetBoundaries(w->st, d, RW_STENCIL_ZERO, 0));
    PetscCall(RwStencilSetSpacing(w->st, d, w->origin[d] - w->nbl * w->h[d], w->h[d], PETSC_FALSE));
  }
  PetscCall(RwStencilSetRing(w->st, RwWaveRingUsed(w->dim, w->r))); /* the passes whose interior rows gather from it (wavekernels.c) */
  /* every form reads neighbours of its state's first component only (u_k,
     du_k, la'; u_k-1 and lb' at the point itself): the halo moves that one,
     half of the ghost bytes.  Input 1 is a pair's second pass (u_k+1) */
  for (PetscInt x = 0; x < 2; x++) PetscCall(RwStencilSetHaloComponents(w->st, x, 1, (const PetscInt[]){0}));
  /* a rank's part of a state: u_k's plane, then u_k-1's (wavekernels.c);
     every reader of a state asks RwModelGetStateLayout() */
  model->statelayout = RW_MODEL_STATE_PLANES;
  model->stateshift  = PETSC_TRUE; /* a step's u_k is the next state's u_k-1: stores may keep that plane once */
  PetscCall(RwStencilSetStateLayout(w->st, model->statelayout));
  PetscCall(RwStencilSetUp(w->st, "wave", def, 1));
  PetscCall(WaveSetUpStepBlock(model));
  for (PetscInt d = 0; d < w->dim; d++) PetscCheck(w->st->M[d] > 2 * w->nbl, comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid size %" PetscInt_FMT " in direction %c (-da_grid_%c) leaves no physical region between two absorbing layers of -rw_wave_nbl %" PetscInt_FMT ": expected more than %" PetscInt_FMT " points", w->st->M[d], "xyz"[d], "xyz"[d], w->nbl, 2 * w->nbl);
  for (PetscInt d = 0; d < 3; d++)
    for (PetscInt j = 0; j <= RW_STENCIL_MAX_D2_RADIUS; j++) w->wd2[d][j] = d < w->dim && j <= w->r ? wts[j] / (w->h[d] * w->h[d]) : 0;
  PetscCall(RwStencilLaplacianBound(w->st, w->order, &w->rho));
  model->compnames  = RwWaveCompNames;
  model->observed   = 0;
  model->nfields    = 1;
  model->fieldnames = RwWaveFieldNames;
  model->depthlast  = PETSC_TRUE; /* x first, depth last (Devito's order) */
  PetscCall(RwModelCreatePack_Private(model));
  /* everything the time loop touches, allocated once here */
  PetscCall(RwDMCreateVecStaggered(model->fda, PETSC_FALSE, &w->eta)); /* staggered: a pass streams these beside the states */
  PetscCall(RwVecDuplicateStaggered(w->eta, &w->c1));
  PetscCall(RwVecDuplicateStaggered(w->eta, &w->c2));
  PetscCall(RwVecDuplicateStaggered(w->eta, &w->dm));
  PetscCall(RwVecDuplicateStaggered(w->eta, &w->gm));
  PetscCall(VecDuplicate(w->eta, &w->mown));
  PetscCall(VecDuplicate(w->eta, &w->iaown));
  PetscCall(RwDMCreateVecStaggered(model->fda, PETSC_TRUE, &w->ia));
  PetscCall(WaveFillDamping(w));
  if (!w->srccoords) PetscCall(WaveDefaultSources(model)); /* located at the first parameter set: points need a set-up model */
  if (!model->dtset) PetscCall(WaveDefaultTimeStep(model));
  PetscCall(RwWaveChooseKernels(model)); /* -rw_wave_kernel_choice time: on the zero coefficients, whose values do not change a step's time */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Beyond the grid, dt and the steps: what changes the states */
static PetscErrorCode RwModelIdentity_Wave(RwModel model, char id[], size_t len)
{
  RwModel_Wave  *w = (RwModel_Wave *)model->data;
  const PetscInt zero[3] = {0, 0, 0};
  PetscInt       M[3] = {w->nsrc * w->dim, 1, 1}, W[3] = {(PetscInt)model->n, 1, 1};
  uint64_t       hs = w->nsrc ? RwChecksumBlock(M, zero, M, 1, w->srccoords) : 0, hw = w->wavelet ? RwChecksumBlock(W, zero, W, 1, w->wavelet) : 0;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(id, len, "wave %" PetscInt_FMT "D order %" PetscInt_FMT " nbl %" PetscInt_FMT " h %.17g,%.17g,%.17g origin %.17g,%.17g,%.17g; %" PetscInt_FMT " sources %016llx; wavelet %s f0 %.17g t0 %.17g %016llx", w->dim, w->order, w->nbl, (double)w->h[0], (double)w->h[1], (double)w->h[2], (double)w->origin[0], (double)w->origin[1], (double)w->origin[2], w->nsrc, (unsigned long long)hs, w->wavelet ? "given" : "ricker", (double)w->f0, (double)w->t0, (unsigned long long)hw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelView_Wave(RwModel model, PetscViewer viewer)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "m u_tt - Laplace(u) + eta u_t = q, %" PetscInt_FMT "D, space order %" PetscInt_FMT ", absorbing layer of %" PetscInt_FMT " points\n", w->dim, w->order, w->nbl));
  if (!model->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStencilViewGrid(w->st, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, ", spacing %g, origin %g (physical region from point %" PetscInt_FMT "); dt %g (stability limit for the default model x %g)\n", (double)w->h[0], (double)w->origin[0], w->nbl, (double)model->dt, (double)w->safety));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " sources, wavelet: %s (f0 %g, t0 %g)\n", w->nsrc, w->wavelet ? "given" : "Ricker", (double)w->f0, (double)w->t0));
  PetscCall(RwWaveViewKernels(model, viewer));
  PetscCall(RwWaveViewRows(model, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The wave model's own calls (RwModelWaveSetSources() ...), composed at
   create and removed at destroy, so that they dispatch on the type: a model
   of another type has none of them */
static PetscErrorCode WaveComposeFunctions(RwModel model, PetscBool on)
{
  PetscObject obj = (PetscObject)model;

  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveSetSources_C", on ? RwModelWaveSetSources_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveSetWavelet_C", on ? RwModelWaveSetWavelet_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveGetWavelet_C", on ? RwModelWaveGetWavelet_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveGetGeometry_C", on ? RwModelWaveGetGeometry_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveFillFromPhysical_C", on ? RwModelWaveFillFromPhysical_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveStableTimeStep_C", on ? RwModelWaveStableTimeStep_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveCheckPoints_C", on ? RwWaveCheckPoints : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveRecord_C", on ? RwModelWaveRecord_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveSetDimension_C", on ? RwModelWaveSetDimension_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveSetAbsorbingLayer_C", on ? RwModelWaveSetAbsorbingLayer_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveSetSpacing_C", on ? RwModelWaveSetSpacing_Wave : NULL));
  PetscCall(PetscObjectComposeFunction(obj, "RwModelWaveSetOrigin_C", on ? RwModelWaveSetOrigin_Wave : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelDestroy_Wave(RwModel model)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&w->eta));
  PetscCall(VecDestroy(&w->c1));
  PetscCall(VecDestroy(&w->c2));
  PetscCall(VecDestroy(&w->dm));
  PetscCall(VecDestroy(&w->gm));
  PetscCall(VecDestroy(&w->mown));
  PetscCall(VecDestroy(&w->iaown));
  PetscCall(VecDestroy(&w->ia));
  PetscCall(PetscFree4(w->srcidx, w->srcw, w->srcq, w->srcg));
  PetscCall(PetscFree(w->srccoords));
  PetscCall(PetscFree(w->wavelet));
  PetscCall(RwStencilDestroy(&w->st));
  PetscCall(WaveComposeFunctions(model, PETSC_FALSE));
  PetscCall(PetscFree(model->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWMODELWAVE - "wave": the constant-density acoustic wave equation
  m u_tt - Laplace(u) + eta u_t = q in 2D and 3D, Devito's acoustic operator;
  state (u_k, u_k-1), parameter field m = 1/c^2 (squared slowness)

  Options Database Keys:
+ -rw_wave_dim <2,3>              - space dimension (default 2)
. -rw_wave_space_order <2,4,8>    - the Laplacian's order (default 4)
. -rw_wave_nbl <n>                - absorbing points at each end of each direction, inside the grid (default 10)
. -rw_wave_spacing <h[,h,h]>      - grid spacing (default 10, e.g. m)
. -rw_wave_origin <x,z>           - coordinates of the physical region's first point (default 0)
. -rw_wave_sources <x,z,...>      - source positions (default one near the centre)
. -rw_wave_f0 <f0>, -rw_wave_t0   - Ricker peak frequency (default 0.01, e.g. kHz) and delay (default 1/f0)
. -rw_wave_velocity <file:dset>   - the default velocity from HDF5 (physical region padded, or the whole grid)
. -rw_wave_velocity_range <a,b>   - the built-in default velocity, top to bottom (default 1.5,2.5)
. -rw_wave_dt_safety <s>          - default dt = s x the stability limit for the default model (default 0.8)
. -rw_wave_kernel_choice <table,time> - under -rw_kernel_isa auto, each form's instruction set from the measured table or a timing at set-up
. -da_grid_x, -da_grid_y, -da_grid_z - points per direction, layers included (default 81, or 41 in 3D)
- -rw_dt <dt>                     - time step

  Level: beginner

  Notes:
  A program sets the geometry by calls (RwModelWaveSetDimension(),
  RwModelWaveSetAbsorbingLayer(), RwModelWaveSetSpacing(),
  RwModelWaveSetOrigin(), RwModelSetGridSizes()) before RwModelSetFromOptions(),
  whose options then override it.

.seealso: RwModelWaveSetSources(), RwObjectiveAddWaveReceivers(), doc/wave.md
M*/
PetscErrorCode RwModelCreate_Wave(RwModel model)
{
  RwModel_Wave *w;

  PetscFunctionBegin;
  PetscCall(RwWaveRegisterEvents());
  PetscCall(PetscNew(&w));
  w->dim         = 2;
  w->order       = 4;
  w->nbl         = 10;
  w->f0          = 0.010;
  w->t0          = 1 / w->f0;
  w->safety      = 0.8;
  w->cdefault[0] = 1.5;
  w->cdefault[1] = 2.5;
  for (PetscInt d = 0; d < 3; d++) w->h[d] = 10;
  model->data                     = w;
  model->ops->setfromoptions      = RwModelSetFromOptions_Wave;
  model->ops->setup               = RwModelSetUp_Wave;
  model->ops->view                = RwModelView_Wave;
  model->ops->destroy             = RwModelDestroy_Wave;
  model->ops->defaults            = RwModelDefaults_Wave;
  model->ops->identity            = RwModelIdentity_Wave;
  model->ops->setparameters       = RwWaveSetParameters;
  model->ops->setdirection        = RwWaveSetDirection;
  model->ops->step                = RwWaveStep;
  model->ops->stepblock           = RwWaveStepBlock;
  model->ops->steptangent         = RwWaveStepTangent;
  model->ops->adjointbegin        = RwWaveAdjointBegin;
  model->ops->stepadjoint         = RwWaveStepAdjoint;
  model->ops->adjointend          = RwWaveAdjointEnd;
  model->ops->adjointaccumulators = RwWaveAdjointAccumulators;
  PetscCall(WaveComposeFunctions(model, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
