/*
  The dispatched kernels give the portable kernels' bits.  For heat (1D, 2D,
  3D explicit, 2D implicit, and 1D/2D with the network term of src/nn) and
  wave (2D and 3D, space orders 2, 4, 8) the
  gradient (J, dJ/dm, dJ/du0: forward and adjoint rows) and a tangent step
  (tangent rows) are computed with -rw_kernel_isa portable and with every
  other instruction set this CPU runs (AVX2, AVX-512 on x86-64), and must be
  equal bit for bit.  A CPU without them compares nothing but still checks
  that asking for one stops with an error naming the option.  Streaming
  stores (-rw_kernel_stream_stores 0: every output streamed, where a
  kernel can) change where bytes go, never values: the best instruction set
  with them gives the portable kernels' bits too.
*/
#include "rwtest.h"
#include <rewind/private/kernelisaimpl.h>

static const struct {
  const char *type, *opts;
} cases[] = {
  {"heat", "-rw_heat_dim 1 -da_grid_x 96 -rw_steps 12"},
  {"heat", "-rw_heat_dim 2 -da_grid_x 37 -da_grid_y 29 -rw_steps 10"},
  {"heat", "-rw_heat_dim 2 -da_grid_x 21 -da_grid_y 19 -rw_steps 4 -rw_heat_scheme implicit"},
  {"heat", "-rw_heat_dim 3 -da_grid_x 13 -da_grid_y 11 -da_grid_z 12 -rw_steps 6"},
  /* the network term's kernels (src/nn) too, over more than one tile of the adjoint */
  {"heat", "-rw_heat_dim 2 -da_grid_x 37 -da_grid_y 31 -rw_steps 6 -rw_heat_nn -rw_nn_layers 1,16,16,1"},
  {"heat", "-rw_heat_dim 1 -da_grid_x 203 -rw_steps 5 -rw_heat_nn -rw_nn_layers 1,8,8,8,1 -rw_nn_activation softplus"},
  {"wave", "-rw_wave_space_order 2 -da_grid_x 41 -da_grid_y 33 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 30"},
  {"wave", "-rw_wave_space_order 4 -da_grid_x 41 -da_grid_y 33 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 30"},
  {"wave", "-rw_wave_space_order 8 -da_grid_x 41 -da_grid_y 33 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 30"},
  {"wave", "-rw_wave_dim 3 -rw_wave_space_order 2 -da_grid_x 17 -da_grid_y 15 -da_grid_z 14 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_steps 12"},
  {"wave", "-rw_wave_dim 3 -rw_wave_space_order 4 -da_grid_x 17 -da_grid_y 15 -da_grid_z 14 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_steps 12"},
  {"wave", "-rw_wave_dim 3 -rw_wave_space_order 8 -da_grid_x 19 -da_grid_y 18 -da_grid_z 17 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_steps 12"},
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

/* What a variant computed: J, the gradients, a tangent step; each rank's part */
typedef struct {
  PetscReal J;
  Vec       g, gu0, du1;
  char      isa[16];
} Result;

static Result run(int c, const char *isa, const char *more)
{
  RwModel       model;
  RwTestProblem p;
  Result        r;
  Vec           u1, du0;
  const char   *name;
  char          opts[512];

  snprintf(opts, sizeof(opts), "%s -rw_kernel_isa %s %s", cases[c].opts, isa, more);
  RW_CHECK(rw_test_model_type(cases[c].type, opts, &model));
  RW_CHECK(RwModelGetKernelISA(model, &name));
  snprintf(r.isa, sizeof(r.isa), "%s", name);
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &r.J, p.g, p.gu0));
  RW_CHECK(VecDuplicate(p.g, &r.g));
  RW_CHECK(VecCopy(p.g, r.g));
  RW_CHECK(VecDuplicate(p.gu0, &r.gu0));
  RW_CHECK(VecCopy(p.gu0, r.gu0));
  /* a tangent step from u0 along dm = dJ/dm, du0 = dJ/du0 */
  RW_CHECK(VecDuplicate(p.u0, &u1));
  RW_CHECK(VecDuplicate(p.u0, &du0));
  RW_CHECK(VecDuplicate(p.u0, &r.du1));
  RW_CHECK(VecCopy(p.gu0, du0));
  RW_CHECK(VecSet(u1, 0));
  RW_CHECK(RwModelSetParameters(model, p.m));
  RW_CHECK(RwModelStep(model, 0, p.u0, u1));
  RW_CHECK(RwModelSetDirection(model, p.g));
  RW_CHECK(RwModelStepTangent(model, 0, p.u0, u1, du0, r.du1));
  RW_CHECK(VecDestroy(&u1));
  RW_CHECK(VecDestroy(&du0));
  RW_CHECK(rw_test_problem_destroy(&p));
  return r;
}

