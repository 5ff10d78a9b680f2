/*
  Heat kernels: the forward, tangent and adjoint forms of one theta-scheme pass,
  side by side.  Each works on one row of grid points and reads every
  neighbour it needs from arrays whose halos are already exchanged, so every
  point computes its own result (gather form): the arithmetic at a point is
  the same whatever the decomposition, and so are the results, bit for bit.

  With B x = div(kappa grad x) - r x, written in flux form with face
  conductivities (kappa_i + kappa_i+1)/2, one pass computes

    forward  y = x + c B x + cs s
    tangent  y = dx + c B dx + ca dB(u_a) + cb dB(u_b) + cs ds,
             dB(u) = div(dkappa grad u) - dr u
    adjoint  y = mu + c B mu              (B is symmetric)
             g_kappa += ca G(u_a, mu) + cb G(u_b, mu)
             g_r     -= (ca u_a + cb u_b) mu
             g_s     += cs mu
             G(u, mu) = -1/2 sum over faces (u_+ - u_0)(mu_+ - mu_0) / h^2

  Explicit Euler is c = ca = cs = dt.  The implicit theta-scheme uses the
  same passes for its right-hand sides (c = (1-theta) dt) around a KSP solve
  with I - theta dt B (heatstep.c).  Every pass flags a result that is NaN or
  Inf in a probe (RW_PROBE_BAD()), a check that costs no memory traffic.
*/
#include "heatimpl.h"

/* The kernels below are specialised by constant arguments (dimension, which
   terms take part): they must be inlined where those constants are known,
   and into every instruction set's variant of a row (RW_KERNEL_VARIANTS),
   so each variant is vectorised for its own width */
#define RW_INLINE RW_KERNEL_INLINE

/* div(kappa grad x) at one point; dim is a constant at every call site, so
   the compiler drops the unused directions */
RW_INLINE PetscScalar HeatDiv(const PetscInt dim, const PetscReal *ih2, const PetscScalar *x, PetscInt xy, PetscInt xz, const PetscScalar *k, PetscInt ky, PetscInt kz)
{
  const PetscScalar x0 = x[0], k0 = k[0];
  PetscScalar       f;

  f = ih2[0] * (0.5 * (k0 + k[1]) * (x[1] - x0) - 0.5 * (k0 + k[-1]) * (x0 - x[-1]));
  if (dim > 1) f += ih2[1] * (0.5 * (k0 + k[ky]) * (x[xy] - x0) - 0.5 * (k0 + k[-ky]) * (x0 - x[-xy]));
  if (dim > 2) f += ih2[2] * (0.5 * (k0 + k[kz]) * (x[xz] - x0) - 0.5 * (k0 + k[-kz]) * (x0 - x[-xz]));
  return f;
}

/* d/dkappa_i of <mu, div(kappa grad u)>, gathered at point i from its faces */
RW_INLINE PetscScalar HeatGradKappa(const PetscInt dim, const PetscReal *ih2, const PetscScalar *u, PetscInt uy, PetscInt uz, const PetscScalar *m, PetscInt my, PetscInt mz)
{
  const PetscScalar u0 = u[0], m0 = m[0];
  PetscScalar       g;

  g = ih2[0] * ((u[1] - u0) * (m[1] - m0) + (u0 - u[-1]) * (m0 - m[-1]));
  if (dim > 1) g += ih2[1] * ((u[uy] - u0) * (m[my] - m0) + (u0 - u[-uy]) * (m0 - m[-my]));
  if (dim > 2) g += ih2[2] * ((u[uz] - u0) * (m[mz] - m0) + (u0 - u[-uz]) * (m0 - m[-mz]));
  return -0.5 * g;
}

/* ---- forward: y = x + c B x + cs s ----------------------------------------- */
/* The forward at point i of a row; returns the NaN probe's flag */
RW_INLINE int HeatForwardAt(const PetscInt dim, const PetscReal *ih2, PetscReal c, PetscReal r, PetscReal cs, const PetscScalar *restrict x, RwStencilRow X, const PetscScalar *restrict k, RwStencilRow K, const PetscScalar *restrict s, PetscScalar *restrict y, PetscInt i)
{
  y[i] = x[i] + c * (HeatDiv(dim, ih2, x + i, X.sy, X.sz, k + i, K.sy, K.sz) - r * x[i]) + cs * s[i];
  return RW_PROBE_BAD(y[i]);
}

