/*
  Reproducible sums: 10^5 terms of widely varying magnitude and sign, split
  over the ranks in several ways and orders, must give bitwise the same
  result, equal to the correctly rounded exact sum computed here by an
  independent method (Shewchuk's exact partials, as in Python's math.fsum).
*/
#include "rwtest.h"
#include <math.h>
#include <stdint.h>

#define NTERMS 100000

static uint64_t rng_state;

static uint64_t rng_next(void) /* xorshift64*: the same stream on every rank */
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ULL;
}

static double rng_uniform(void)
{
  return (double)(rng_next() >> 11) / 9007199254740992.0;
}

/* Big terms that cancel in pairs, hiding small ones: naive sums fail badly */
static void make_terms(double *x)
{
  int n = 0;

  rng_state = 0x9e3779b97f4a7c15ULL;
  while (n < 80000) {
    double a = (1.0 + rng_uniform()) * ldexp(1.0, (int)(rng_next() % 201) - 100);
    if (rng_next() & 1) a = -a;
    x[n++] = a;
    x[n++] = -a;
  }
  while (n < NTERMS) {
    double a = (1.0 + rng_uniform()) * ldexp(1.0, -(int)(rng_next() % 41));
    x[n++]   = (rng_next() % 3) ? a : -a;
  }
  for (int i = NTERMS - 1; i > 0; i--) { /* shuffle */
    int    j = (int)(rng_next() % (uint64_t)(i + 1));
    double t = x[i];
    x[i]     = x[j];
    x[j]     = t;
  }
}

/* Correctly rounded sum by exact partials (Shewchuk 1997; math.fsum) */
static double exact_sum(const double *x, int n)
{
  double p[2100];
  int    np = 0;

  for (int k = 0; k < n; k++) {
    double v = x[k];
    int    i = 0;
    for (int j = 0; j < np; j++) {
      double y = p[j], hi, lo;
      if (fabs(v) < fabs(y)) {
        double t = v;
        v        = y;
        y        = t;
      }
      hi = v + y;
      lo = y - (hi - v);
      if (lo != 0.0) p[i++] = lo;
      v = hi;
    }
    p[i++] = v;
    np     = i;
  }
  if (!np) return 0.0;
  {
    double hi = p[--np], lo = 0.0;
    while (np > 0) {
      double v = hi, y = p[--np], yr;
      hi = v + y;
      yr = hi - v;
      lo = y - yr;
      if (lo != 0.0) break;
    }
    if (np > 0 && ((lo < 0 && p[np - 1] < 0) || (lo > 0 && p[np - 1] > 0))) {
      double y = lo * 2, v = hi + y, yr = v - hi;
      if (y == yr) hi = v;
    }
    return hi;
  }
}

static int64_t ulps_apart(double a, double b)
{
  int64_t ia, ib;

  memcpy(&ia, &a, 8);
  memcpy(&ib, &b, 8);
  if (ia < 0) ia = INT64_MIN - ia;
  if (ib < 0) ib = INT64_MIN - ib;
  return ia > ib ? ia - ib : ib - ia;
}

static double *terms, *mine;

static void setup(void)
{
  terms = malloc(NTERMS * sizeof(double));
  mine  = malloc(NTERMS * sizeof(double));
  make_terms(terms);
}

static void teardown(void)
{
  free(terms);
  free(mine);
}

/* Each rank sums its share, picked and ordered by one of three rules */
static double split_sum(int rule)
{
  int    rank = rw_test_rank(), size = rw_test_size(), m = 0;
  double s;

  for (int i = 0; i < NTERMS; i++) {
    int owner = rule == 0 ? (int)((int64_t)i * size / NTERMS) : rule == 1 ? i % size : (int)((i * 7919LL + 13) % size);
    if (owner == rank) mine[m++] = terms[i];
  }
  if (rule == 1) /* reversed order */
    for (int i = 0; i < m / 2; i++) {
      double t        = mine[i];
      mine[i]         = mine[m - 1 - i];
      mine[m - 1 - i] = t;
    }
  RW_CHECK(RwGlobalSum(PETSC_COMM_WORLD, m, mine, &s));
  return s;
}

