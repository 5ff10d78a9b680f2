/*
  The heat model's actuators: K heaters (normalised Gaussian footprints b_j)
  and F boundary-flux sides (b_j = 1/h on the cells along a Neumann side),
  driven by amplitudes a_j(t) in the parameter block "control".  The source of
  step k -> k+1 is dt sum_j a_j(k) b_j, added before an implicit step's solve
  as the source s is.

  Two parametrisations of a_j(t):
  - per step (-rw_heat_control_nodes 0): a time-indexed block of nact values
    a step, a_j(k) = control[k nact + j];
  - on C control nodes t_c = c T/(C - 1) (C >= 2, C - 1 dividing the n
    steps): a block of C nact values, a_j piecewise linear between them and
    read at each step's midpoint, a_j(k) = w0 A[c, j] + w1 A[c + 1, j].
  The three forms (forward, tangent, adjoint) are side by side below; the
  adjoint's dJ/da_j(k) = dt sum_i b_j(i) mu_i is summed exactly, so the
  gradient is the same bits on any number of ranks.
*/
#include "heatimpl.h"

static const char *const HeatSideNames[] = {"x-", "x+", "y-", "y+", "z-", "z+"};

/* ---- options and configuration ------------------------------------------ */

/* "x-,y+": the sides, each once */
static PetscErrorCode HeatParseFluxSides(RwModel model, const char sides[])
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  char        **names;
  int           n;

  PetscFunctionBegin;
  heat->nflux = 0;
  PetscCall(PetscStrToArray(sides, ',', &n, &names));
  for (int i = 0; i < n; i++) {
    PetscInt  found;
    PetscBool ok;

    PetscCall(PetscEListFind(6, HeatSideNames, names[i], &found, &ok));
    if (!ok) {
      char bad[64];

      PetscCall(PetscStrncpy(bad, names[i], sizeof(bad)));
      PetscCall(PetscStrToArrayDestroy(n, names));
      SETERRQ(PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_UNKNOWN_TYPE, "-rw_heat_flux_sides %s: unknown side \"%s\": use x-, x+, y-, y+, z- or z+", sides, bad);
    }
    for (PetscInt f = 0; f < heat->nflux; f++) {
      if (heat->fluxside[f] == found) PetscCall(PetscStrToArrayDestroy(n, names));
      PetscCheck(heat->fluxside[f] != found, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_WRONG, "-rw_heat_flux_sides %s: side %s is given twice", sides, HeatSideNames[found]);
    }
    heat->fluxside[heat->nflux++] = found;
  }
  PetscCall(PetscStrToArrayDestroy(n, names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatActuatorsSetFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  PetscInt      n    = 3 * RW_HEAT_MAX_HEATERS, nw = RW_HEAT_MAX_HEATERS;
  PetscReal     pos[3 * RW_HEAT_MAX_HEATERS], width[RW_HEAT_MAX_HEATERS];
  char          sides[64] = "";
  PetscBool     set, wset;

  PetscFunctionBegin;
  PetscCall(RwOptionsRealArray("-rw_heat_heaters", "Heaters: their positions, dim coordinates each (x0,y0,x1,y1,...); amplitudes in block control", "RwModelHeatSetHeaters", heat->nheaters ? "as set" : "none", pos, &n, &set, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsRealArray("-rw_heat_heater_width", "The heaters' Gaussian widths sigma: one for all, or one per heater", "RwModelHeatSetHeaters", "0.05", width, &nw, &wset, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  if (set) {
    heat->npos = n;
    for (PetscInt i = 0; i < n; i++) heat->heaterpos[i] = pos[i];
  }
  if (wset) {
    heat->nwidth = nw;
    for (PetscInt i = 0; i < nw; i++) heat->heaterwidth[i] = width[i];
  }
  PetscCall(PetscOptionsString("-rw_heat_flux_sides", "Boundary-flux actuators: Neumann sides x-, x+, y-, y+, z-, z+ separated by commas, each a uniform inward flux q(t)", "RwModelHeatSetFluxSides", "", sides, sizeof(sides), &set));
  if (set) PetscCall(HeatParseFluxSides(model, sides));
  PetscCall(RwOptionsInt("-rw_heat_control_nodes", "Actuator amplitudes: 0 one value a step (a time-indexed block), C >= 2 piecewise linear on C nodes over the run", "RwModelHeatSetControlNodes", heat->cnodes, &heat->cnodes, NULL, 0, PETSC_MAX_INT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every check the options cannot make alone: they need the dimension, the boundaries, the grid and n */
static PetscErrorCode HeatActuatorsCheck(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  MPI_Comm      comm = PetscObjectComm((PetscObject)model);
  PetscReal     hmin = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCheck(heat->npos % heat->dim == 0, comm, PETSC_ERR_ARG_SIZ, "-rw_heat_heaters: %" PetscInt_FMT " coordinates do not make heaters of %" PetscInt_FMT " coordinates each", heat->npos, heat->dim);
  heat->nheaters = heat->npos / heat->dim;
  PetscCheck(heat->nwidth <= 1 || heat->nwidth == heat->nheaters, comm, PETSC_ERR_ARG_SIZ, "-rw_heat_heater_width: %" PetscInt_FMT " widths for %" PetscInt_FMT " heaters: give one for all, or one per heater", heat->nwidth, heat->nheaters);
  for (PetscInt d = 0; d < heat->dim; d++) hmin = PetscMin(hmin, heat->st->h[d]);
  for (PetscInt j = 0; j < heat->nheaters; j++)
    for (PetscInt d = 0; d < heat->dim; d++) PetscCheck(heat->heaterpos[j * heat->dim + d] >= 0 && heat->heaterpos[j * heat->dim + d] <= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_heat_heaters: heater %" PetscInt_FMT " has %c = %g, outside the domain [0, 1]", j, "xyz"[d], (double)heat->heaterpos[j * heat->dim + d]);
  for (PetscInt j = 0; j < heat->nheaters; j++) {
    PetscReal w = heat->nwidth ? heat->heaterwidth[PetscMin(j, heat->nwidth - 1)] : 0.05;

    PetscCheck(w >= hmin, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_heat_heater_width: heater %" PetscInt_FMT " has width %g, below the grid spacing %g: the grid would not resolve it", j, (double)w, (double)hmin);
  }
  for (PetscInt f = 0; f < heat->nflux; f++) {
    PetscInt d = heat->fluxside[f] / 2;

    PetscCheck(d < heat->dim, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_heat_flux_sides: side %s is outside a %" PetscInt_FMT "D domain", HeatSideNames[heat->fluxside[f]], heat->dim);
    PetscCheck(heat->bc[d] == RW_HEAT_NEUMANN, comm, PETSC_ERR_ARG_INCOMP, "-rw_heat_flux_sides: side %s needs a Neumann boundary in %c (-rw_heat_bc), not %s: a flux is imposed through a zero-flux face", HeatSideNames[heat->fluxside[f]], "xyz"[d], RwHeatBCs[heat->bc[d]]);
  }
  heat->nact = heat->nheaters + heat->nflux;
  PetscCheck(heat->nact <= RW_HEAT_MAX_HEATERS, comm, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " actuators: at most %d", heat->nact, RW_HEAT_MAX_HEATERS);
  PetscCheck(heat->cnodes == 0 || heat->cnodes >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_heat_control_nodes %" PetscInt_FMT ": give 0 (a value a step) or at least 2 nodes", heat->cnodes);
  PetscCheck(heat->cnodes == 0 || model->n % (heat->cnodes - 1) == 0, comm, PETSC_ERR_ARG_INCOMP, "-rw_heat_control_nodes %" PetscInt_FMT " does not fit -rw_steps %" PetscInt64_FMT ": the %" PetscInt_FMT " intervals between nodes must divide the steps (e.g. -rw_heat_control_nodes %" PetscInt64_FMT ")", heat->cnodes, model->n, heat->cnodes - 1, model->n + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- footprints ----------------------------------------------------------- */
typedef struct {
  const RwModel_Heat *heat;
  PetscInt            j;     /* heater, or flux side after the heaters */
} HeatFootprintCtx;

/* The heater's Gaussian (periodic directions by the nearest image), or 1/h along a flux side */
static PetscReal HeatFootprint(PetscInt dim, const PetscReal x[], void *ctx)
{
  const HeatFootprintCtx *c    = (const HeatFootprintCtx *)ctx;
  const RwModel_Heat     *heat = c->heat;

  if (c->j < heat->nheaters) {
    const PetscReal *p = heat->heaterpos + c->j * dim;
    PetscReal        w = heat->nwidth ? heat->heaterwidth[PetscMin(c->j, heat->nwidth - 1)] : 0.05, r2 = 0;

    for (PetscInt d = 0; d < dim; d++) {
      PetscReal dx = x[d] - p[d];

      if (heat->bc[d] == RW_HEAT_PERIODIC) dx -= PetscFloorReal(dx + 0.5);
      r2 += dx * dx;
    }
    return PetscExpReal(-r2 / (2 * w * w));
  } else {
    PetscInt  side = heat->fluxside[c->j - heat->nheaters], d = side / 2;
    PetscReal h    = heat->st->h[d];
    PetscBool on   = side % 2 ? (PetscBool)(x[d] > 1 - h) : (PetscBool)(x[d] < h);

    return on ? 1 / h : 0;
  }
}

/* b_j, a heater's scaled so that h^d sum_i b_j(i) = 1 (exactly summed: the same on any rank count) */
static PetscErrorCode HeatFootprintsCreate(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(heat->nact, &heat->foot));
  for (PetscInt j = 0; j < heat->nact; j++) {
    HeatFootprintCtx   c = {heat, j};
    const PetscScalar *b;
    PetscInt           n;
    PetscReal          sum;

    PetscCall(RwVecDuplicateStaggered(heat->s, &heat->foot[j]));
    PetscCall(RwModelFillField(model, heat->foot[j], HeatFootprint, &c));
    if (j >= heat->nheaters) continue;
    PetscCall(VecGetLocalSize(heat->foot[j], &n));
    PetscCall(VecGetArrayRead(heat->foot[j], &b));
    PetscCall(RwGlobalSum(PetscObjectComm((PetscObject)model), n, (const PetscReal *)b, &sum));
    PetscCall(VecRestoreArrayRead(heat->foot[j], &b));
    PetscCall(VecScale(heat->foot[j], 1 / (sum * model->cellvolume)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatActuatorsSetUp(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(HeatActuatorsCheck(model));
  if (!heat->nact) PetscFunctionReturn(PETSC_SUCCESS);
  heat->actblock = model->nblocks;
  if (heat->cnodes) PetscCall(RwModelAddParameterBlock(model, "control", heat->nact * heat->cnodes, PETSC_FALSE));
  else PetscCall(RwModelAddParameterBlock(model, "control", heat->nact, PETSC_TRUE));
  PetscCall(PetscMalloc1(heat->nact, &heat->actw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the parameter layout and heat->s exist */
PetscErrorCode RwHeatActuatorsSetUpVectors(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  if (!heat->nact) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HeatFootprintsCreate(model));
  if (!heat->sw) PetscCall(RwVecDuplicateStaggered(heat->s, &heat->sw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatActuatorsDestroy(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  for (PetscInt j = 0; heat->foot && j < heat->nact; j++) PetscCall(VecDestroy(&heat->foot[j]));
  PetscCall(PetscFree(heat->foot));
  PetscCall(PetscFree(heat->actw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatActuatorsIdentity(RwModel model, char id[], size_t len)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  size_t        used;

  PetscFunctionBegin;
  if (!heat->nact) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt j = 0; j < heat->nheaters; j++) {
    PetscCall(PetscStrlen(id, &used));
    PetscCall(PetscSNPrintf(id + used, len - used, ", heater at"));
    for (PetscInt d = 0; d < heat->dim; d++) {
      PetscCall(PetscStrlen(id, &used));
      PetscCall(PetscSNPrintf(id + used, len - used, " %.17g", (double)heat->heaterpos[j * heat->dim + d]));
    }
    PetscCall(PetscStrlen(id, &used));
    PetscCall(PetscSNPrintf(id + used, len - used, " width %.17g", (double)(heat->nwidth ? heat->heaterwidth[PetscMin(j, heat->nwidth - 1)] : 0.05)));
  }
  for (PetscInt f = 0; f < heat->nflux; f++) {
    PetscCall(PetscStrlen(id, &used));
    PetscCall(PetscSNPrintf(id + used, len - used, ", flux on %s", HeatSideNames[heat->fluxside[f]]));
  }
  PetscCall(PetscStrlen(id, &used));
  PetscCall(PetscSNPrintf(id + used, len - used, ", control %s %" PetscInt_FMT, heat->cnodes ? "nodes" : "per step", heat->cnodes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatActuatorsView(RwModel model, PetscViewer viewer)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  if (!heat->nact) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "actuators: %" PetscInt_FMT " heaters, %" PetscInt_FMT " flux sides; amplitudes in block control, %s\n", heat->nheaters, heat->nflux, heat->cnodes ? "piecewise linear on control nodes" : "one value a step"));
  if (heat->cnodes) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " nodes, every %" PetscInt64_FMT " steps\n", heat->cnodes, model->n / (heat->cnodes - 1)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step k's node c and the weights of nodes c, c + 1 at its midpoint (per step: c = k, w = 1, 0) */
static void HeatControlWeights(const RwModel model, PetscInt64 k, PetscInt64 *c, PetscReal *w0, PetscReal *w1)
{
  const RwModel_Heat *heat = (const RwModel_Heat *)model->data;
  PetscInt64          L;

  if (!heat->cnodes) {
    *c  = k;
    *w0 = 1;
    *w1 = 0;
    return;
  }
  L   = model->n / (heat->cnodes - 1);
  *c  = k / L;
  *w1 = (2 * (k - *c * L) + 1) / (PetscReal)(2 * L);
  *w0 = 1 - *w1;
}

/* heat->actw = dt a_j(k) for values v (the parameters' or the direction's) */
static void HeatActuatorAmplitudes(RwModel model, PetscInt64 k, const PetscReal *v)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  PetscInt64    c;
  PetscReal     w0, w1;

  HeatControlWeights(model, k, &c, &w0, &w1);
  for (PetscInt j = 0; j < heat->nact; j++) {
    PetscReal a = heat->cnodes ? w0 * v[c * heat->nact + j] + w1 * v[(c + 1) * heat->nact + j] : v[c * heat->nact + j];

    heat->actw[j] = model->dt * a;
  }
}

/* ---- forward: y += dt sum_j a_j(k) b_j ------------------------------------ */
PetscErrorCode RwHeatActuatorsForward(RwModel model, PetscInt64 k, Vec y)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  if (!heat->nact) PetscFunctionReturn(PETSC_SUCCESS);
  HeatActuatorAmplitudes(model, k, RwModelBlockValues(model, heat->actblock));
  PetscCall(VecMAXPY(y, heat->nact, heat->actw, heat->foot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- tangent: dy += dt sum_j da_j(k) b_j (the footprints do not depend on m) */
PetscErrorCode RwHeatActuatorsTangent(RwModel model, PetscInt64 k, Vec dy)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  if (!heat->nact) PetscFunctionReturn(PETSC_SUCCESS);
  HeatActuatorAmplitudes(model, k, RwModelBlockDirection(model, heat->actblock));
  PetscCall(VecMAXPY(dy, heat->nact, heat->actw, heat->foot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- adjoint: dJ/da_j(k) = dt sum_i b_j(i) mu_i, onto the nodes by the same weights;
   every point's product rounded on its own, then summed exactly */
PetscErrorCode RwHeatActuatorsAdjoint(RwModel model, PetscInt64 k, Vec mu)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  PetscInt64    c;
  PetscReal     w[2];
  PetscInt      n;

  PetscFunctionBegin;
  if (!heat->nact || model->inactive[model->nfields + heat->actblock]) PetscFunctionReturn(PETSC_SUCCESS);
  HeatControlWeights(model, k, &c, &w[0], &w[1]);
  PetscCall(VecGetLocalSize(heat->sw, &n));
  for (PetscInt j = 0; j < heat->nact; j++)
    for (PetscInt e = 0; e < (heat->cnodes ? 2 : 1); e++) {
      const PetscScalar *a;

      PetscCall(VecPointwiseMult(heat->sw, heat->foot[j], mu));
      PetscCall(VecScale(heat->sw, model->dt * w[e]));
      PetscCall(VecGetArrayRead(heat->sw, &a));
      PetscCall(RwModelAddScalarGradientArray(model, heat->actblock, (PetscInt)((c + e) * heat->nact + j), n, (const PetscReal *)a));
      PetscCall(VecRestoreArrayRead(heat->sw, &a));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- public calls ----------------------------------------------------------- */
static PetscErrorCode RwModelHeatSetHeaters_Heat(RwModel model, PetscInt K, const PetscReal pos[], const PetscReal width[])
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the heaters before RwModelSetUp(): they change the parameter layout");
  PetscCheck(K >= 0 && K <= RW_HEAT_MAX_HEATERS, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " heaters: give 0 to %d", K, RW_HEAT_MAX_HEATERS);
  heat->npos   = K * heat->dim;
  heat->nwidth = width ? K : 0;
  for (PetscInt i = 0; i < heat->npos; i++) heat->heaterpos[i] = pos[i];
  for (PetscInt i = 0; i < heat->nwidth; i++) heat->heaterwidth[i] = width[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatSetFluxSides_Heat(RwModel model, const char sides[])
{
  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the flux sides before RwModelSetUp(): they change the parameter layout");
  PetscCall(HeatParseFluxSides(model, sides));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatSetControlNodes_Heat(RwModel model, PetscInt C)
{
  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Choose the control nodes before RwModelSetUp(): they change the parameter layout");
  ((RwModel_Heat *)model->data)->cnodes = C;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatGetControl_Heat(RwModel model, PetscInt *nact, PetscInt *nodes, PetscInt *block)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  RwModelCheckSetUp(model);
  if (nact) *nact = heat->nact;
  if (nodes) *nodes = heat->cnodes;
  if (block) *block = heat->nact ? heat->actblock : -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwModelHeatGetHeaters_Heat(RwModel model, PetscInt *K, const PetscReal **pos)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  RwModelCheckSetUp(model);
  if (K) *K = heat->nheaters;
  if (pos) *pos = heat->heaterpos;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatActuatorsCompose(RwModel model, PetscBool on)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetHeaters_C", on ? RwModelHeatSetHeaters_Heat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetFluxSides_C", on ? RwModelHeatSetFluxSides_Heat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatSetControlNodes_C", on ? RwModelHeatSetControlNodes_Heat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatGetControl_C", on ? RwModelHeatGetControl_Heat : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)model, "RwModelHeatGetHeaters_C", on ? RwModelHeatGetHeaters_Heat : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelHeatSetHeaters - K heaters: at pos (dim coordinates each, in the unit
  box), each a Gaussian of width sigma normalised to unit integral, whose
  amplitude a_j(t) (power) is in the parameter block "control"

  Logically collective; before RwModelSetUp()

  Input Parameters:
+ model - a heat model
. K     - the number of heaters
. pos   - their positions, K dim values
- width - their widths, K values (NULL: 0.05 each)

  Options Database Keys:
+ -rw_heat_heaters <x0,y0,...>  - the positions
- -rw_heat_heater_width <sigma> - one width, or one per heater

  Level: intermediate

.seealso: RwModelHeatSetFluxSides(), RwModelHeatSetControlNodes(), RwModelHeatGetControl()
@*/
PetscErrorCode RwModelHeatSetHeaters(RwModel model, PetscInt K, const PetscReal pos[], const PetscReal width[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelUseMethod(model, RWMODELHEAT, "RwModelHeatSetHeaters", (RwModel, PetscInt, const PetscReal[], const PetscReal[]), (model, K, pos, width));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelHeatSetFluxSides - boundary-flux actuators: a uniform inward flux q(t)
  through each given side (x-, x+, y-, y+, z-, z+, separated by commas; the
  side's direction must have Neumann boundaries), after the heaters in block "control"

  Logically collective; before RwModelSetUp()

  Options Database Key:
. -rw_heat_flux_sides <sides> - the same

  Level: intermediate

.seealso: RwModelHeatSetHeaters()
@*/
PetscErrorCode RwModelHeatSetFluxSides(RwModel model, const char sides[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelUseMethod(model, RWMODELHEAT, "RwModelHeatSetFluxSides", (RwModel, const char[]), (model, sides));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelHeatSetControlNodes - how the actuators' amplitudes depend on time:
  0, one value a step (a time-indexed block); C >= 2, piecewise linear on C
  nodes spread evenly over the run (C - 1 must divide the steps), read at each
  step's midpoint

  Logically collective; before RwModelSetUp()

  Options Database Key:
. -rw_heat_control_nodes <C> - the same

  Level: intermediate

.seealso: RwModelHeatSetHeaters()
@*/
PetscErrorCode RwModelHeatSetControlNodes(RwModel model, PetscInt C)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelUseMethod(model, RWMODELHEAT, "RwModelHeatSetControlNodes", (RwModel, PetscInt), (model, C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelHeatGetControl - the actuators of a set-up heat model: how many
  (heaters, then flux sides), the control nodes (0: a value a step) and the
  index of the block "control" (-1 without actuators); the block holds
  a_j at node (or step) c at c nact + j

  Not collective

  Level: intermediate

.seealso: RwModelHeatSetHeaters(), RwModelHeatSetControlNodes()
@*/
PetscErrorCode RwModelHeatGetControl(RwModel model, PetscInt *nact, PetscInt *nodes, PetscInt *block)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelUseMethod(model, RWMODELHEAT, "RwModelHeatGetControl", (RwModel, PetscInt *, PetscInt *, PetscInt *), (model, nact, nodes, block));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelHeatGetHeaters - the heaters of a set-up heat model: their number and positions
  (dim coordinates each, x first; borrowed)

  Not collective

  Level: intermediate

.seealso: RwModelHeatSetHeaters(), RwModelHeatGetControl()
@*/
PetscErrorCode RwModelHeatGetHeaters(RwModel model, PetscInt *K, const PetscReal *pos[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelUseMethod(model, RWMODELHEAT, "RwModelHeatGetHeaters", (RwModel, PetscInt *, const PetscReal **), (model, K, pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}
