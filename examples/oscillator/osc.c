/*
  "osc": a field of damped oscillators coupled by a fourth-order Laplacian,
  written as a user of rewind writes a model: against the installed headers
  only, delegating the grid, the halo exchange and the field checks to the
  shared grid layer (RwStencil), and loaded as a plugin (-rw_model_plugin
  libosc.so) or compiled into a program.

    dq/dt = p,   dp/dt = c L4 q - w p          on the periodic unit box (1, 2 or 3D)

  State: two components a point, q (observed by objectives) and p.
  Parameters: one field c > 0 and one block "w" of N damping coefficients;
  grid point with natural index I uses w[I mod N], so which point uses which
  coefficient does not depend on the decomposition.

  Space: per direction L4 q = (-q[i-2] + 16 q[i-1] - 30 q[i] + 16 q[i+1] - q[i+2]) / (12 h^2),
  a stencil of width 2.  Time: explicit symplectic Euler,

    forward   p' = p + dt (c L q - w p),            q' = q + dt p'
    tangent   dp' = dp + dt (dc L q + c L dq - dw p - w dp),   dq' = dq + dt dp'
    adjoint   a = lp' + dt lq'   (the adjoint of p' once q' = q + dt p' is reversed)
              lq = lq' + dt L (c a)    (L is symmetric on a periodic grid)
              lp = (1 - dt w) a
              dJ/dc += dt a L q,  dJ/dw[I mod N] -= dt a p

  Every kernel reads its neighbours after an ordinary halo exchange and
  computes only its own point (gather form): the adjoint recomputes a at the
  four neighbours rather than scattering into them, so every point's
  arithmetic, and the gradient, is the same bit for bit on any number of
  ranks.  dJ/dw is accumulated point by point over the steps (a grid vector,
  so a resumed reverse sweep reloads it) and summed exactly, once, at the
  end with RwModelAddScalarGradient().

  Stability: for one Fourier mode with c L = -omega^2 the step's matrix has
  determinant 1 - dt w and trace 2 - dt^2 omega^2 - dt w, so it is stable
  when dt^2 omega^2 + 2 dt w <= 4.  With omega^2 <= max c * (16/3) sum_d 1/h_d^2
  (the Gershgorin bound of -L4) this gives the limit checked at every
  parameter set.
*/
#include <rewind.h>
#include <rewind/private/stencilimpl.h>
#include <float.h>
#include <string.h>

#if defined(__GNUC__)
  #define OSC_INLINE static inline __attribute__((always_inline))
#else
  #define OSC_INLINE static inline
#endif

#define OSC_DOF 2 /* q, p */

static const char *const OscCompNames[]  = {"q", "p"};
static const char *const OscFieldNames[] = {"c"};

typedef struct {
  PetscInt  dim, nw; /* space dimension; damping coefficients in block w */
  RwStencil st;
  PetscReal ih[3];   /* 1 / (12 h_d^2), 0 beyond dim */
  PetscInt *slot;    /* owned point p uses w[slot[p]]: its natural index mod nw */
  Vec       c, dc;   /* c (ghosted: the adjoint reads neighbours) and its direction (owned) */
  Vec       w, dw;   /* w[slot[p]] and its direction at every owned point */
  Vec       gc, gw;  /* adjoint accumulators, per point: dJ/dc and the terms of dJ/dw */
  PetscReal dtlimit;
} Osc;

/* ---- kernels: forward, tangent, adjoint, one row of n points each ---------- */

/* L4 along one direction, unscaled; s is the stride between neighbours */
OSC_INLINE PetscScalar OscL4(const PetscScalar *x, PetscInt s)
{
  return 16 * (x[-s] + x[s]) - (x[-2 * s] + x[2 * s]) - 30 * x[0];
}

/* L q at a point of a state row (x-neighbours OSC_DOF apart); dim is a
   constant at every call site, so unused directions cost nothing */
OSC_INLINE PetscScalar OscLap(const PetscInt dim, const PetscReal *ih, const PetscScalar *x, PetscInt sy, PetscInt sz)
{
  PetscScalar f = ih[0] * OscL4(x, OSC_DOF);

  if (dim > 1) f += ih[1] * OscL4(x, sy);
  if (dim > 2) f += ih[2] * OscL4(x, sz);
  return f;
}

/* c a at the point t neighbours away along a direction whose state stride is
   ls and field stride cs, with a = lp' + dt lq' recomputed there */
