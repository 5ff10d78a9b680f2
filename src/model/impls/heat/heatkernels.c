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
  with I - theta dt B (heatstep.c).  Every pass adds y*0 into a probe: NaN if
  any result is NaN or Inf, a check that costs no memory traffic.
*/
#include "heatimpl.h"

/* div(kappa grad x) at one point; dim is a constant at every call site, so
   the compiler drops the unused directions */
static inline PetscScalar HeatDiv(const PetscInt dim, const PetscReal *ih2, const PetscScalar *x, PetscInt xy, PetscInt xz, const PetscScalar *k, PetscInt ky, PetscInt kz)
{
  const PetscScalar x0 = x[0], k0 = k[0];
  PetscScalar       f;

  f = ih2[0] * (0.5 * (k0 + k[1]) * (x[1] - x0) - 0.5 * (k0 + k[-1]) * (x0 - x[-1]));
  if (dim > 1) f += ih2[1] * (0.5 * (k0 + k[ky]) * (x[xy] - x0) - 0.5 * (k0 + k[-ky]) * (x0 - x[-xy]));
  if (dim > 2) f += ih2[2] * (0.5 * (k0 + k[kz]) * (x[xz] - x0) - 0.5 * (k0 + k[-kz]) * (x0 - x[-xz]));
  return f;
}

/* d/dkappa_i of <mu, div(kappa grad u)>, gathered at point i from its faces */
static inline PetscScalar HeatGradKappa(const PetscInt dim, const PetscReal *ih2, const PetscScalar *u, PetscInt uy, PetscInt uz, const PetscScalar *m, PetscInt my, PetscInt mz)
{
  const PetscScalar u0 = u[0], m0 = m[0];
  PetscScalar       g;

  g = ih2[0] * ((u[1] - u0) * (m[1] - m0) + (u0 - u[-1]) * (m0 - m[-1]));
  if (dim > 1) g += ih2[1] * ((u[uy] - u0) * (m[my] - m0) + (u0 - u[-uy]) * (m0 - m[-my]));
  if (dim > 2) g += ih2[2] * ((u[uz] - u0) * (m[mz] - m0) + (u0 - u[-uz]) * (m0 - m[-mz]));
  return -0.5 * g;
}

/* ---- forward: y = x + c B x + cs s ----------------------------------------- */
static inline void HeatRowForwardDim(const PetscInt dim, const RwHeatPass *P, PetscInt n, RwHeatRow X, RwHeatRow K, const PetscScalar *s, PetscScalar *y, PetscReal *probe)
{
  PetscReal nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar *x = X.p + i;
    PetscScalar        v = x[0] + P->c * (HeatDiv(dim, P->ih2, x, X.sy, X.sz, K.p + i, K.sy, K.sz) - P->r * x[0]);
    if (s) v += P->cs * s[i];
    y[i] = v;
    nan += v * 0;
  }
  *probe += nan;
}

void RwHeatRowForward(const RwHeatPass *P, PetscInt n, RwHeatRow X, RwHeatRow K, const PetscScalar *s, PetscScalar *y, PetscReal *probe)
{
  switch (P->dim) {
  case 1: HeatRowForwardDim(1, P, n, X, K, s, y, probe); break;
  case 2: HeatRowForwardDim(2, P, n, X, K, s, y, probe); break;
  default: HeatRowForwardDim(3, P, n, X, K, s, y, probe); break;
  }
}

/* ---- tangent: y = dx + c B dx + ca dB(u_a) + cb dB(u_b) + cs ds ----------- */
static inline void HeatRowTangentDim(const PetscInt dim, const RwHeatPass *P, PetscInt n, RwHeatRow DX, RwHeatRow K, RwHeatRow DK, RwHeatRow UA, RwHeatRow UB, const PetscScalar *ds, PetscScalar *y, PetscReal *probe)
{
  PetscReal nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar *dx = DX.p + i, *ua = UA.p + i;
    PetscScalar        v  = dx[0] + P->c * (HeatDiv(dim, P->ih2, dx, DX.sy, DX.sz, K.p + i, K.sy, K.sz) - P->r * dx[0]);
    PetscScalar        da = -P->dr * ua[0];

    if (P->usek) da += HeatDiv(dim, P->ih2, ua, UA.sy, UA.sz, DK.p + i, DK.sy, DK.sz);
    v += P->ca * da;
    if (P->useb) {
      const PetscScalar *ub = UB.p + i;
      PetscScalar        db = -P->dr * ub[0];
      if (P->usek) db += HeatDiv(dim, P->ih2, ub, UB.sy, UB.sz, DK.p + i, DK.sy, DK.sz);
      v += P->cb * db;
    }
    if (ds) v += P->cs * ds[i];
    y[i] = v;
    nan += v * 0;
  }
  *probe += nan;
}

void RwHeatRowTangent(const RwHeatPass *P, PetscInt n, RwHeatRow DX, RwHeatRow K, RwHeatRow DK, RwHeatRow UA, RwHeatRow UB, const PetscScalar *ds, PetscScalar *y, PetscReal *probe)
{
  switch (P->dim) {
  case 1: HeatRowTangentDim(1, P, n, DX, K, DK, UA, UB, ds, y, probe); break;
  case 2: HeatRowTangentDim(2, P, n, DX, K, DK, UA, UB, ds, y, probe); break;
  default: HeatRowTangentDim(3, P, n, DX, K, DK, UA, UB, ds, y, probe); break;
  }
}

/* ---- adjoint: y = mu + c B mu; parameter gradients gathered at each point -- */
static inline void HeatRowAdjointDim(const PetscInt dim, const RwHeatPass *P, PetscInt n, RwHeatRow MU, RwHeatRow K, RwHeatRow UA, RwHeatRow UB, PetscScalar *y, PetscScalar *gk, PetscScalar *gs, PetscScalar *gr, PetscReal *probe)
{
  PetscReal nan = 0;

  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar *mu = MU.p + i, *ua = UA.p + i;
    const PetscScalar  m0 = mu[0];
    PetscScalar        v  = m0 + P->c * (HeatDiv(dim, P->ih2, mu, MU.sy, MU.sz, K.p + i, K.sy, K.sz) - P->r * m0);
    PetscScalar        g  = P->ca * HeatGradKappa(dim, P->ih2, ua, UA.sy, UA.sz, mu, MU.sy, MU.sz);
    PetscScalar        u  = P->ca * ua[0];

    if (P->useb) {
      const PetscScalar *ub = UB.p + i;
      g += P->cb * HeatGradKappa(dim, P->ih2, ub, UB.sy, UB.sz, mu, MU.sy, MU.sz);
      u += P->cb * ub[0];
    }
    y[i] = v;
    gk[i] += g;
    gr[i] -= u * m0;
    gs[i] += P->cs * m0;
    nan += v * 0;
  }
  *probe += nan;
}

void RwHeatRowAdjoint(const RwHeatPass *P, PetscInt n, RwHeatRow MU, RwHeatRow K, RwHeatRow UA, RwHeatRow UB, PetscScalar *y, PetscScalar *gk, PetscScalar *gs, PetscScalar *gr, PetscReal *probe)
{
  switch (P->dim) {
  case 1: HeatRowAdjointDim(1, P, n, MU, K, UA, UB, y, gk, gs, gr, probe); break;
  case 2: HeatRowAdjointDim(2, P, n, MU, K, UA, UB, y, gk, gs, gr, probe); break;
  default: HeatRowAdjointDim(3, P, n, MU, K, UA, UB, y, gk, gs, gr, probe); break;
  }
}