static void destroy(Result *r)
{
  RW_CHECK(VecDestroy(&r->g));
  RW_CHECK(VecDestroy(&r->gu0));
  RW_CHECK(VecDestroy(&r->du1));
}

START_TEST(test_variants_same_bits)
{
  int compared = 0;

  for (int c = 0; c < NCASES; c++) {
    Result base = run(c, "portable", "-rw_kernel_stream_stores -1");

    rw_assert_all(!strcmp(base.isa, "portable") && base.J > 0, "%s %s: the portable run ran %s, J %g", cases[c].type, cases[c].opts, base.isa, base.J);
    /* every instruction set beyond portable, then the best one streaming its outputs */
    for (int i = RW_KERNEL_ISA_PORTABLE + 1; i <= RW_KERNEL_ISA_N; i++) {
      const RwKernelISA isa    = i < RW_KERNEL_ISA_N ? (RwKernelISA)i : RwKernelISABest();
      const char       *stream = i < RW_KERNEL_ISA_N ? "-rw_kernel_stream_stores -1" : "-rw_kernel_stream_stores 0";
      Result            v;
      PetscBool         g, gu0, du1;

      if (!RwKernelISAAvailable(isa)) continue;
      v   = run(c, RwKernelISANames[isa], stream);
      g   = rw_test_vec_bitwise(v.g, base.g);
      gu0 = rw_test_vec_bitwise(v.gu0, base.gu0);
      du1 = rw_test_vec_bitwise(v.du1, base.du1);
      if (!rw_test_rank()) printf("# %s %-100s %-8s %s J %.17g (portable %.17g), dJ/dm %s, dJ/du0 %s, tangent step %s\n", cases[c].type, cases[c].opts, v.isa, stream, v.J, base.J, g ? "same" : "DIFFERENT", gu0 ? "same" : "DIFFERENT", du1 ? "same" : "DIFFERENT");
      rw_assert_all(!strcmp(v.isa, RwKernelISANames[isa]), "%s: asked for %s, ran %s", cases[c].opts, RwKernelISANames[isa], v.isa);
      rw_assert_all(v.J == base.J && g && gu0 && du1, "%s %s with %s %s: J %.17g against portable %.17g; dJ/dm same %d, dJ/du0 same %d, tangent same %d", cases[c].type, cases[c].opts, v.isa, stream, v.J, base.J, g, gu0, du1);
      destroy(&v);
      compared++;
    }
    destroy(&base);
  }
  if (!rw_test_rank()) printf("# %d variant runs compared with the portable kernels (best here: %s)\n", compared, RwKernelISANames[RwKernelISABest()]);
  rw_assert_all(compared == NCASES * ((int)RwKernelISABest() + 1), "compared %d runs; the CPU runs %d instruction sets beyond portable, and the best once more streaming", compared, (int)RwKernelISABest());
}
END_TEST

/* Asking for an instruction set this CPU (or build) lacks, or one that does not exist, stops with the option named */
START_TEST(test_bad_isa)
{
  RwModel model;

  rw_assert_error(rw_test_model_type("wave", "-rw_kernel_isa sse9", &model), "rw_kernel_isa");
  rw_assert_error(rw_test_model_type("wave", "-rw_kernel_stream_stores -2", &model), "rw_kernel_stream_stores -2: expected a whole number in [-1, 2147483647]");
  for (int i = 0; i < RW_KERNEL_ISA_N; i++)
    if (!RwKernelISAAvailable((RwKernelISA)i)) {
      char opts[64];
      snprintf(opts, sizeof(opts), "-rw_kernel_isa %s", RwKernelISANames[i]);
      rw_assert_error(rw_test_model_type("wave", opts, &model), "not available");
    }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("t108-kernel-isa");
  TCase *tc = tcase_create("dispatch");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_variants_same_bits);
  tcase_add_test(tc, test_bad_isa);
  suite_add_tcase(s, tc);
  return s;
}
