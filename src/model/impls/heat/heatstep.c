/*
  The heat model's steps: forward, tangent and adjoint, each one pass of the
  kernels in heatkernels.c (around a KSP solve for implicit schemes).

  The shared layer runs every pass (RwStencilRunPass(): interior rows while
  the halos move, then the shell); a row here only picks its inputs' rows
  and calls its kernel.  No step copies a whole state; nothing is allocated.
*/
#include "heatimpl.h"
#include <float.h>

/* The coefficients of one theta-scheme pass */
static RwHeatPass HeatPassCoefficients(RwModel model, PetscInt64 k)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  RwHeatPass    P;

  P.dim = heat->dim;
  for (PetscInt d = 0; d < 3; d++) P.ih2[d] = heat->ih2[d];
  P.r    = heat->r;
  P.c    = (1 - heat->theta) * model->dt;
  P.ca   = (1 - heat->theta) * model->dt;
  P.cb   = heat->theta * model->dt;
  P.cs   = heat->amplitude ? model->dt * RwModelBlockValues(model, RW_HEAT_BLOCK_A)[k] : model->dt;
  P.dr   = heat->dr;
  P.useb = heat->theta > 0 ? PETSC_TRUE : PETSC_FALSE;
  P.usek = heat->dkappazero ? PETSC_FALSE : PETSC_TRUE;
  P.kappaonly = (PetscBool)(!model->inactive[0] && model->inactive[1] && model->inactive[2 + RW_HEAT_BLOCK_R]);
  P.isa       = model->isa;
  return P;
}

/* What the rows of a pass need for the network term (heat->usenn) */
RwHeatNNRow RwHeatNNRowSetUp(RwModel model, PetscBool tangent)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  RwHeatNNRow   c;

  c.nn     = heat->nn;
  if (heat->usenn) heat->nn->isa = model->isa; /* the network's kernels run with the stencil's instruction set */
  c.theta  = heat->usenn ? RwModelBlockValues(model, heat->nnblock) : NULL;
  c.dtheta = heat->usenn && tangent ? RwModelBlockDirection(model, heat->nnblock) : NULL;
  c.dt     = model->dt;
  c.row    = heat->nnrow;
  return c;
}

