/*
  Point sensors: 1/2 sum_t sum_s (u(x_s, t) - d_s,t)^2 / sigma^2 with u(x_s)
  the multilinear interpolation of the grid values around x_s.

  Each rank keeps the sensors whose interpolation touches one of its points,
  in the order of their index.  A sensor's misfit is added by exactly one rank
  (the owner of its lowest corner); its adjoint source is gathered at every
  owned corner, sensor by sensor in index order, so each point sums the same
  contributions in the same order on any decomposition.  Corners beyond a
  boundary stand for the point the model's ghost rule maps them to (wrapped,
  or mirrored with a sign): they read it and spread their share back to it.
*/
#include <rewind/private/objectiveimpl.h>

typedef struct {
  PetscInt  id;
  PetscBool owner;
  PetscInt  gidx[8]; /* the point a corner stands for, in the ghosted local array */
  PetscInt  oidx[8]; /* corner's point in the owned array, -1 if another rank's */
  PetscReal w[8];    /* interpolation weight */
  PetscReal sign[8]; /* ghost sign of the corner: how its point enters */
} RwSensorLocal;

typedef struct {
  PetscInt       nsensors, ntimes, ncorners;
  PetscReal     *coords;
  PetscInt64    *steps; /* sorted */
  PetscReal     *data;  /* data[t * nsensors + s], t in sorted order */
  PetscInt      *order; /* order[t]: the caller's index of sorted time t */
  PetscReal      isigma2;
  RwSensorLocal *loc;
  PetscInt       nloc;
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

static PetscBool SensorsActive(RwObjective obj, RwTerm *t, PetscInt64 k)
{
  return SensorsFindTime((RwSensors *)t->ctx, k) >= 0 ? PETSC_TRUE : PETSC_FALSE;
}

/* A corner beyond a boundary reads its mirrored point with the ghost's sign:
   the ghost itself may not be filled (diagonal corners are not exchanged) */
static PetscReal SensorRead(const RwSensorLocal *s, PetscInt nc, const PetscScalar *uloc)
{
  PetscReal v = 0;

  for (PetscInt c = 0; c < nc; c++) v += s->w[c] * s->sign[c] * PetscRealPart(uloc[s->gidx[c]]);
  return v;
}

static PetscErrorCode SensorsValue(RwObjective obj, RwTerm *t, PetscInt64 k, Vec u, RwReproSum acc, PetscInt slot)
{
  RwSensors         *c    = (RwSensors *)t->ctx;
  const PetscReal   *d    = c->data + SensorsFindTime(c, k) * c->nsensors;
  const PetscScalar *uloc;

  PetscFunctionBegin;
  PetscCall(RwModelGlobalToLocal(obj->model, u, obj->uloc));
  PetscCall(VecGetArrayRead(obj->uloc, &uloc));
  for (PetscInt i = 0; i < c->nloc; i++) {
    const RwSensorLocal *s = &c->loc[i];
    PetscReal            r;

    if (!s->owner) continue;
    r = SensorRead(s, c->ncorners, uloc) - d[s->id];
    PetscCall(RwReproSumAdd(acc, slot, 0.5 * r * r * c->isigma2));
  }
  PetscCall(VecRestoreArrayRead(obj->uloc, &uloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SensorsAdjoint(RwObjective obj, RwTerm *t, PetscInt64 k, Vec u, Vec lambda)
{
  RwSensors         *c = (RwSensors *)t->ctx;
  const PetscReal   *d = c->data + SensorsFindTime(c, k) * c->nsensors;
  const PetscScalar *uloc;
  PetscScalar       *l;

  PetscFunctionBegin;
  PetscCall(RwModelGlobalToLocal(obj->model, u, obj->uloc));
  PetscCall(VecGetArrayRead(obj->uloc, &uloc));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < c->nloc; i++) {
    const RwSensorLocal *s = &c->loc[i];
    PetscReal            r = (SensorRead(s, c->ncorners, uloc) - d[s->id]) * c->isigma2;

    for (PetscInt q = 0; q < c->ncorners; q++)
      if (s->oidx[q] >= 0) l[s->oidx[q]] += s->sign[q] * s->w[q] * r;
  }
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(obj->uloc, &uloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwTermSensorsInterpolate(RwObjective obj, RwTerm *t, Vec u, PetscReal values[])
{
  RwSensors         *c = (RwSensors *)t->ctx;
  const PetscScalar *uloc;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(values, c->nsensors));
  PetscCall(RwModelGlobalToLocal(obj->model, u, obj->uloc));
  PetscCall(VecGetArrayRead(obj->uloc, &uloc));
  for (PetscInt i = 0; i < c->nloc; i++)
    if (c->loc[i].owner) values[c->loc[i].id] = SensorRead(&c->loc[i], c->ncorners, uloc);
  PetscCall(VecRestoreArrayRead(obj->uloc, &uloc));
  /* one owner per sensor: the sum adds one value to zeros, exactly */
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, values, c->nsensors, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)obj)));
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

static PetscErrorCode SensorsCheck(RwObjective obj, RwTerm *t)
{
  RwSensors *c = (RwSensors *)t->ctx;

  PetscFunctionBegin;
  PetscCheck(c->steps[c->ntimes - 1] <= obj->n, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "An observation at step %" PetscInt64_FMT " lies beyond the last step %" PetscInt64_FMT " of the run (-rw_steps)", c->steps[c->ntimes - 1], obj->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Positions, times, data and noise level: replicated, so every rank hashes the same arrays */
static PetscErrorCode SensorsChecksum(RwObjective obj, RwTerm *t, uint64_t *sum)
{
  RwSensors *c = (RwSensors *)t->ctx;
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

static PetscErrorCode SensorsView(RwTerm *t, PetscViewer viewer)
{
  RwSensors *c = (RwSensors *)t->ctx;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "sensor misfit: %" PetscInt_FMT " sensors at %" PetscInt_FMT " steps (%" PetscInt64_FMT " .. %" PetscInt64_FMT "), sigma = %g\n", c->nsensors, c->ntimes, c->steps[0], c->steps[c->ntimes - 1], (double)(1 / PetscSqrtReal(c->isigma2))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SensorsDestroy(RwTerm *t)
{
  RwSensors *c = (RwSensors *)t->ctx;

  PetscFunctionBegin;
  PetscCall(PetscFree5(c->coords, c->steps, c->data, c->order, c->loc));
  PetscCall(PetscFree(t->ctx));
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

/* Where sensor s's corners are, and which of them this rank holds */
static PetscErrorCode SensorsLocate(RwObjective obj, RwSensors *c, PetscInt s, RwSensorLocal *loc, PetscBool *relevant)
{
  RwModel   model = obj->model;
  PetscInt  dim, M[3] = {1, 1, 1}, xs[3], xm[3], gs[3], gm[3], i0[3], cnt = 0;
  PetscReal f[3] = {0, 0, 0}, sgn[3];
  PetscBool per[3];

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(model->da, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(model->da, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  PetscCall(DMDAGetGhostCorners(model->da, &gs[0], &gs[1], &gs[2], &gm[0], &gm[1], &gm[2]));
  for (PetscInt d = 0; d < 3; d++) {
    PetscReal x0, x1, t;

    i0[d] = 0;
    if (d >= dim) continue;
    PetscCall(RwModelGetGhostRule(model, d, &per[d], &sgn[d]));
    PetscCall(RwModelGetCoordinates(model, d, 0, &x0));
    PetscCall(RwModelGetCoordinates(model, d, 1, &x1));
    t     = (c->coords[s * dim + d] - x0) / (x1 - x0);
    i0[d] = (PetscInt)PetscFloorReal(t);
    f[d]  = PetscMin(PetscMax(t - i0[d], 0.0), 1.0);
  }
  *relevant = PETSC_FALSE;
  loc->id   = s;
  for (PetscInt q = 0; q < c->ncorners; q++) {
    PetscInt  raw[3], real[3], g[3];
    PetscReal w = 1, sign = 1;
    PetscBool mine = PETSC_TRUE, readable = PETSC_TRUE;

    for (PetscInt d = 0; d < 3; d++) {
      PetscInt b = (q >> d) & 1;

      raw[d] = real[d] = g[d] = 0;
      if (d >= dim) continue;
      raw[d] = i0[d] + b;
      w *= b ? f[d] : 1 - f[d];
      if (per[d]) real[d] = ((raw[d] % M[d]) + M[d]) % M[d];
      else if (raw[d] < 0 || raw[d] >= M[d]) {
        real[d] = raw[d] < 0 ? 0 : M[d] - 1;
        sign *= sgn[d];
      } else real[d] = raw[d];
      /* the ghosted array holds the corner's point; periodic, perhaps as an image M away */
      g[d] = real[d];
      if (per[d] && (g[d] < gs[d] || g[d] >= gs[d] + gm[d])) g[d] = g[d] + (g[d] < gs[d] ? M[d] : -M[d]);
      if (g[d] < gs[d] || g[d] >= gs[d] + gm[d]) readable = PETSC_FALSE;
      if (real[d] < xs[d] || real[d] >= xs[d] + xm[d]) mine = PETSC_FALSE;
    }
    loc->w[q]    = w;
    loc->sign[q] = sign;
    loc->gidx[q] = readable ? (g[0] - gs[0]) + gm[0] * ((g[1] - gs[1]) + gm[1] * (g[2] - gs[2])) : -1;
    loc->oidx[q] = mine ? (real[0] - xs[0]) + xm[0] * ((real[1] - xs[1]) + xm[1] * (real[2] - xs[2])) : -1;
    if (mine) cnt++;
    if (q == 0) loc->owner = mine;
  }
  if (cnt) {
    for (PetscInt q = 0; q < c->ncorners; q++) PetscCheck(loc->gidx[q] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sensor %" PetscInt_FMT ": corner %" PetscInt_FMT " lies beyond this rank's ghost points", s, q);
    *relevant = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwTermCreate_Sensors(RwObjective obj, RwTerm *t, PetscInt nsensors, const PetscReal coords[], PetscInt ntimes, const PetscInt64 steps[], const PetscReal data[], PetscReal sigma)
{
  RwSensors *c;
  PetscInt   dim;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(obj->model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt s = 0; s < nsensors; s++)
    for (PetscInt d = 0; d < dim; d++) {
      PetscReal x = coords[s * dim + d];
      PetscCheck(x >= 0 && x <= 1, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Sensor %" PetscInt_FMT " has coordinate %g in direction %c, outside the unit box [0, 1]", s, (double)x, "xyz"[d]);
    }
  PetscCall(PetscNew(&c));
  c->nsensors = nsensors;
  c->ntimes   = ntimes;
  c->ncorners = 1 << dim;
  PetscCall(PetscMalloc5(nsensors * dim, &c->coords, ntimes, &c->steps, ntimes * nsensors, &c->data, ntimes, &c->order, nsensors, &c->loc));
  PetscCall(PetscArraycpy(c->coords, coords, nsensors * dim));
  t->ctx = c;
  PetscCall(SensorsSortSteps(obj, c, steps));
  PetscCall(RwTermSensorsSetData(t, data, sigma));
  for (PetscInt s = 0; s < nsensors; s++) {
    PetscBool relevant;
    PetscCall(SensorsLocate(obj, c, s, &c->loc[c->nloc], &relevant));
    if (relevant) c->nloc++;
  }
  PetscCall(PetscStrncpy(t->name, "sensors", sizeof(t->name)));
  t->active  = SensorsActive;
  t->value   = SensorsValue;
  t->adjoint = SensorsAdjoint;
  t->check   = SensorsCheck;
  t->checksum = SensorsChecksum;
  t->view    = SensorsView;
  t->destroy = SensorsDestroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}