OSC_INLINE PetscScalar OscCA(const PetscScalar *l, PetscInt ls, const PetscScalar *c, PetscInt cs, PetscInt t, PetscReal dt)
{
  return c[t * cs] * (l[t * ls + 1] + dt * l[t * ls]);
}

OSC_INLINE PetscScalar OscL4CA(const PetscScalar *l, PetscInt ls, const PetscScalar *c, PetscInt cs, PetscReal dt)
{
  return 16 * (OscCA(l, ls, c, cs, -1, dt) + OscCA(l, ls, c, cs, 1, dt)) - (OscCA(l, ls, c, cs, -2, dt) + OscCA(l, ls, c, cs, 2, dt)) - 30 * OscCA(l, ls, c, cs, 0, dt);
}

/* L (c a) at a point, gathered from its neighbours */
OSC_INLINE PetscScalar OscLapCA(const PetscInt dim, const PetscReal *ih, RwStencilRow L, RwStencilRow C, PetscInt i, PetscReal dt)
{
  const PetscScalar *l = L.p + OSC_DOF * i, *c = C.p + i;
  PetscScalar        f = ih[0] * OscL4CA(l, OSC_DOF, c, 1, dt);

  if (dim > 1) f += ih[1] * OscL4CA(l, L.sy, c, C.sy, dt);
  if (dim > 2) f += ih[2] * OscL4CA(l, L.sz, c, C.sz, dt);
  return f;
}

/* What a row of any form reads and writes */
typedef struct {
  RwStencil          st;
  PetscInt           dim;
  PetscReal          ih[3], dt;
  RwStencilInput     in[2];       /* forward: u; tangent: du, u; adjoint: lambda_k+1, u */
  const PetscScalar *c, *dc, *w, *dw; /* c ghosted, the others owned */
  PetscScalar       *y, *gc, *gw;
  PetscReal          probe;       /* 0, or NaN when a result is not finite */
} OscPass;

OSC_INLINE void OscRowForwardDim(const PetscInt dim, OscPass *P, PetscInt n, RwStencilRow U, const PetscScalar *c, const PetscScalar *w, PetscScalar *y)
{
  const PetscReal dt = P->dt;
  PetscReal       nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar *u  = U.p + OSC_DOF * i;
    const PetscScalar  pn = u[1] + dt * (c[i] * OscLap(dim, P->ih, u, U.sy, U.sz) - w[i] * u[1]);

    y[OSC_DOF * i + 1] = pn;
    y[OSC_DOF * i]     = u[0] + dt * pn;
    nan += y[OSC_DOF * i] * 0 + pn * 0;
  }
  P->probe += nan;
}

OSC_INLINE void OscRowTangentDim(const PetscInt dim, OscPass *P, PetscInt n, RwStencilRow DU, RwStencilRow U, const PetscScalar *c, const PetscScalar *dc, const PetscScalar *w, const PetscScalar *dw, PetscScalar *y)
{
  const PetscReal dt = P->dt;
  PetscReal       nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar *u = U.p + OSC_DOF * i, *du = DU.p + OSC_DOF * i;
    const PetscScalar  dp = du[1] + dt * (dc[i] * OscLap(dim, P->ih, u, U.sy, U.sz) + c[i] * OscLap(dim, P->ih, du, DU.sy, DU.sz) - dw[i] * u[1] - w[i] * du[1]);

    y[OSC_DOF * i + 1] = dp;
    y[OSC_DOF * i]     = du[0] + dt * dp;
    nan += y[OSC_DOF * i] * 0 + dp * 0;
  }
  P->probe += nan;
}

OSC_INLINE void OscRowAdjointDim(const PetscInt dim, OscPass *P, PetscInt n, RwStencilRow L, RwStencilRow U, RwStencilRow C, const PetscScalar *w, PetscScalar *y, PetscScalar *gc, PetscScalar *gw)
{
  const PetscReal dt = P->dt;
  PetscReal       nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar *l = L.p + OSC_DOF * i, *u = U.p + OSC_DOF * i;
    const PetscScalar  a = l[1] + dt * l[0];

    y[OSC_DOF * i]     = l[0] + dt * OscLapCA(dim, P->ih, L, C, i, dt);
    y[OSC_DOF * i + 1] = (1 - dt * w[i]) * a;
    gc[i] += dt * a * OscLap(dim, P->ih, u, U.sy, U.sz);
    gw[i] -= dt * a * u[1];
    nan += y[OSC_DOF * i] * 0 + y[OSC_DOF * i + 1] * 0;
  }
  P->probe += nan;
}

