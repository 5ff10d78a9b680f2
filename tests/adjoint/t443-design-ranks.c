/*
  RwDesignMap on any number of ranks (issue 33 item 4): the filter is a fixed
  Chebyshev polynomial applied point by point, so kappa(rho), the map's
  adjoint and dJ/drho through heat are the same bits on all ranks as on one
  rank alone.  Checked on 1 and 3 ranks, walled and periodic 2D grids and a
  1D grid, with and without the projection.
*/
#include "rwtest.h"
#include <petscdmda.h>

static PetscReal Smooth(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscReal *c = (const PetscReal *)ctx;
  PetscReal        v = c[0] + c[1] * PetscSinReal(2 * PETSC_PI * x[0] + c[2]);

  if (dim > 1) v *= 1 + 0.3 * PetscCosReal(3 * PETSC_PI * x[1] + c[2]);
  return v;
}

static const char *grids[] = {"-rw_heat_dim 2 -da_grid_x 21 -da_grid_y 16 -rw_heat_bc dirichlet,neumann -rw_steps 10", "-rw_heat_dim 2 -da_grid_x 17 -da_grid_y 19 -rw_steps 10", "-rw_heat_dim 1 -da_grid_x 40 -rw_heat_bc dirichlet -rw_steps 10"};

#define NMAX 512

