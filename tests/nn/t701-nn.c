/*
  The pointwise network (RwNN) on its own, against an evaluation written here
  independently, point by point from the formulas of the issue:
  - forward at a few inputs, 1 -> 16 -> 16 -> 1 tanh and other shapes and
    activations (softplus, identity, 2 inputs and 3 outputs), to 1e-14;
  - the vector-Jacobian product into the input and every weight against
    backpropagation written here for 1 -> H -> H -> 1 tanh (1e-13), and
    against central differences of the independent forward for the others;
  - tangent against adjoint (dot test) to a few eps; per-point weight terms
    summing to the plain sums; a point's result the same bits whatever the
    row it is evaluated in (decomposition independence);
  - Xavier-uniform bounds, zero biases, seed determinism; HDF5 round trip;
  - bad input: a theta whose length or layers do not match, NaN weights (in
    memory and in a file), an unknown activation, bad layer sizes.
*/
#include "rwtest.h"
#include <rewind/private/nnimpl.h>
#include <hdf5.h>
#include <math.h>
#include <unistd.h>

/* ---- the independent evaluation: one point, straight from the definition ---- */
static double act(RwNNActivation a, double z)
{
  return a == RW_NN_TANH ? tanh(z) : a == RW_NN_SOFTPLUS ? log(1 + exp(z)) : z;
}

/* y = N(x) for one point with layers s[0..L], weights in the documented order */
static void ref_forward(PetscInt ns, const PetscInt *s, RwNNActivation hid, RwNNActivation out, const double *theta, const double *x, double *y)
{
  double a[64], b[64];
  int    off = 0;

  for (int j = 0; j < s[0]; j++) a[j] = x[j];
  for (int l = 1; l < ns; l++) {
    const double *W = theta + off, *bias = theta + off + s[l] * s[l - 1];
    for (int i = 0; i < s[l]; i++) {
      double z = bias[i];
      for (int j = 0; j < s[l - 1]; j++) z += W[i * s[l - 1] + j] * a[j];
      b[i] = act(l == ns - 1 ? out : hid, z);
    }
    off += s[l] * s[l - 1] + s[l];
    for (int i = 0; i < s[l]; i++) a[i] = b[i];
  }
  for (int i = 0; i < s[ns - 1]; i++) y[i] = a[i];
}

/* Backpropagation for 1 -> H -> H -> 1, tanh, identity output, by hand:
   a1 = tanh(W1 u + b1), a2 = tanh(W2 a1 + b2), N = W3 . a2 + b3 */
static void ref_vjp_1hh1(int H, const double *t, double u, double ybar, double *ubar, double *g)
{
  const double *W1 = t, *b1 = t + H, *W2 = t + 2 * H, *b2 = t + 2 * H + H * H, *W3 = t + 3 * H + H * H;
  double        a1[64], a2[64], d2[64], d1[64];

  for (int i = 0; i < H; i++) a1[i] = tanh(W1[i] * u + b1[i]);
  for (int i = 0; i < H; i++) {
    double z = b2[i];
    for (int j = 0; j < H; j++) z += W2[i * H + j] * a1[j];
    a2[i] = tanh(z);
  }
  g[3 * H + H * H + H] = ybar;                                    /* b3 */
  for (int i = 0; i < H; i++) g[3 * H + H * H + i] = ybar * a2[i]; /* W3 */
  for (int i = 0; i < H; i++) d2[i] = ybar * W3[i] * (1 - a2[i] * a2[i]);
  for (int i = 0; i < H; i++) {
    g[2 * H + H * H + i] = d2[i]; /* b2 */
    for (int j = 0; j < H; j++) g[2 * H + i * H + j] = d2[i] * a1[j];
  }
  for (int j = 0; j < H; j++) {
    double s = 0;
    for (int i = 0; i < H; i++) s += W2[i * H + j] * d2[i];
    d1[j] = s * (1 - a1[j] * a1[j]);
  }
  *ubar = 0;
  for (int i = 0; i < H; i++) {
    g[H + i] = d1[i];     /* b1 */
    g[i]     = d1[i] * u; /* W1 */
    *ubar += W1[i] * d1[i];
  }
}

static RwNN make(PetscInt ns, const PetscInt *s, RwNNActivation hid, RwNNActivation out)
{
  RwNN nn;

  RW_CHECK(RwNNCreate(PETSC_COMM_WORLD, &nn));
  RW_CHECK(RwNNSetLayers(nn, ns, s));
  RW_CHECK(RwNNSetActivations(nn, hid, out));
  RW_CHECK(RwNNSetUp(nn));
  return nn;
}

