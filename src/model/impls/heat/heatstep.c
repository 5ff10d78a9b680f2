/*
  The heat model's steps: forward, tangent and adjoint, each one pass of the
  kernels in heatkernels.c (around a KSP solve for implicit schemes).

  Every pass overlaps the halo exchange with work: it starts moving the
  ghosts, computes the interior rows (whose neighbours are all owned) straight
  from the global arrays, ends the exchange, copies the owned band next to
  the box's edges and fills the ghosts beyond physical boundaries, then
  computes the shell of rows next to other ranks or to the boundary from the
  ghosted arrays.  No step copies a whole state; nothing is allocated here.
*/
#include "heatimpl.h"

/* A view of array a (laid out over box b) starting at point (i, j, k) */
static inline RwHeatRow HeatRowAt(const PetscScalar *a, const RwHeatBox *b, PetscInt i, PetscInt j, PetscInt k)
{
  RwHeatRow r;

  r.sy = b->n[0];
  r.sz = b->n[0] * b->n[1];
  r.p  = a ? a + (k - b->s[2]) * r.sz + (j - b->s[1]) * r.sy + (i - b->s[0]) : NULL;
  return r;
}

/* An input of a pass: its owned values (global array) and, after the
   exchange, its ghosted values (local array) */
typedef struct {
  Vec                g, l;
  const PetscScalar *ga, *la;
} HeatInput;

typedef void (*HeatRowFn)(void *, PetscInt, PetscInt, PetscInt, PetscInt, PetscBool);

static inline RwHeatRow HeatInputRow(const RwModel_Heat *heat, const HeatInput *in, PetscBool ghosted, PetscInt i, PetscInt j, PetscInt k)
{
  return ghosted ? HeatRowAt(in->la, &heat->ghost, i, j, k) : HeatRowAt(in->ga, &heat->own, i, j, k);
}

static inline PetscScalar *HeatOwnedAt(const RwModel_Heat *heat, PetscScalar *a, PetscInt i, PetscInt j, PetscInt k)
{
  return (PetscScalar *)HeatRowAt(a, &heat->own, i, j, k).p;
}

/* Rows whose points have every neighbour owned by this rank */
static void HeatForInterior(const RwModel_Heat *heat, HeatRowFn fn, void *ctx)
{
  PetscInt lo[3], hi[3];

  for (PetscInt d = 0; d < 3; d++) {
    lo[d] = heat->own.s[d] + (d < heat->dim ? 1 : 0);
    hi[d] = heat->own.s[d] + heat->own.n[d] - (d < heat->dim ? 1 : 0);
    if (lo[d] >= hi[d]) return;
  }
  for (PetscInt k = lo[2]; k < hi[2]; k++)
    for (PetscInt j = lo[1]; j < hi[1]; j++) fn(ctx, lo[0], j, k, hi[0] - lo[0], PETSC_FALSE);
}

/* The owned points that are not interior: next to another rank or a boundary */
static void HeatForShell(const RwModel_Heat *heat, HeatRowFn fn, void *ctx)
{
  const PetscInt *s = heat->own.s, *n = heat->own.n;

  for (PetscInt k = s[2]; k < s[2] + n[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + n[1]; j++) {
      PetscBool edge = (heat->dim > 1 && (j == s[1] || j == s[1] + n[1] - 1)) || (heat->dim > 2 && (k == s[2] || k == s[2] + n[2] - 1));

      if (edge) fn(ctx, s[0], j, k, n[0], PETSC_TRUE);
      else {
        fn(ctx, s[0], j, k, 1, PETSC_TRUE);
        if (n[0] > 1) fn(ctx, s[0] + n[0] - 1, j, k, 1, PETSC_TRUE);
      }
    }
}

/* Runs fn over all owned rows of a pass whose ghosted inputs are in[0..nin) */
static PetscErrorCode HeatRunPass(RwModel model, HeatInput *in, PetscInt nin, HeatRowFn fn, void *ctx)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < nin; i++) PetscCall(RwHeatHaloBegin(model, i, in[i].g, in[i].l));
  for (PetscInt i = 0; i < nin; i++) PetscCall(VecGetArrayRead(in[i].g, &in[i].ga));
  HeatForInterior(heat, fn, ctx);
  for (PetscInt i = 0; i < nin; i++) {
    PetscCall(RwHeatHaloEnd(model, i, in[i].g, in[i].l));
    PetscCall(VecGetArrayRead(in[i].l, &in[i].la));
  }
  HeatForShell(heat, fn, ctx);
  for (PetscInt i = 0; i < nin; i++) {
    PetscCall(VecRestoreArrayRead(in[i].g, &in[i].ga));
    PetscCall(VecRestoreArrayRead(in[i].l, &in[i].la));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coefficients of one theta-scheme pass */
static RwHeatPass HeatPassCoefficients(RwModel model)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  RwHeatPass    P;

  P.dim = heat->dim;
  for (PetscInt d = 0; d < 3; d++) P.ih2[d] = heat->ih2[d];
  P.r    = heat->r;
  P.c    = (1 - heat->theta) * model->dt;
  P.ca   = (1 - heat->theta) * model->dt;
  P.cb   = heat->theta * model->dt;
  P.cs   = model->dt;
  P.dr   = heat->dr;
  P.useb = heat->theta > 0 ? PETSC_TRUE : PETSC_FALSE;
  P.usek = heat->dkappazero ? PETSC_FALSE : PETSC_TRUE;
  return P;
}