/* In 2D and 3D the forward's and adjoint's rows run in prefetched blocks
   (kernelisaimpl.h), the gathered arrays prefetched in the newest row
   (plane) the stencil reaches.  Explicit, 2 ranks, rewind-bench kernels,
   Mpt/s, two runs of each build alternated, before / after: forward 2048^2
   992, 1055 / 1196, 1235, 4096^2 1009, 1057 / 1170, 1156, 256^3 556, 565 /
   591, 580; adjoint (with the forward's blocks before) 2048^2 550, 659 /
   692, 773, 256^3 276, 271 / 350, 307.  The coefficients are copied to
   locals and the arrays marked restrict: read through the pass, they could
   alias the outputs, and the compiler would reload them at every point and
   leave the loop scalar */
RW_INLINE void HeatRowForwardDim(const PetscInt dim, const RwHeatPass *P, PetscInt n, RwStencilRow X, RwStencilRow K, const PetscScalar *s, PetscScalar *y, PetscReal *probe)
{
  const PetscReal    ih2[3] = {P->ih2[0], P->ih2[1], P->ih2[2]}, c = P->c, r = P->r, cs = P->cs;
  const PetscScalar *restrict x = X.p, *restrict k = K.p, *restrict sp = s;
  PetscScalar       *restrict yp = y;
  int                bad       = 0;
  PetscInt           i         = 0;

  for (; dim > 1 && i + RW_PREFETCH_BLOCK <= n; i += RW_PREFETCH_BLOCK) {
    const PetscInt f = i + RW_PREFETCH_AHEAD;

    RwPrefetchRead(x + f + RwStencilRowLastStride(dim, X), 1);
    RwPrefetchRead(k + f + RwStencilRowLastStride(dim, K), 1);
    RwPrefetchRead(sp + f, 1);
    RwPrefetchWrite(yp + f, 1);
#pragma GCC ivdep
#pragma GCC unroll 1
    for (PetscInt t = i; t < i + RW_PREFETCH_BLOCK; t++) bad |= HeatForwardAt(dim, ih2, c, r, cs, x, X, k, K, sp, yp, t);
  }
#pragma GCC ivdep
  for (; i < n; i++) bad |= HeatForwardAt(dim, ih2, c, r, cs, x, X, k, K, sp, yp, i);
  *probe += RwProbeValue(bad);
}

RW_INLINE void HeatForwardBody(const RwHeatPass *P, PetscInt n, RwStencilRow X, RwStencilRow K, const PetscScalar *s, PetscScalar *y, PetscReal *probe)
{
  switch (P->dim) {
  case 1: HeatRowForwardDim(1, P, n, X, K, s, y, probe); break;
  case 2: HeatRowForwardDim(2, P, n, X, K, s, y, probe); break;
  default: HeatRowForwardDim(3, P, n, X, K, s, y, probe); break;
  }
}

/* ---- tangent: y = dx + c B dx + ca dB(u_a) + cb dB(u_b) + cs ds ----------- */
/* usek (a kappa direction) and useb (a second state, implicit schemes) are
   constants at each call site, like dim: every case compiles to a loop with
   no branch in it, which the compiler vectorises */
