/*
  The problem's identity (RwAdjointGetIdentity()), which an evaluation
  journal keys its records with: valid after set-up only; the steps and the
  grid are in it and the schedule is not, so drivers that differ only in how
  they checkpoint share it and drivers with other steps do not; the same on
  every rank and on one rank alone.  The identity the stores record keeps its
  old layout, with the schedule after the steps, so that checkpoint files
  written before still compare equal.
*/
#include "rwtest.h"
#include <rewind/private/storeimpl.h>
#include <petscdmda.h>

#define RW_T416_OPTS "-da_grid_x 20 -da_grid_y 16 -rw_steps %d -rw_schedule_type %s"

static void problem_comm(MPI_Comm comm, int steps, const char *schedule, RwModel *model, RwTestProblem *p)
{
  char opts[256];

  RW_CHECK(PetscSNPrintf(opts, sizeof(opts), RW_T416_OPTS, steps, schedule));
  RW_CHECK(rw_test_model_comm(comm, opts, model));
  RW_CHECK(rw_test_problem(*model, p));
}

static void identity_of(MPI_Comm comm, int steps, const char *schedule, char id[], size_t len)
{
  RwModel       model;
  RwTestProblem p;

  problem_comm(comm, steps, schedule, &model, &p);
  RW_CHECK(RwAdjointGetIdentity(p.adj, id, len));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_order)
{
  RwModel        model;
  RwTestProblem  p;
  const char    *prefix;
  char           id[2048];
  size_t         n;
  PetscErrorCode e;

  RW_CHECK(rw_test_model("-da_grid_x 12 -rw_steps 9", &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwObjectiveAddDefaultMisfit(p.obj));
  RW_CHECK(RwAdjointCreate(model, p.obj, &p.adj));
  RW_CHECK(PetscObjectGetOptionsPrefix((PetscObject)model, &prefix));
  RW_CHECK(RwAdjointSetOptionsPrefix(p.adj, prefix));
  RW_CHECK(RwAdjointSetFromOptions(p.adj)); /* options read, not yet set up */
  rw_test_capture_begin();
  e = RwAdjointGetIdentity(p.adj, id, sizeof(id));
  rw_test_capture_end();
  rw_assert_all(e == PETSC_ERR_ORDER, "RwAdjointGetIdentity() before RwAdjointSetUp() returned %d, expected PETSC_ERR_ORDER (%d)", (int)e, (int)PETSC_ERR_ORDER);
  rw_assert_all(strstr(rw_test_captured(), "RwAdjointSetUp()") != NULL, "the error \"%s\" should name RwAdjointSetUp()", rw_test_captured());
  RW_CHECK(RwAdjointSetUp(p.adj));
  RW_CHECK(RwAdjointGetIdentity(p.adj, id, sizeof(id)));
  /* a buffer one character short is refused, and holds no part of the identity */
  n = strlen(id);
  rw_assert_error(RwAdjointGetIdentity(p.adj, id, n), "characters, the buffer has");
  rw_assert_all(!id[0], "a refused RwAdjointGetIdentity() left \"%s\" in the buffer", id);
  RW_CHECK(RwAdjointGetIdentity(p.adj, id, n + 1));
  rw_assert_all(strlen(id) == n, "the identity has %zu characters in a buffer of %zu, %zu in a larger one", strlen(id), n + 1, n);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

START_TEST(test_items)
{
  char a[2048], b[2048], c[2048], one[2048];

  identity_of(PETSC_COMM_WORLD, 25, "storeall", a, sizeof(a));
  if (!rw_test_rank()) printf("# identity: %s\n", a);
  rw_assert_all(strstr(a, "steps 25") && strstr(a, "grid ") && !strstr(a, "schedule"), "identity \"%s\" should have \"steps 25\" and \"grid\" and no \"schedule\"", a);
  identity_of(PETSC_COMM_WORLD, 25, "revolve -rw_schedule_ram_slots 3", b, sizeof(b));
  rw_assert_all(!strcmp(a, b), "drivers that differ only in the schedule have identities \"%s\" (storeall) and \"%s\" (revolve)", a, b);
  identity_of(PETSC_COMM_WORLD, 26, "storeall", c, sizeof(c));
  rw_assert_all(strcmp(a, c) && strstr(c, "steps 26"), "drivers with 25 and 26 steps share the identity \"%s\"", a);
  /* every rank has rank 0's, and one rank alone makes the same */
  RW_CHECK(PetscArraycpy(one, a, sizeof(one)));
  ck_assert_int_eq(MPI_Bcast(one, (int)sizeof(one), MPI_CHAR, 0, PETSC_COMM_WORLD), MPI_SUCCESS);
  rw_assert_all(!strcmp(a, one), "rank %d has identity \"%s\", rank 0 \"%s\"", rw_test_rank(), a, one);
  identity_of(PETSC_COMM_SELF, 25, "storeall", one, sizeof(one));
  rw_assert_all(!strcmp(a, one), "the identity on %d ranks \"%s\" differs from one rank's \"%s\"", rw_test_size(), a, one);
}
END_TEST

/* What checkpoint files record, in the layout files written before this function existed have */
START_TEST(test_store_identity)
{
  RwModel        model;
  RwTestProblem  p;
  RwStore        store;
  RwModelType    type;
  RwScheduleType stype;
  RwSchedule     sched;
  DM             da;
  PetscInt       M[3];
  PetscInt64     slots;
  PetscReal      dt, J;
  char           mid[512], id[2048], expect[2048], file[2048];

  problem_comm(PETSC_COMM_WORLD, 25, "revolve -rw_schedule_ram_slots 3", &model, &p);
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
  RW_CHECK(RwAdjointGetStore(p.adj, RW_LEVEL_RAM, &store));
  RW_CHECK(RwModelGetType(model, &type));
  RW_CHECK(RwModelGetIdentity(model, mid, sizeof(mid)));
  RW_CHECK(RwModelGetStateDM(model, &da));
  RW_CHECK(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  RW_CHECK(RwModelGetTimeStep(model, &dt));
  RW_CHECK(RwAdjointGetSchedule(p.adj, &sched));
  RW_CHECK(RwScheduleGetType(sched, &stype));
  RW_CHECK(RwScheduleGetSlots(sched, RW_LEVEL_RAM, &slots));
  RW_CHECK(PetscSNPrintf(file, sizeof(file), "version %s; model %s (%s); grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "; dt %.17g; steps 25; schedule %s with %" PetscInt64_FMT " + 0 slots; objective terms 1; stop none", RW_VERSION_STRING, type, mid, M[0], M[1], M[2], (double)dt, stype, slots));
  rw_assert_all(store && store->identity && !strcmp(store->identity, file), "the store records \"%s\", files written before record \"%s\"", store && store->identity ? store->identity : "(none)", file);
  RW_CHECK(PetscSNPrintf(expect, sizeof(expect), "version %s; model %s (%s); grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "; dt %.17g; steps 25; objective terms 1; stop none", RW_VERSION_STRING, type, mid, M[0], M[1], M[2], (double)dt));
  RW_CHECK(RwAdjointGetIdentity(p.adj, id, sizeof(id)));
  rw_assert_all(!strcmp(id, expect), "the problem's identity \"%s\" should be the stores' without the schedule: \"%s\"", id, expect);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("identity");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_order);
  tcase_add_test(tc, test_items);
  tcase_add_test(tc, test_store_identity);
  suite_add_tcase(s, tc);
  return s;
}