/* Solves with the previous step's value as the initial guess: states change
   little per step, so Krylov methods converge in fewer iterations */
static PetscErrorCode HeatSolve(RwModel model, PetscInt64 k, Vec b, Vec guess, Vec x, PetscBool transpose, const char *what)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(VecCopy(guess, x));
  if (transpose) PetscCall(KSPSolveTranspose(heat->ksp, b, x));
  else PetscCall(KSPSolve(heat->ksp, b, x));
  PetscCall(KSPGetConvergedReason(heat->ksp, &reason));
  PetscCheck(reason > 0, PetscObjectComm((PetscObject)model), PETSC_ERR_NOT_CONVERGED, "The linear solve of the %s of step %" PetscInt64_FMT " failed (%s): the state may hold NaN or Inf, or the solver needs other options (-ksp_type, -pc_type, -ksp_max_it)", what, k, KSPConvergedReasons[reason]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- forward -------------------------------------------------------------- */
typedef struct {
  const RwModel_Heat *heat;
  RwHeatPass          P;
  HeatInput           x;
  const PetscScalar  *kappa, *s;
  PetscScalar        *y;
  PetscReal           probe;
} HeatForwardCtx;

static void HeatForwardRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  HeatForwardCtx     *c = (HeatForwardCtx *)ctx;
  const RwModel_Heat *h = c->heat;

  RwHeatRowForward(&c->P, n, HeatInputRow(h, &c->x, ghosted, i, j, k), HeatRowAt(c->kappa, &h->ghost, i, j, k), HeatRowAt(c->s, &h->own, i, j, k).p, HeatOwnedAt(h, c->y, i, j, k), &c->probe);
}

