/*
  The first p Lyapunov exponents (RwHorizonLyapunovSpectrum(), the QR method):
  - Lorenz-96, F = 1/2 on 10 points: the ring is stable and the whole spectrum
    is the real parts of the linearisation's eigenvalues at x = F,
    -1 + F (cos theta - cos 2 theta), theta = 2 pi k / N, known in closed form;
  - Lorenz-96, N = 40, F = 8: all 40 exponents sum to -40 (the flow's volume
    contracts at the rate of its Jacobian's trace, -N, which RK4 keeps to
    O(dt^4)); the first is positive, the last negative, and exponent 0 is
    RwHorizonLyapunov()'s bit for bit;
  - the spectrum is the same bits on all ranks and on one;
  - heat (non-chaotic): every exponent negative;
  - bad arguments stop with errors that name them.
*/
#include "rwtest.h"

static void spectrum(MPI_Comm comm, const char *type, const char *opts, PetscInt p, PetscInt64 transient, PetscInt64 interval, PetscInt nblocks, PetscReal ex[], PetscReal er[], RwLyapunov *ly)
{
  RwModel       model;
  RwTestProblem t;

  RW_CHECK(rw_test_model_type_comm(comm, type, opts, &model));
  RW_CHECK(rw_test_problem(model, &t));
  RW_CHECK(RwHorizonLyapunovSpectrum(t.adj, t.m, t.u0, p, transient, interval, nblocks, ex, er));
  if (ly) RW_CHECK(RwHorizonLyapunov(t.adj, t.m, t.u0, transient, interval, nblocks, ly));
  if (!rw_test_rank()) {
    printf("# %s %s: %" PetscInt_FMT " exponents:", type, opts, p);
    for (PetscInt j = 0; j < p; j++) printf(" %.5f", (double)ex[j]);
    printf("\n");
  }
  RW_CHECK(rw_test_problem_destroy(&t));
  RW_CHECK(RwModelDestroy(&model));
}

static int descending(const void *a, const void *b)
{
  const PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

START_TEST(test_l96_stable_spectrum)
{
  const PetscInt  N = 10;
  const PetscReal F = 0.5;
  PetscReal       want[10], ex[10], er[10];

  for (PetscInt k = 0; k < N; k++) {
    const PetscReal th = 2 * PETSC_PI * k / N;
    want[k]            = -1 + F * (PetscCosReal(th) - PetscCosReal(2 * th));
  }
  qsort(want, N, sizeof(want[0]), descending);
  /* on each rank alone: 10 tangents over 4000 steps take 1 s there, a minute over 3 loaded ranks */
  spectrum(PETSC_COMM_SELF, "l96", "-da_grid_x 10 -rw_l96_forcing 0.5 -rw_steps 4000", N, 2000, 10, 10, ex, er, NULL);
  for (PetscInt j = 0; j < N; j++) rw_assert_all(PetscAbsReal(ex[j] - want[j]) <= 4 * er[j] + 1e-4, "F = 0.5: exponent %" PetscInt_FMT " = %g +- %g, the linearisation gives %g", j, (double)ex[j], (double)er[j], (double)want[j]);
}
END_TEST

START_TEST(test_l96_chaotic_spectrum)
{
  PetscReal  ex[40], er[40], self[8], selfer[8], sum = 0;
  RwLyapunov ly;
  PetscInt   npos = 0;

  /* 10 time units after 5 of transient, on each rank alone (as above) */
  spectrum(PETSC_COMM_SELF, "l96", "-da_grid_x 40 -rw_steps 1500", 40, 500, 10, 10, ex, er, &ly);
  for (PetscInt j = 0; j < 40; j++) sum += ex[j], npos += ex[j] > 0;
  if (!rw_test_rank()) printf("# l96 N = 40, F = 8: sum %.9f, %" PetscInt_FMT " positive\n", (double)sum, npos);
  rw_assert_all(PetscAbsReal(sum + 40) < 1e-3, "the 40 exponents sum to %.9f, expected -40 (the trace of the Jacobian)", (double)sum);
  rw_assert_all(ex[0] > 1 && ex[39] < -1, "exponents 0 and 39: %g, %g; expected a positive and a negative", (double)ex[0], (double)ex[39]);
  rw_assert_all(!memcmp(&ex[0], &ly.exponent, sizeof(PetscReal)) && !memcmp(&er[0], &ly.error, sizeof(PetscReal)), "exponent 0 %a +- %a, RwHorizonLyapunov %a +- %a", ex[0], er[0], ly.exponent, ly.error);
  /* the same bits on all ranks and on one: 8 exponents of a shorter run */
  spectrum(PETSC_COMM_WORLD, "l96", "-da_grid_x 40 -rw_steps 200", 8, 100, 10, 2, ex, er, NULL);
  spectrum(PETSC_COMM_SELF, "l96", "-da_grid_x 40 -rw_steps 200", 8, 100, 10, 2, self, selfer, NULL);
  rw_assert_all(!memcmp(ex, self, sizeof(self)) && !memcmp(er, selfer, sizeof(selfer)), "the spectrum differs between %d ranks and one (exponent 0: %a against %a)", rw_test_size(), ex[0], self[0]);
}
END_TEST

START_TEST(test_heat_spectrum)
{
  PetscReal ex[3], er[3];

  spectrum(PETSC_COMM_WORLD, "heat", "-rw_heat_dim 1 -da_grid_x 31 -rw_heat_bc dirichlet -rw_steps 600", 3, 200, 10, 4, ex, er, NULL);
  for (PetscInt j = 0; j < 3; j++) rw_assert_all(ex[j] < 0, "heat: exponent %" PetscInt_FMT " = %g, expected negative", j, (double)ex[j]);
  rw_assert_all(ex[0] > ex[1] && ex[1] > ex[2], "heat: exponents %g, %g, %g do not decrease", (double)ex[0], (double)ex[1], (double)ex[2]);
}
END_TEST

START_TEST(test_bad_input)
{
  RwModel       model;
  RwTestProblem t;
  PetscReal     ex[13], er[13];

  RW_CHECK(rw_test_model_type("l96", "-da_grid_x 12 -rw_steps 100", &model));
  RW_CHECK(rw_test_problem(model, &t));
  rw_assert_error(RwHorizonLyapunovSpectrum(t.adj, t.m, t.u0, 13, 0, 10, 2, ex, er), "13 exponents asked of a state of 12 values");
  rw_assert_error(RwHorizonLyapunovSpectrum(t.adj, t.m, t.u0, 0, 0, 10, 2, ex, er), "need 1 <= exponents");
  rw_assert_error(RwHorizonLyapunovSpectrum(t.adj, t.m, t.u0, 2, 10, 10, 4, ex, er), "must split into 4 blocks");
  RW_CHECK(rw_test_problem_destroy(&t));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("spectrum");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_l96_stable_spectrum);
  tcase_add_test(tc, test_l96_chaotic_spectrum);
  tcase_add_test(tc, test_heat_spectrum);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return s;
}
