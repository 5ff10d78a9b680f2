/*
  Huge pages for the large arrays (issue 37: the 3D step's pages,
  doc/notes/wave-3d-profile.md): -rw_hugepages, RwHugePagesSet(),
  RwVecDuplicateStaggered().
  - With huge pages on, a state, field or work vector of 2 MiB or more a
    rank starts in a 2 MiB-aligned block, one page in plus its staggered
    offset (so the arrays still start at different cache-line offsets),
    and asks for huge pages; with them off none asks; a smaller array
    never asks, and a destroyed one gives its share back;
  - J, dJ/dm, dJ/du0 and a tangent step are the same bits with huge pages
    on and off (3D order 4 and 8, and 2D order 4), on 1 and 2 ranks;
  - the model's view says what was asked for and, where the kernel's
    transparent huge pages are "always" or "madvise", that the process
    holds huge pages (AnonHugePages > 0: granted); with them off, "off";
  - the setting is process-wide: the driver's states, made after the model,
    follow it.
*/
#include "rwtest.h"
#include <rewind/private/rwimpl.h>
#include <stdint.h>

static const char *cases[] = {
  "-rw_wave_dim 3 -rw_wave_space_order 4 -da_grid_x 64 -da_grid_y 64 -da_grid_z 64 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 6",
  "-rw_wave_dim 3 -rw_wave_space_order 8 -da_grid_x 64 -da_grid_y 64 -da_grid_z 64 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 6",
  "-rw_wave_space_order 4 -da_grid_x 560 -da_grid_y 560 -rw_wave_nbl 8 -rw_wave_f0 0.03 -rw_steps 6",
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

#define HUGE_PAGE ((uintptr_t)2 << 20)

typedef struct {
  PetscReal J;
  Vec       g, gu0, du1;
  int       aligned, ordinary; /* the model's large states: in 2 MiB-aligned blocks, or not */
  PetscInt64 asked;            /* bytes of huge pages the model's and driver's arrays asked for */
  int       says_on, says_off, granted;
} Result;

/* Whether v's array (if at least 2 MiB on this rank) starts one page into a 2 MiB-aligned block, at a staggered offset */
static void where(Vec v, Result *r)
{
  const PetscScalar *a;
  PetscInt           n;
  uintptr_t          off;

  RW_CHECK(VecGetLocalSize(v, &n));
  if ((size_t)n * sizeof(PetscScalar) < HUGE_PAGE) return;
  RW_CHECK(VecGetArrayRead(v, &a));
  off = (uintptr_t)a % HUGE_PAGE;
  if (off >= 4096 && off < 8192 && off % 64 == 0) r->aligned++;
  else r->ordinary++;
  RW_CHECK(VecRestoreArrayRead(v, &a));
}

/* The model's view (rank 0's text, broadcast as flags) */
static void view_flags(RwModel model, Result *r)
{
  char        dir[PETSC_MAX_PATH_LEN], file[PETSC_MAX_PATH_LEN + 16], text[4096] = "";
  PetscViewer v;
  FILE       *fp;
  int         f[3] = {0, 0, 0};

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/view.txt", dir);
  RW_CHECK(PetscViewerASCIIOpen(PETSC_COMM_WORLD, file, &v));
  RW_CHECK(RwModelView(model, v));
  RW_CHECK(PetscViewerDestroy(&v));
  if (!rw_test_rank() && (fp = fopen(file, "r"))) {
    const size_t n = fread(text, 1, sizeof(text) - 1, fp);

    text[n] = 0;
    fclose(fp);
    f[0] = strstr(text, "MiB of large arrays asked for") != NULL || strstr(text, "use ordinary pages") != NULL;
    f[1] = strstr(text, "huge pages: off (-rw_hugepages 0)") != NULL;
    f[2] = strstr(text, "(THP always)") || strstr(text, "(THP madvise)") ? (strstr(text, ", 0.0 MiB of the process") == NULL) : -1;
    printf("# %s", strstr(text, "huge pages") ? strstr(text, "huge pages") : "(no huge pages line)\n");
  }
  MPI_Bcast(f, 3, MPI_INT, 0, PETSC_COMM_WORLD);
  r->says_on = f[0], r->says_off = f[1], r->granted = f[2];
}

static Result run(int c, int huge)
{
  RwModel       model;
  RwTestProblem p;
  Result        r = {0};
  Vec           u1, du0;
  char          opts[512];

  PetscInt64    before, during;

  RW_CHECK(RwHugePagesGet(NULL, NULL, 0, &before, NULL));
  snprintf(opts, sizeof(opts), "%s -rw_hugepages %d", cases[c], huge);
  RW_CHECK(rw_test_model_type("wave", opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &r.J, p.g, p.gu0));
  RW_CHECK(VecDuplicate(p.g, &r.g));
  RW_CHECK(VecCopy(p.g, r.g));
  RW_CHECK(VecDuplicate(p.gu0, &r.gu0));
  RW_CHECK(VecCopy(p.gu0, r.gu0));
  RW_CHECK(RwModelCreateState(model, &u1));
  RW_CHECK(RwModelCreateState(model, &du0));
  RW_CHECK(RwModelCreateState(model, &r.du1));
  where(u1, &r);
  where(r.du1, &r);
  RW_CHECK(RwHugePagesGet(NULL, NULL, 0, &during, NULL));
  r.asked = during - before;
  RW_CHECK(VecCopy(p.gu0, du0));
  RW_CHECK(RwModelSetParameters(model, p.m));
  RW_CHECK(RwModelStep(model, 0, p.u0, u1));
  RW_CHECK(RwModelSetDirection(model, p.g));
  RW_CHECK(RwModelStepTangent(model, 0, p.u0, u1, du0, r.du1));
  view_flags(model, &r);
  RW_CHECK(VecDestroy(&u1));
  RW_CHECK(VecDestroy(&du0));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwHugePagesSet(PETSC_FALSE)); /* the default again, for the next case */
  return r;
}


