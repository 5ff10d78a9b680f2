/*
  The program of t412-keep-terms.sh: the t410 problem (heat with a per-step
  source amplitude, and two user terms whose direct dJ/dm go into the
  objective's field accumulators and the model's exact scalar sums), solved
  once with the options in RW_T412_OPTIONS, printing J and checksums of every
  part of the gradient.  The script kills it in the reverse sweep and resumes
  it with -rw_restart: every printed line must be the same bits.
*/
#include "rwtest.h"
#include <stdlib.h>

START_TEST(test_solve)
{
  const char *extra = getenv("RW_T412_OPTIONS");
  char        opts[2048];
  RwTestTerms c;
  PetscReal   J, *s;
  PetscInt    nf, ns;
  uint64_t    sum;

  snprintf(opts, sizeof(opts), "-rw_heat_dim 2 -da_grid_x 16 -da_grid_y 12 -rw_steps 40 -rw_heat_source_amplitude %s", extra ? extra : "");
  RW_CHECK(rw_test_terms_create(opts, &c));
  RW_CHECK(RwAdjointSolve(c.p.adj, c.p.m, c.p.u0, &J, c.p.g, c.p.gu0));
  RW_CHECK(RwModelGetParameterInfo(c.p.model, &nf, NULL, NULL));
  RW_CHECK(RwModelGetNumParameterScalars(c.p.model, &ns));
  RW_CHECK(PetscMalloc1(ns, &s));
  RW_CHECK(RwModelGetParameterScalars(c.p.model, c.p.g, s));
  if (!rw_test_rank()) printf("J %a\n", J);
  for (PetscInt f = 0; f < nf; f++) {
    Vec v;

    RW_CHECK(RwModelGetParameterField(c.p.model, c.p.g, f, &v));
    RW_CHECK(RwVecChecksum(v, &sum));
    RW_CHECK(RwModelRestoreParameterField(c.p.model, c.p.g, f, &v));
    if (!rw_test_rank()) printf("dJdm field %d %016llx\n", (int)f, (unsigned long long)sum);
  }
  for (PetscInt i = 0; i < ns && !rw_test_rank(); i++) printf("dJdm scalar %d %a\n", (int)i, s[i]);
  RW_CHECK(VecNorm(c.p.g, NORM_2, &J));
  rw_assert_all(J > 0, "the gradient is zero");
  RW_CHECK(PetscFree(s));
  RW_CHECK(rw_test_terms_destroy(&c));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("keep-terms");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_solve);
  suite_add_tcase(s, tc);
  return s;
}
