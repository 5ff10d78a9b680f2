/*
  The ring rows' blocks (issue 37): the interior rows of the wave's ring
  passes take L in blocks of 64 points, a direction at a time
  (WaveLapRingBlock(), wavekernels.c), so a row of more than one block, and
  its tail, runs code a short row does not.  Rows of 150 points (two
  blocks and a tail of 22): a forward step, a tangent step and an adjoint
  step (lambda_k and dJ/dm) from the same states give the same bits on one
  rank (a model on each rank's own communicator: whole rows) as on all the
  ranks split in x (rows cut into pieces, their x ends shell rows read in
  place) and split in the last direction (whole rows again), 3D orders 2,
  4, 8 and 2D order 8 (whose forward and tangent gather from the ring) and
  order 4 (the adjoint), in the best instruction set and the portable
  one.  States are set and read through the model's declared layout
  (RwModelSet/GetStateComponent()), fields in natural order.
*/
#include "rwtest.h"
#include <petscdmda.h>
#include <math.h>

static const char *cases[] = {
  "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 150 -da_grid_y 13 -da_grid_z 12 -rw_wave_space_order 2",
  "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 150 -da_grid_y 13 -da_grid_z 12 -rw_wave_space_order 4",
  "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 150 -da_grid_y 13 -da_grid_z 12 -rw_wave_space_order 8",
  "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 150 -da_grid_y 13 -da_grid_z 12 -rw_wave_space_order 8 -rw_kernel_isa portable",
  "-rw_wave_dim 2 -rw_wave_nbl 2 -da_grid_x 150 -da_grid_y 17 -rw_wave_space_order 8",
  "-rw_wave_dim 2 -rw_wave_nbl 2 -da_grid_x 150 -da_grid_y 17 -rw_wave_space_order 4",
};

/* A field of the model's grid from its values in natural order, f(natural index) */
static void field_set(RwModel model, Vec f, PetscReal seed)
{
  DM          fda;
  Vec         nat;
  PetscInt    lo, hi;
  PetscScalar *a;

  RW_CHECK(RwModelGetFieldDM(model, &fda));
  RW_CHECK(DMDACreateNaturalVector(fda, &nat));
  RW_CHECK(VecGetOwnershipRange(nat, &lo, &hi));
  RW_CHECK(VecGetArray(nat, &a));
  for (PetscInt i = lo; i < hi; i++) a[i - lo] = sin(seed + 0.37 * (PetscReal)i) + 0.25 * cos(0.011 * (PetscReal)i * seed);
  RW_CHECK(VecRestoreArray(nat, &a));
  RW_CHECK(DMDANaturalToGlobalBegin(fda, nat, INSERT_VALUES, f));
  RW_CHECK(DMDANaturalToGlobalEnd(fda, nat, INSERT_VALUES, f));
  RW_CHECK(VecDestroy(&nat));
}