/* Weights away from zero biases so every term matters */
static void weights(RwNN nn, PetscInt64 seed, double *theta)
{
  RW_CHECK(RwNNInitializeXavier(nn, seed, theta));
  for (PetscInt i = 0; i < nn->nweights; i++) theta[i] += 0.3 * (RwHashUniform01(seed + 7, i) - 0.5);
}

#define NP 150 /* more than two blocks of RW_NN_BLOCK points, and a partial one */

START_TEST(test_forward_and_vjp_against_independent_evaluation)
{
  const PetscInt       shapes[][6] = {{4, 1, 16, 16, 1}, {3, 1, 8, 1}, {4, 2, 5, 4, 3}, {5, 1, 6, 6, 6, 1}};
  const RwNNActivation hid[]       = {RW_NN_TANH, RW_NN_SOFTPLUS, RW_NN_TANH, RW_NN_SOFTPLUS};
  const RwNNActivation out[]       = {RW_NN_IDENTITY, RW_NN_IDENTITY, RW_NN_TANH, RW_NN_SOFTPLUS};

  for (int c = 0; c < 4; c++) {
    const PetscInt  ns = shapes[c][0], *s = shapes[c] + 1, a = s[0], b = s[ns - 1];
    RwNN            nn = make(ns, s, hid[c], out[c]);
    PetscInt        P  = nn->nweights;
    double         *theta, *x, *y, *ybar, *xbar, *gw, *gsum, errf = 0, errb = 0, errx = 0, scale = 0;

    theta = malloc(P * sizeof(double));
    x     = malloc(a * NP * sizeof(double));
    xbar  = calloc(a * NP, sizeof(double));
    y     = malloc(b * NP * sizeof(double));
    ybar  = malloc(b * NP * sizeof(double));
    gw    = malloc(P * NP * sizeof(double));
    gsum  = calloc(P, sizeof(double));
    weights(nn, 11 + c, theta);
    for (PetscInt p = 0; p < NP; p++) {
      for (PetscInt i = 0; i < a; i++) x[i * NP + p] = -1.5 + 3.0 * RwHashUniform01(3, p * a + i);
      for (PetscInt i = 0; i < b; i++) ybar[i * NP + p] = RwHashUniform01(5, p * b + i) - 0.5;
    }
    RwNNForward(nn, theta, NP, x, NP, y, NP);
    RwNNAdjoint(nn, theta, NP, x, NP, ybar, NP, xbar, gw, NP, gsum);
    for (PetscInt p = 0; p < NP; p++) {
      double xp[8], yp[8];
      for (PetscInt i = 0; i < a; i++) xp[i] = x[i * NP + p];
      ref_forward(ns, s, hid[c], out[c], theta, xp, yp);
      for (PetscInt i = 0; i < b; i++) errf = fmax(errf, fabs(yp[i] - y[i * NP + p]) / fmax(1, fabs(yp[i])));
    }
    if (c == 0) { /* backpropagation by hand, every point, every weight */
      double g[400], ub;
      for (PetscInt p = 0; p < NP; p++) {
        ref_vjp_1hh1(16, theta, x[p], ybar[p], &ub, g);
        errx = fmax(errx, fabs(ub - xbar[p]));
        for (PetscInt w = 0; w < P; w++) errb = fmax(errb, fabs(g[w] - gw[w * NP + p]));
        scale = fmax(scale, fabs(ub));
      }
      rw_assert_all(errx <= 1e-13 * fmax(1, scale) && errb <= 1e-13, "1-16-16-1 tanh: VJP into the input off by %g, into the weights by %g", errx, errb);
    } else { /* central differences of the independent forward, a few points */
      for (PetscInt p = 0; p < NP; p += 37) {
        double xp[8], yp[8], ym[8];
        for (PetscInt i = 0; i < a; i++) xp[i] = x[i * NP + p];
        for (PetscInt w = 0; w < P + a; w++) {
          const double h = 1e-6;
          double       fd = 0, *v = w < P ? &theta[w] : &xp[w - P], v0 = *v, ad = w < P ? gw[w * NP + p] : xbar[(w - P) * NP + p];
          *v = v0 + h;
          ref_forward(ns, s, hid[c], out[c], theta, xp, yp);
          *v = v0 - h;
          ref_forward(ns, s, hid[c], out[c], theta, xp, ym);
          *v = v0;
          for (PetscInt i = 0; i < b; i++) fd += ybar[i * NP + p] * (yp[i] - ym[i]) / (2 * h);
          errb = fmax(errb, fabs(fd - ad));
        }
      }
      rw_assert_all(errb <= 1e-8, "shape %d: VJP against central differences off by %g", c, errb);
    }
    rw_assert_all(errf <= 1e-14, "shape %d: forward off the independent evaluation by %g (relative)", c, errf);
    /* the per-point terms sum to gsum (plain sums in point order, per block) */
    for (PetscInt w = 0; w < P; w++) {
      double t = 0, m = 0;
      for (PetscInt p = 0; p < NP; p++) t += gw[w * NP + p], m += fabs(gw[w * NP + p]);
      rw_assert_all(fabs(t - gsum[w]) <= 1e-14 * (m + 1e-300) * 10, "shape %d weight %d: per-point terms sum to %g, gsum %g", c, (int)w, t, gsum[w]);
    }
    if (!rw_test_rank()) printf("# shape %d: %d weights, forward err %.2e, vjp err %.2e\n", c, (int)P, errf, errb);
    free(theta), free(x), free(xbar), free(y), free(ybar), free(gw), free(gsum);
    RW_CHECK(RwNNDestroy(&nn));
    RW_CHECK(RwNNDestroy(&nn)); /* NULL-safe, idempotent */
  }
}
END_TEST