RW_INLINE void HeatRowTangentCase(const PetscInt dim, const PetscBool usek, const PetscBool useb, const RwHeatPass *P, PetscInt n, RwStencilRow DX, RwStencilRow K, RwStencilRow DK, RwStencilRow UA, RwStencilRow UB, const PetscScalar *ds, PetscScalar *y, PetscReal *probe)
{
  const PetscReal    ih2[3] = {P->ih2[0], P->ih2[1], P->ih2[2]}, c = P->c, r = P->r, ca = P->ca, cb = P->cb, cs = P->cs, dr = P->dr;
  const PetscScalar *restrict dx = DX.p, *restrict k = K.p, *restrict dk = DK.p, *restrict ua = UA.p, *restrict ub = UB.p, *restrict dsp = ds;
  PetscScalar       *restrict yp = y;
  int                bad       = 0;

#pragma GCC ivdep
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar v  = dx[i] + c * (HeatDiv(dim, ih2, dx + i, DX.sy, DX.sz, k + i, K.sy, K.sz) - r * dx[i]);
    PetscScalar da = -dr * ua[i];

    if (usek) da += HeatDiv(dim, ih2, ua + i, UA.sy, UA.sz, dk + i, DK.sy, DK.sz);
    v += ca * da;
    if (useb) {
      PetscScalar db = -dr * ub[i];
      if (usek) db += HeatDiv(dim, ih2, ub + i, UB.sy, UB.sz, dk + i, DK.sy, DK.sz);
      v += cb * db;
    }
    v += cs * dsp[i];
    yp[i] = v;
    bad |= RW_PROBE_BAD(v);
  }
  *probe += RwProbeValue(bad);
}

RW_INLINE void HeatRowTangentDim(const PetscInt dim, const RwHeatPass *P, PetscInt n, RwStencilRow DX, RwStencilRow K, RwStencilRow DK, RwStencilRow UA, RwStencilRow UB, const PetscScalar *ds, PetscScalar *y, PetscReal *probe)
{
  if (P->usek && P->useb) HeatRowTangentCase(dim, PETSC_TRUE, PETSC_TRUE, P, n, DX, K, DK, UA, UB, ds, y, probe);
  else if (P->usek) HeatRowTangentCase(dim, PETSC_TRUE, PETSC_FALSE, P, n, DX, K, DK, UA, UB, ds, y, probe);
  else if (P->useb) HeatRowTangentCase(dim, PETSC_FALSE, PETSC_TRUE, P, n, DX, K, DK, UA, UB, ds, y, probe);
  else HeatRowTangentCase(dim, PETSC_FALSE, PETSC_FALSE, P, n, DX, K, DK, UA, UB, ds, y, probe);
}

RW_INLINE void HeatTangentBody(const RwHeatPass *P, PetscInt n, RwStencilRow DX, RwStencilRow K, RwStencilRow DK, RwStencilRow UA, RwStencilRow UB, const PetscScalar *ds, PetscScalar *y, PetscReal *probe)
{
  switch (P->dim) {
  case 1: HeatRowTangentDim(1, P, n, DX, K, DK, UA, UB, ds, y, probe); break;
  case 2: HeatRowTangentDim(2, P, n, DX, K, DK, UA, UB, ds, y, probe); break;
  default: HeatRowTangentDim(3, P, n, DX, K, DK, UA, UB, ds, y, probe); break;
  }
}

/* ---- adjoint: y = mu + c B mu; parameter gradients gathered at each point -- */
/* The adjoint at point i of a row; returns the NaN probe's flag */
RW_INLINE int HeatAdjointAt(const PetscInt dim, const PetscBool useb, const PetscBool full, const PetscReal *ih2, PetscReal c, PetscReal r, PetscReal ca, PetscReal cb, PetscReal cs, const PetscScalar *restrict mu, RwStencilRow MU, const PetscScalar *restrict k, RwStencilRow K, const PetscScalar *restrict ua, RwStencilRow UA, const PetscScalar *restrict ub, RwStencilRow UB, PetscScalar *restrict yp, PetscScalar *restrict gkp, PetscScalar *restrict gsp, PetscScalar *restrict grp, PetscInt i)
{
  const PetscScalar m0 = mu[i];
  PetscScalar       v  = m0 + c * (HeatDiv(dim, ih2, mu + i, MU.sy, MU.sz, k + i, K.sy, K.sz) - r * m0);
  PetscScalar       g  = ca * HeatGradKappa(dim, ih2, ua + i, UA.sy, UA.sz, mu + i, MU.sy, MU.sz);
  PetscScalar       u  = full ? ca * ua[i] : 0;

  if (useb) {
    g += cb * HeatGradKappa(dim, ih2, ub + i, UB.sy, UB.sz, mu + i, MU.sy, MU.sz);
    if (full) u += cb * ub[i];
  }
  yp[i] = v;
  gkp[i] += g;
  if (full) { /* kappa alone active (-rw_adjoint_active kappa): s and r's accumulators are neither read nor written */
    grp[i] -= u * m0;
    gsp[i] += cs * m0;
  }
  return RW_PROBE_BAD(v);
}