PetscErrorCode RwHeatStep(RwModel model, PetscInt64 k, Vec u, Vec unew)
{
  RwModel_Heat  *heat = (RwModel_Heat *)model->data;
  HeatForwardCtx c;
  Vec            y = heat->theta > 0 ? heat->rhs : unew;

  PetscFunctionBegin;
  c.heat  = heat;
  c.P     = HeatPassCoefficients(model);
  c.x.g   = u;
  c.x.l   = heat->work[0];
  c.probe = 0;
  PetscCall(VecGetArrayRead(heat->kappa, &c.kappa));
  PetscCall(VecGetArrayRead(heat->s, &c.s));
  PetscCall(VecGetArray(y, &c.y));
  PetscCall(HeatRunPass(model, &c.x, 1, HeatForwardRow, &c));
  PetscCall(VecRestoreArray(y, &c.y));
  PetscCall(VecRestoreArrayRead(heat->s, &c.s));
  PetscCall(VecRestoreArrayRead(heat->kappa, &c.kappa));
  PetscCall(PetscLogFlops((8.0 * heat->dim + 5) * heat->own.n[0] * heat->own.n[1] * heat->own.n[2]));
  if (heat->theta > 0) PetscCall(HeatSolve(model, k, heat->rhs, u, unew, PETSC_FALSE, "forward step"));
  RwModelFlagNonFinite(model, 0, k + 1, c.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- tangent -------------------------------------------------------------- */
typedef struct {
  const RwModel_Heat *heat;
  RwHeatPass          P;
  HeatInput           in[3]; /* du_k, u_k, u_k+1 */
  const PetscScalar  *kappa, *dkappa, *ds;
  PetscScalar        *y;
  PetscReal           probe;
} HeatTangentCtx;

static void HeatTangentRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  HeatTangentCtx     *c = (HeatTangentCtx *)ctx;
  const RwModel_Heat *h = c->heat;
  RwHeatRow           ub = c->P.useb ? HeatInputRow(h, &c->in[2], ghosted, i, j, k) : HeatRowAt(NULL, &h->own, i, j, k);

  RwHeatRowTangent(&c->P, n, HeatInputRow(h, &c->in[0], ghosted, i, j, k), HeatRowAt(c->kappa, &h->ghost, i, j, k), HeatRowAt(c->dkappa, &h->ghost, i, j, k), HeatInputRow(h, &c->in[1], ghosted, i, j, k), ub, HeatRowAt(c->ds, &h->own, i, j, k).p, HeatOwnedAt(h, c->y, i, j, k), &c->probe);
}

PetscErrorCode RwHeatStepTangent(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec du, Vec dunew)
{
  RwModel_Heat  *heat = (RwModel_Heat *)model->data;
  HeatTangentCtx c;
  Vec            y = heat->theta > 0 ? heat->rhs : dunew;
  Vec            g[3] = {du, u, unew};

  PetscFunctionBegin;
  c.heat  = heat;
  c.P     = HeatPassCoefficients(model);
  c.probe = 0;
  for (PetscInt i = 0; i < 3; i++) {
    c.in[i].g = g[i];
    c.in[i].l = heat->work[i];
  }
  PetscCall(VecGetArrayRead(heat->kappa, &c.kappa));
  PetscCall(VecGetArrayRead(heat->dkappa, &c.dkappa));
  PetscCall(VecGetArrayRead(heat->ds, &c.ds));
  PetscCall(VecGetArray(y, &c.y));
  PetscCall(HeatRunPass(model, c.in, c.P.useb ? 3 : 2, HeatTangentRow, &c));
  PetscCall(VecRestoreArray(y, &c.y));
  PetscCall(VecRestoreArrayRead(heat->ds, &c.ds));
  PetscCall(VecRestoreArrayRead(heat->dkappa, &c.dkappa));
  PetscCall(VecRestoreArrayRead(heat->kappa, &c.kappa));
  PetscCall(PetscLogFlops((24.0 * heat->dim + 10) * heat->own.n[0] * heat->own.n[1] * heat->own.n[2]));
  if (heat->theta > 0) PetscCall(HeatSolve(model, k, heat->rhs, du, dunew, PETSC_FALSE, "tangent"));
  RwModelFlagNonFinite(model, 0, k + 1, c.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- adjoint -------------------------------------------------------------- */
typedef struct {
  const RwModel_Heat *heat;
  RwHeatPass          P;
  HeatInput           in[3]; /* mu, u_k, u_k+1 */
  const PetscScalar  *kappa;
  PetscScalar        *y, *gk, *gs, *gr;
  PetscReal           probe;
} HeatAdjointCtx;

static void HeatAdjointRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  HeatAdjointCtx     *c = (HeatAdjointCtx *)ctx;
  const RwModel_Heat *h = c->heat;
  RwHeatRow           ub = c->P.useb ? HeatInputRow(h, &c->in[2], ghosted, i, j, k) : HeatRowAt(NULL, &h->own, i, j, k);

  RwHeatRowAdjoint(&c->P, n, HeatInputRow(h, &c->in[0], ghosted, i, j, k), HeatRowAt(c->kappa, &h->ghost, i, j, k), HeatInputRow(h, &c->in[1], ghosted, i, j, k), ub, HeatOwnedAt(h, c->y, i, j, k), HeatOwnedAt(h, c->gk, i, j, k), HeatOwnedAt(h, c->gs, i, j, k), HeatOwnedAt(h, c->gr, i, j, k), &c->probe);
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
  c.heat  = heat;
  c.P     = HeatPassCoefficients(model);
  c.probe = 0;
  for (PetscInt i = 0; i < 3; i++) {
    c.in[i].g = g[i];
    c.in[i].l = heat->work[i];
  }
  PetscCall(VecGetArrayRead(heat->kappa, &c.kappa));
  PetscCall(VecGetArray(l, &c.y));
  PetscCall(VecGetArray(heat->gkappa, &c.gk));
  PetscCall(VecGetArray(heat->gs, &c.gs));
  PetscCall(VecGetArray(heat->gr, &c.gr));
  PetscCall(HeatRunPass(model, c.in, c.P.useb ? 3 : 2, HeatAdjointRow, &c));
  PetscCall(VecRestoreArray(heat->gr, &c.gr));
  PetscCall(VecRestoreArray(heat->gs, &c.gs));
  PetscCall(VecRestoreArray(heat->gkappa, &c.gk));
  PetscCall(VecRestoreArray(l, &c.y));
  PetscCall(VecRestoreArrayRead(heat->kappa, &c.kappa));
  PetscCall(PetscLogFlops((20.0 * heat->dim + 10) * heat->own.n[0] * heat->own.n[1] * heat->own.n[2]));
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

/* Reports kappa <= 0 (or NaN) at the first such point in natural order */
static PetscErrorCode HeatCheckKappa(RwModel model, Vec kappa)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  const PetscScalar *a;
  PetscInt64         first = RW_INT64_MAX, all;
  PetscReal          bad = 0, worst;
  PetscInt           p = 0;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(kappa, &a));
  for (PetscInt k = heat->own.s[2]; k < heat->own.s[2] + heat->own.n[2]; k++)
    for (PetscInt j = heat->own.s[1]; j < heat->own.s[1] + heat->own.n[1]; j++)
      for (PetscInt i = heat->own.s[0]; i < heat->own.s[0] + heat->own.n[0]; i++, p++) {
        PetscInt64 nat = i + (PetscInt64)heat->M[0] * (j + (PetscInt64)heat->M[1] * k);
        if (!(PetscRealPart(a[p]) > 0 && PetscIsNormalReal(PetscRealPart(a[p]))) && nat < first) {
          first = nat;
          bad   = PetscRealPart(a[p]);
        }
      }
  PetscCall(VecRestoreArrayRead(kappa, &a));
  PetscCallMPI(MPI_Allreduce(&first, &all, 1, MPIU_INT64, MPI_MIN, PetscObjectComm((PetscObject)model)));
  if (all == RW_INT64_MAX) PetscFunctionReturn(PETSC_SUCCESS);
  /* only the owner adds its value: a MIN would drop a NaN, a sum of one term and zeros keeps it */
  if (first != all) bad = 0;
  PetscCall(MPIU_Allreduce(&bad, &worst, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)model)));
  SETERRQ(PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "The conductivity kappa must be positive and finite everywhere; kappa = %g at grid point (%" PetscInt64_FMT ", %" PetscInt64_FMT ", %" PetscInt64_FMT ")", (double)worst, all % heat->M[0], (all / heat->M[0]) % heat->M[1], all / heat->M[0] / heat->M[1]);
}

