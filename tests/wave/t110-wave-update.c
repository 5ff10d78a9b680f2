/*
  The wave model's discrete update against an independent implementation
  written here from the formulas (a few points, a few steps, by
  hand): the Laplacian of order 2, 4, 8 with zero outside, the absorbing
  layer's eta, the Ricker wavelet, the bilinear (trilinear) spreading of an
  off-grid source u_k+1[p] += w_p f(t_k) dt^2 / m[p], and the default dt.
  Then bad input: c <= 0 and NaN anywhere, an unstable dt, a source outside
  the grid, a wrong space order, a wavelet of the wrong length; and every
  form's NaN probe, wherever in its rows the NaN falls.
*/
#include "rwtest.h"
#include <petscdmda.h>
#include <math.h>

/* The whole field (natural order) on every rank */
static void gather_natural(RwModel model, Vec g, PetscReal **out, PetscInt *n)
{
  DM                 da;
  Vec                nat, all;
  VecScatter         sc;
  const PetscScalar *a;

  RW_CHECK(VecGetDM(g, &da));
  if (!da) RW_CHECK(RwModelGetStateDM(model, &da));
  RW_CHECK(DMDACreateNaturalVector(da, &nat));
  RW_CHECK(DMDAGlobalToNaturalBegin(da, g, INSERT_VALUES, nat));
  RW_CHECK(DMDAGlobalToNaturalEnd(da, g, INSERT_VALUES, nat));
  RW_CHECK(VecScatterCreateToAll(nat, &sc, &all));
  RW_CHECK(VecScatterBegin(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecScatterEnd(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecGetSize(all, n));
  RW_CHECK(PetscMalloc1(*n, out));
  RW_CHECK(VecGetArrayRead(all, &a));
  for (PetscInt i = 0; i < *n; i++) (*out)[i] = PetscRealPart(a[i]);
  RW_CHECK(VecRestoreArrayRead(all, &a));
  RW_CHECK(VecScatterDestroy(&sc));
  RW_CHECK(VecDestroy(&all));
  RW_CHECK(VecDestroy(&nat));
}

typedef struct {
  int    dim, order, nbl, M[3];
  double h[3], origin[3], f0, t0, dt, src[3];
} Ref;

static double ricker(const Ref *R, double t)
{
  double a = M_PI * R->f0 * (t - R->t0);
  return (1 - 2 * a * a) * exp(-a * a);
}

/* eta at grid point ijk, from the text */
static double ref_eta(const Ref *R, const int ijk[3])
{
  double e = 0, coef = 1.5 * log(1000.0) / R->nbl;
  for (int d = 0; d < R->dim; d++) {
    double pos = -1;
    int    i = ijk[d], N = R->M[d];
    if (i < R->nbl) pos = (double)(R->nbl - i + 1) / R->nbl;
    else if (i >= N - R->nbl) pos = (double)(R->nbl - (N - 1 - i) + 1) / R->nbl;
    if (pos >= 0) e += coef * (pos - sin(2 * M_PI * pos) / (2 * M_PI)) / R->h[d];
  }
  return e;
}

static int ref_index(const Ref *R, const int ijk[3])
{
  return ijk[0] + R->M[0] * (ijk[1] + R->M[1] * ijk[2]);
}

/* One step k of the reference: un from u (u_k) and up (u_k-1), m per point */
static void ref_step(const Ref *R, int k, const double *m, const double *u, const double *up, double *un)
{
  static const double w2[] = {-2, 1}, w4[] = {-5.0 / 2, 4.0 / 3, -1.0 / 12}, w8[] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
  const double       *w = R->order == 2 ? w2 : R->order == 4 ? w4 : w8;
  const int           r = R->order / 2, npts = R->M[0] * R->M[1] * R->M[2];
  double              dt = R->dt;

  for (int p = 0; p < npts; p++) {
    int    ijk[3] = {p % R->M[0], (p / R->M[0]) % R->M[1], p / (R->M[0] * R->M[1])};
    double lap = 0, eta = ref_eta(R, ijk);
    for (int d = 0; d < R->dim; d++)
      for (int j = -r; j <= r; j++) {
        int q[3] = {ijk[0], ijk[1], ijk[2]};
        q[d] += j;
        if (q[d] < 0 || q[d] >= R->M[d]) continue; /* zero outside */
        lap += w[abs(j)] * u[ref_index(R, q)] / (R->h[d] * R->h[d]);
      }
    un[p] = (lap + m[p] / (dt * dt) * (2 * u[p] - up[p]) + eta / dt * u[p]) / (m[p] / (dt * dt) + eta / dt);
  }
  /* the source at physical coordinates: base index floor((x - grid origin)/h) */
  {
    int    base[3] = {0, 0, 0};
    double fr[3]   = {0, 0, 0};
    for (int d = 0; d < R->dim; d++) {
      double t = (R->src[d] - (R->origin[d] - R->nbl * R->h[d])) / R->h[d];
      base[d]  = (int)floor(t);
      fr[d]    = t - base[d];
    }
    for (int c = 0; c < (1 << R->dim); c++) {
      int    q[3] = {0, 0, 0};
      double wt   = 1;
      for (int d = 0; d < R->dim; d++) {
        int b = (c >> d) & 1;
        q[d]  = base[d] + b;
        wt *= b ? fr[d] : 1 - fr[d];
      }
      un[ref_index(R, q)] += wt * ricker(R, k * dt) * dt * dt / m[ref_index(R, q)];
    }
  }
}

static void check_update(const char *opts, Ref R, int nsteps)
{
  char       all[1024];
  RwModel    model;
  Vec        m, u, un, mf;
  PetscReal *mv, *uv, dt, rho = 0, mmin = 1e300;
  PetscInt   n, nm;
  int        npts;
  double    *ru, *rup, *run, err = 0, scale = 0;

  snprintf(all, sizeof(all), "%s -rw_steps %d", opts, nsteps);
  RW_CHECK(rw_test_model_type("wave", all, &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelGetTimeStep(model, &dt));
  RW_CHECK(RwModelGetParameterField(model, m, 0, &mf));
  gather_natural(model, mf, &mv, &nm);
  RW_CHECK(RwModelRestoreParameterField(model, m, 0, &mf));
  npts = R.M[0] * R.M[1] * R.M[2];
  ck_assert_int_eq((int)nm, npts);

  /* the default dt: 0.8 of 2 sqrt(min m / rho), rho = sum_d (sum_j |w_j|) / h_d^2 */
  {
    const double a = R.order == 2 ? 4 : R.order == 4 ? 16.0 / 3 : 205.0 / 72 + 2 * (8.0 / 5 + 1.0 / 5 + 8.0 / 315 + 1.0 / 560);
    for (int d = 0; d < R.dim; d++) rho += a / (R.h[d] * R.h[d]);
    for (int p = 0; p < npts; p++) mmin = PetscMin(mmin, mv[p]);
    rw_assert_all(fabs(dt - 0.8 * 2 * sqrt(mmin / rho)) <= 1e-14 * dt, "%s: default dt %.17g, by hand %.17g", opts, dt, 0.8 * 2 * sqrt(mmin / rho));
  }
  R.dt = dt;
  ru  = calloc(npts, sizeof(double));
  rup = calloc(npts, sizeof(double));
  run = calloc(npts, sizeof(double));
  RW_CHECK(RwModelCreateState(model, &u));
  RW_CHECK(VecDuplicate(u, &un));
  RW_CHECK(VecSet(u, 0));
  RW_CHECK(RwModelSetParameters(model, m));
  for (int k = 0; k < nsteps; k++) {
    RW_CHECK(RwModelStep(model, k, u, un));
    RW_CHECK(VecSwap(u, un));
    ref_step(&R, k, mv, ru, rup, run);
    memcpy(rup, ru, npts * sizeof(double));
    memcpy(ru, run, npts * sizeof(double));
  }
  { /* each component through the layout the model declares (the wave's: planes) */
    Vec f;

    RW_CHECK(RwModelCreateField(model, &f));
    RW_CHECK(RwModelGetStateComponent(model, u, 0, f));
    gather_natural(model, f, &uv, &n);
    ck_assert_int_eq((int)n, npts);
    for (int p = 0; p < npts; p++) {
      err   = fmax(err, fabs(uv[p] - ru[p]));
      scale = fmax(scale, fabs(ru[p]));
    }
    RW_CHECK(PetscFree(uv));
    RW_CHECK(RwModelGetStateComponent(model, u, 1, f));
    gather_natural(model, f, &uv, &n);
    for (int p = 0; p < npts; p++) err = fmax(err, fabs(uv[p] - rup[p]));
    RW_CHECK(VecDestroy(&f));
  }
  if (!rw_test_rank()) printf("# %-90s %d steps: max|u| %.6e, max difference from the by-hand update %.3e (relative %.3e)\n", all, nsteps, scale, err, err / scale);
  rw_assert_all(scale > 0, "%s: the state is zero after %d steps: the source did nothing", opts, nsteps);
  rw_assert_all(err <= 1e-12 * scale, "%s: the model's u_%d differs from the by-hand update by %.3e (max|u| %.3e)", opts, nsteps, err, scale);
  free(ru);
  free(rup);
  free(run);
  RW_CHECK(PetscFree(uv));
  RW_CHECK(PetscFree(mv));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&un));
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
}

/* Rows of 37 (2D) and 21 (3D) points on one rank: the rows' prefetched blocks
   of RW_PREFETCH_BLOCK points and their tails both run, with ordinary
   stores and streamed ones (-rw_kernel_stream_stores 0: these small outputs
   would not be streamed by default) */
static const char *const stream_opts[] = {"-rw_kernel_stream_stores -1", "-rw_kernel_stream_stores 0"};

START_TEST(test_update_2d)
{
  Ref R = {2, 4, 3, {37, 12, 1}, {10, 12, 1}, {100, -50, 0}, 0.03, 1 / 0.03, 0, {131.7, -26.3, 0}};
  for (int o = 0; o < 6; o++) {
    char opts[512];
    R.order = o % 3 == 0 ? 2 : o % 3 == 1 ? 4 : 8;
    snprintf(opts, sizeof(opts), "-rw_wave_dim 2 -rw_wave_space_order %d -rw_wave_nbl 3 -da_grid_x 37 -da_grid_y 12 -rw_wave_spacing 10,12 -rw_wave_origin 100,-50 -rw_wave_f0 0.03 -rw_wave_sources 131.7,-26.3 %s", R.order, stream_opts[o / 3]);
    check_update(opts, R, 6);
  }
}
END_TEST

START_TEST(test_update_3d)
{
  Ref R = {3, 8, 2, {21, 12, 12}, {10, 10, 8}, {0, 0, 0}, 0.04, 20, 0, {41.3, 33.9, 45.5}};
  for (int o = 0; o < 4; o++) {
    char opts[512];
    R.order = o % 2 ? 2 : 8;
    snprintf(opts, sizeof(opts), "-rw_wave_dim 3 -rw_wave_space_order %d -rw_wave_nbl 2 -da_grid_x 21 -da_grid_y 12 -da_grid_z 12 -rw_wave_spacing 10,10,8 -rw_wave_f0 0.04 -rw_wave_t0 20 -rw_wave_sources 41.3,33.9,45.5 %s", R.order, stream_opts[o / 2]);
    check_update(opts, R, 4);
  }
}
END_TEST

/* Sets component c of state x at grid point (i, j, k) to v, on the rank that owns it */
static void set_state_point(RwModel model, Vec x, PetscInt i, PetscInt j, PetscInt k, PetscInt c, PetscReal v)
{
  DM       da;
  PetscInt xs, ys, zs, xm, ym, zm, lo;

  RW_CHECK(RwModelGetStateDM(model, &da));
  RW_CHECK(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  RW_CHECK(VecGetOwnershipRange(x, &lo, NULL));
  if (i >= xs && i < xs + xm && j >= ys && j < ys + ym && k >= zs && k < zs + zm) RW_CHECK(VecSetValue(x, lo + (((k - zs) * ym + (j - ys)) * xm + (i - xs)) * 2 + c, v, INSERT_VALUES));
  RW_CHECK(VecAssemblyBegin(x));
  RW_CHECK(VecAssemblyEnd(x));
}

/* Every form's NaN probe: a NaN in one value of its input, at a point in a
   row's first or second block of RW_PREFETCH_BLOCK points, in its tail, in
   an interior row (the ring's, in 3D and 2D order 8) or in a shell row,
   ordinary and streamed stores, is reported for the step's result; a
   finite input is not.  The forward's ring rows keep their flags per lane
   at orders 2 and 4 and per block at order 8, so all three orders run */
static void check_nan_probe(const char *opts, int dim)
{
  const PetscInt pts[][3] = {{5, 6, 6}, {20, 6, 5}, {34, 6, 6}, {20, 0, 6}, {3, 6, 0}};
  RwModel        model;
  Vec            m, dm, u, un, du, dun, l, ln;
  PetscRandom    rnd;
  char           msg[640];

  RW_CHECK(rw_test_model_type("wave", opts, &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelSetParameters(model, m));
  RW_CHECK(VecDuplicate(m, &dm));
  RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  RW_CHECK(VecSetRandom(dm, rnd));
  RW_CHECK(RwModelSetDirection(model, dm));
  RW_CHECK(RwModelCreateState(model, &u));
  RW_CHECK(VecDuplicate(u, &un));
  RW_CHECK(VecDuplicate(u, &du));
  RW_CHECK(VecDuplicate(u, &dun));
  RW_CHECK(VecDuplicate(u, &l));
  RW_CHECK(VecDuplicate(u, &ln));
  for (size_t p = 0; p < sizeof(pts) / sizeof(pts[0]); p++) {
    const PetscInt k = dim > 2 ? pts[p][2] : 0, c = p % 2;

    RW_CHECK(VecSetRandom(u, rnd));
    RW_CHECK(VecSetRandom(du, rnd));
    RW_CHECK(VecSetRandom(ln, rnd));
    RW_CHECK(RwModelResetStepCounts(model));
    RW_CHECK(RwModelStep(model, 3, u, un));
    RW_CHECK(RwModelStepTangent(model, 3, u, un, du, dun));
    RW_CHECK(RwModelAdjointBegin(model));
    RW_CHECK(RwModelStepAdjoint(model, 3, u, un, ln, l));
    RW_CHECK(RwModelAdjointEnd(model, dm));
    RW_CHECK(RwModelCheckFinite(model)); /* finite in, finite out */
    set_state_point(model, u, pts[p][0], pts[p][1], k, c, NAN);
    RW_CHECK(RwModelStep(model, 3, u, un));
    snprintf(msg, sizeof(msg), "%s, NaN in x_3 at (%d, %d, %d)", opts, (int)pts[p][0], (int)pts[p][1], (int)k);
    rw_assert_error_in(msg, RwModelCheckFinite(model), "NaN or Inf in the forward state u_4");
    RW_CHECK(RwModelResetStepCounts(model));
    RW_CHECK(VecSetRandom(u, rnd));
    RW_CHECK(RwModelStep(model, 3, u, un));
    set_state_point(model, du, pts[p][0], pts[p][1], k, c, NAN);
    RW_CHECK(RwModelStepTangent(model, 3, u, un, du, dun));
    rw_assert_error_in(msg, RwModelCheckFinite(model), "NaN or Inf in the forward state u_4");
    RW_CHECK(RwModelResetStepCounts(model));
    set_state_point(model, ln, pts[p][0], pts[p][1], k, c, NAN);
    RW_CHECK(RwModelAdjointBegin(model));
    RW_CHECK(RwModelStepAdjoint(model, 3, u, un, ln, l));
    RW_CHECK(RwModelAdjointEnd(model, dm));
    rw_assert_error_in(msg, RwModelCheckFinite(model), "NaN or Inf in the adjoint state lambda_3");
  }
  RW_CHECK(PetscRandomDestroy(&rnd));
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(VecDestroy(&dm));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&un));
  RW_CHECK(VecDestroy(&du));
  RW_CHECK(VecDestroy(&dun));
  RW_CHECK(VecDestroy(&l));
  RW_CHECK(VecDestroy(&ln));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_nan_probe)
{
  for (int o = 0; o < 12; o++) {
    const int dim = o < 6 ? 2 : 3, order = o % 3 == 0 ? 2 : o % 3 == 1 ? 4 : 8;
    char      opts[512];

    snprintf(opts, sizeof(opts), "-rw_wave_dim %d -rw_wave_space_order %d -rw_wave_nbl 2 -da_grid_x 37 -da_grid_y 14 -da_grid_z 12 -rw_steps 8 %s", dim, order, stream_opts[(o / 3) % 2]);
    check_nan_probe(opts, dim);
  }
}
END_TEST

/* A pair of forward steps in one pass (RwModelStepBlock(), 2D) gives both
   states bit for bit as two RwModelStep() calls, from random states, with
   sources at rank boundaries and in the absorbing layer (their terms must
   be in u_k+1 before the pair's second step reads it), ordinary and
   streamed stores, orders 2, 4, 8; a NaN in x_k is reported for u_k+1 */
static void check_pair(const char *opts)
{
  RwModel     model;
  Vec         m, u, one[2], pair[2];
  PetscRandom rnd;
  PetscInt    T;

  RW_CHECK(rw_test_model_type("wave", opts, &model));
  RW_CHECK(RwModelGetStepBlock(model, &T));
  rw_assert_all(T == 2, "%s: -rw_model_step_block 2 gave blocks of %d", opts, (int)T);
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelSetParameters(model, m));
  RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  RW_CHECK(RwModelCreateState(model, &u));
  for (int t = 0; t < 2; t++) {
    RW_CHECK(VecDuplicate(u, &one[t]));
    RW_CHECK(VecDuplicate(u, &pair[t]));
  }
  for (PetscInt k = 2; k < 6; k += 3) {
    PetscBool same[2];

    RW_CHECK(VecSetRandom(u, rnd));
    RW_CHECK(RwModelStep(model, k, u, one[0]));
    RW_CHECK(RwModelStep(model, k + 1, one[0], one[1]));
    RW_CHECK(RwModelStepBlock(model, k, 2, u, pair));
    RW_CHECK(RwModelCheckFinite(model));
    for (int t = 0; t < 2; t++) RW_CHECK(VecEqual(one[t], pair[t], &same[t]));
    rw_assert_all(same[0] && same[1], "%s: the pair from step %d differs from two steps: u_k+1 %s, u_k+2 %s", opts, (int)k, same[0] ? "same" : "DIFFERENT", same[1] ? "same" : "DIFFERENT");
  }
  {
    PetscReal norm;

    RW_CHECK(VecNorm(pair[1], NORM_INFINITY, &norm));
    rw_assert_all(norm > 0, "%s: the states are zero: the test would prove nothing", opts);
  }
  set_state_point(model, u, 20, 6, 0, 0, NAN);
  RW_CHECK(RwModelStepBlock(model, 3, 2, u, pair));
  rw_assert_error_in(opts, RwModelCheckFinite(model), "NaN or Inf in the forward state u_4");
  rw_assert_error_in(opts, RwModelStepBlock(model, 3, 3, u, pair), "A block of 3 steps: this model fuses 1 to 2");
  RW_CHECK(PetscRandomDestroy(&rnd));
  for (int t = 0; t < 2; t++) {
    RW_CHECK(VecDestroy(&one[t]));
    RW_CHECK(VecDestroy(&pair[t]));
  }
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_pairs)
{
  /* 37 x 14 points, h 10, spanning [-20, 340] x [-20, 110]: on 3 ranks y splits 5/5/4 rows,
     so y = 28 and 29.5 (grid rows 4.8, 4.95) put corners on both sides of a
     rank boundary; x = -14.5 is inside the absorbing layer (nbl 2).  On one
     rank the first source sits in the rows the pass walks first */
  const char *geometry = "-rw_wave_dim 2 -rw_wave_nbl 2 -da_grid_x 37 -da_grid_y 14 -rw_wave_spacing 10,10 -rw_wave_origin 0,0 -rw_steps 8 -rw_model_step_block 2 -da_processors_x 1 -rw_wave_sources 41.3,28,-14.5,29.5,250.2,75.5";

  for (int o = 0; o < 6; o++) {
    char opts[768];

    snprintf(opts, sizeof(opts), "%s -rw_wave_space_order %d %s", geometry, o % 3 == 0 ? 2 : o % 3 == 1 ? 4 : 8, stream_opts[o / 3]);
    check_pair(opts);
  }
  if (rw_test_size() == 3) { /* x split as well: the shell's short rows at the x ends */
    check_pair("-rw_wave_dim 2 -rw_wave_nbl 2 -da_grid_x 37 -da_grid_y 14 -rw_steps 8 -rw_model_step_block 2 -da_processors_x 3 -da_processors_y 1 -rw_wave_space_order 4");
  }
}
END_TEST

