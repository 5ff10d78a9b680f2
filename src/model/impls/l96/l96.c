/*
  "l96": the Lorenz-96 ring, the standard chaotic test of data assimilation,

    dx_i/dt = f_i(x) = (x_i+1 - x_i-2) x_i-1 - x_i + F + F_i,   i = 0..N-1 periodic,

  stepped by the classical fourth-order Runge-Kutta scheme.  The ring is a
  periodic 1D grid of N points on the shared grid layer (RwStencil, width 2),
  distributed over the ranks; F is a global scalar (block "F") and F_i an
  additive field (field "Fi", default 0), so dJ/dF is the sum of dJ/dF_i.

  Step (h = dt): y1 = x, k_j = f(y_j), y_j+1 = x + a_j+1 k_j with
  a = (h/2, h/2, h), x' = x + (h/6) ((k1 + 2 k2) + 2 k3 + k4).  Every stage is
  one pass of the layer (a halo exchange of y_j, then the rows): one kernel
  with the stage's coefficients serves all four.

  Tangent: the same passes carrying dy_j beside y_j,
    dk_i = (dy_i+1 - dy_i-2) y_i-1 + (y_i+1 - y_i-2) dy_i-1 - dy_i + dF + dF_i.

  Adjoint (lambda' of x'): the stages y2, y3, y4 are recomputed from x_k, then
  reversed with mu_j = dJ/dk_j = b_j lambda' + a_j+1 ly_j+1 (b = h/6 (1, 2, 2, 1)):
    ly_j = Jf(y_j)^T mu_j,
    (Jf(y)^T mu)_i = mu_i+1 y_i-1... gathered: mu_i-1 y_i-2 - mu_i+2 y_i+1
                     + mu_i+1 (y_i+2 - y_i-1) - mu_i,
    lambda = lambda' + ly4 + ly3 + ly2 + ly1,   dJ/dF_i += sum_j mu_j,i.
  Each point gathers its neighbours' mu and y after an ordinary halo exchange
  (mu_j is written to a vector by the stage before), so the gradient is the
  same bits on any number of ranks.
*/
#include <rewind/private/stencilimpl.h>
#include <string.h>

#define L96_NSTAGE 4

static const char *const L96CompNames[]  = {"x"};
static const char *const L96FieldNames[] = {"Fi"};

typedef struct {
  RwStencil st;
  PetscReal forcing; /* the default of block F (-rw_l96_forcing) */
  Vec       fi, dfi; /* F + F_i and its direction dF + dF_i at the owned points */
  Vec       y[L96_NSTAGE], dy[L96_NSTAGE]; /* stage inputs y2..y4 (y[0] unused: y1 = x) and tangents */
  Vec       s, ds;   /* the weighted sum of the stages so far, and its tangent */
  Vec       mu[2];   /* the adjoint's stage sources, alternating */
  Vec       gf;      /* dJ/dF_i so far, per point */
} L96;

/* The stage coefficients: y_j+1 = x + a[j+1] k_j, x' = x + sum_j b[j] k_j */
static void L96Coefficients(PetscReal h, PetscReal a[L96_NSTAGE], PetscReal b[L96_NSTAGE])
{
  a[0] = 0;
  a[1] = h / 2;
  a[2] = h / 2;
  a[3] = h;
  b[0] = h / 6;
  b[1] = h / 3;
  b[2] = h / 3;
  b[3] = h / 6;
}

/* ---- kernels: f, its tangent, its transpose, at one point ------------------ */

static inline PetscScalar L96F(const PetscScalar *y, PetscScalar force)
{
  return (y[1] - y[-2]) * y[-1] - y[0] + force;
}

static inline PetscScalar L96FTangent(const PetscScalar *y, const PetscScalar *dy, PetscScalar dforce)
{
  return (dy[1] - dy[-2]) * y[-1] + (y[1] - y[-2]) * dy[-1] - dy[0] + dforce;
}