/* Gershgorin bound of the spectral radius of -B: 2 sum_d (kappa_+ + kappa_-)/h^2 + max(r, 0) */
static PetscErrorCode HeatStabilityLimit(RwModel model)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  const PetscScalar *kap;
  PetscReal          rho = 0, all;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(heat->kappa, &kap));
  for (PetscInt k = heat->own.s[2]; k < heat->own.s[2] + heat->own.n[2]; k++)
    for (PetscInt j = heat->own.s[1]; j < heat->own.s[1] + heat->own.n[1]; j++) {
      RwHeatRow K = HeatRowAt(kap, &heat->ghost, heat->own.s[0], j, k);
      for (PetscInt i = 0; i < heat->own.n[0]; i++) {
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
  const PetscScalar *kap;
  const PetscReal    td = heat->theta * model->dt;

  PetscFunctionBegin;
  PetscCall(MatZeroEntries(heat->P));
  PetscCall(VecGetArrayRead(heat->kappa, &kap));
  for (PetscInt k = heat->own.s[2]; k < heat->own.s[2] + heat->own.n[2]; k++)
    for (PetscInt j = heat->own.s[1]; j < heat->own.s[1] + heat->own.n[1]; j++)
      for (PetscInt i = heat->own.s[0]; i < heat->own.s[0] + heat->own.n[0]; i++) {
        const PetscScalar *q      = HeatRowAt(kap, &heat->ghost, i, j, k).p;
        const PetscInt     idx[3] = {i, j, k}, stride[3] = {1, heat->ghost.n[0], heat->ghost.n[0] * heat->ghost.n[1]};
        MatStencil         row = {.i = i, .j = j, .k = k}, col[7];
        PetscScalar        val[7], diag = 1 + td * heat->r;
        PetscInt           nc = 0;

        for (PetscInt d = 0; d < heat->dim; d++)
          for (PetscInt side = -1; side <= 1; side += 2) {
            PetscInt    nb = idx[d] + side;
            PetscScalar a  = td * heat->ih2[d] * 0.5 * (q[0] + q[side * stride[d]]);

            if (heat->bc[d] == RW_HEAT_PERIODIC || (nb >= 0 && nb < heat->M[d])) {
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

/* Whether the owned values of a and b differ anywhere on any rank */
static PetscErrorCode HeatOwnedDiffer(RwModel model, Vec global, Vec ghosted, PetscBool *differ)
{
  RwModel_Heat      *heat = (RwModel_Heat *)model->data;
  const PetscScalar *g, *l;
  PetscInt           p = 0, mine = 0, any;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(global, &g));
  PetscCall(VecGetArrayRead(ghosted, &l));
  for (PetscInt k = heat->own.s[2]; k < heat->own.s[2] + heat->own.n[2] && !mine; k++)
    for (PetscInt j = heat->own.s[1]; j < heat->own.s[1] + heat->own.n[1] && !mine; j++) {
      const PetscScalar *row = HeatRowAt(l, &heat->ghost, heat->own.s[0], j, k).p;
      for (PetscInt i = 0; i < heat->own.n[0]; i++, p++)
        if (g[p] != row[i]) mine = 1;
    }
  PetscCall(VecRestoreArrayRead(ghosted, &l));
  PetscCall(VecRestoreArrayRead(global, &g));
  PetscCall(MPIU_Allreduce(&mine, &any, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)model)));
  *differ = any ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwHeatSetParameters(RwModel model, Vec m)
{
  RwModel_Heat *heat = (RwModel_Heat *)model->data;
  Vec           kappa, s;
  PetscReal     r;
  PetscBool     changed = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterScalar(model, m, 0, &r));
  PetscCheck(!PetscIsInfOrNanReal(r), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "The decay rate r is %g: it must be finite", (double)r);
  PetscCall(RwModelGetParameterField(model, m, 0, &kappa));
  PetscCall(HeatCheckKappa(model, kappa));
  /* the operator is reassembled only when kappa, r or dt changed */
  if (heat->haveparams) PetscCall(HeatOwnedDiffer(model, kappa, heat->kappa, &changed));
  PetscCall(RwHeatGlobalToLocal(model, kappa, heat->kappa, PETSC_FALSE));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &kappa));
  PetscCall(RwModelGetParameterField(model, m, 1, &s));
  PetscCall(VecCopy(s, heat->s));
  PetscCall(RwModelRestoreParameterField(model, m, 1, &s));
  if (r != heat->r) changed = PETSC_TRUE;
  heat->r = r;
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
  PetscCall(RwModelGetParameterScalar(model, dm, 0, &heat->dr));
  PetscCall(RwModelGetParameterField(model, dm, 0, &dkappa));
  PetscCall(VecNorm(dkappa, NORM_INFINITY, &dkmax));
  heat->dkappazero = dkmax == 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(RwHeatGlobalToLocal(model, dkappa, heat->dkappa, PETSC_FALSE));
  PetscCall(RwModelRestoreParameterField(model, dm, 0, &dkappa));
  PetscCall(RwModelGetParameterField(model, dm, 1, &ds));
  PetscCall(VecCopy(ds, heat->ds));
  PetscCall(RwModelRestoreParameterField(model, dm, 1, &ds));
  PetscFunctionReturn(PETSC_SUCCESS);
}
