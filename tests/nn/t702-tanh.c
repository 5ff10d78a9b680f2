/*
  The network's own tanh (RwNNTanh, the one its kernels use) against libm's
  over a dense sweep: every double step of 2^-16 in [-24, 24], every power of
  two and its neighbours from 2^-1074 up, and the special values; at most 4
  ulp apart (3 measured), odd, bounded by 1, and each value's bits the same
  whatever its position in the array and the array's length (what makes the
  network's results independent of the decomposition).
*/
#include "rwtest.h"
#include <rewind/nn.h>
#include <math.h>

/* |a - b| in units of the last place of b (b finite, nonzero) */
static double ulps(double a, double b)
{
  return fabs(a - b) / ldexp(1.0, ilogb(b) - 52);
}

START_TEST(test_tanh_against_libm)
{
  const PetscInt n = 48 * 65536 + 1;
  double        *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double)), worst = 0, at = 0;
  int            odd = 1, bounded = 1;

  for (PetscInt i = 0; i < n; i++) x[i] = -24 + ldexp((double)i, -16);
  RwNNTanh(n, x, y);
  for (PetscInt i = 0; i < n; i++) {
    const double e = tanh(x[i]);
    if (e != 0 && ulps(y[i], e) > worst) worst = ulps(y[i], e), at = x[i];
    if (y[i] == 0 && e != 0) worst = 1e300, at = x[i];
    bounded = bounded && fabs(y[i]) <= 1;
  }
  /* tiny to large magnitudes: 2^e and its neighbours, both signs */
  for (int e = -1074, k = 0; e <= 10; e++, k = 0) {
    double v[6] = {ldexp(1, e), nextafter(ldexp(1, e), 0), nextafter(ldexp(1, e), 1e300), 0, 0, 0}, w[6];
    for (int j = 0; j < 3; j++) v[3 + j] = -v[j];
    RwNNTanh(6, v, w);
    for (k = 0; k < 6; k++) {
      const double ev = tanh(v[k]);
      if (ev != 0 && ulps(w[k], ev) > worst) worst = ulps(w[k], ev), at = v[k];
      odd = odd && w[k] == -w[k < 3 ? k + 3 : k - 3];
    }
  }
  if (!rw_test_rank()) printf("# RwNNTanh against libm: at most %.3g ulp (at x = %.17g)\n", worst, at);
  rw_assert_all(worst <= 4, "RwNNTanh is %g ulp from libm's tanh at x = %.17g: at most 4 expected", worst, at);
  rw_assert_all(odd && bounded, "RwNNTanh must be odd (%d) and within [-1, 1] (%d)", odd, bounded);
  free(x), free(y);
}
END_TEST

START_TEST(test_tanh_special_values_and_position)
{
  double v[7] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300, -40}, w[7], ref[64], got[64], row[64];
  int    same = 1;

  RwNNTanh(7, v, w);
  rw_assert_all(w[0] == 0 && !signbit(w[0]) && w[1] == 0 && signbit(w[1]), "tanh(+-0) must be +-0, got %g and %g", w[0], w[1]);
  rw_assert_all(w[2] == 1 && w[3] == -1 && isnan(w[4]) && w[5] == 1 && w[6] == -1, "tanh(inf, -inf, nan, 1e300, -40) = %g %g %g %g %g", w[2], w[3], w[4], w[5], w[6]);
  /* each value alone (a partial vector) against every position and length */
  for (int i = 0; i < 64; i++) row[i] = 3 * sin(1.7 * i) * exp(-0.1 * i);
  for (int i = 0; i < 64; i++) RwNNTanh(1, row + i, ref + i);
  for (int len = 1; len <= 64; len++)
    for (int off = 0; off + len <= 64; off += 1 + len / 3) {
      RwNNTanh(len, row + off, got);
      for (int i = 0; i < len; i++) same = same && got[i] == ref[off + i];
    }
  rw_assert_all(same, "a value's tanh depends on its position or the array's length");
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("tanh");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_tanh_against_libm);
  tcase_add_test(tc, test_tanh_special_values_and_position);
  suite_add_tcase(s, tc);
  return s;
}