/* A field in natural order on every rank of its communicator */
static PetscReal *field_all(RwModel model, Vec f, PetscInt *n)
{
  DM                 fda;
  Vec                nat, all;
  VecScatter         sc;
  const PetscScalar *a;
  PetscReal         *out;

  RW_CHECK(RwModelGetFieldDM(model, &fda));
  RW_CHECK(DMDACreateNaturalVector(fda, &nat));
  RW_CHECK(DMDAGlobalToNaturalBegin(fda, f, INSERT_VALUES, nat));
  RW_CHECK(DMDAGlobalToNaturalEnd(fda, f, INSERT_VALUES, nat));
  RW_CHECK(VecScatterCreateToAll(nat, &sc, &all));
  RW_CHECK(VecScatterBegin(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecScatterEnd(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecGetSize(all, n));
  RW_CHECK(PetscMalloc1(*n, &out));
  RW_CHECK(VecGetArrayRead(all, &a));
  for (PetscInt i = 0; i < *n; i++) out[i] = PetscRealPart(a[i]);
  RW_CHECK(VecRestoreArrayRead(all, &a));
  RW_CHECK(VecScatterDestroy(&sc));
  RW_CHECK(VecDestroy(&all));
  RW_CHECK(VecDestroy(&nat));
  return out;
}

/* What one layout gives: the outputs' components and dJ/dm, each in natural order */
typedef struct {
  PetscReal *v[7];
  PetscInt   n;
} Result;

static void state_set(RwModel model, Vec u, Vec f, PetscReal seed)
{
  for (PetscInt c = 0; c < 2; c++) {
    field_set(model, f, seed + c);
    RW_CHECK(RwModelSetStateComponent(model, f, c, u)); /* field first */
  }
}

static void state_get(RwModel model, Vec u, Vec f, Result *r, PetscInt at)
{
  for (PetscInt c = 0; c < 2; c++) {
    RW_CHECK(RwModelGetStateComponent(model, u, c, f));
    r->v[at + c] = field_all(model, f, &r->n);
  }
}

/* The three forms on a model of comm with opts, from the same states in natural order */
static void run(MPI_Comm comm, const char *opts, Result *r)
{
  RwModel   model;
  Vec       m, dm, g, f, u, un, du, ln, y, dy, l;
  PetscReal norm;

  RW_CHECK(rw_test_model_type_comm(comm, "wave", opts, &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelSetParameters(model, m));
  RW_CHECK(VecDuplicate(m, &dm));
  RW_CHECK(VecDuplicate(m, &g));
  RW_CHECK(RwModelCreateField(model, &f));
  field_set(model, dm, 0.5);
  RW_CHECK(RwModelSetDirection(model, dm));
  RW_CHECK(RwModelCreateState(model, &u));
  RW_CHECK(VecDuplicate(u, &un));
  RW_CHECK(VecDuplicate(u, &du));
  RW_CHECK(VecDuplicate(u, &ln));
  RW_CHECK(VecDuplicate(u, &y));
  RW_CHECK(VecDuplicate(u, &dy));
  RW_CHECK(VecDuplicate(u, &l));
  state_set(model, u, f, 1.0);
  state_set(model, un, f, 3.0);
  state_set(model, du, f, 5.0);
  state_set(model, ln, f, 7.0);
  RW_CHECK(RwModelStep(model, 2, u, y));
  RW_CHECK(RwModelStepTangent(model, 2, u, un, du, dy));
  RW_CHECK(RwModelAdjointBegin(model));
  RW_CHECK(RwModelStepAdjoint(model, 2, u, un, ln, l));
  RW_CHECK(RwModelAdjointEnd(model, g));
  RW_CHECK(VecNorm(g, NORM_INFINITY, &norm));
  rw_assert_all(norm > 0, "%s: dJ/dm is zero: the test would prove nothing", opts);
  state_get(model, y, f, r, 0);
  state_get(model, dy, f, r, 2);
  state_get(model, l, f, r, 4);
  r->v[6] = field_all(model, g, &r->n);
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(VecDestroy(&dm));
  RW_CHECK(VecDestroy(&g));
  RW_CHECK(VecDestroy(&f));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&un));
  RW_CHECK(VecDestroy(&du));
  RW_CHECK(VecDestroy(&ln));
  RW_CHECK(VecDestroy(&y));
  RW_CHECK(VecDestroy(&dy));
  RW_CHECK(VecDestroy(&l));
  RW_CHECK(RwModelDestroy(&model));
}

static void result_destroy(Result *r)
{
  for (int i = 0; i < 7; i++) RW_CHECK(PetscFree(r->v[i]));
}

START_TEST(test_rows_any_layout)
{
  static const char *what[7] = {"u_k+1", "u_k (forward)", "du_k+1", "du_k (tangent)", "la_k", "lb_k", "dJ/dm"};
  const int          np = rw_test_size();
  char               split[2][256];

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    Result one = {{NULL}, 0};

    run(PETSC_COMM_SELF, cases[c], &one);
    snprintf(split[0], sizeof(split[0]), "%s -da_processors_x %d%s", cases[c], np, strstr(cases[c], "dim 3") ? " -da_processors_y 1 -da_processors_z 1" : " -da_processors_y 1");
    snprintf(split[1], sizeof(split[1]), "%s -da_processors_x 1", cases[c]);
    for (int s = 0; s < 2; s++) {
      Result all = {{NULL}, 0};

      run(PETSC_COMM_WORLD, split[s], &all);
      rw_assert_all(all.n == one.n, "%s: %d points on all ranks, %d on one", split[s], (int)all.n, (int)one.n);
      for (int i = 0; i < 7; i++) rw_assert_all(!memcmp(all.v[i], one.v[i], (size_t)one.n * sizeof(PetscReal)), "%s on %d ranks: %s differs from one rank's bits", split[s], np, what[i]);
      result_destroy(&all);
    }
    result_destroy(&one);
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("t133-wave-ring-rows");
  TCase *tc = tcase_create("blocks");

  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_rows_any_layout);
  suite_add_tcase(s, tc);
  return s;
}