RW_INLINE void HeatRowAdjointCase(const PetscInt dim, const PetscBool useb, const PetscBool full, const RwHeatPass *P, PetscInt n, RwStencilRow MU, RwStencilRow K, RwStencilRow UA, RwStencilRow UB, PetscScalar *y, PetscScalar *gk, PetscScalar *gs, PetscScalar *gr, PetscReal *probe)
{
  const PetscReal    ih2[3] = {P->ih2[0], P->ih2[1], P->ih2[2]}, c = P->c, r = P->r, ca = P->ca, cb = P->cb, cs = P->cs;
  const PetscScalar *restrict mu = MU.p, *restrict k = K.p, *restrict ua = UA.p, *restrict ub = UB.p;
  PetscScalar       *restrict yp = y, *restrict gkp = gk, *restrict gsp = gs, *restrict grp = gr;
  int                bad       = 0;
  PetscInt           i         = 0;

  for (; dim > 1 && i + RW_PREFETCH_BLOCK <= n; i += RW_PREFETCH_BLOCK) {
    const PetscInt f = i + RW_PREFETCH_AHEAD;

    RwPrefetchRead(mu + f + RwStencilRowLastStride(dim, MU), 1);
    RwPrefetchRead(k + f + RwStencilRowLastStride(dim, K), 1);
    RwPrefetchRead(ua + f + RwStencilRowLastStride(dim, UA), 1);
    if (useb) RwPrefetchRead(ub + f + RwStencilRowLastStride(dim, UB), 1);
    RwPrefetchWrite(yp + f, 1);
    RwPrefetchWrite(gkp + f, 1);
    if (full) {
      RwPrefetchWrite(grp + f, 1);
      RwPrefetchWrite(gsp + f, 1);
    }
#pragma GCC ivdep
#pragma GCC unroll 1
    for (PetscInt t = i; t < i + RW_PREFETCH_BLOCK; t++) bad |= HeatAdjointAt(dim, useb, full, ih2, c, r, ca, cb, cs, mu, MU, k, K, ua, UA, ub, UB, yp, gkp, gsp, grp, t);
  }
#pragma GCC ivdep
  for (; i < n; i++) bad |= HeatAdjointAt(dim, useb, full, ih2, c, r, ca, cb, cs, mu, MU, k, K, ua, UA, ub, UB, yp, gkp, gsp, grp, i);
  *probe += RwProbeValue(bad);
}

RW_INLINE void HeatRowAdjointDim(const PetscInt dim, const RwHeatPass *P, PetscInt n, RwStencilRow MU, RwStencilRow K, RwStencilRow UA, RwStencilRow UB, PetscScalar *y, PetscScalar *gk, PetscScalar *gs, PetscScalar *gr, PetscReal *probe)
{
  if (P->kappaonly) {
    if (P->useb) HeatRowAdjointCase(dim, PETSC_TRUE, PETSC_FALSE, P, n, MU, K, UA, UB, y, gk, gs, gr, probe);
    else HeatRowAdjointCase(dim, PETSC_FALSE, PETSC_FALSE, P, n, MU, K, UA, UB, y, gk, gs, gr, probe);
  } else if (P->useb) HeatRowAdjointCase(dim, PETSC_TRUE, PETSC_TRUE, P, n, MU, K, UA, UB, y, gk, gs, gr, probe);
  else HeatRowAdjointCase(dim, PETSC_FALSE, PETSC_TRUE, P, n, MU, K, UA, UB, y, gk, gs, gr, probe);
}