/* The row callbacks of RwStencilRunPass(): pick the rows, dispatch on the dimension */
static void OscForwardRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  OscPass        *P  = (OscPass *)ctx;
  const RwStencil st = P->st;
  RwStencilRow    U  = RwStencilInputRow(st, &P->in[0], OSC_DOF, ghosted, i, j, k);
  const PetscScalar *c = RwStencilRowAt(P->c, &st->ghost, 1, i, j, k).p, *w = RwStencilRowAt(P->w, &st->own, 1, i, j, k).p;
  PetscScalar    *y  = RwStencilOwnedAt(st, OSC_DOF, P->y, i, j, k);

  switch (P->dim) {
  case 1: OscRowForwardDim(1, P, n, U, c, w, y); break;
  case 2: OscRowForwardDim(2, P, n, U, c, w, y); break;
  default: OscRowForwardDim(3, P, n, U, c, w, y); break;
  }
}

static void OscTangentRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  OscPass          *P  = (OscPass *)ctx;
  const RwStencil   st = P->st;
  RwStencilRow      DU = RwStencilInputRow(st, &P->in[0], OSC_DOF, ghosted, i, j, k), U = RwStencilInputRow(st, &P->in[1], OSC_DOF, ghosted, i, j, k);
  const PetscScalar *c = RwStencilRowAt(P->c, &st->ghost, 1, i, j, k).p, *dc = RwStencilRowAt(P->dc, &st->own, 1, i, j, k).p;
  const PetscScalar *w = RwStencilRowAt(P->w, &st->own, 1, i, j, k).p, *dw = RwStencilRowAt(P->dw, &st->own, 1, i, j, k).p;
  PetscScalar      *y  = RwStencilOwnedAt(st, OSC_DOF, P->y, i, j, k);

  switch (P->dim) {
  case 1: OscRowTangentDim(1, P, n, DU, U, c, dc, w, dw, y); break;
  case 2: OscRowTangentDim(2, P, n, DU, U, c, dc, w, dw, y); break;
  default: OscRowTangentDim(3, P, n, DU, U, c, dc, w, dw, y); break;
  }
}

static void OscAdjointRow(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  OscPass          *P  = (OscPass *)ctx;
  const RwStencil   st = P->st;
  RwStencilRow      L = RwStencilInputRow(st, &P->in[0], OSC_DOF, ghosted, i, j, k), U = RwStencilInputRow(st, &P->in[1], OSC_DOF, ghosted, i, j, k);
  RwStencilRow      C = RwStencilRowAt(P->c, &st->ghost, 1, i, j, k);
  const PetscScalar *w = RwStencilRowAt(P->w, &st->own, 1, i, j, k).p;
  PetscScalar      *y = RwStencilOwnedAt(st, OSC_DOF, P->y, i, j, k), *gc = RwStencilOwnedAt(st, 1, P->gc, i, j, k), *gw = RwStencilOwnedAt(st, 1, P->gw, i, j, k);

  switch (P->dim) {
  case 1: OscRowAdjointDim(1, P, n, L, U, C, w, y, gc, gw); break;
  case 2: OscRowAdjointDim(2, P, n, L, U, C, w, y, gc, gw); break;
  default: OscRowAdjointDim(3, P, n, L, U, C, w, y, gc, gw); break;
  }
}

/* ---- steps ------------------------------------------------------------------ */

static OscPass OscPassCreate(RwModel model)
{
  Osc    *osc = (Osc *)model->data;
  OscPass P;

  memset(&P, 0, sizeof(P));
  P.st  = osc->st;
  P.dim = osc->dim;
  P.dt  = model->dt;
  for (PetscInt d = 0; d < 3; d++) P.ih[d] = osc->ih[d];
  return P;
}

static PetscReal OscOwnedPoints(Osc *osc)
{
  return (PetscReal)osc->st->own.n[0] * osc->st->own.n[1] * osc->st->own.n[2];
}