/* (Jf(y)^T mu)_i from the neighbours: f_i-1 reads y_i as y_(i-1)+1, f_i+2 as y_(i+2)-2, f_i+1 as y_(i+1)-1 */
static inline PetscScalar L96FAdjoint(const PetscScalar *y, const PetscScalar *mu, PetscReal smu)
{
  return smu * (mu[-1] * y[-2] - mu[2] * y[1] + mu[1] * (y[2] - y[-1]) - mu[0]);
}

/* What a stage's rows read and write */
typedef struct {
  RwStencil          st;
  PetscInt           j;          /* the stage, 0..3 */
  PetscReal          a[L96_NSTAGE], b[L96_NSTAGE];
  RwStencilInput     in[2];      /* forward: y_j; tangent: y_j, dy_j; adjoint: mu_j, y_j */
  const PetscScalar *x, *dx, *fi, *dfi, *ln; /* owned: x_k, dx_k, F + F_i, its direction, lambda_k+1 */
  PetscScalar       *s, *ds, *yn, *dyn, *out, *dout; /* the stage sum, the next stage's input, x_k+1 */
  PetscScalar       *l, *mun, *gf; /* adjoint: lambda_k, mu_j-1, dJ/dF_i */
  PetscReal          smu;        /* mu_j = smu * in[0]: b[3] at the last stage (in[0] is lambda'), else 1 */
  PetscReal          probe;
} L96Pass;

/* Stage j: k = f(y_j), added to the sum, and the next stage's input or x_k+1 */
static void L96ForwardRow(void *ctx, PetscInt i0, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  L96Pass           *P  = (L96Pass *)ctx;
  const PetscInt     o  = RwStencilOwnedIndex(P->st, i0, j, k);
  const PetscScalar *y  = RwStencilInputRow(P->st, &P->in[0], 1, ghosted, i0, j, k).p;
  const PetscInt     st = P->j;
  PetscReal          nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar kk = L96F(y + i, P->fi[o + i]);

    if (st == 0) P->s[o + i] = P->b[0] * kk;
    else if (st < L96_NSTAGE - 1) P->s[o + i] += P->b[st] * kk;
    if (st < L96_NSTAGE - 1) P->yn[o + i] = P->x[o + i] + P->a[st + 1] * kk;
    else if (P->out) {
      P->out[o + i] = P->x[o + i] + (P->s[o + i] + P->b[st] * kk);
      nan += P->out[o + i] * 0;
    }
  }
  P->probe += nan;
}

static void L96TangentRow(void *ctx, PetscInt i0, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  L96Pass           *P  = (L96Pass *)ctx;
  const PetscInt     o  = RwStencilOwnedIndex(P->st, i0, j, k);
  const PetscScalar *y  = RwStencilInputRow(P->st, &P->in[0], 1, ghosted, i0, j, k).p;
  const PetscScalar *dy = RwStencilInputRow(P->st, &P->in[1], 1, ghosted, i0, j, k).p;
  const PetscInt     st = P->j;
  PetscReal          nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar kk = L96F(y + i, P->fi[o + i]), dk = L96FTangent(y + i, dy + i, P->dfi[o + i]);

    if (st == 0) {
      P->s[o + i]  = P->b[0] * kk;
      P->ds[o + i] = P->b[0] * dk;
    } else if (st < L96_NSTAGE - 1) {
      P->s[o + i] += P->b[st] * kk;
      P->ds[o + i] += P->b[st] * dk;
    }
    if (st < L96_NSTAGE - 1) {
      P->yn[o + i]  = P->x[o + i] + P->a[st + 1] * kk;
      P->dyn[o + i] = P->dx[o + i] + P->a[st + 1] * dk;
    } else {
      P->dout[o + i] = P->dx[o + i] + (P->ds[o + i] + P->b[st] * dk);
      nan += P->dout[o + i] * 0;
    }
  }
  P->probe += nan;
}