START_TEST(test_tangent_adjoint_dot_and_row_independence)
{
  const PetscInt s[] = {2, 7, 5, 3};
  RwNN           nn  = make(4, s, RW_NN_SOFTPLUS, RW_NN_TANH);
  PetscInt       P   = nn->nweights;
  double        *th = malloc(P * sizeof(double)), *dth = malloc(P * sizeof(double)), x[2 * NP], dx[2 * NP], y[3 * NP], y1[3], dy[3 * NP], yb[3 * NP], xb[2 * NP] = {0}, *gsum = calloc(P, sizeof(double));
  double         lhs = 0, rhs = 0, mag = 0;
  int            same = 1;

  weights(nn, 2, th);
  for (PetscInt w = 0; w < P; w++) dth[w] = RwHashUniform01(9, w) - 0.5;
  for (PetscInt i = 0; i < 2 * NP; i++) x[i] = 2 * RwHashUniform01(4, i) - 1, dx[i] = RwHashUniform01(6, i) - 0.5;
  for (PetscInt i = 0; i < 3 * NP; i++) yb[i] = RwHashUniform01(8, i) - 0.5;
  RwNNTangent(nn, th, dth, NP, x, dx, NP, y, dy, NP);
  RwNNAdjoint(nn, th, NP, x, NP, yb, NP, xb, NULL, 0, gsum);
  for (PetscInt i = 0; i < 3 * NP; i++) lhs += dy[i] * yb[i], mag += fabs(dy[i] * yb[i]);
  for (PetscInt i = 0; i < 2 * NP; i++) rhs += dx[i] * xb[i], mag += fabs(dx[i] * xb[i]);
  for (PetscInt w = 0; w < P; w++) rhs += dth[w] * gsum[w], mag += fabs(dth[w] * gsum[w]);
  if (!rw_test_rank()) printf("# 2-7-5-3 softplus/tanh: <dy, ybar> %.16e, <dx, xbar> + <dtheta, g> %.16e\n", lhs, rhs);
  rw_assert_all(lhs != 0 && fabs(lhs - rhs) <= 20 * PETSC_MACHINE_EPSILON * mag, "tangent/adjoint dot test: %.16e vs %.16e", lhs, rhs);
  /* one point alone gives the bits it gets anywhere in a row */
  for (PetscInt p = 0; p < NP; p += 13) {
    double xp[2] = {x[p], x[NP + p]};
    RwNNForward(nn, th, 1, xp, 1, y1, 1);
    for (int i = 0; i < 3; i++) same = same && y1[i] == y[i * NP + p];
  }
  rw_assert_all(same, "a point evaluated alone differs from the same point in a row");
  free(th), free(dth), free(gsum);
  RW_CHECK(RwNNDestroy(&nn));
}
END_TEST