static PetscErrorCode OscStep(RwModel model, PetscInt64 k, Vec u, Vec unew)
{
  Osc    *osc = (Osc *)model->data;
  OscPass P   = OscPassCreate(model);

  PetscFunctionBegin;
  P.in[0].g = u;
  PetscCall(VecGetArrayRead(osc->c, &P.c));
  PetscCall(VecGetArrayRead(osc->w, &P.w));
  PetscCall(VecGetArray(unew, &P.y));
  PetscCall(RwStencilRunPass(osc->st, 1, P.in, OscForwardRow, &P));
  PetscCall(VecRestoreArray(unew, &P.y));
  PetscCall(VecRestoreArrayRead(osc->w, &P.w));
  PetscCall(VecRestoreArrayRead(osc->c, &P.c));
  PetscCall(PetscLogFlops((8.0 * osc->dim + 7) * OscOwnedPoints(osc)));
  RwModelFlagNonFinite(model, 0, k + 1, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OscStepTangent(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec du, Vec dunew)
{
  Osc    *osc = (Osc *)model->data;
  OscPass P   = OscPassCreate(model);

  PetscFunctionBegin;
  P.in[0].g = du;
  P.in[1].g = u;
  PetscCall(VecGetArrayRead(osc->c, &P.c));
  PetscCall(VecGetArrayRead(osc->dc, &P.dc));
  PetscCall(VecGetArrayRead(osc->w, &P.w));
  PetscCall(VecGetArrayRead(osc->dw, &P.dw));
  PetscCall(VecGetArray(dunew, &P.y));
  PetscCall(RwStencilRunPass(osc->st, 2, P.in, OscTangentRow, &P));
  PetscCall(VecRestoreArray(dunew, &P.y));
  PetscCall(VecRestoreArrayRead(osc->dw, &P.dw));
  PetscCall(VecRestoreArrayRead(osc->w, &P.w));
  PetscCall(VecRestoreArrayRead(osc->dc, &P.dc));
  PetscCall(VecRestoreArrayRead(osc->c, &P.c));
  PetscCall(PetscLogFlops((16.0 * osc->dim + 12) * OscOwnedPoints(osc)));
  RwModelFlagNonFinite(model, 0, k + 1, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OscStepAdjoint(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec lnew, Vec l)
{
  Osc    *osc = (Osc *)model->data;
  OscPass P   = OscPassCreate(model);

  PetscFunctionBegin;
  P.in[0].g = lnew;
  P.in[1].g = u;
  PetscCall(VecGetArrayRead(osc->c, &P.c));
  PetscCall(VecGetArrayRead(osc->w, &P.w));
  PetscCall(VecGetArray(l, &P.y));
  PetscCall(VecGetArray(osc->gc, &P.gc));
  PetscCall(VecGetArray(osc->gw, &P.gw));
  PetscCall(RwStencilRunPass(osc->st, 2, P.in, OscAdjointRow, &P));
  PetscCall(VecRestoreArray(osc->gw, &P.gw));
  PetscCall(VecRestoreArray(osc->gc, &P.gc));
  PetscCall(VecRestoreArray(l, &P.y));
  PetscCall(VecRestoreArrayRead(osc->w, &P.w));
  PetscCall(VecRestoreArrayRead(osc->c, &P.c));
  PetscCall(PetscLogFlops((28.0 * osc->dim + 12) * OscOwnedPoints(osc)));
  RwModelFlagNonFinite(model, 1, k, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OscAdjointBegin(RwModel model)
{
  Osc *osc = (Osc *)model->data;

  PetscFunctionBegin;
  PetscCall(VecSet(osc->gc, 0));
  PetscCall(VecSet(osc->gw, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Both live on the field grid: a resumed reverse sweep reloads them */
static PetscErrorCode OscAdjointAccumulators(RwModel model, PetscInt *n, Vec acc[])
{
  Osc *osc = (Osc *)model->data;

  PetscFunctionBegin;
  *n     = 2;
  acc[0] = osc->gc;
  acc[1] = osc->gw;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dJ/dc is copied; each point's dJ/dw terms go, exactly, to its coefficient's
   sum, which the interface reduces once after this */
static PetscErrorCode OscAdjointEnd(RwModel model, Vec g)
{
  Osc               *osc = (Osc *)model->data;
  Vec                f;
  const PetscScalar *gw;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, g, 0, &f));
  PetscCall(VecCopy(osc->gc, f));
  PetscCall(RwModelRestoreParameterField(model, g, 0, &f));
  PetscCall(VecGetLocalSize(osc->gw, &n));
  PetscCall(VecGetArrayRead(osc->gw, &gw));
  for (PetscInt p = 0; p < n; p++) PetscCall(RwModelAddScalarGradient(model, 0, osc->slot[p], PetscRealPart(gw[p])));
  PetscCall(VecRestoreArrayRead(osc->gw, &gw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- parameters ------------------------------------------------------------- */

/* f at owned point p = values[slot[p]]: a block spread over the grid */
static PetscErrorCode OscSpreadBlock(Osc *osc, const PetscReal values[], Vec f)
{
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(VecGetArray(f, &a));
  for (PetscInt p = 0; p < n; p++) a[p] = values[osc->slot[p]];
  PetscCall(VecRestoreArray(f, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The largest stable dt for c <= cmax, 0 <= w <= wmax (see the top of the file) */
static PetscReal OscStabilityLimit(Osc *osc, PetscReal cmax, PetscReal wmax)
{
  PetscReal rho = 0; /* bound of the spectral radius of -L4 */

  for (PetscInt d = 0; d < osc->dim; d++) rho += 64 * osc->ih[d];
  return (-wmax + PetscSqrtReal(wmax * wmax + 4 * cmax * rho)) / (cmax * rho);
}

/* Every w finite and >= 0 (damping); the message names the first bad one */
static PetscErrorCode OscCheckDamping(RwModel model, const PetscReal w[], PetscInt n, PetscReal *wmax)
{
  PetscFunctionBegin;
  *wmax = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(w[i] >= 0 && !PetscIsInfOrNanReal(w[i]), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "The damping coefficients w (parameter block \"w\", -osc_block_size %" PetscInt_FMT ") must be finite and >= 0; w[%" PetscInt_FMT "] = %g", n, i, (double)w[i]);
    *wmax = PetscMax(*wmax, w[i]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OscSetParameters(RwModel model, Vec m)
{
  Osc      *osc = (Osc *)model->data;
  Vec       c;
  PetscReal cmax, wmax;

  PetscFunctionBegin;
  PetscCall(OscCheckDamping(model, RwModelBlockValues(model, 0), osc->nw, &wmax));
  PetscCall(RwModelGetParameterField(model, m, 0, &c));
  PetscCall(RwStencilCheckField(osc->st, c, DBL_MIN, PETSC_INFINITY, "The coupling c must be positive and finite everywhere", "c"));
  PetscCall(VecMax(c, NULL, &cmax));
  PetscCall(RwStencilGlobalToLocal(osc->st, c, osc->c, PETSC_FALSE));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &c));
  PetscCall(OscSpreadBlock(osc, RwModelBlockValues(model, 0), osc->w));
  osc->dtlimit = OscStabilityLimit(osc, cmax, wmax);
  PetscCheck(model->dt <= osc->dtlimit * (1 + 1e-12), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Time step -rw_dt %g is above the stability limit %.6e of the oscillator's symplectic Euler step for these parameters (max c %g, max w %g): use -rw_dt %.6e or smaller", (double)model->dt, (double)osc->dtlimit, (double)cmax, (double)wmax, (double)osc->dtlimit);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OscSetDirection(RwModel model, Vec dm)
{
  Osc *osc = (Osc *)model->data;
  Vec  dc;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, dm, 0, &dc));
  PetscCall(VecCopy(dc, osc->dc));
  PetscCall(RwModelRestoreParameterField(model, dm, 0, &dc));
  PetscCall(OscSpreadBlock(osc, RwModelBlockDirection(model, 0), osc->dw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- defaults ----------------------------------------------------------------- */

static PetscReal OscDefaultC(PetscInt dim, const PetscReal x[], void *ctx)
{
  PetscReal v = PetscSinReal(2 * PETSC_PI * x[0]);

  if (dim > 1) v *= PetscCosReal(2 * PETSC_PI * x[1]);
  return 1 + 0.5 * v;
}

static PetscReal OscGaussian(PetscInt dim, const PetscReal x[], PetscReal centre, PetscReal sigma)
{
  PetscReal r2 = 0;

  for (PetscInt d = 0; d < dim; d++) r2 += (x[d] - centre) * (x[d] - centre);
  return PetscExpReal(-r2 / (2 * sigma * sigma));
}

static PetscReal OscDefaultQ0(PetscInt dim, const PetscReal x[], void *ctx)
{
  return OscGaussian(dim, x, 0.5, 0.1);
}

static PetscReal OscDefaultTarget(PetscInt dim, const PetscReal x[], void *ctx)
{
  return 0.8 * OscGaussian(dim, x, 0.45, 0.12);
}

/* w_j = 0.2 (1 + j/N): distinct coefficients, so a wrong index shows in the tests */
static PetscReal OscDefaultW(PetscInt j, PetscInt n)
{
  return 0.2 * (1 + (PetscReal)j / n);
}

/* c, w, u0 = (Gaussian, 0) and a target for q; any may be NULL */
static PetscErrorCode OscDefaults(RwModel model, Vec m, Vec u0, Vec target)
{
  Osc *osc = (Osc *)model->data;

  PetscFunctionBegin;
  if (m) {
    Vec        c;
    PetscReal *w;

    PetscCall(RwModelGetParameterField(model, m, 0, &c));
    PetscCall(RwModelFillField(model, c, OscDefaultC, NULL));
    PetscCall(RwModelRestoreParameterField(model, m, 0, &c));
    PetscCall(PetscMalloc1(osc->nw, &w));
    for (PetscInt j = 0; j < osc->nw; j++) w[j] = OscDefaultW(j, osc->nw);
    PetscCall(RwModelSetParameterBlock(model, m, 0, w));
    PetscCall(PetscFree(w));
  }
  if (u0) {
    Vec q;

    PetscCall(RwModelCreateField(model, &q));
    PetscCall(RwModelFillField(model, q, OscDefaultQ0, NULL));
    PetscCall(VecSet(u0, 0));
    PetscCall(VecStrideScatter(q, 0, u0, INSERT_VALUES));
    PetscCall(VecDestroy(&q));
  }
  if (target) PetscCall(RwModelFillField(model, target, OscDefaultTarget, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- set-up, options, the rest of the ops ------------------------------------- */

static PetscErrorCode OscSetFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  Osc *osc = (Osc *)model->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Oscillator model options");
  /* rewind's checked readers: 64-bit and range-checked, so 4294967298 is refused, not read as 2 */
  PetscCall(RwOptionsInt("-osc_dim", "Space dimension: 1, 2 or 3", "RwModelCreate_Osc", osc->dim, &osc->dim, NULL, 1, 3));
  PetscCall(RwOptionsInt("-osc_block_size", "Damping coefficients N in block w: point I uses w[I mod N]", "RwModelCreate_Osc", osc->nw, &osc->nw, NULL, 1, PETSC_MAX_INT));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* slot[p] = natural index of owned point p mod N, in the owned (i fastest) order */
static PetscErrorCode OscCreateSlots(Osc *osc)
{
  const RwStencil st = osc->st;
  PetscInt        p  = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(st->own.n[0] * st->own.n[1] * st->own.n[2], &osc->slot));
  for (PetscInt k = st->own.s[2]; k < st->own.s[2] + st->own.n[2]; k++)
    for (PetscInt j = st->own.s[1]; j < st->own.s[1] + st->own.n[1]; j++)
      for (PetscInt i = st->own.s[0]; i < st->own.s[0] + st->own.n[0]; i++) osc->slot[p++] = (PetscInt)((i + (PetscInt64)st->M[0] * (j + (PetscInt64)st->M[1] * k)) % osc->nw);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dt = 0.8 of the limit for the default c and w */
static PetscErrorCode OscDefaultTimeStep(RwModel model)
{
  Osc      *osc = (Osc *)model->data;
  Vec       c;
  PetscReal cmax;

  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(model->fda, &c)); /* in set-up: RwModelCreateField() is not ready yet */
  PetscCall(RwModelFillField(model, c, OscDefaultC, NULL));
  PetscCall(VecMax(c, NULL, &cmax));
  PetscCall(DMRestoreGlobalVector(model->fda, &c));
  model->dt = 0.8 * OscStabilityLimit(osc, cmax, OscDefaultW(osc->nw - 1, osc->nw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OscSetUp(RwModel model)
{
  Osc           *osc = (Osc *)model->data;
  const PetscInt def[3] = {osc->dim == 1 ? 128 : osc->dim == 2 ? 48 : 16, osc->dim == 2 ? 48 : 16, 16};

  PetscFunctionBegin;
  PetscCall(RwStencilCreate(model, osc->dim, OSC_DOF, 2, DMDA_STENCIL_STAR, &osc->st));
  for (PetscInt d = 0; d < 3; d++) {
    PetscCall(RwStencilSetBoundaries(osc->st, d, RW_STENCIL_PERIODIC, 1.0));
    PetscCall(RwStencilSetGeometry(osc->st, d, 0, 1, PETSC_FALSE));
  }
  PetscCall(RwStencilSetUp(osc->st, "osc", def, 2));
  for (PetscInt d = 0; d < 3; d++) osc->ih[d] = d < osc->dim ? 1.0 / (12 * osc->st->h[d] * osc->st->h[d]) : 0;
  model->compnames  = OscCompNames;
  model->observed   = 0;
  model->nfields    = 1;
  model->fieldnames = OscFieldNames;
  PetscCall(RwModelAddParameterBlock(model, "w", osc->nw, PETSC_FALSE));
  PetscCall(RwModelCreatePack_Private(model));
  PetscCall(OscCreateSlots(osc));
  if (!model->dtset) PetscCall(OscDefaultTimeStep(model));
  /* everything the time loop touches, allocated once here */
  PetscCall(DMCreateLocalVector(model->fda, &osc->c));
  PetscCall(DMCreateGlobalVector(model->fda, &osc->dc));
  PetscCall(VecDuplicate(osc->dc, &osc->w));
  PetscCall(VecDuplicate(osc->dc, &osc->dw));
  PetscCall(VecDuplicate(osc->dc, &osc->gc));
  PetscCall(VecDuplicate(osc->dc, &osc->gw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Beyond the grid, dt and the steps (which the driver adds): what changes the states */
static PetscErrorCode OscIdentity(RwModel model, char id[], size_t len)
{
  Osc *osc = (Osc *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(id, len, "osc %" PetscInt_FMT "D periodic, L4, symplectic Euler, w block %" PetscInt_FMT, osc->dim, osc->nw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OscView(RwModel model, PetscViewer viewer)
{
  Osc *osc = (Osc *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "dq/dt = p, dp/dt = c L4 q - w p on the periodic unit box, %" PetscInt_FMT "D; %" PetscInt_FMT " damping coefficients (point I uses w[I mod %" PetscInt_FMT "])\n", osc->dim, osc->nw, osc->nw));
  if (!model->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStencilViewGrid(osc->st, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, ", symplectic Euler\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OscDestroy(RwModel model)
{
  Osc *osc = (Osc *)model->data;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&osc->c));
  PetscCall(VecDestroy(&osc->dc));
  PetscCall(VecDestroy(&osc->w));
  PetscCall(VecDestroy(&osc->dw));
  PetscCall(VecDestroy(&osc->gc));
  PetscCall(VecDestroy(&osc->gw));
  PetscCall(PetscFree(osc->slot));
  PetscCall(RwStencilDestroy(&osc->st));
  PetscCall(PetscFree(model->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  osc - coupled damped oscillators, dq/dt = p, dp/dt = c L4 q - w p, on the
  periodic unit box; parameters: the field c (> 0) and the block w

  Options Database Keys:
+ -osc_dim <1,2,3>         - space dimension (default 1)
. -osc_block_size <N>      - damping coefficients; point I uses w[I mod N] (default 4)
. -da_grid_x, -da_grid_y   - grid points per direction (default 128 in 1D, 48 x 48 in 2D)
- -rw_dt <dt>              - time step (default 0.8 of the stability limit for the default c and w)

  Level: beginner
M*/
PETSC_EXTERN PetscErrorCode RwModelCreate_Osc(RwModel model)
{
  Osc *osc;

  PetscFunctionBegin;
  PetscCall(PetscNew(&osc));
  osc->dim                        = 1;
  osc->nw                         = 4;
  model->data                     = osc;
  model->ops->setfromoptions      = OscSetFromOptions;
  model->ops->setup               = OscSetUp;
  model->ops->view                = OscView;
  model->ops->destroy             = OscDestroy;
  model->ops->defaults            = OscDefaults;
  model->ops->identity            = OscIdentity;
  model->ops->setparameters       = OscSetParameters;
  model->ops->setdirection        = OscSetDirection;
  model->ops->step                = OscStep;
  model->ops->steptangent         = OscStepTangent;
  model->ops->adjointbegin        = OscAdjointBegin;
  model->ops->stepadjoint         = OscStepAdjoint;
  model->ops->adjointend          = OscAdjointEnd;
  model->ops->adjointaccumulators = OscAdjointAccumulators;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called by RwModelLoadPlugin() (-rw_model_plugin libosc.so) */
PETSC_EXTERN PetscErrorCode RwModelPluginRegister(void)
{
  PetscFunctionBegin;
  PetscCall(RwModelRegister("osc", RwModelCreate_Osc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