/* The default block is the same on every rank, whose shares of the grid
   may fall either side of the size that turns pairs on: 512 x 383 points,
   split 128 / 128 / 127 rows on 3 ranks, against 1 MiB (128 rows) a
   rank.  Ranks that chose apart called collective passes apart and hung */
START_TEST(test_step_block_agrees)
{
  RwModel  model;
  PetscInt T, lo, hi;

  RW_CHECK(rw_test_model_type("wave", "-rw_wave_dim 2 -rw_wave_nbl 4 -da_grid_x 512 -da_grid_y 383 -da_processors_x 1 -rw_kernel_stream_stores 1", &model));
  RW_CHECK(RwModelGetStepBlock(model, &T));
  ck_assert_int_eq(MPI_Allreduce(&T, &lo, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD), MPI_SUCCESS);
  ck_assert_int_eq(MPI_Allreduce(&T, &hi, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD), MPI_SUCCESS);
  rw_assert_all(lo == hi && T == 2, "the ranks chose blocks of %d to %d steps; expected 2 on every rank", (int)lo, (int)hi);
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* -rw_model_step_block: values out of range, and models that do not fuse, are refused by name */
START_TEST(test_step_block_input)
{
  RwModel model;

  rw_assert_error(rw_test_model_type("wave", "-rw_model_step_block 0", &model), "rw_model_step_block 0: expected a whole number in [1, 8]");
  RW_CHECK(RwModelDestroy(&model));
  rw_assert_error(rw_test_model_type("wave", "-rw_model_step_block 9", &model), "rw_model_step_block 9: expected a whole number in [1, 8]");
  RW_CHECK(RwModelDestroy(&model));
  rw_assert_error(rw_test_model_type("wave", "-rw_model_step_block 3", &model), "-rw_model_step_block 3: the wave model fuses at most 2 steps a pass in 2D");
  RW_CHECK(RwModelDestroy(&model));
  rw_assert_error(rw_test_model_type("heat", "-da_grid_x 8 -da_grid_y 8 -rw_model_step_block 2", &model), "-rw_model_step_block 2: the heat model does not fuse steps; give 1");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* m with one bad value at natural point (3, 4) */
static PetscErrorCode set_bad_point(RwModel model, Vec m, PetscReal v)
{
  Vec          f;
  DM           da;
  PetscScalar **a;
  PetscInt     xs, ys, xm, ym;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, m, 0, &f));
  PetscCall(VecGetDM(f, &da));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArray(da, f, &a));
  if (3 >= xs && 3 < xs + xm && 4 >= ys && 4 < ys + ym) a[4][3] = v;
  PetscCall(DMDAVecRestoreArray(da, f, &a));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_bad_input)
{
  RwModel   model;
  Vec       m;
  PetscReal dt, f[3] = {0, 1, 0};
  char      msg[256];

  RW_CHECK(rw_test_model_type("wave", "-da_grid_x 20 -da_grid_y 18 -rw_wave_nbl 4 -rw_steps 5", &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(set_bad_point(model, m, -0.3));
  rw_assert_error(RwModelSetParameters(model, m), "m = -0.3 at grid point (3, 4, 0)");
  RW_CHECK(set_bad_point(model, m, NAN));
  rw_assert_error(RwModelSetParameters(model, m), "must be positive and finite everywhere (c > 0, not NaN); m = nan");
  ck_assert_msg(strstr(rw_test_captured(), "at grid point (3, 4, 0)"), "the NaN is not located: %s", rw_test_captured());
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelGetTimeStep(model, &dt));
  RW_CHECK(RwModelSetTimeStep(model, 2 * dt));
  snprintf(msg, sizeof(msg), "the largest stable time step is -rw_dt %.6e", dt / 0.8);
  rw_assert_error(RwModelSetParameters(model, m), msg);
  RW_CHECK(RwModelSetTimeStep(model, dt));
  RW_CHECK(RwModelSetParameters(model, m));
  rw_assert_error(RwModelWaveSetWavelet(model, 3, f), "A wavelet of 3 samples for 5 steps (-rw_steps): expected one sample per step");
  {
    const PetscReal x[4] = {50, 60, 50, 175.5}; /* the grid spans [-40, 150] x [-40, 130] */
    rw_assert_error(RwModelWaveSetSources(model, 2, x), "Source 1 has coordinate 175.5 in direction y, outside the grid");
  }
  { /* a terminal misfit's target is a field of the observed component, not a two-component state */
    RwObjective obj;
    Vec         x;

    RW_CHECK(RwObjectiveCreate(model, &obj));
    RW_CHECK(RwModelCreateState(model, &x));
    rw_assert_error(RwObjectiveAddTerminalMisfit(obj, x, 1.0), "Terminal misfit target: 720 values");
    ck_assert_msg(strstr(rw_test_captured(), "expected a field of the state's grid, one value per point: 360"), "the message does not say what was expected: %s", rw_test_captured());
    RW_CHECK(VecDestroy(&x));
    RW_CHECK(RwModelCreateField(model, &x));
    RW_CHECK(RwObjectiveAddTerminalMisfit(obj, x, 1.0));
    RW_CHECK(VecDestroy(&x));
    RW_CHECK(RwObjectiveDestroy(&obj));
  }
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(rw_test_model_type("heat", "-da_grid_x 8 -da_grid_y 8", &model));
  rw_assert_error(RwModelWaveSetWavelet(model, 3, f), "RwModelWaveSetWavelet() needs a model of type wave, not heat");
  RW_CHECK(RwModelDestroy(&model));
  rw_assert_error(rw_test_model_type("wave", "-rw_wave_space_order 6", &model), "-rw_wave_space_order 6: expected 2, 4 or 8");
  RW_CHECK(RwModelDestroy(&model));
  rw_assert_error(rw_test_model_type("wave", "-da_grid_x 20 -da_grid_y 8 -rw_wave_nbl 4", &model), "leaves no physical region between two absorbing layers of -rw_wave_nbl 4");
  RW_CHECK(RwModelDestroy(&model));
  if (rw_test_size() >= 3) { /* a rank's share narrower than the order-8 stencil: a clear error on every rank, not a hang */
    rw_assert_error(rw_test_model_type("wave", "-rw_wave_space_order 8 -da_grid_x 10 -da_grid_y 20 -rw_wave_nbl 2 -da_processors_y 1", &model), "fewer than the stencil's width 4");
    RW_CHECK(RwModelDestroy(&model));
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("wave-update");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_update_2d);
  tcase_add_test(tc, test_update_3d);
  tcase_add_test(tc, test_bad_input);
  tcase_add_test(tc, test_nan_probe);
  tcase_add_test(tc, test_pairs);
  tcase_add_test(tc, test_step_block_input);
  tcase_add_test(tc, test_step_block_agrees);
  suite_add_tcase(s, tc);
  return s;
}
