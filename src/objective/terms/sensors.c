/*
  Point sensors: 1/2 sum_t sum_s (u(x_s, t) - d_s,t)^2 / sigma^2 with u(x_s)
  the multilinear interpolation of the grid values around x_s.

  The sensors are points of the shared grid layer (RwStencilPoints,
  src/model/utils/stencilpoints.c): a sensor's misfit is added by the one
  rank that owns it; its adjoint source is its residual spread over its
  corners in gather form, so each grid point sums the same contributions in
  the same order on any decomposition.
*/
#include <rewind/private/objectiveimpl.h>
#include <rewind/private/stencilimpl.h>
#include <rewind/private/observationsimpl.h>

typedef struct {
  PetscInt        nsensors, ntimes;
  PetscReal      *coords;
  PetscInt64    *steps; /* sorted */
  PetscReal     *data;  /* data[t * nsensors + s], t in sorted order */
  PetscInt      *order; /* order[t]: the caller's index of sorted time t */
  PetscReal       isigma2;
  RwStencilPoints pts;
} RwSensors;

static PetscInt SensorsFindTime(const RwSensors *c, PetscInt64 k)
{
  PetscInt lo = 0, hi = c->ntimes - 1;

  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (c->steps[mid] == k) return mid;
    if (c->steps[mid] < k) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

static PetscErrorCode SensorsValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwSensors         *c    = (RwSensors *)ctx;
  const PetscReal   *d    = c->data + SensorsFindTime(c, k) * c->nsensors;
  const PetscScalar *vals;
  const PetscInt    *id;
  const PetscBool   *owner;
  PetscInt           nloc;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsGetLocal(c->pts, &nloc, &id, &owner));
  PetscCall(RwStencilPointsGather(c->pts, u, &vals));
  for (PetscInt i = 0; i < nloc; i++) {
    PetscReal r;

    if (!owner[i]) continue;
    r = RwStencilPointsRead(c->pts, i, vals) - d[id[i]];
    PetscCall(RwReproSumAdd(acc, slot, 0.5 * w * r * r * c->isigma2));
  }
  PetscCall(RwStencilPointsRestore(c->pts, &vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SensorsAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwSensors         *c = (RwSensors *)ctx;
  const PetscReal   *d = c->data + SensorsFindTime(c, k) * c->nsensors;
  const PetscScalar *vals;
  PetscScalar       *l;
  const PetscInt    *id;
  PetscInt           nloc;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsGetLocal(c->pts, &nloc, &id, NULL));
  PetscCall(RwStencilPointsGather(c->pts, u, &vals));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < nloc; i++) RwStencilPointsSpreadOne(c->pts, i, w * (RwStencilPointsRead(c->pts, i, vals) - d[id[i]]) * c->isigma2, l);
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(RwStencilPointsRestore(c->pts, &vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwTermSensorsInterpolate(RwObjective obj, RwTerm *t, Vec u, PetscReal values[])
{
  RwSensors *c = (RwSensors *)t->ctx;

  PetscFunctionBegin;
  (void)obj;
  PetscCall(RwStencilPointsInterpolate(c->pts, u, values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwTermSensorsSetData(RwTerm *t, const PetscReal data[], PetscReal sigma)
{
  RwSensors *c = (RwSensors *)t->ctx;

  PetscFunctionBegin;
  c->isigma2 = 1 / (sigma * sigma);
  for (PetscInt ts = 0; ts < c->ntimes; ts++)
    for (PetscInt s = 0; s < c->nsensors; s++) {
      PetscReal v = data[c->order[ts] * c->nsensors + s];
      PetscCheck(!PetscIsInfOrNanReal(v), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Observation of sensor %" PetscInt_FMT " at time index %" PetscInt_FMT " is %g: observations must be finite", s, c->order[ts], (double)v);
      c->data[ts * c->nsensors + s] = v;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Positions, times, data and noise level: replicated, so every rank hashes the same arrays */
static PetscErrorCode SensorsChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  RwSensors *c = (RwSensors *)ctx;
  PetscInt   dim, nd, nt = c->ntimes, no = c->ntimes * c->nsensors, one = 1;
  PetscInt   zero[3] = {0, 0, 0}, M[3] = {1, 1, 1};
  uint64_t   h;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(obj->model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  nd   = c->nsensors * dim;
  M[0] = nd;
  h    = RwChecksumBlock(M, zero, M, 1, c->coords);
  M[0] = nt;
  h    = RwSplitMix64(h ^ RwChecksumBlock(M, zero, M, 1, (const PetscScalar *)c->steps));
  M[0] = no;
  h    = RwSplitMix64(h ^ RwChecksumBlock(M, zero, M, 1, c->data));
  M[0] = one;
  h    = RwSplitMix64(h ^ RwChecksumBlock(M, zero, M, 1, &c->isigma2));
  *sum = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SensorsView(RwObjective obj, PetscViewer viewer, void *ctx)
{
  RwSensors *c = (RwSensors *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "sensor misfit: %" PetscInt_FMT " sensors at %" PetscInt_FMT " steps (%" PetscInt64_FMT " .. %" PetscInt64_FMT "), sigma = %g\n", c->nsensors, c->ntimes, c->steps[0], c->steps[c->ntimes - 1], (double)(1 / PetscSqrtReal(c->isigma2))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SensorsDestroy(void *ctx)
{
  RwSensors *c = (RwSensors *)ctx;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsDestroy(&c->pts));
  PetscCall(PetscFree4(c->coords, c->steps, c->data, c->order));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sorting observation steps, keeping where each came from */
typedef struct {
  PetscInt64 step;
  PetscInt   index;
} RwStepIndex;

static int StepCompare(const void *a, const void *b)
{
  PetscInt64 x = ((const RwStepIndex *)a)->step, y = ((const RwStepIndex *)b)->step;
  return x < y ? -1 : x > y ? 1 : 0;
}

static PetscErrorCode SensorsSortSteps(RwObjective obj, RwSensors *c, const PetscInt64 steps[])
{
  RwStepIndex *si;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(c->ntimes, &si));
  for (PetscInt t = 0; t < c->ntimes; t++) {
    PetscCheck(steps[t] >= 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Observation step %" PetscInt64_FMT " (time index %" PetscInt_FMT ") must be >= 0", steps[t], t);
    si[t].step  = steps[t];
    si[t].index = t;
  }
  qsort(si, c->ntimes, sizeof(*si), StepCompare);
  for (PetscInt t = 0; t < c->ntimes; t++) {
    PetscCheck(t == 0 || si[t].step != si[t - 1].step, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Observation step %" PetscInt64_FMT " appears twice (time indices %" PetscInt_FMT " and %" PetscInt_FMT ")", si[t].step, si[t - 1].index, si[t].index);
    c->steps[t] = si[t].step;
    c->order[t] = si[t].index;
  }
  PetscCall(PetscFree(si));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sensors inside the grid's domain: the unit box for heat, the whole grid's
   extent for wave; what (or NULL) names where they come from, such as a
   dataset of a file */
PetscErrorCode RwSensorsCheckDomain(RwModel model, const char what[], PetscInt nsensors, const PetscReal coords[])
{
  const RwStencil st = (RwStencil)model->stencil;
  PetscInt        dim;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt s = 0; s < nsensors; s++)
    for (PetscInt d = 0; d < dim; d++) {
      PetscReal x = coords[s * dim + d], lo = st ? st->origin[d] : 0, hi = st ? st->origin[d] + st->length[d] : 1;

      if (!(x >= lo && x <= hi)) {
        char msg[PETSC_MAX_PATH_LEN + 256];

        /* C's %g: PETSc's prints 1 as "1." */
        snprintf(msg, sizeof(msg), "%s%sensor %lld has coordinate %g in direction %c, outside the grid's domain [%g, %g]", what ? what : "", what ? ": s" : "S", (long long)s, (double)x, "xyz"[d], (double)lo, (double)hi);
        SETERRQ(PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "%s", msg);
      }
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SensorsCheckCoords(RwObjective obj, PetscInt dim, PetscInt nsensors, const PetscReal coords[])
{
  PetscFunctionBegin;
  PetscCall(RwSensorsCheckDomain(obj->model, NULL, nsensors, coords));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Moves the sensors of term t (another shot's receivers) and gives them their data; the
   observation steps stay. Nothing is reallocated when the positions are the same. */
PetscErrorCode RwTermSensorsSetPoints(RwObjective obj, RwTerm *t, PetscInt nsensors, const PetscReal coords[], const PetscReal data[], PetscReal sigma)
{
  RwSensors *c = (RwSensors *)t->ctx;
  PetscInt   dim;
  PetscBool  same;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(obj->model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCheck(nsensors > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " sensors: expected at least one", nsensors);
  same = (PetscBool)(nsensors == c->nsensors);
  if (same) PetscCall(PetscArraycmp(coords, c->coords, nsensors * dim, &same));
  if (!same) {
    PetscReal  *xs, *ds;
    PetscInt64 *ss;
    PetscInt   *os;

    PetscCall(SensorsCheckCoords(obj, dim, nsensors, coords));
    PetscCall(PetscMalloc4(nsensors * dim, &xs, c->ntimes, &ss, c->ntimes * nsensors, &ds, c->ntimes, &os));
    PetscCall(PetscArraycpy(xs, coords, nsensors * dim));
    PetscCall(PetscArraycpy(ss, c->steps, c->ntimes));
    PetscCall(PetscArraycpy(os, c->order, c->ntimes));
    PetscCall(PetscFree4(c->coords, c->steps, c->data, c->order));
    c->coords = xs, c->steps = ss, c->data = ds, c->order = os, c->nsensors = nsensors;
    PetscCall(RwStencilPointsDestroy(&c->pts));
    PetscCall(RwStencilPointsCreate(obj->model, obj->model->observed, nsensors, c->coords, &c->pts));
  }
  PetscCall(RwTermSensorsSetData(t, data, sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether term t is a sensor term, and its points and (sorted) steps: the outputs a linear term repeats (RwObjectiveAddOutputs()) */
PetscErrorCode RwTermSensorsGetPoints(RwTerm *t, PetscBool *is, PetscInt *npoints, const PetscReal **coords, PetscInt *ntimes, const PetscInt64 **steps)
{
  RwSensors *c = (RwSensors *)t->ctx;

  PetscFunctionBegin;
  *is = (PetscBool)(t->ops.value == SensorsValue);
  if (!*is) PetscFunctionReturn(PETSC_SUCCESS);
  *npoints = c->nsensors;
  *coords  = c->coords;
  *ntimes  = c->ntimes;
  *steps   = c->steps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A term like any other: active at its observation steps, which it sorts */
PetscErrorCode RwTermAddSensors(RwObjective obj, PetscInt nsensors, const PetscReal coords[], PetscInt ntimes, const PetscInt64 steps[], const PetscReal data[], PetscReal sigma)
{
  const RwObjectiveTermOps ops = {NULL, SensorsValue, SensorsAdjoint, NULL, SensorsChecksum, SensorsView, SensorsDestroy};
  RwSensors               *c;
  RwTerm                   t;
  PetscInt                 dim;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(obj->model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(SensorsCheckCoords(obj, dim, nsensors, coords));
  PetscCall(PetscNew(&c));
  c->nsensors = nsensors;
  c->ntimes   = ntimes;
  PetscCall(PetscMalloc4(nsensors * dim, &c->coords, ntimes, &c->steps, ntimes * nsensors, &c->data, ntimes, &c->order));
  PetscCall(PetscArraycpy(c->coords, coords, nsensors * dim));
  t.ctx = c;
  PetscCall(SensorsSortSteps(obj, c, steps));
  PetscCall(RwTermSensorsSetData(&t, data, sigma));
  PetscCall(RwStencilPointsCreate(obj->model, obj->model->observed, nsensors, c->coords, &c->pts));
  PetscCall(RwObjectiveAddTerm(obj, "sensors", &ops, ntimes, c->steps, NULL, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
