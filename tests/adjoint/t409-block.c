/*
  A block of 10^4 global scalars: osc with -osc_block_size 10000 on a 100 x 100
  grid, so every damping coefficient is used by exactly one point.
  - The gradient (J, the checksum of dJ/dc, and all 10^4 values of dJ/dw) is
    bitwise the same on every rank count: each run computes it on
    PETSC_COMM_WORLD and, on every rank alone, on PETSC_COMM_SELF, compares
    the two, and prints the digest (run on 1 and 3 ranks, the lines agree).
  - Setting parameters is O(blocks) communication, not O(scalars): one
    broadcast per RwModelSetParameters() and per RwModelGetParameterBlock(),
    and no other during a gradient.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>
#include <inttypes.h>

#define NW 10000

static const char *options = "-osc_dim 2 -da_grid_x 100 -da_grid_y 100 -osc_block_size 10000 -rw_steps 12";

typedef struct {
  PetscReal J;
  uint64_t  dc, dw; /* RwVecChecksum(dJ/dc); a hash of the bits of dJ/dw[0..NW) */
  PetscReal gw[NW];
  PetscReal gwsum;  /* |dJ/dw| summed: the block's gradient is not trivially zero */
} Digest;

static uint64_t hash_reals(const PetscReal *v, PetscInt n)
{
  uint64_t h = 0x9e3779b97f4a7c15ULL;

  for (PetscInt i = 0; i < n; i++) {
    uint64_t bits;

    memcpy(&bits, &v[i], sizeof(bits));
    h = RwSplitMix64(h ^ bits);
  }
  return h;
}

/* J and its gradient on comm; with check, the broadcast counts are asserted */
static void gradient_digest(MPI_Comm comm, PetscBool check, Digest *d)
{
  RwModel       model;
  RwTestProblem p;
  Vec           dc;
  PetscInt      b, size;
  PetscInt64    before;

  RW_CHECK(rw_test_model_type_comm(comm, "osc", options, &model));
  RW_CHECK(RwModelFindParameterBlock(model, "w", &b));
  RW_CHECK(RwModelGetParameterBlockInfo(model, b, NULL, &size, NULL, NULL));
  ck_assert_msg(size == NW, "block w has %" PetscInt_FMT " scalars, expected %d", size, NW);
  RW_CHECK(rw_test_problem(model, &p));

  before = model->nbroadcasts;
  RW_CHECK(RwModelSetParameters(model, p.m));
  if (check) rw_assert_all(model->nbroadcasts == before + 1, "RwModelSetParameters() of %d scalars made %lld broadcasts, expected 1", NW, (long long)(model->nbroadcasts - before));
  before = model->nbroadcasts;
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &d->J, p.g, p.gu0));
  if (check) rw_assert_all(model->nbroadcasts == before + 1, "a gradient made %lld broadcasts of scalars, expected 1 (its RwModelSetParameters())", (long long)(model->nbroadcasts - before));
  before = model->nbroadcasts;
  RW_CHECK(RwModelGetParameterBlock(model, p.g, b, d->gw));
  if (check) rw_assert_all(model->nbroadcasts == before + 1, "RwModelGetParameterBlock() of %d scalars made %lld broadcasts, expected 1", NW, (long long)(model->nbroadcasts - before));

  RW_CHECK(RwModelGetParameterField(model, p.g, 0, &dc));
  RW_CHECK(RwVecChecksum(dc, &d->dc));
  RW_CHECK(RwModelRestoreParameterField(model, p.g, 0, &dc));
  d->dw    = hash_reals(d->gw, NW);
  d->gwsum = 0;
  for (PetscInt i = 0; i < NW; i++) d->gwsum += PetscAbsReal(d->gw[i]);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_block_gradient_is_the_same_on_any_rank_count)
{
  static Digest world, self; /* 2 x 80 kB: not on the stack */
  int           same = 1, first = -1;

  gradient_digest(PETSC_COMM_WORLD, PETSC_TRUE, &world);
  gradient_digest(PETSC_COMM_SELF, PETSC_FALSE, &self);
  if (!rw_test_rank()) printf("# osc %s on %d ranks: J %a dJdc %016" PRIx64 " dJdw %016" PRIx64 " (sum |dJdw| %.6e)\n", options, rw_test_size(), world.J, world.dc, world.dw, world.gwsum);
  for (PetscInt i = 0; i < NW; i++)
    if (memcmp(&world.gw[i], &self.gw[i], sizeof(PetscReal))) {
      same  = 0;
      first = first < 0 ? (int)i : first;
    }
  rw_assert_all(world.gwsum > 0, "dJ/dw is zero everywhere: the comparison would prove nothing");
  rw_assert_all(!memcmp(&world.J, &self.J, sizeof(PetscReal)), "J %a on %d ranks, %a on one", world.J, rw_test_size(), self.J);
  rw_assert_all(world.dc == self.dc, "dJ/dc checksum %016" PRIx64 " on %d ranks, %016" PRIx64 " on one", world.dc, rw_test_size(), self.dc);
  rw_assert_all(same, "dJ/dw differs from the one-rank gradient, first at w[%d]: %a against %a", first, world.gw[first < 0 ? 0 : first], self.gw[first < 0 ? 0 : first]);
  rw_assert_all(world.dw == self.dw, "dJ/dw digest %016" PRIx64 " on %d ranks, %016" PRIx64 " on one", world.dw, rw_test_size(), self.dw);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("block");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_block_gradient_is_the_same_on_any_rank_count);
  suite_add_tcase(s, tc);
  return s;
}
