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
  (d rho-bar = A^-T (projection' SIMP' kappa-bar), the filter's adjoint its
  transpose solve).  The filter's solve is a KSP (CG with Jacobi by default,
  rtol 1e-12; -design_ksp_type, -design_ksp_rtol, ...): results are the same to its tolerance on any rank count.
*/
#include <rewind/private/modelimpl.h>
#include <rewind/design.h>

struct _n_RwDesignMap {
  RwModel   model;
  PetscReal radius, p, kmin, kmax, beta, eta;
  PetscBool setup;
  Mat       A;
  KSP       ksp;
  Vec       rf, rp, w; /* the last forward's filtered and projected densities; work */
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

/* A = I - r^2 lap on the field grid: no coupling across a wall (zero flux), wrapped where periodic */
static PetscErrorCode DesignMapAssemble(RwDesignMap map)
{
  DM              dm;
  DMBoundaryType  bt[3];
  PetscInt        dim, M[3], s[3], n[3];
  PetscReal       ih2[3] = {0, 0, 0};

  PetscFunctionBegin;
  PetscCall(RwModelGetFieldDM(map->model, &dm));
  PetscCall(DMDAGetInfo(dm, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, &bt[0], &bt[1], &bt[2], NULL));
  for (PetscInt d = 0; d < dim; d++) {
    PetscReal x0, x1;

    PetscCall(RwModelGetCoordinates(map->model, d, 0, &x0));
    PetscCall(RwModelGetCoordinates(map->model, d, 1, &x1));
    ih2[d] = map->radius * map->radius / ((x1 - x0) * (x1 - x0));
  }
  PetscCall(DMCreateMatrix(dm, &map->A));
  PetscCall(DMDAGetCorners(dm, &s[0], &s[1], &s[2], &n[0], &n[1], &n[2]));
  for (PetscInt k = s[2]; k < s[2] + n[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + n[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + n[0]; i++) {
        const PetscInt idx[3] = {i, j, k};
        MatStencil     row = {.i = i, .j = j, .k = k}, col[7];
        PetscScalar    val[7], diag = 1;
        PetscInt       nc = 0;

        for (PetscInt d = 0; d < dim; d++)
          for (PetscInt side = -1; side <= 1; side += 2) {
            PetscInt nb = idx[d] + side, c[3] = {i, j, k};

            if (bt[d] != DM_BOUNDARY_PERIODIC && (nb < 0 || nb >= M[d])) continue;
            c[d]      = nb;
            col[nc].i = c[0], col[nc].j = c[1], col[nc].k = c[2], col[nc].c = 0;
            val[nc++] = -ih2[d];
            diag += ih2[d];
          }
        col[nc].i = i, col[nc].j = j, col[nc].k = k, col[nc].c = 0;
        val[nc++] = diag;
        PetscCall(MatSetValuesStencil(map->A, 1, &row, nc, col, val, ADD_VALUES));
      }
  PetscCall(MatAssemblyBegin(map->A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(map->A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwDesignMapSetUp - assembles the filter and its solver

  Collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapSetUp(RwDesignMap map)
{
  const char *prefix;
  char        pre[256];
  PC          pc;

  PetscFunctionBegin;
  if (map->setup) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DesignMapCheck(map));
  PetscCall(DesignMapAssemble(map));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)map->model), &map->ksp));
  PetscCall(RwModelGetOptionsPrefix(map->model, &prefix));
  PetscCall(PetscSNPrintf(pre, sizeof(pre), "%sdesign_", prefix ? prefix : ""));
  PetscCall(KSPSetOptionsPrefix(map->ksp, pre));
  PetscCall(KSPSetOperators(map->ksp, map->A, map->A));
  PetscCall(KSPSetType(map->ksp, KSPCG));
  PetscCall(KSPGetPC(map->ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(map->ksp, 1e-12, 1e-50, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetFromOptions(map->ksp));
  PetscCall(RwModelCreateField(map->model, &map->rf));
  PetscCall(VecDuplicate(map->rf, &map->rp));
  PetscCall(VecDuplicate(map->rf, &map->w));
  map->setup = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = A^-1 b (or A^-T b), stopping on a solve that did not converge */
static PetscErrorCode DesignFilterSolve(RwDesignMap map, Vec b, Vec x, PetscBool transpose)
{
  KSPConvergedReason reason;

  PetscFunctionBegin;
  if (map->radius == 0) {
    PetscCall(VecCopy(b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (transpose) PetscCall(KSPSolveTranspose(map->ksp, b, x));
  else PetscCall(KSPSolve(map->ksp, b, x));
  PetscCall(KSPGetConvergedReason(map->ksp, &reason));
  PetscCheck(reason > 0, PetscObjectComm((PetscObject)map->model), PETSC_ERR_NOT_CONVERGED, "The design filter's solve did not converge (%s): see -design_ksp_type, -design_ksp_rtol", KSPConvergedReasons[reason]);
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
  PetscCall(DesignFilterSolve(map, rho, map->rf, PETSC_FALSE));
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
  PetscCall(DesignFilterSolve(map, drho, map->w, PETSC_FALSE));
  PetscCall(DesignPointwiseDerivative(map, map->w, dkappa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- adjoint: grho = A^-T P' S' gkappa --------------------------------------- */
/*@
  RwDesignMapApplyAdjoint - dJ/drho from dJ/dkappa, at the last RwDesignMapApply()'s rho:
  the filter's adjoint is its transpose solve

  Collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapApplyAdjoint(RwDesignMap map, Vec gkappa, Vec grho)
{
  PetscFunctionBegin;
  PetscCheck(map->setup, PetscObjectComm((PetscObject)map->model), PETSC_ERR_ORDER, "Call RwDesignMapApply() first");
  PetscCall(DesignPointwiseDerivative(map, gkappa, map->w));
  PetscCall(DesignFilterSolve(map, map->w, grho, PETSC_TRUE));
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
  RwDesignMapDestroy - frees the map; NULL-safe

  Collective

  Level: intermediate
@*/
PetscErrorCode RwDesignMapDestroy(RwDesignMap *map)
{
  PetscFunctionBegin;
  if (!*map) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDestroy(&(*map)->A));
  PetscCall(KSPDestroy(&(*map)->ksp));
  PetscCall(VecDestroy(&(*map)->rf));
  PetscCall(VecDestroy(&(*map)->rp));
  PetscCall(VecDestroy(&(*map)->w));
  PetscCall(RwModelDestroy(&(*map)->model));
  PetscCall(PetscFree(*map));
  PetscFunctionReturn(PETSC_SUCCESS);
}