/* A field in natural order on every rank */
static void natural(RwModel model, Vec v, PetscReal *out, PetscInt *n)
{
  DM         dm;
  Vec        nat, all;
  VecScatter sc;
  const PetscScalar *a;

  RW_CHECK(RwModelGetFieldDM(model, &dm));
  RW_CHECK(DMDACreateNaturalVector(dm, &nat));
  RW_CHECK(DMDAGlobalToNaturalBegin(dm, v, INSERT_VALUES, nat));
  RW_CHECK(DMDAGlobalToNaturalEnd(dm, v, INSERT_VALUES, nat));
  RW_CHECK(VecScatterCreateToAll(nat, &sc, &all));
  RW_CHECK(VecScatterBegin(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecScatterEnd(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecGetSize(all, n));
  ck_assert(*n <= NMAX);
  RW_CHECK(VecGetArrayRead(all, &a));
  for (PetscInt i = 0; i < *n; i++) out[i] = PetscRealPart(a[i]);
  RW_CHECK(VecRestoreArrayRead(all, &a));
  RW_CHECK(VecScatterDestroy(&sc));
  RW_CHECK(VecDestroy(&all));
  RW_CHECK(VecDestroy(&nat));
}

typedef struct {
  PetscReal kappa[NMAX], grho[NMAX], J;
  PetscInt  n, degree;
} Digest;

/* kappa = map(rho), J and dJ/drho through explicit heat, on comm */
static void digest(MPI_Comm comm, const char *opts, PetscReal beta, Digest *d)
{
  RwModel       model;
  RwTestProblem p;
  RwDesignMap   map;
  Vec           rho, k, gk, grho;
  PetscReal     c0[3] = {0.45, 0.3, 0.7};

  RW_CHECK(rw_test_model_comm(comm, opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwDesignMapCreate(model, &map));
  RW_CHECK(RwDesignMapSetParameters(map, 0.08, 3, 1e-2, 1, beta, 0.5));
  RW_CHECK(RwModelCreateField(model, &rho));
  RW_CHECK(VecDuplicate(rho, &grho));
  RW_CHECK(RwModelFillField(model, rho, Smooth, c0));
  RW_CHECK(RwModelGetParameterField(model, p.m, 0, &k));
  RW_CHECK(RwDesignMapApply(map, rho, k));
  natural(model, k, d->kappa, &d->n);
  RW_CHECK(RwModelRestoreParameterField(model, p.m, 0, &k));
  RW_CHECK(RwDesignMapGetFilterDegree(map, &d->degree));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &d->J, p.g, p.gu0));
  RW_CHECK(RwModelGetParameterField(model, p.g, 0, &gk));
  RW_CHECK(RwDesignMapApplyAdjoint(map, gk, grho));
  RW_CHECK(RwModelRestoreParameterField(model, p.g, 0, &gk));
  natural(model, grho, d->grho, &d->n);
  RW_CHECK(VecDestroy(&rho));
  RW_CHECK(VecDestroy(&grho));
  RW_CHECK(RwDesignMapDestroy(&map));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_same_bits_on_any_rank_count)
{
  const PetscReal betas[2] = {0, 5};
  static Digest   w, s;

  for (int g = 0; g < 3; g++)
    for (int b = 0; b < 2; b++) {
      int samek, sameg;

      digest(PETSC_COMM_WORLD, grids[g], betas[b], &w);
      digest(PETSC_COMM_SELF, grids[g], betas[b], &s);
      samek = w.n == s.n && !memcmp(w.kappa, s.kappa, w.n * sizeof(PetscReal));
      sameg = w.n == s.n && !memcmp(w.grho, s.grho, w.n * sizeof(PetscReal));
      if (!rw_test_rank()) printf("# %s beta %g: degree %d, %d ranks vs 1: J %.17g, dJ/drho_0 %.17g, kappa same bits %d, dJ/drho same bits %d\n", grids[g], betas[b], (int)w.degree, rw_test_size(), w.J, w.grho[0], samek, sameg);
      rw_assert_all(w.degree > 1 && w.degree == s.degree, "%s: filter degree %d on all ranks, %d on one", grids[g], (int)w.degree, (int)s.degree);
      rw_assert_all(samek && sameg && w.J == s.J, "%s beta %g: on %d ranks J %.17g dJ/drho_0 %.17g, on one %.17g %.17g (kappa same %d, gradient same %d)", grids[g], betas[b], rw_test_size(), w.J, w.grho[0], s.J, s.grho[0], samek, sameg);
    }
}
END_TEST

/* The filter solves (I - r^2 lap) rf = rho: the residual of its answer is at the level of its bound */
START_TEST(test_filter_solves_helmholtz)
{
  RwModel     model;
  RwDesignMap map;
  Vec         rho, kappa, rf, rho2;
  PetscReal   c0[3] = {0.45, 0.3, 0.7}, err, nrm;
  const PetscReal r = 0.08;

  /* with p = 1, kmin -> 0, kmax = 1 and no projection kappa is rf; A rf by the filter's own
     stencil (a second map of radius 0 is the identity), compared against rho */
  RW_CHECK(rw_test_model(grids[0], &model));
  RW_CHECK(RwDesignMapCreate(model, &map));
  RW_CHECK(RwDesignMapSetParameters(map, r, 3, 1e-3, 1, 0, 0.5));
  RW_CHECK(RwModelCreateField(model, &rho));
  RW_CHECK(VecDuplicate(rho, &kappa));
  RW_CHECK(VecDuplicate(rho, &rho2));
  RW_CHECK(RwModelFillField(model, rho, Smooth, c0));
  RW_CHECK(RwDesignMapApply(map, rho, kappa));
  RW_CHECK(RwDesignMapGetFiltered(map, &rf, NULL));
  {
    DM                 dm;
    Vec                l;
    PetscInt           xs, xm, ys, ym, M, N;
    PetscReal          hx, hy, x0, x1, y0, y1;
    const PetscScalar **a;
    PetscScalar      **o;

    RW_CHECK(RwModelGetFieldDM(model, &dm));
    RW_CHECK(DMDAGetInfo(dm, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    RW_CHECK(RwModelGetCoordinates(model, 0, 0, &x0));
    RW_CHECK(RwModelGetCoordinates(model, 0, 1, &x1));
    RW_CHECK(RwModelGetCoordinates(model, 1, 0, &y0));
    RW_CHECK(RwModelGetCoordinates(model, 1, 1, &y1));
    hx = r * r / ((x1 - x0) * (x1 - x0)), hy = r * r / ((y1 - y0) * (y1 - y0));
    RW_CHECK(DMGetLocalVector(dm, &l));
    RW_CHECK(DMGlobalToLocal(dm, rf, INSERT_VALUES, l));
    RW_CHECK(DMDAVecGetArrayRead(dm, l, &a));
    RW_CHECK(DMDAVecGetArray(dm, rho2, &o));
    RW_CHECK(DMDAGetCorners(dm, &xs, &ys, NULL, &xm, &ym, NULL));
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscScalar v = a[j][i]; /* zero-flux walls: a missing neighbour is no coupling */
        if (i > 0) v += hx * (a[j][i] - a[j][i - 1]);
        if (i < M - 1) v += hx * (a[j][i] - a[j][i + 1]);
        if (j > 0) v += hy * (a[j][i] - a[j - 1][i]);
        if (j < N - 1) v += hy * (a[j][i] - a[j + 1][i]);
        o[j][i] = v;
      }
    RW_CHECK(DMDAVecRestoreArray(dm, rho2, &o));
    RW_CHECK(DMDAVecRestoreArrayRead(dm, l, &a));
    RW_CHECK(DMRestoreLocalVector(dm, &l));
  }
  RW_CHECK(VecAXPY(rho2, -1, rho));
  RW_CHECK(VecNorm(rho2, NORM_INFINITY, &err));
  RW_CHECK(VecNorm(rho, NORM_INFINITY, &nrm));
  if (!rw_test_rank()) printf("# |A rf - rho| / |rho| = %.3e\n", err / nrm);
  rw_assert_all(err <= 1e-11 * nrm, "the filter's answer leaves a residual %g of %g", err, nrm);
  RW_CHECK(VecDestroy(&rho));
  RW_CHECK(VecDestroy(&rho2));
  RW_CHECK(VecDestroy(&kappa));
  RW_CHECK(RwDesignMapDestroy(&map));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("design-ranks");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_same_bits_on_any_rank_count);
  tcase_add_test(tc, test_filter_solves_helmholtz);
  suite_add_tcase(s, tc);
  return s;
}