/* Stage j reversed: ly_j = Jf(y_j)^T mu_j into lambda, mu_j into dJ/dF_i, and mu_j-1 */
static void L96AdjointRow(void *ctx, PetscInt i0, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  L96Pass           *P  = (L96Pass *)ctx;
  const PetscInt     o  = RwStencilOwnedIndex(P->st, i0, j, k);
  const PetscScalar *mu = RwStencilInputRow(P->st, &P->in[0], 1, ghosted, i0, j, k).p;
  const PetscScalar *y  = RwStencilInputRow(P->st, &P->in[1], 1, ghosted, i0, j, k).p;
  const PetscInt     st = P->j;
  PetscReal          nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar ly = L96FAdjoint(y + i, mu + i, P->smu);

    P->gf[o + i] += P->smu * mu[i];
    if (st == L96_NSTAGE - 1) P->l[o + i] = P->ln[o + i] + ly;
    else P->l[o + i] += ly;
    if (st > 0) P->mun[o + i] = P->b[st - 1] * P->ln[o + i] + P->a[st] * ly;
    else nan += P->l[o + i] * 0;
  }
  P->probe += nan;
}

/* ---- steps ------------------------------------------------------------------ */

static L96Pass L96PassCreate(RwModel model)
{
  L96    *l = (L96 *)model->data;
  L96Pass P;

  memset(&P, 0, sizeof(P));
  P.st  = l->st;
  P.smu = 1;
  L96Coefficients(model->dt, P.a, P.b);
  return P;
}