START_TEST(test_xavier_and_hdf5_round_trip)
{
  const PetscInt s[] = {1, 16, 16, 1};
  RwNN           nn  = make(4, s, RW_NN_TANH, RW_NN_IDENTITY), other;
  double         t1[321], t2[321], t3[321];
  char           dir[PETSC_MAX_PATH_LEN], file[PETSC_MAX_PATH_LEN + 16];
  int            ok = 1, differ = 0;
  PetscInt       offW, offb;

  ck_assert_int_eq(nn->nweights, 16 + 16 + 256 + 16 + 16 + 1);
  RW_CHECK(RwNNGetWeightLayout(nn, 2, &offW, &offb));
  ck_assert_msg(offW == 32 && offb == 288, "W2 at %d, b2 at %d: expected 32 and 288", (int)offW, (int)offb);
  RW_CHECK(RwNNInitializeXavier(nn, 5, t1));
  RW_CHECK(RwNNInitializeXavier(nn, 5, t2));
  RW_CHECK(RwNNInitializeXavier(nn, 6, t3));
  for (int i = 0; i < 321; i++) {
    const double lim = i < 32 ? sqrt(6.0 / 17) : i < 304 ? sqrt(6.0 / 32) : sqrt(6.0 / 17);
    const int    bias = (i >= 16 && i < 32) || (i >= 288 && i < 304) || i == 320;
    ok               = ok && t1[i] == t2[i] && (bias ? t1[i] == 0 : fabs(t1[i]) <= lim);
    differ += t1[i] != t3[i];
  }
  rw_assert_all(ok && differ > 250, "Xavier weights: within bounds, zero biases, deterministic %d; seeds 5 and 6 differ at %d weights", ok, differ);
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/theta.h5", dir);
  weights(nn, 3, t1);
  RW_CHECK(RwNNWriteWeights(nn, file, t1));
  RW_CHECK(RwNNReadWeights(nn, file, t2));
  rw_assert_all(!memcmp(t1, t2, sizeof(t1)), "theta read back differs from theta written");
  /* another shape cannot read it */
  {
    const PetscInt s2[] = {1, 16, 1};
    other = make(3, s2, RW_NN_TANH, RW_NN_IDENTITY);
    rw_assert_error(RwNNReadWeights(other, file, t3), "theta has layers 1,16,16,1, this network has -rw_nn_layers 1,16,1");
    RW_CHECK(RwNNDestroy(&other));
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) { /* a theta of the wrong length under the right layers, then a NaN */
    hid_t   f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT), sp, d, as, a;
    hsize_t n = 300, nl = 4;
    long long v[4] = {1, 16, 16, 1};
    H5Ldelete(f, "theta", H5P_DEFAULT);
    sp = H5Screate_simple(1, &n, NULL);
    d  = H5Dcreate2(f, "theta", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t1);
    as = H5Screate_simple(1, &nl, NULL);
    a  = H5Acreate2(d, "layers", H5T_NATIVE_LLONG, as, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_LLONG, v);
    H5Aclose(a), H5Sclose(as), H5Dclose(d), H5Sclose(sp), H5Fclose(f);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  rw_assert_error(RwNNReadWeights(nn, file, t3), "dataset theta has 300 values; layers 1,16,16,1 need 321");
  weights(nn, 3, t1);
  t1[40] = NAN;
  RW_CHECK(RwNNWriteWeights(nn, file, t1));
  rw_assert_error(RwNNReadWeights(nn, file, t3), "non-finite");
  rw_assert_error(RwNNCheckWeights(nn, t1, "test"), "theta[40] is NaN (the matrix W of layer 2)");
  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) {
    ck_assert(unlink(file) == 0);
    ck_assert(rmdir(dir) == 0);
  }
  RW_CHECK(RwNNDestroy(&nn));
}
END_TEST

START_TEST(test_bad_options)
{
  RwNN           nn;
  const PetscInt bad[] = {1, 0, 1};

  RW_CHECK(PetscOptionsSetValue(NULL, "-t701a_rw_nn_activation", "relu"));
  RW_CHECK(RwNNCreate(PETSC_COMM_WORLD, &nn));
  RW_CHECK(RwNNSetOptionsPrefix(nn, "t701a_"));
  rw_assert_error(RwNNSetFromOptions(nn), "Unknown activation \"relu\" in -rw_nn_activation: use tanh, softplus or identity");
  RW_CHECK(RwNNDestroy(&nn));
  RW_CHECK(PetscOptionsSetValue(NULL, "-t701b_rw_nn_layers", "1"));
  RW_CHECK(RwNNCreate(PETSC_COMM_WORLD, &nn));
  RW_CHECK(RwNNSetOptionsPrefix(nn, "t701b_"));
  rw_assert_error(RwNNSetFromOptions(nn), "-rw_nn_layers: 1 layer sizes given");
  rw_assert_error(RwNNSetLayers(nn, 3, bad), "layer size 0 (entry 1) must be in [1, 4096]");
  RW_CHECK(RwNNDestroy(&nn));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("nn");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_forward_and_vjp_against_independent_evaluation);
  tcase_add_test(tc, test_tangent_adjoint_dot_and_row_independence);
  tcase_add_test(tc, test_xavier_and_hdf5_round_trip);
  tcase_add_test(tc, test_bad_options);
  suite_add_tcase(s, tc);
  return s;
}