/* Solves with the previous step's value as the initial guess */
static PetscErrorCode HeatSolve(RwModel model, PetscInt64 k, Vec b, Vec guess, Vec x, PetscBool transpose, const char *what)
{
  PetscFunctionBegin;
  PetscCall(RwStencilSolve(((RwModel_Heat *)model->data)->ksp, PetscObjectComm((PetscObject)model), k, b, guess, x, transpose, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- forward -------------------------------------------------------------- */
typedef struct {
  RwStencil           st;
  RwHeatPass          P;
  RwStencilInput      x;
  const PetscScalar  *kappa, *s;
  PetscScalar        *y;
  PetscReal           probe;
  PetscBool           usenn;
  RwHeatNNRow         nn;
} HeatForwardCtx;

static void HeatForwardRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  HeatForwardCtx     *c = (HeatForwardCtx *)ctx;
  const RwStencil     st = c->st;

  RwHeatRowForward(&c->P, n, RwStencilInputRow(st, &c->x, 1, ghosted, i, j, k), RwStencilRowAt(c->kappa, &st->ghost, 1, i, j, k), RwStencilRowAt(c->s, &st->own, 1, i, j, k).p, RwStencilOwnedAt(st, 1, c->y, i, j, k), &c->probe);
  if (c->usenn) RwHeatRowNNForward(&c->nn, n, RwStencilInputRow(st, &c->x, 1, ghosted, i, j, k).p, RwStencilOwnedAt(st, 1, c->y, i, j, k), &c->probe);
}

PetscErrorCode RwHeatStep(RwModel model, PetscInt64 k, Vec u, Vec unew)
{
  RwModel_Heat  *heat = (RwModel_Heat *)model->data;
  HeatForwardCtx c;
  Vec            y = heat->theta > 0 ? heat->rhs : unew;

  PetscFunctionBegin;
  c.st    = heat->st;
  c.P     = HeatPassCoefficients(model, k);
  c.x.g   = u;
  c.probe = 0;
  c.usenn = heat->usenn;
  c.nn    = RwHeatNNRowSetUp(model, PETSC_FALSE);
  PetscCall(VecGetArrayRead(heat->kappa, &c.kappa));
  PetscCall(VecGetArrayRead(heat->s, &c.s));
  PetscCall(VecGetArray(y, &c.y));
  PetscCall(RwStencilRunPass(heat->st, 1, &c.x, HeatForwardRow, &c));
  PetscCall(VecRestoreArray(y, &c.y));
  PetscCall(VecRestoreArrayRead(heat->s, &c.s));
  PetscCall(VecRestoreArrayRead(heat->kappa, &c.kappa));
  PetscCall(PetscLogFlops((8.0 * heat->dim + 5) * heat->st->own.n[0] * heat->st->own.n[1] * heat->st->own.n[2]));
  PetscCall(RwHeatActuatorsForward(model, k, y));
  if (heat->theta > 0) PetscCall(HeatSolve(model, k, heat->rhs, u, unew, PETSC_FALSE, "forward step"));
  RwModelFlagNonFinite(model, 0, k + 1, c.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- tangent -------------------------------------------------------------- */
typedef struct {
  RwStencil           st;
  RwHeatPass          P;
  RwStencilInput      in[3]; /* du_k, u_k, u_k+1 */
  const PetscScalar  *kappa, *dkappa, *ds;
  PetscScalar        *y;
  PetscReal           probe;
  PetscBool           usenn;
  RwHeatNNRow         nn;
} HeatTangentCtx;

static void HeatTangentRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  HeatTangentCtx     *c = (HeatTangentCtx *)ctx;
  const RwStencil     st = c->st;
  RwStencilRow          ub = c->P.useb ? RwStencilInputRow(st, &c->in[2], 1, ghosted, i, j, k) : RwStencilRowAt(NULL, &st->own, 1, i, j, k);

  RwHeatRowTangent(&c->P, n, RwStencilInputRow(st, &c->in[0], 1, ghosted, i, j, k), RwStencilRowAt(c->kappa, &st->ghost, 1, i, j, k), RwStencilRowAt(c->dkappa, &st->ghost, 1, i, j, k), RwStencilInputRow(st, &c->in[1], 1, ghosted, i, j, k), ub, RwStencilRowAt(c->ds, &st->own, 1, i, j, k).p, RwStencilOwnedAt(st, 1, c->y, i, j, k), &c->probe);
  if (c->usenn) RwHeatRowNNTangent(&c->nn, n, RwStencilInputRow(st, &c->in[1], 1, ghosted, i, j, k).p, RwStencilInputRow(st, &c->in[0], 1, ghosted, i, j, k).p, RwStencilOwnedAt(st, 1, c->y, i, j, k), &c->probe);
}

PetscErrorCode RwHeatStepTangent(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec du, Vec dunew)
{
  RwModel_Heat  *heat = (RwModel_Heat *)model->data;
  HeatTangentCtx c;
  Vec            y = heat->theta > 0 ? heat->rhs : dunew;
  Vec            g[3] = {du, u, unew};

  PetscFunctionBegin;
  c.st    = heat->st;
  c.P     = HeatPassCoefficients(model, k);
  c.probe = 0;
  c.usenn = heat->usenn;
  c.nn    = RwHeatNNRowSetUp(model, PETSC_TRUE);
  for (PetscInt i = 0; i < 3; i++) c.in[i].g = g[i];
  PetscCall(VecGetArrayRead(heat->kappa, &c.kappa));
  PetscCall(VecGetArrayRead(heat->dkappa, &c.dkappa));
  PetscCall(VecGetArrayRead(heat->ds, &c.ds));
  PetscCall(VecGetArray(y, &c.y));
  PetscCall(RwStencilRunPass(heat->st, c.P.useb ? 3 : 2, c.in, HeatTangentRow, &c));
  PetscCall(VecRestoreArray(y, &c.y));
  PetscCall(VecRestoreArrayRead(heat->ds, &c.ds));
  PetscCall(VecRestoreArrayRead(heat->dkappa, &c.dkappa));
  PetscCall(VecRestoreArrayRead(heat->kappa, &c.kappa));
  PetscCall(PetscLogFlops((24.0 * heat->dim + 10) * heat->st->own.n[0] * heat->st->own.n[1] * heat->st->own.n[2]));
  if (heat->amplitude) { /* the amplitude's direction: dt da_k s, before the solve as the source itself */
    PetscReal da = RwModelBlockDirection(model, RW_HEAT_BLOCK_A)[k];

    if (da != 0) PetscCall(VecAXPY(y, model->dt * da, heat->s));
  }
  PetscCall(RwHeatActuatorsTangent(model, k, y));
  if (heat->theta > 0) PetscCall(HeatSolve(model, k, heat->rhs, du, dunew, PETSC_FALSE, "tangent"));
  RwModelFlagNonFinite(model, 0, k + 1, c.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- adjoint -------------------------------------------------------------- */
typedef struct {
  RwStencil           st;
  RwHeatPass          P;
  RwStencilInput      in[3]; /* mu, u_k, u_k+1 */
  const PetscScalar  *kappa;
  PetscScalar        *y, *gk, *gs, *gr;
  PetscReal           probe;
} HeatAdjointCtx;

static void HeatAdjointRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  HeatAdjointCtx     *c = (HeatAdjointCtx *)ctx;
  const RwStencil     st = c->st;
  RwStencilRow          ub = c->P.useb ? RwStencilInputRow(st, &c->in[2], 1, ghosted, i, j, k) : RwStencilRowAt(NULL, &st->own, 1, i, j, k);

  RwHeatRowAdjoint(&c->P, n, RwStencilInputRow(st, &c->in[0], 1, ghosted, i, j, k), RwStencilRowAt(c->kappa, &st->ghost, 1, i, j, k), RwStencilInputRow(st, &c->in[1], 1, ghosted, i, j, k), ub, RwStencilOwnedAt(st, 1, c->y, i, j, k), RwStencilOwnedAt(st, 1, c->gk, i, j, k), RwStencilOwnedAt(st, 1, c->gs, i, j, k), RwStencilOwnedAt(st, 1, c->gr, i, j, k), &c->probe);
}

/* dJ/da_k = dt sum_i s_i mu_i: every point's product rounded on its own, then summed exactly */
static PetscErrorCode HeatAmplitudeAdjoint(RwModel model, PetscInt64 k, Vec mu)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecPointwiseMult(heat->sw, heat->s, mu));
  PetscCall(VecScale(heat->sw, model->dt));
  PetscCall(VecGetLocalSize(heat->sw, &n));
  PetscCall(VecGetArrayRead(heat->sw, &a));
  PetscCall(RwModelAddScalarGradientArray(model, RW_HEAT_BLOCK_A, (PetscInt)k, n, (const PetscReal *)a));
  PetscCall(VecRestoreArrayRead(heat->sw, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatStepAdjoint(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec lnew, Vec l)
{
  RwModel_Heat  *heat = (RwModel_Heat *)model->data;
  HeatAdjointCtx c;
  Vec            g[3] = {lnew, u, unew};

  PetscFunctionBegin;
  /* implicit: lambda_k = Q^T P^-T lambda_k+1, so first mu = P^-T lambda_k+1 */
  if (heat->theta > 0) {
    PetscCall(HeatSolve(model, k, lnew, lnew, heat->mu, PETSC_TRUE, "adjoint"));
    g[0] = heat->mu;
  }
  c.st    = heat->st;
  c.P     = HeatPassCoefficients(model, k);
  c.probe = 0;
  for (PetscInt i = 0; i < 3; i++) c.in[i].g = g[i];
  PetscCall(VecGetArrayRead(heat->kappa, &c.kappa));
  PetscCall(VecGetArray(l, &c.y));
  PetscCall(VecGetArray(heat->gkappa, &c.gk));
  PetscCall(VecGetArray(heat->gs, &c.gs));
  PetscCall(VecGetArray(heat->gr, &c.gr));
  PetscCall(RwStencilRunPass(heat->st, c.P.useb ? 3 : 2, c.in, HeatAdjointRow, &c));
  PetscCall(VecRestoreArray(heat->gr, &c.gr));
  PetscCall(VecRestoreArray(heat->gs, &c.gs));
  PetscCall(VecRestoreArray(heat->gkappa, &c.gk));
  PetscCall(VecRestoreArray(l, &c.y));
  PetscCall(VecRestoreArrayRead(heat->kappa, &c.kappa));
  PetscCall(PetscLogFlops((20.0 * heat->dim + 10) * heat->st->own.n[0] * heat->st->own.n[1] * heat->st->own.n[2]));
  if (heat->usenn) PetscCall(RwHeatNNAdjoint(model, u, g[0], l, &c.probe));
  if (heat->amplitude) PetscCall(HeatAmplitudeAdjoint(model, k, g[0]));
  PetscCall(RwHeatActuatorsAdjoint(model, k, g[0]));
  RwModelFlagNonFinite(model, 1, k, c.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatAdjointBegin(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  PetscCall(VecSet(heat->gkappa, 0));
  PetscCall(VecSet(heat->gs, 0));
  PetscCall(VecSet(heat->gr, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dJ/dkappa, dJ/ds and the per-point terms of dJ/dr: all on the state's grid */
PetscErrorCode RwHeatAdjointAccumulators(RwModel model, PetscInt *n, Vec acc[])
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  *n     = 3;
  acc[0] = heat->gkappa;
  acc[1] = heat->gs;
  acc[2] = heat->gr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fields are copied; dJ/dr, accumulated point by point, is summed exactly once */
PetscErrorCode RwHeatAdjointEnd(RwModel model, Vec g)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  Vec                f;
  const PetscScalar *a;
  PetscInt           n;
  PetscReal          gr;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, g, 0, &f));
  PetscCall(VecCopy(heat->gkappa, f));
  PetscCall(RwModelRestoreParameterField(model, g, 0, &f));
  PetscCall(RwModelGetParameterField(model, g, 1, &f));
  PetscCall(VecCopy(heat->gs, f));
  PetscCall(RwModelRestoreParameterField(model, g, 1, &f));
  PetscCall(VecGetLocalSize(heat->gr, &n));
  PetscCall(VecGetArrayRead(heat->gr, &a));
  PetscCall(RwGlobalSum(PetscObjectComm((PetscObject)model), n, a, &gr));
  PetscCall(VecRestoreArrayRead(heat->gr, &a));
  PetscCall(RwModelSetParameterScalar(model, g, 0, gr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- parameters ----------------------------------------------------------- */

/* Gershgorin bound of the spectral radius of -B: 2 sum_d (kappa_+ + kappa_-)/h^2 + max(r, 0) */
static PetscErrorCode HeatStabilityLimit(RwModel model)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  const RwStencil    st   = heat->st;
  const PetscScalar *kap;
  PetscReal          rho = 0, all;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(heat->kappa, &kap));
  for (PetscInt k = st->own.s[2]; k < st->own.s[2] + st->own.n[2]; k++)
    for (PetscInt j = st->own.s[1]; j < st->own.s[1] + st->own.n[1]; j++) {
      RwStencilRow K = RwStencilRowAt(kap, &st->ghost, 1, st->own.s[0], j, k);
      for (PetscInt i = 0; i < st->own.n[0]; i++) {
        const PetscScalar *q = K.p + i;
        PetscReal          v = heat->ih2[0] * PetscRealPart(2 * q[0] + q[1] + q[-1]);
        if (heat->dim > 1) v += heat->ih2[1] * PetscRealPart(2 * q[0] + q[K.sy] + q[-K.sy]);
        if (heat->dim > 2) v += heat->ih2[2] * PetscRealPart(2 * q[0] + q[K.sz] + q[-K.sz]);
        rho = PetscMax(rho, v);
      }
    }
  PetscCall(VecRestoreArrayRead(heat->kappa, &kap));
  PetscCall(MPIU_Allreduce(&rho, &all, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)model)));
  all += PetscMax(heat->r, 0);
  heat->dtlimit = heat->theta < 0.5 ? 2 / ((1 - 2 * heat->theta) * all) : PETSC_MAX_REAL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P = I - theta dt B; the ghosts of kappa mirror, so a boundary face has its cell's conductivity */
static PetscErrorCode HeatAssemble(RwModel model)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  const RwStencil    st   = heat->st;
  const PetscScalar *kap;
  const PetscReal    td = heat->theta * model->dt;

  PetscFunctionBegin;
  PetscCall(MatZeroEntries(heat->P));
  PetscCall(VecGetArrayRead(heat->kappa, &kap));
  for (PetscInt k = st->own.s[2]; k < st->own.s[2] + st->own.n[2]; k++)
    for (PetscInt j = st->own.s[1]; j < st->own.s[1] + st->own.n[1]; j++)
      for (PetscInt i = st->own.s[0]; i < st->own.s[0] + st->own.n[0]; i++) {
        const PetscScalar *q      = RwStencilRowAt(kap, &st->ghost, 1, i, j, k).p;
        const PetscInt     idx[3] = {i, j, k}, stride[3] = {1, st->ghost.n[0], st->ghost.n[0] * st->ghost.n[1]};
        MatStencil         row = {.i = i, .j = j, .k = k}, col[7];
        PetscScalar        val[7], diag = 1 + td * heat->r;
        PetscInt           nc = 0;

        for (PetscInt d = 0; d < heat->dim; d++)
          for (PetscInt side = -1; side <= 1; side += 2) {
            PetscInt    nb = idx[d] + side;
            PetscScalar a  = td * heat->ih2[d] * 0.5 * (q[0] + q[side * stride[d]]);

            if (heat->bc[d] == RW_HEAT_PERIODIC || (nb >= 0 && nb < st->M[d])) {
              PetscInt n[3] = {i, j, k};
              n[d]          = nb;
              col[nc].i = n[0], col[nc].j = n[1], col[nc].k = n[2], col[nc].c = 0;
              val[nc++] = -a;
              diag += a;
            } else if (heat->bc[d] == RW_HEAT_DIRICHLET) diag += 2 * a;
          }
        col[nc].i = i, col[nc].j = j, col[nc].k = k, col[nc].c = 0;
        val[nc++] = diag;
        PetscCall(MatSetValuesStencil(heat->P, 1, &row, nc, col, val, ADD_VALUES));
      }
  PetscCall(VecRestoreArrayRead(heat->kappa, &kap));
  PetscCall(MatAssemblyBegin(heat->P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(heat->P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatSetParameters(RwModel model, Vec m)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  Vec           kappa, s;
  PetscReal     r;
  PetscBool     changed = PETSC_TRUE;

  PetscFunctionBegin;
  r = RwModelBlockValues(model, 0)[0];
  PetscCheck(!PetscIsInfOrNanReal(r), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "The decay rate r is %g: it must be finite", (double)r);
  PetscCall(RwModelGetParameterField(model, m, 0, &kappa));
  /* positive and normal: DBL_MIN is the least such value */
  PetscCall(RwStencilCheckField(heat->st, kappa, DBL_MIN, PETSC_INFINITY, "The conductivity kappa must be positive and finite everywhere", "kappa"));
  /* the operator is reassembled only when kappa, r or dt changed */
  if (heat->haveparams) PetscCall(RwStencilOwnedDiffer(heat->st, kappa, heat->kappa, &changed));
  PetscCall(RwStencilGlobalToLocal(heat->st, kappa, heat->kappa, PETSC_FALSE));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &kappa));
  PetscCall(RwModelGetParameterField(model, m, 1, &s));
  PetscCall(VecCopy(s, heat->s));
  PetscCall(RwModelRestoreParameterField(model, m, 1, &s));
  if (r != heat->r) changed = PETSC_TRUE;
  heat->r = r;
  if (heat->amplitude) {
    const PetscReal *a = RwModelBlockValues(model, RW_HEAT_BLOCK_A);

    for (PetscInt64 k = 0; k < model->n; k++) PetscCheck(!PetscIsInfOrNanReal(a[k]), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "The source amplitude a_%" PetscInt64_FMT " is %g: it must be finite", k, (double)a[k]);
  }
  if (heat->usenn) PetscCall(RwNNCheckWeights(heat->nn, RwModelBlockValues(model, heat->nnblock), "heat's learned reaction (-rw_heat_nn, block theta)"));
  PetscCall(HeatStabilityLimit(model));
  PetscCheck(model->dt <= heat->dtlimit * (1 + 1e-12), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Time step -rw_dt %g is above the stability limit of the %s scheme (-rw_heat_theta %.3f) for these parameters: use -rw_dt %.6e or smaller, or an implicit scheme (-rw_heat_scheme crank-nicolson or implicit)", (double)model->dt, heat->theta == 0 ? "explicit" : "theta", (double)heat->theta, (double)heat->dtlimit);
  if (heat->theta > 0 && (changed || model->dt != heat->assembleddt)) {
    PetscCall(HeatAssemble(model));
    heat->assembleddt = model->dt;
  }
  heat->haveparams = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatSetDirection(RwModel model, Vec dm)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  Vec           dkappa, ds;
  PetscReal     dkmax;

  PetscFunctionBegin;
  heat->dr = RwModelBlockDirection(model, 0)[0];
  PetscCall(RwModelGetParameterField(model, dm, 0, &dkappa));
  PetscCall(VecNorm(dkappa, NORM_INFINITY, &dkmax));
  heat->dkappazero = dkmax == 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(RwStencilGlobalToLocal(heat->st, dkappa, heat->dkappa, PETSC_FALSE));
  PetscCall(RwModelRestoreParameterField(model, dm, 0, &dkappa));
  PetscCall(RwModelGetParameterField(model, dm, 1, &ds));
  PetscCall(VecCopy(ds, heat->ds));
  PetscCall(RwModelRestoreParameterField(model, dm, 1, &ds));
  PetscFunctionReturn(PETSC_SUCCESS);
}