static void destroy(Result *r)
{
  RW_CHECK(VecDestroy(&r->g));
  RW_CHECK(VecDestroy(&r->gu0));
  RW_CHECK(VecDestroy(&r->du1));
}

static int sum(int x)
{
  int s;

  MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  return s;
}

START_TEST(test_hugepages_same_bits)
{
  for (int c = 0; c < NCASES; c++) {
    Result off = run(c, 0), on = run(c, 1);

    rw_assert_all(off.J > 0 && on.J == off.J && rw_test_vec_bitwise(on.g, off.g) && rw_test_vec_bitwise(on.gu0, off.gu0) && rw_test_vec_bitwise(on.du1, off.du1), "%s: J %.17g with huge pages, %.17g without, or a gradient or tangent step not the same bits", cases[c], on.J, off.J);
    rw_assert_all(sum(off.asked > 0) == 0, "%s -rw_hugepages 0: arrays asked for huge pages", cases[c]);
    rw_assert_all(sum(on.asked > 0) == rw_test_size(), "%s -rw_hugepages 1: on some rank no array asked for huge pages", cases[c]);
    rw_assert_all(sum(on.aligned) > 0 && sum(on.ordinary) == 0, "%s -rw_hugepages 1: %d large states in 2 MiB-aligned blocks, %d not", cases[c], sum(on.aligned), sum(on.ordinary));
    rw_assert_all(on.says_on && !on.says_off && off.says_off, "%s: the view should say what huge pages were asked for (%d, %d) and that they were off (%d)", cases[c], on.says_on, on.says_off, off.says_off);
    rw_assert_all(on.granted != 0, "%s: the kernel's THP mode allows huge pages, but the process holds none", cases[c]);
    destroy(&off);
    destroy(&on);
  }
}
END_TEST

/* The accounting: a large array asks, its destruction gives back; a small one never asks */
START_TEST(test_hugepages_accounting)
{
  PetscInt64 before, during, after;
  char       mode[32];
  PetscBool  on;
  Vec        big, small, a, b;

  RW_CHECK(RwHugePagesGet(&on, mode, sizeof(mode), &before, NULL));
  rw_assert_all(!on, "huge pages should be off by default");
  RW_CHECK(RwHugePagesSet(PETSC_TRUE));
  RW_CHECK(VecCreateMPI(PETSC_COMM_WORLD, 300000, PETSC_DETERMINE, &big));
  RW_CHECK(VecCreateMPI(PETSC_COMM_WORLD, 1000, PETSC_DETERMINE, &small));
  RW_CHECK(RwVecDuplicateStaggered(big, &a));
  RW_CHECK(RwVecDuplicateStaggered(small, &b));
  RW_CHECK(RwHugePagesGet(NULL, NULL, 0, &during, NULL));
  rw_assert_all(during - before >= (PetscInt64)(300000 * sizeof(PetscScalar)) && during - before <= (PetscInt64)(300000 * sizeof(PetscScalar) + 2 * HUGE_PAGE), "a 2.3 MiB array should ask for 4 MiB of huge pages, asked %lld bytes", (long long)(during - before));
  RW_CHECK(VecDestroy(&a));
  RW_CHECK(VecDestroy(&b));
  RW_CHECK(RwHugePagesGet(NULL, NULL, 0, &after, NULL));
  rw_assert_all(after == before, "destroyed, the array should give its huge pages back: %lld bytes before, %lld after", (long long)before, (long long)after);
  RW_CHECK(RwHugePagesSet(PETSC_FALSE));
  RW_CHECK(RwVecDuplicateStaggered(big, &a));
  RW_CHECK(RwHugePagesGet(NULL, NULL, 0, &during, NULL));
  rw_assert_all(during == before, "with huge pages off no array should ask for them (%lld bytes)", (long long)(during - before));
  RW_CHECK(VecDestroy(&a));
  RW_CHECK(VecDestroy(&big));
  RW_CHECK(VecDestroy(&small));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("t132-wave-hugepages");
  TCase *tc = tcase_create("hugepages");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_hugepages_accounting);
  tcase_add_test(tc, test_hugepages_same_bits);
  suite_add_tcase(s, tc);
  return s;
}
