/*
  RwDesignMap: a density design rho (one value a grid point, in [0, 1]) to a
  conductivity field, as topology optimisation does it:
    filter      rf = A^-1 rho, A = I - r^2 lap (a PDE (Helmholtz) filter with
                zero-flux walls, periodic where the grid is; rows of A sum to 1,
                so it keeps constants and, A being symmetric, the total of rho)
    projection  rp = (tanh(beta eta) + tanh(beta (rf - eta))) / (tanh(beta eta) + tanh(beta (1 - eta)))
                (a smoothed Heaviside; beta = 0: none, rp = rf)
    SIMP        kappa = kmin + rp^p (kmax - kmin)
  Three forms side by side: forward, tangent (d kappa for d rho) and adjoint
  (d rho-bar = A^-1 (projection' SIMP' kappa-bar), the filter being symmetric).
  The filter's A^-1 is a fixed linear operator: a Jacobi-preconditioned Chebyshev
  iteration of a degree fixed by the grid and r (not by a residual), A applied
  matrix-free point by point with the neighbours in a fixed order, no inner
  products.  So every point's arithmetic is the same on any decomposition (the map
  and its gradient are the same bits on any rank count), and the operator,
  p(D^-1 A) D^-1, is symmetric: its adjoint is itself.  A CG solve (KSP) agrees
  across rank counts only to its tolerance.
*/
#include <rewind/private/modelimpl.h>
#include <rewind/design.h>

struct _n_RwDesignMap {
  RwModel   model;
  PetscReal radius, p, kmin, kmax, beta, eta;
  PetscBool setup;
  /* the filter (DesignFilterSetUp) */
  DM             dm;
  PetscInt       dim, M[3], degree;
  DMBoundaryType bt[3];
  PetscReal      ih2[3], lmin, lmax;
  Vec            ld, cr, cd, dinv; /* Chebyshev's ghosted direction, residual, direction; D^-1 */
  Vec            rf, rp, w;        /* the last forward's filtered and projected densities; work */
};

