/*
  Restart identity, through the driver: each solve of a loop records its own
  identity in a kept file; -rw_restart resumes exactly the interrupted solve
  (bit for bit), starts a completed one over, and refuses an interrupted other
  solve (other parameters, another initial state) naming what differs, leaving
  it in place to be resumed.  An existing file is never truncated without
  -rw_store_overwrite.  The objective's data are part of the identity, with a
  checksum that does not depend on the decomposition.
*/
#include "rwtest.h"

static char dir[PETSC_MAX_PATH_LEN];

#define RW_T405_OPTS "-da_grid_x 20 -da_grid_y 16 -rw_steps 25 -rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_store_type hdf5 -rw_store_keep -rw_store_hdf5_file %s/ck.h5 %s"

static void problem(const char *extra, RwModel *model, RwTestProblem *p)
{
  char opts[2 * PETSC_MAX_PATH_LEN];

  RW_CHECK(PetscSNPrintf(opts, sizeof(opts), RW_T405_OPTS, dir, extra));
  RW_CHECK(rw_test_model(opts, model));
  RW_CHECK(rw_test_problem(*model, p));
}

static void done(RwModel *model, RwTestProblem *p)
{
  RW_CHECK(rw_test_problem_destroy(p));
  RW_CHECK(RwModelDestroy(model));
}

/* m with kappa scaled: another solve of the same problem */
static void other_parameters(RwTestProblem *p, Vec *m2)
{
  Vec kappa;

  RW_CHECK(VecDuplicate(p->m, m2));
  RW_CHECK(VecCopy(p->m, *m2));
  RW_CHECK(RwModelGetParameterField(p->model, *m2, 0, &kappa));
  RW_CHECK(VecScale(kappa, 0.9));
  RW_CHECK(RwModelRestoreParameterField(p->model, *m2, 0, &kappa));
}

START_TEST(test_identity)
{
  RwModel         model;
  RwTestProblem   p;
  RwAdjointCounts c;
  Vec             m2, gref;
  PetscReal       Jref, J;
  PetscBool       same;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  /* the reference, kept complete */
  problem("", &model, &p);
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &Jref, p.g, p.gu0));
  RW_CHECK(VecDuplicate(p.g, &gref));
  RW_CHECK(VecCopy(p.g, gref));
  done(&model, &p);
  /* an existing file is not truncated by a run that does not resume */
  problem("", &model, &p);
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "exists and may hold checkpoints a run kept");
  done(&model, &p);
  /* a completed solve of other parameters has nothing to resume: started over */
  problem("-rw_restart", &model, &p);
  other_parameters(&p, &m2);
  RW_CHECK(RwAdjointSolve(p.adj, m2, p.u0, &J, p.g, p.gu0));
  rw_assert_all(J != Jref, "J(m2) %.17g should differ from J(m) %.17g", (double)J, (double)Jref);
  done(&model, &p);
  /* an interrupted solve: the 6th write fails as a full disk would, the slots written before stay valid */
  problem("-rw_store_overwrite -rw_store_hdf5_fail_write 6", &model, &p);
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "No space left on device");
  done(&model, &p);
  /* another solve is refused, naming what differs, and the file stays */
  problem("-rw_restart", &model, &p);
  rw_assert_error(RwAdjointSolve(p.adj, m2, p.u0, &J, p.g, p.gu0), "m.kappa");
  done(&model, &p);
  problem("-rw_restart", &model, &p);
  RW_CHECK(VecScale(p.u0, 2));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "u0:");
  done(&model, &p);
  /* the interrupted solve itself resumes, bit for bit */
  problem("-rw_restart", &model, &p);
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
  RW_CHECK(RwAdjointGetCounts(p.adj, &c));
  RW_CHECK(VecEqual(p.g, gref, &same));
  rw_assert_all(c.resumed_from > 0 && J == Jref && same, "resumed at step %" PetscInt64_FMT ": J %.17g (reference %.17g), gradient identical %d", c.resumed_from, (double)J, (double)Jref, (int)same);
  if (!rw_test_rank()) printf("# resumed the interrupted solve at step %" PetscInt64_FMT ", J %.17g identical; other parameters and u0 refused\n", c.resumed_from, (double)J);
  done(&model, &p);
  RW_CHECK(VecDestroy(&m2));
  RW_CHECK(VecDestroy(&gref));
}
END_TEST

/* The objective's checksum follows its data and not the decomposition */
START_TEST(test_objective_checksum)
{
  RwModel     model;
  RwObjective obj;
  PetscReal   coords[4] = {0.25, 0.5, 0.75, 0.3}, data[6] = {1, 2, 3, 4, 5, 6};
  PetscInt64  steps[3]  = {2, 5, 9};
  uint64_t    a, b, c, all;

  RW_CHECK(rw_test_model("-da_grid_x 17 -da_grid_y 13", &model));
  RW_CHECK(RwObjectiveCreate(model, &obj));
  RW_CHECK(RwObjectiveAddSensors(obj, 2, coords, 3, steps, data, 0.1));
  RW_CHECK(RwObjectiveAddDefaultMisfit(obj));
  RW_CHECK(RwObjectiveGetChecksum(obj, &a));
  data[4] += 1e-12;
  RW_CHECK(RwObjectiveSetSensorData(obj, 0, data, 0.1));
  RW_CHECK(RwObjectiveGetChecksum(obj, &b));
  RW_CHECK(RwObjectiveSetSensorData(obj, 0, data, 0.2));
  RW_CHECK(RwObjectiveGetChecksum(obj, &c));
  rw_assert_all(a != b && b != c && a != c, "checksums %016llx %016llx %016llx should all differ", (unsigned long long)a, (unsigned long long)b, (unsigned long long)c);
  /* every rank has the same, and one rank alone computes the same as all of them */
  MPI_Allreduce(&a, &all, 1, MPI_UINT64_T, MPI_BXOR, PETSC_COMM_WORLD);
  rw_assert_all(rw_test_size() % 2 ? all == a : all == 0, "ranks disagree on the objective's checksum");
  RW_CHECK(RwObjectiveDestroy(&obj));
  RW_CHECK(RwModelDestroy(&model));
  data[4] -= 1e-12;
  RW_CHECK(rw_test_model_comm(PETSC_COMM_SELF, "-da_grid_x 17 -da_grid_y 13", &model));
  RW_CHECK(RwObjectiveCreate(model, &obj));
  RW_CHECK(RwObjectiveAddSensors(obj, 2, coords, 3, steps, data, 0.1));
  RW_CHECK(RwObjectiveAddDefaultMisfit(obj));
  RW_CHECK(RwObjectiveGetChecksum(obj, &b));
  rw_assert_all(a == b, "the objective's checksum on %d ranks %016llx differs from one rank's %016llx", rw_test_size(), (unsigned long long)a, (unsigned long long)b);
  if (!rw_test_rank()) printf("# objective checksum %016llx on %d ranks and on one\n", (unsigned long long)a, rw_test_size());
  RW_CHECK(RwObjectiveDestroy(&obj));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("restart-identity");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_identity);
  tcase_add_test(tc, test_objective_checksum);
  suite_add_tcase(s, tc);
  return s;
}