/* The forward stages from x (P->x set): y2..y4 into l->y, and x_k+1 into out if not NULL */
static PetscErrorCode L96Stages(RwModel model, Vec x, L96Pass *P, Vec out)
{
  L96 *l = (L96 *)model->data;

  PetscFunctionBegin;
  PetscCall(VecGetArray(l->s, &P->s));
  if (out) PetscCall(VecGetArray(out, &P->out));
  for (PetscInt j = 0; j < (out ? L96_NSTAGE : L96_NSTAGE - 1); j++) {
    P->j       = j;
    P->in[0].g = j ? l->y[j] : x;
    if (j < L96_NSTAGE - 1) PetscCall(VecGetArray(l->y[j + 1], &P->yn));
    PetscCall(RwStencilRunPass(l->st, 1, P->in, L96ForwardRow, P));
    if (j < L96_NSTAGE - 1) PetscCall(VecRestoreArray(l->y[j + 1], &P->yn));
  }
  if (out) PetscCall(VecRestoreArray(out, &P->out));
  PetscCall(VecRestoreArray(l->s, &P->s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96Step(RwModel model, PetscInt64 k, Vec u, Vec unew)
{
  L96    *l = (L96 *)model->data;
  L96Pass P = L96PassCreate(model);

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(u, &P.x));
  PetscCall(VecGetArrayRead(l->fi, &P.fi));
  PetscCall(L96Stages(model, u, &P, unew));
  PetscCall(VecRestoreArrayRead(l->fi, &P.fi));
  PetscCall(VecRestoreArrayRead(u, &P.x));
  PetscCall(PetscLogFlops(4 * 9.0 * l->st->own.n[0]));
  RwModelFlagNonFinite(model, 0, k + 1, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96StepTangent(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec du, Vec dunew)
{
  L96    *l = (L96 *)model->data;
  L96Pass P = L96PassCreate(model);

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(u, &P.x));
  PetscCall(VecGetArrayRead(du, &P.dx));
  PetscCall(VecGetArrayRead(l->fi, &P.fi));
  PetscCall(VecGetArrayRead(l->dfi, &P.dfi));
  PetscCall(VecGetArray(l->s, &P.s));
  PetscCall(VecGetArray(l->ds, &P.ds));
  PetscCall(VecGetArray(dunew, &P.dout));
  for (PetscInt j = 0; j < L96_NSTAGE; j++) {
    P.j       = j;
    P.in[0].g = j ? l->y[j] : u;
    P.in[1].g = j ? l->dy[j] : du;
    if (j < L96_NSTAGE - 1) {
      PetscCall(VecGetArray(l->y[j + 1], &P.yn));
      PetscCall(VecGetArray(l->dy[j + 1], &P.dyn));
    }
    PetscCall(RwStencilRunPass(l->st, 2, P.in, L96TangentRow, &P));
    if (j < L96_NSTAGE - 1) {
      PetscCall(VecRestoreArray(l->dy[j + 1], &P.dyn));
      PetscCall(VecRestoreArray(l->y[j + 1], &P.yn));
    }
  }
  PetscCall(VecRestoreArray(dunew, &P.dout));
  PetscCall(VecRestoreArray(l->ds, &P.ds));
  PetscCall(VecRestoreArray(l->s, &P.s));
  PetscCall(VecRestoreArrayRead(l->dfi, &P.dfi));
  PetscCall(VecRestoreArrayRead(l->fi, &P.fi));
  PetscCall(VecRestoreArrayRead(du, &P.dx));
  PetscCall(VecRestoreArrayRead(u, &P.x));
  PetscCall(PetscLogFlops(4 * 22.0 * l->st->own.n[0]));
  RwModelFlagNonFinite(model, 0, k + 1, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Stages 4..1 reversed; stage 4's mu is b4 lambda' read straight from lnew */
static PetscErrorCode L96StepAdjoint(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec lnew, Vec lam)
{
  L96    *l = (L96 *)model->data;
  L96Pass P = L96PassCreate(model);

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(u, &P.x));
  PetscCall(VecGetArrayRead(l->fi, &P.fi));
  PetscCall(L96Stages(model, u, &P, NULL));
  PetscCall(VecRestoreArrayRead(l->fi, &P.fi));
  PetscCall(VecRestoreArrayRead(u, &P.x));
  PetscCall(VecGetArrayRead(lnew, &P.ln));
  PetscCall(VecGetArray(lam, &P.l));
  PetscCall(VecGetArray(l->gf, &P.gf));
  for (PetscInt j = L96_NSTAGE - 1; j >= 0; j--) {
    P.j       = j;
    P.smu     = j == L96_NSTAGE - 1 ? P.b[j] : 1;
    P.in[0].g = j == L96_NSTAGE - 1 ? lnew : l->mu[j % 2];
    P.in[1].g = j ? l->y[j] : u;
    if (j) PetscCall(VecGetArray(l->mu[(j - 1) % 2], &P.mun));
    PetscCall(RwStencilRunPass(l->st, 2, P.in, L96AdjointRow, &P));
    if (j) PetscCall(VecRestoreArray(l->mu[(j - 1) % 2], &P.mun));
  }
  PetscCall(VecRestoreArray(l->gf, &P.gf));
  PetscCall(VecRestoreArray(lam, &P.l));
  PetscCall(VecRestoreArrayRead(lnew, &P.ln));
  PetscCall(PetscLogFlops(4 * (9.0 + 14.0) * l->st->own.n[0]));
  RwModelFlagNonFinite(model, 1, k, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96AdjointBegin(RwModel model)
{
  L96 *l = (L96 *)model->data;

  PetscFunctionBegin;
  PetscCall(VecSet(l->gf, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96AdjointAccumulators(RwModel model, PetscInt *n, Vec acc[])
{
  L96 *l = (L96 *)model->data;

  PetscFunctionBegin;
  *n     = 1;
  acc[0] = l->gf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dJ/dF_i is the per-point sum; dJ/dF adds every point's, exactly */
static PetscErrorCode L96AdjointEnd(RwModel model, Vec g)
{
  L96               *l = (L96 *)model->data;
  Vec                f;
  const PetscScalar *gf;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, g, 0, &f));
  PetscCall(VecCopy(l->gf, f));
  PetscCall(RwModelRestoreParameterField(model, g, 0, &f));
  PetscCall(VecGetLocalSize(l->gf, &n));
  PetscCall(VecGetArrayRead(l->gf, &gf));
  for (PetscInt p = 0; p < n; p++) PetscCall(RwModelAddScalarGradient(model, 0, 0, PetscRealPart(gf[p])));
  PetscCall(VecRestoreArrayRead(l->gf, &gf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- parameters ------------------------------------------------------------- */

/* F + F_i (or its direction) at the owned points */
static PetscErrorCode L96Forcing(RwModel model, Vec m, PetscReal F, Vec out)
{
  Vec fi;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, m, 0, &fi));
  PetscCall(VecCopy(fi, out));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &fi));
  PetscCall(VecShift(out, F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96SetParameters(RwModel model, Vec m)
{
  L96      *l = (L96 *)model->data;
  PetscReal F = RwModelBlockValues(model, 0)[0];
  Vec       fi;

  PetscFunctionBegin;
  PetscCheck(!PetscIsInfOrNanReal(F), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "The Lorenz-96 forcing F (parameter block \"F\") must be finite, not %g", (double)F);
  PetscCall(RwModelGetParameterField(model, m, 0, &fi));
  PetscCall(RwStencilCheckField(l->st, fi, -PETSC_MAX_REAL, PETSC_MAX_REAL, "The forcing field Fi must be finite everywhere", "Fi"));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &fi));
  PetscCall(L96Forcing(model, m, F, l->fi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96SetDirection(RwModel model, Vec dm)
{
  L96 *l = (L96 *)model->data;

  PetscFunctionBegin;
  PetscCall(L96Forcing(model, dm, RwModelBlockDirection(model, 0)[0], l->dfi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- defaults ----------------------------------------------------------------- */

/* x_i = F + a mix of three modes: off the fixed point x = F, different at every i */
static PetscReal L96DefaultX0(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscReal F = *(PetscReal *)ctx;

  return F + PetscSinReal(0.7 * x[0] + 0.3) + 0.5 * PetscCosReal(1.9 * x[0]) + 0.01 * x[0];
}

static PetscReal L96DefaultTarget(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscReal F = *(PetscReal *)ctx;

  return F + 0.5 * PetscSinReal(0.4 * x[0]);
}

static PetscErrorCode L96Defaults(RwModel model, Vec m, Vec u0, Vec target)
{
  L96 *l = (L96 *)model->data;

  PetscFunctionBegin;
  if (m) {
    Vec fi;

    PetscCall(RwModelGetParameterField(model, m, 0, &fi));
    PetscCall(VecSet(fi, 0));
    PetscCall(RwModelRestoreParameterField(model, m, 0, &fi));
    PetscCall(RwModelSetParameterBlock(model, m, 0, &l->forcing));
  }
  if (u0) PetscCall(RwModelFillField(model, u0, L96DefaultX0, &l->forcing));
  if (target) PetscCall(RwModelFillField(model, target, L96DefaultTarget, &l->forcing));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- set-up, options, the rest of the ops ------------------------------------- */

static PetscErrorCode L96SetFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  L96 *l = (L96 *)model->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Lorenz-96 model options");
  PetscCall(RwOptionsReal("-rw_l96_forcing", "The default forcing F (block F; 8 is chaotic for N = 40)", "RwModelCreate_L96", l->forcing, &l->forcing, NULL, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96SetUp(RwModel model)
{
  L96           *l      = (L96 *)model->data;
  const PetscInt def[3] = {40, 1, 1};

  PetscFunctionBegin;
  PetscCall(RwStencilCreate(model, 1, 1, 2, DMDA_STENCIL_STAR, &l->st));
  PetscCall(RwStencilSetBoundaries(l->st, 0, RW_STENCIL_PERIODIC, 1.0));
  PetscCall(RwStencilSetSpacing(l->st, 0, 0, 1, PETSC_FALSE)); /* point i at coordinate i */
  PetscCall(RwStencilSetUp(l->st, "l96", def, 2));
  PetscCheck(l->st->M[0] >= 4, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Lorenz-96 needs a ring of at least 4 points (-da_grid_x), not %" PetscInt_FMT, l->st->M[0]);
  model->compnames  = L96CompNames;
  model->observed   = 0;
  model->nfields    = 1;
  model->fieldnames = L96FieldNames;
  PetscCall(RwModelAddParameterBlock(model, "F", 1, PETSC_FALSE));
  PetscCall(RwModelCreatePack_Private(model));
  if (!model->dtset) model->dt = 0.01;
  /* everything the time loop touches, allocated once here */
  PetscCall(DMCreateGlobalVector(model->da, &l->fi));
  PetscCall(VecDuplicate(l->fi, &l->dfi));
  PetscCall(VecDuplicate(l->fi, &l->s));
  PetscCall(VecDuplicate(l->fi, &l->ds));
  PetscCall(VecDuplicate(l->fi, &l->gf));
  for (PetscInt j = 1; j < L96_NSTAGE; j++) {
    PetscCall(VecDuplicate(l->fi, &l->y[j]));
    PetscCall(VecDuplicate(l->fi, &l->dy[j]));
  }
  for (PetscInt j = 0; j < 2; j++) PetscCall(VecDuplicate(l->fi, &l->mu[j]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96Identity(RwModel model, char id[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(id, len, "l96 ring, classical RK4"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96View(RwModel model, PetscViewer viewer)
{
  L96 *l = (L96 *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "Lorenz-96: dx_i/dt = (x_i+1 - x_i-2) x_i-1 - x_i + F + F_i on a ring, classical RK4; default F %g\n", (double)l->forcing));
  if (!model->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStencilViewGrid(l->st, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, ", dt %g\n", (double)model->dt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode L96Destroy(RwModel model)
{
  L96 *l = (L96 *)model->data;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&l->fi));
  PetscCall(VecDestroy(&l->dfi));
  PetscCall(VecDestroy(&l->s));
  PetscCall(VecDestroy(&l->ds));
  PetscCall(VecDestroy(&l->gf));
  for (PetscInt j = 0; j < L96_NSTAGE; j++) {
    PetscCall(VecDestroy(&l->y[j]));
    PetscCall(VecDestroy(&l->dy[j]));
  }
  for (PetscInt j = 0; j < 2; j++) PetscCall(VecDestroy(&l->mu[j]));
  PetscCall(RwStencilDestroy(&l->st));
  PetscCall(PetscFree(model->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  l96 - the Lorenz-96 ring, dx_i/dt = (x_i+1 - x_i-2) x_i-1 - x_i + F + F_i,
  stepped by classical RK4; parameters: the block F (one scalar) and the field Fi

  Options Database Keys:
+ -rw_l96_forcing <F> - the default F (default 8)
. -da_grid_x <N>      - points on the ring (default 40)
- -rw_dt <dt>         - time step (default 0.01)

  Level: beginner

.seealso: doc/chaos.md
M*/
PETSC_EXTERN PetscErrorCode RwModelCreate_L96(RwModel model)
{
  L96 *l;

  PetscFunctionBegin;
  PetscCall(PetscNew(&l));
  l->forcing                      = 8;
  model->data                     = l;
  model->ops->setfromoptions      = L96SetFromOptions;
  model->ops->setup               = L96SetUp;
  model->ops->view                = L96View;
  model->ops->destroy             = L96Destroy;
  model->ops->defaults            = L96Defaults;
  model->ops->identity            = L96Identity;
  model->ops->setparameters       = L96SetParameters;
  model->ops->setdirection        = L96SetDirection;
  model->ops->step                = L96Step;
  model->ops->steptangent         = L96StepTangent;
  model->ops->adjointbegin        = L96AdjointBegin;
  model->ops->stepadjoint         = L96StepAdjoint;
  model->ops->adjointend          = L96AdjointEnd;
  model->ops->adjointaccumulators = L96AdjointAccumulators;
  PetscFunctionReturn(PETSC_SUCCESS);
}