/*@
  RwDesignMapCreate - the density-to-conductivity map of a design on a set-up model's field grid

  Collective

  Level: intermediate

.seealso: RwDesignMapApply(), RwDesignMapDestroy()
@*/
PetscErrorCode RwDesignMapCreate(RwModel model, RwDesignMap *map)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCall(PetscNew(map));
  (*map)->model  = model;
  (*map)->radius = 0.04;
  (*map)->p      = 3;
  (*map)->kmin   = 1e-3;
  (*map)->kmax   = 1;
  (*map)->beta   = 0;
  (*map)->eta    = 0.5;
  PetscCall(PetscObjectReference((PetscObject)model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The checks every setter and the options share */
static PetscErrorCode DesignMapCheck(RwDesignMap map)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)map->model);

  PetscFunctionBegin;
  PetscCheck(map->radius >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_design_filter_radius %g must be >= 0", (double)map->radius);
  PetscCheck(map->p >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_design_simp_p %g must be >= 1", (double)map->p);
  PetscCheck(map->kmin > 0 && map->kmin < map->kmax, comm, PETSC_ERR_ARG_OUTOFRANGE, "Need 0 < -rw_design_kmin (%g) < -rw_design_kmax (%g)", (double)map->kmin, (double)map->kmax);
  PetscCheck(map->beta >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_design_projection_beta %g must be >= 0 (0: no projection)", (double)map->beta);
  PetscCheck(map->eta > 0 && map->eta < 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_design_projection_eta %g must be in (0, 1)", (double)map->eta);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapSetParameters - filter radius r, SIMP exponent p, conductivity bounds, projection (beta 0: none)

  Logically collective; before RwDesignMapSetUp()

  Level: intermediate
@*/
PetscErrorCode RwDesignMapSetParameters(RwDesignMap map, PetscReal radius, PetscReal p, PetscReal kmin, PetscReal kmax, PetscReal beta, PetscReal eta)
{
  PetscFunctionBegin;
  PetscCheck(!map->setup, PetscObjectComm((PetscObject)map->model), PETSC_ERR_ORDER, "Set the design map's parameters before RwDesignMapSetUp()");
  map->radius = radius, map->p = p, map->kmin = kmin, map->kmax = kmax, map->beta = beta, map->eta = eta;
  PetscCall(DesignMapCheck(map));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapSetFromOptions - the map's parameters from the options database

  Collective

  Options Database Keys:
+ -rw_design_filter_radius <r>     - the Helmholtz filter's radius (0: no filter)
. -rw_design_simp_p <p>            - the SIMP exponent (3)
. -rw_design_kmin, -rw_design_kmax - the conductivities of void and material (1e-3, 1)
. -rw_design_projection_beta <b>   - the projection's sharpness (0: none)
- -rw_design_projection_eta <eta>  - its threshold (0.5)

  Level: intermediate
@*/
PetscErrorCode RwDesignMapSetFromOptions(RwDesignMap map)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(RwModelGetOptionsPrefix(map->model, &prefix));
  PetscOptionsBegin(PetscObjectComm((PetscObject)map->model), prefix, "Design map (density to conductivity)", "RwDesignMap");
  PetscCall(RwOptionsReal("-rw_design_filter_radius", "Helmholtz filter radius r: (I - r^2 lap) rf = rho; 0: no filter", "RwDesignMapSetParameters", map->radius, &map->radius, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_design_simp_p", "SIMP exponent p: kappa = kmin + rp^p (kmax - kmin)", "RwDesignMapSetParameters", map->p, &map->p, NULL, 1, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_design_kmin", "Conductivity of void (rho = 0)", "RwDesignMapSetParameters", map->kmin, &map->kmin, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_design_kmax", "Conductivity of material (rho = 1)", "RwDesignMapSetParameters", map->kmax, &map->kmax, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_design_projection_beta", "Smoothed Heaviside projection's sharpness beta; 0: none", "RwDesignMapSetParameters", map->beta, &map->beta, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_design_projection_eta", "Projection threshold eta", "RwDesignMapSetParameters", map->eta, &map->eta, NULL, 0, 1, RW_RANGE_OPEN));
  PetscOptionsEnd();
  PetscCall(DesignMapCheck(map));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Visits this rank's points of the field grid: local index g, ghosted index l, and which
   of the 2 dim neighbours exist (a wall has none beyond it; a periodic edge wraps) */
#define DESIGN_FOR_POINTS(map, ...) \
  do { \
    PetscInt s_[3], n_[3], gs_[3], gn_[3], st_[3], g = 0; \
    PetscCall(DMDAGetCorners((map)->dm, &s_[0], &s_[1], &s_[2], &n_[0], &n_[1], &n_[2])); \
    PetscCall(DMDAGetGhostCorners((map)->dm, &gs_[0], &gs_[1], &gs_[2], &gn_[0], &gn_[1], &gn_[2])); \
    st_[0] = 1, st_[1] = gn_[0], st_[2] = gn_[0] * gn_[1]; \
    for (PetscInt k_ = s_[2]; k_ < s_[2] + n_[2]; k_++) \
      for (PetscInt j_ = s_[1]; j_ < s_[1] + n_[1]; j_++) \
        for (PetscInt i_ = s_[0]; i_ < s_[0] + n_[0]; i_++, g++) { \
          const PetscInt idx_[3] = {i_, j_, k_}, l = ((k_ - gs_[2]) * gn_[1] + (j_ - gs_[1])) * gn_[0] + (i_ - gs_[0]); \
          PetscInt       nb[6], nnb = 0; \
          PetscReal      cnb[6]; \
          for (PetscInt d_ = 0; d_ < (map)->dim; d_++) \
            for (PetscInt side_ = -1; side_ <= 1; side_ += 2) { \
              if ((map)->bt[d_] != DM_BOUNDARY_PERIODIC && (idx_[d_] + side_ < 0 || idx_[d_] + side_ >= (map)->M[d_])) continue; \
              nb[nnb] = l + side_ * st_[d_], cnb[nnb++] = (map)->ih2[d_]; \
            } \
          (void)l, (void)nb, (void)g; \
          __VA_ARGS__ \
        } \
  } while (0)

/* D^-1, the inverse of A's diagonal 1 + sum of the neighbours' r^2/h^2 */
static PetscErrorCode DesignFilterDiagonal(RwDesignMap map)
{
  PetscScalar *dv;

  PetscFunctionBegin;
  PetscCall(VecGetArray(map->dinv, &dv));
  DESIGN_FOR_POINTS(map, {
    PetscReal diag = 1;

    for (PetscInt q = 0; q < nnb; q++) diag += cnb[q];
    dv[g] = 1 / diag;
  });
  PetscCall(VecRestoreArray(map->dinv, &dv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The filter's stencil: r^2/h_d^2 per direction, which directions wrap, the grid's size,
   the Jacobi-preconditioned operator's eigenvalue bounds and the Chebyshev degree that
   reaches RW_DESIGN_FILTER_TOL from them.  D^-1 A's eigenvalues lie in
   [1/(1+c), 2 - 1/(1+c)], c = 2 sum_d r^2/h_d^2 (Gershgorin; A >= I); the degree
   bounds the error by 2 q^m, q = (sqrt(k) - 1)/(sqrt(k) + 1), k = lmax/lmin. */
#define RW_DESIGN_FILTER_TOL 1e-14

static PetscErrorCode DesignFilterSetUp(RwDesignMap map)
{
  PetscInt  sw;
  PetscReal c = 0, k, q;

  PetscFunctionBegin;
  PetscCall(RwModelGetFieldDM(map->model, &map->dm));
  PetscCall(DMDAGetInfo(map->dm, &map->dim, &map->M[0], &map->M[1], &map->M[2], NULL, NULL, NULL, NULL, &sw, &map->bt[0], &map->bt[1], &map->bt[2], NULL));
  PetscCheck(sw >= 1, PetscObjectComm((PetscObject)map->model), PETSC_ERR_ARG_WRONG, "The design filter needs a field grid with ghost points (stencil width %" PetscInt_FMT ")", sw);
  for (PetscInt d = 0; d < 3; d++) map->ih2[d] = 0;
  for (PetscInt d = 0; d < map->dim; d++) {
    PetscReal x0, x1;

    PetscCall(RwModelGetCoordinates(map->model, d, 0, &x0));
    PetscCall(RwModelGetCoordinates(map->model, d, 1, &x1));
    map->ih2[d] = map->radius * map->radius / ((x1 - x0) * (x1 - x0));
    c += 2 * map->ih2[d];
  }
  map->lmin   = 1 / (1 + c);
  map->lmax   = 2 - map->lmin;
  k           = map->lmax / map->lmin;
  q           = (PetscSqrtReal(k) - 1) / (PetscSqrtReal(k) + 1);
  map->degree = q > 0 ? (PetscInt)PetscCeilReal(PetscLogReal(RW_DESIGN_FILTER_TOL / 2) / PetscLogReal(q)) : 1;
  PetscCall(DMCreateLocalVector(map->dm, &map->ld));
  PetscCall(RwModelCreateField(map->model, &map->cr));
  PetscCall(VecDuplicate(map->cr, &map->cd));
  PetscCall(VecDuplicate(map->cr, &map->dinv));
  PetscCall(DesignFilterDiagonal(map));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r -= A d, A = I - r^2 lap applied point by point from d's ghosted copy: each point adds its
   neighbours in the same order on every decomposition */
static PetscErrorCode DesignFilterResidual(RwDesignMap map, Vec d, Vec r)
{
  const PetscScalar *ld;
  PetscScalar       *rv;

  PetscFunctionBegin;
  PetscCall(DMGlobalToLocalBegin(map->dm, d, INSERT_VALUES, map->ld));
  PetscCall(DMGlobalToLocalEnd(map->dm, d, INSERT_VALUES, map->ld));
  PetscCall(VecGetArrayRead(map->ld, &ld));
  PetscCall(VecGetArray(r, &rv));
  DESIGN_FOR_POINTS(map, {
    PetscReal diag = 1, ad;

    for (PetscInt q = 0; q < nnb; q++) diag += cnb[q];
    ad = diag * PetscRealPart(ld[l]);
    for (PetscInt q = 0; q < nnb; q++) ad -= cnb[q] * PetscRealPart(ld[nb[q]]);
    rv[g] -= ad;
  });
  PetscCall(VecRestoreArray(r, &rv));
  PetscCall(VecRestoreArrayRead(map->ld, &ld));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = p(D^-1 A) D^-1 b, Chebyshev's iteration of fixed degree from x = 0 (Saad, Iterative
   Methods, algorithm 12.1, Jacobi-preconditioned); the same operator both ways, as it is
   symmetric. Pointwise updates are written out so that no library kernel's rounding
   (a BLAS axpy's fused or unrolled paths) can depend on a rank's length. */
static PetscErrorCode DesignFilterSolve(RwDesignMap map, Vec b, Vec x)
{
  const PetscReal theta = (map->lmax + map->lmin) / 2, delta = (map->lmax - map->lmin) / 2, sigma = theta / delta;
  PetscReal       rho   = 1 / sigma;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCheck(b != x, PetscObjectComm((PetscObject)map->model), PETSC_ERR_ARG_IDN, "The design filter's input and output must differ");
  if (map->radius == 0) {
    PetscCall(VecCopy(b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetLocalSize(b, &n));
  PetscCall(VecCopy(b, map->cr));
  PetscCall(VecSet(x, 0));
  for (PetscInt it = 0; it < map->degree; it++) {
    const PetscScalar *dv;
    PetscScalar       *xv, *rv, *cd;
    PetscReal          rnew = it ? 1 / (2 * sigma - rho) : 0;

    if (it) PetscCall(DesignFilterResidual(map, map->cd, map->cr));
    PetscCall(VecGetArrayRead(map->dinv, &dv));
    PetscCall(VecGetArray(map->cr, &rv));
    PetscCall(VecGetArray(map->cd, &cd));
    PetscCall(VecGetArray(x, &xv));
    for (PetscInt i = 0; i < n; i++) {
      cd[i] = it ? rnew * rho * cd[i] + (2 * rnew / delta) * (dv[i] * rv[i]) : dv[i] * rv[i] / theta;
      xv[i] += cd[i];
    }
    PetscCall(VecRestoreArray(x, &xv));
    PetscCall(VecRestoreArray(map->cd, &cd));
    PetscCall(VecRestoreArray(map->cr, &rv));
    PetscCall(VecRestoreArrayRead(map->dinv, &dv));
    if (it) rho = rnew;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapSetUp - the filter's stencil and Chebyshev degree, and the work vectors

  Collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapSetUp(RwDesignMap map)
{
  PetscFunctionBegin;
  if (map->setup) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DesignMapCheck(map));
  PetscCall(RwModelCreateField(map->model, &map->rf));
  PetscCall(VecDuplicate(map->rf, &map->rp));
  PetscCall(VecDuplicate(map->rf, &map->w));
  PetscCall(DesignFilterSetUp(map));
  map->setup = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapGetFilterDegree - the degree of the filter's Chebyshev polynomial (0 without a filter)

  Not collective; after RwDesignMapSetUp()

  Level: advanced
@*/
PetscErrorCode RwDesignMapGetFilterDegree(RwDesignMap map, PetscInt *degree)
{
  PetscFunctionBegin;
  PetscCheck(map->setup, PetscObjectComm((PetscObject)map->model), PETSC_ERR_ORDER, "Call RwDesignMapSetUp() first");
  *degree = map->radius == 0 ? 0 : map->degree;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The projection and its derivative at x */
static PetscReal Project(const RwDesignMap map, PetscReal x, PetscReal *dp)
{
  PetscReal te, den, t;

  if (map->beta == 0) {
    *dp = 1;
    return x;
  }
  te  = PetscTanhReal(map->beta * map->eta);
  den = te + PetscTanhReal(map->beta * (1 - map->eta));
  t   = PetscTanhReal(map->beta * (x - map->eta));
  *dp = map->beta * (1 - t * t) / den;
  return (te + t) / den;
}

/* ---- forward: kappa = kmin + P(A^-1 rho)^p (kmax - kmin) --------------------- */
/*@
  RwDesignMapApply - kappa of the density rho (both fields of the model); keeps the
  filtered and projected densities for the tangent and adjoint at this rho

  Collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapApply(RwDesignMap map, Vec rho, Vec kappa)
{
  const PetscScalar *f;
  PetscScalar       *p, *k;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(RwDesignMapSetUp(map));
  PetscCall(DesignFilterSolve(map, rho, map->rf));
  PetscCall(VecGetLocalSize(rho, &n));
  PetscCall(VecGetArrayRead(map->rf, &f));
  PetscCall(VecGetArray(map->rp, &p));
  PetscCall(VecGetArray(kappa, &k));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal dp, x = Project(map, PetscRealPart(f[i]), &dp);

    p[i] = x;
    k[i] = map->kmin + PetscPowReal(PetscMax(x, 0), map->p) * (map->kmax - map->kmin);
  }
  PetscCall(VecRestoreArray(kappa, &k));
  PetscCall(VecRestoreArray(map->rp, &p));
  PetscCall(VecRestoreArrayRead(map->rf, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* w = P'(rf) S'(rp) v pointwise: the chain of the two pointwise maps, the same in both directions */
static PetscErrorCode DesignPointwiseDerivative(RwDesignMap map, Vec v, Vec w)
{
  const PetscScalar *f, *p, *a;
  PetscScalar       *b;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArrayRead(map->rf, &f));
  PetscCall(VecGetArrayRead(map->rp, &p));
  PetscCall(VecGetArrayRead(v, &a));
  PetscCall(VecGetArray(w, &b));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal dp, x = PetscMax(PetscRealPart(p[i]), 0);

    (void)Project(map, PetscRealPart(f[i]), &dp);
    b[i] = dp * map->p * PetscPowReal(x, map->p - 1) * (map->kmax - map->kmin) * a[i];
  }
  PetscCall(VecRestoreArray(w, &b));
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscCall(VecRestoreArrayRead(map->rp, &p));
  PetscCall(VecRestoreArrayRead(map->rf, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- tangent: dkappa = S' P' A^-1 drho ------------------------------------ */
/*@
  RwDesignMapApplyTangent - dkappa for a direction drho, at the last RwDesignMapApply()'s rho

  Collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapApplyTangent(RwDesignMap map, Vec drho, Vec dkappa)
{
  PetscFunctionBegin;
  PetscCheck(map->setup, PetscObjectComm((PetscObject)map->model), PETSC_ERR_ORDER, "Call RwDesignMapApply() first");
  PetscCall(DesignFilterSolve(map, drho, map->w));
  PetscCall(DesignPointwiseDerivative(map, map->w, dkappa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- adjoint: grho = A^-T P' S' gkappa --------------------------------------- */
/*@
  RwDesignMapApplyAdjoint - dJ/drho from dJ/dkappa, at the last RwDesignMapApply()'s rho:
  the filter is symmetric: its adjoint is itself

  Collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapApplyAdjoint(RwDesignMap map, Vec gkappa, Vec grho)
{
  PetscFunctionBegin;
  PetscCheck(map->setup, PetscObjectComm((PetscObject)map->model), PETSC_ERR_ORDER, "Call RwDesignMapApply() first");
  PetscCall(DesignPointwiseDerivative(map, gkappa, map->w));
  PetscCall(DesignFilterSolve(map, map->w, grho));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapGetFiltered - the last RwDesignMapApply()'s filtered and projected densities (borrowed)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapGetFiltered(RwDesignMap map, Vec *filtered, Vec *projected)
{
  PetscFunctionBegin;
  if (filtered) *filtered = map->rf;
  if (projected) *projected = map->rp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapSetProjection - the projection's sharpness beta (0: none), at any time: a continuation
  raises it between optimisations; the next RwDesignMapApply() uses it

  Logically collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapSetProjection(RwDesignMap map, PetscReal beta)
{
  PetscFunctionBegin;
  PetscCheck(beta >= 0 && !PetscIsInfOrNanReal(beta), PetscObjectComm((PetscObject)map->model), PETSC_ERR_ARG_OUTOFRANGE, "The projection's sharpness %g must be finite and >= 0 (0: none)", (double)beta);
  map->beta = beta;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapGetParameters - filter radius, SIMP exponent, conductivity bounds, projection sharpness and threshold (each may be NULL)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapGetParameters(RwDesignMap map, PetscReal *radius, PetscReal *p, PetscReal *kmin, PetscReal *kmax, PetscReal *beta, PetscReal *eta)
{
  PetscFunctionBegin;
  if (radius) *radius = map->radius;
  if (p) *p = map->p;
  if (kmin) *kmin = map->kmin;
  if (kmax) *kmax = map->kmax;
  if (beta) *beta = map->beta;
  if (eta) *eta = map->eta;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwDesignMapGetIdentity - the map's parameters as one line (a journal's identity item)

  Not collective

  Level: advanced
@*/
PetscErrorCode RwDesignMapGetIdentity(RwDesignMap map, char id[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(id, len, "radius=%.17g,p=%.17g,kmin=%.17g,kmax=%.17g,beta=%.17g,eta=%.17g", (double)map->radius, (double)map->p, (double)map->kmin, (double)map->kmax, (double)map->beta, (double)map->eta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapDestroy - frees the map; NULL-safe

  Collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapDestroy(RwDesignMap *map)
{
  PetscFunctionBegin;
  if (!*map) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDestroy(&(*map)->ld));
  PetscCall(VecDestroy(&(*map)->cr));
  PetscCall(VecDestroy(&(*map)->cd));
  PetscCall(VecDestroy(&(*map)->dinv));
  PetscCall(VecDestroy(&(*map)->rf));
  PetscCall(VecDestroy(&(*map)->rp));
  PetscCall(VecDestroy(&(*map)->w));
  PetscCall(RwModelDestroy(&(*map)->model));
  PetscCall(PetscFree(*map));
  PetscFunctionReturn(PETSC_SUCCESS);
}