START_TEST(test_bitwise_over_splits)
{
  double ref = exact_sum(terms, NTERMS), naive = 0, s[3];

  for (int i = NTERMS - 1; i >= 0; i--) naive += terms[i];
  /* the data must be hard: a plain sum gets it wrong */
  ck_assert_msg(ulps_apart(naive, ref) > 1000, "test data too easy: naive sum %.17g is close to %.17g", naive, ref);
  for (int rule = 0; rule < 3; rule++) {
    s[rule] = split_sum(rule);
    ck_assert_msg(memcmp(&s[rule], &ref, sizeof(double)) == 0, "split rule %d on %d ranks: %a, correctly rounded exact sum %a (%lld ulp apart)", rule, rw_test_size(), s[rule], ref, (long long)ulps_apart(s[rule], ref));
  }
  if (!rw_test_rank()) printf("# sum of %d terms on %d ranks: %a (naive: %a)\n", NTERMS, rw_test_size(), s[0], naive);
}
END_TEST

START_TEST(test_cancellation_and_range)
{
  double big[4]  = {1e308, 1e308, -1e308, 1e-300};
  double tiny[3] = {4.9406564584124654e-324, 4.9406564584124654e-324, -2.2250738585072014e-308};
  double zero[4] = {1.5, -1.5, 0x1p-1074, -0x1p-1074};
  double s;

  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 4, big, &s));
  ck_assert_msg(s == 1e308, "1e308 + 1e308 - 1e308 + 1e-300 gave %a (an intermediate overflow?)", s);
  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 3, tiny, &s));
  ck_assert_msg(s == 2 * 4.9406564584124654e-324 - 2.2250738585072014e-308, "subnormal sum gave %a", s);
  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 4, zero, &s));
  ck_assert_msg(s == 0.0 && !signbit(s), "exact cancellation gave %a", s);
  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 0, NULL, &s));
  ck_assert(s == 0.0);
}
END_TEST

START_TEST(test_rounding_ties_to_even)
{
  /* 1 + 2^-53 is a tie between 1 and 1 + 2^-52: even mantissa wins (1);
     a further 2^-200 breaks the tie upwards */
  double tie[2] = {1.0, 0x1p-53}, above[3] = {1.0, 0x1p-53, 0x1p-200}, s;

  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 2, tie, &s));
  ck_assert_msg(s == 1.0, "tie rounded to %a", s);
  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 3, above, &s));
  ck_assert_msg(s == 1.0 + 0x1p-52, "above tie rounded to %a", s);
}
END_TEST

START_TEST(test_specials)
{
  double a[2] = {INFINITY, 1.0}, b[2] = {INFINITY, -INFINITY}, c[2] = {NAN, 1.0}, s;

  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 2, a, &s));
  ck_assert(isinf(s) && s > 0);
  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 2, b, &s));
  ck_assert(isnan(s));
  RW_CHECK(RwGlobalSum(PETSC_COMM_SELF, 2, c, &s));
  ck_assert(isnan(s));
}
END_TEST

START_TEST(test_several_sums_at_once)
{
  RwReproSum rs;
  double     s[3], r0 = exact_sum(terms, 1000), r1 = exact_sum(terms + 1000, 1000);

  RW_CHECK(RwReproSumCreate(3, &rs));
  if (!rw_test_rank()) { /* rank 0 adds the first, termwise; the last rank the second */
    for (int i = 0; i < 1000; i++) RW_CHECK(RwReproSumAdd(rs, 0, terms[i]));
  }
  if (rw_test_rank() == rw_test_size() - 1) RW_CHECK(RwReproSumAddArray(rs, 1, 1000, terms + 1000));
  RW_CHECK(RwReproSumAllreduce(rs, PETSC_COMM_WORLD, s));
  ck_assert_msg(s[0] == r0 && s[1] == r1 && s[2] == 0.0, "sums %a %a %a, expected %a %a 0", s[0], s[1], s[2], r0, r1);
  RW_CHECK(RwReproSumReset(rs));
  RW_CHECK(RwReproSumAllreduce(rs, PETSC_COMM_WORLD, s));
  ck_assert(s[0] == 0.0 && s[1] == 0.0);
  RW_CHECK(RwReproSumDestroy(&rs));
  RW_CHECK(RwReproSumDestroy(&rs));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("reprosum");
  TCase *tc = tcase_create("core");

  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_bitwise_over_splits);
  tcase_add_test(tc, test_cancellation_and_range);
  tcase_add_test(tc, test_rounding_ties_to_even);
  tcase_add_test(tc, test_specials);
  tcase_add_test(tc, test_several_sums_at_once);
  suite_add_tcase(s, tc);
  return s;
}