RW_INLINE void HeatAdjointBody(const RwHeatPass *P, PetscInt n, RwStencilRow MU, RwStencilRow K, RwStencilRow UA, RwStencilRow UB, PetscScalar *y, PetscScalar *gk, PetscScalar *gs, PetscScalar *gr, PetscReal *probe)
{
  switch (P->dim) {
  case 1: HeatRowAdjointDim(1, P, n, MU, K, UA, UB, y, gk, gs, gr, probe); break;
  case 2: HeatRowAdjointDim(2, P, n, MU, K, UA, UB, y, gk, gs, gr, probe); break;
  default: HeatRowAdjointDim(3, P, n, MU, K, UA, UB, y, gk, gs, gr, probe); break;
  }
}

/* ---- the rows, in the instruction set of the pass (P->isa) ---------------- */
RW_KERNEL_VARIANTS(HeatForward, (const RwHeatPass *P, PetscInt n, RwStencilRow X, RwStencilRow K, const PetscScalar *s, PetscScalar *y, PetscReal *probe), (P, n, X, K, s, y, probe));
RW_KERNEL_VARIANTS(HeatTangent, (const RwHeatPass *P, PetscInt n, RwStencilRow DX, RwStencilRow K, RwStencilRow DK, RwStencilRow UA, RwStencilRow UB, const PetscScalar *ds, PetscScalar *y, PetscReal *probe), (P, n, DX, K, DK, UA, UB, ds, y, probe));
RW_KERNEL_VARIANTS(HeatAdjoint, (const RwHeatPass *P, PetscInt n, RwStencilRow MU, RwStencilRow K, RwStencilRow UA, RwStencilRow UB, PetscScalar *y, PetscScalar *gk, PetscScalar *gs, PetscScalar *gr, PetscReal *probe), (P, n, MU, K, UA, UB, y, gk, gs, gr, probe));

void RwHeatRowForward(const RwHeatPass *P, PetscInt n, RwStencilRow X, RwStencilRow K, const PetscScalar *s, PetscScalar *y, PetscReal *probe)
{
  HeatForwardVariants[P->isa](P, n, X, K, s, y, probe);
}

void RwHeatRowTangent(const RwHeatPass *P, PetscInt n, RwStencilRow DX, RwStencilRow K, RwStencilRow DK, RwStencilRow UA, RwStencilRow UB, const PetscScalar *ds, PetscScalar *y, PetscReal *probe)
{
  HeatTangentVariants[P->isa](P, n, DX, K, DK, UA, UB, ds, y, probe);
}

void RwHeatRowAdjoint(const RwHeatPass *P, PetscInt n, RwStencilRow MU, RwStencilRow K, RwStencilRow UA, RwStencilRow UB, PetscScalar *y, PetscScalar *gk, PetscScalar *gs, PetscScalar *gr, PetscReal *probe)
{
  HeatAdjointVariants[P->isa](P, n, MU, K, UA, UB, y, gk, gs, gr, probe);
}

/* ---- the learned reaction: + dt N_theta(u_k), explicit in every scheme ------
   forward  y += dt N(u)
   tangent  y += dt (N_u(u) du + N_theta(u) dtheta)
   adjoint  not by rows: over fixed tiles of the grid (heatnn.c), so the
            weight gradient is the same on any number of ranks
   The network runs over the whole row (RwNN's kernels are vectorised over
   points); u is the row of u_k, pointwise, so no neighbour is read. */
void RwHeatRowNNForward(RwHeatNNRow *c, PetscInt n, const PetscScalar *u, PetscScalar *y, PetscReal *probe)
{
  int bad = 0;

  RwNNForward(c->nn, c->theta, n, u, n, c->row, n);
  for (PetscInt i = 0; i < n; i++) {
    y[i] += c->dt * c->row[i];
    bad |= RW_PROBE_BAD(y[i]);
  }
  *probe += RwProbeValue(bad);
}

void RwHeatRowNNTangent(RwHeatNNRow *c, PetscInt n, const PetscScalar *u, const PetscScalar *du, PetscScalar *y, PetscReal *probe)
{
  int bad = 0;

  RwNNTangent(c->nn, c->theta, c->dtheta, n, u, du, n, NULL, c->row, n);
  for (PetscInt i = 0; i < n; i++) {
    y[i] += c->dt * c->row[i];
    bad |= RW_PROBE_BAD(y[i]);
  }
  *probe += RwProbeValue(bad);
}
