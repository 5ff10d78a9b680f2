/*
  An ensemble of 4 heat members (explicit scheme; member i has kappa scaled by
  1 - 0.1 i and u0 by 1 + 0.25 i) summed over every split of this run's ranks
  into groups gives J and the gradients (kappa and u0) bit for bit what a
  plain loop of RwAdjointSolve over the members on all ranks gives.
*/
#include "rwtest.h"
#include <rewind/private/storeimpl.h> /* RwStoreLogView_Private */
#include <unistd.h>

#define NMEMBERS 4
static const char *opts = "-da_grid_x 20 -da_grid_y 16 -rw_steps 12 -rw_heat_scheme explicit";

/* One member's problem: the model's defaults, kappa and u0 scaled by member */
static PetscErrorCode member_data(RwTestProblem *p, PetscInt i, Vec m, Vec u0)
{
  Vec kappa;

  PetscFunctionBegin;
  PetscCall(VecCopy(p->m, m));
  PetscCall(VecCopy(p->u0, u0));
  PetscCall(RwModelGetParameterField(p->model, m, 0, &kappa));
  PetscCall(VecScale(kappa, 1 - 0.1 * (PetscReal)i));
  PetscCall(RwModelRestoreParameterField(p->model, m, 0, &kappa));
  PetscCall(VecScale(u0, 1 + 0.25 * (PetscReal)i));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves member i: J, the kappa gradient copied into gk (a state vector), the u0 gradient gu */
static PetscErrorCode member_solve(RwTestProblem *p, PetscInt i, PetscReal *J, Vec gk, Vec gu)
{
  Vec m, u0, field;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(p->m, &m));
  PetscCall(VecDuplicate(p->u0, &u0));
  PetscCall(member_data(p, i, m, u0));
  PetscCall(RwAdjointSolve(p->adj, m, u0, J, p->g, gu));
  PetscCall(RwModelGetParameterField(p->model, p->g, 0, &field));
  PetscCall(VecCopy(field, gk));
  PetscCall(RwModelRestoreParameterField(p->model, p->g, 0, &field));
  PetscCall(VecDestroy(&m));
  PetscCall(VecDestroy(&u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscReal J, Jm[NMEMBERS];
  Vec       gk, gu;
} Sums;

/* The reference: members one after another on all ranks, summed as a plain loop */
static void sequential(RwTestProblem *p, Sums *s)
{
  Vec gk, gu;

  RW_CHECK(RwModelCreateState(p->model, &s->gk));
  RW_CHECK(VecDuplicate(s->gk, &s->gu));
  RW_CHECK(VecDuplicate(s->gk, &gk));
  RW_CHECK(VecDuplicate(s->gk, &gu));
  s->J = 0;
  for (PetscInt i = 0; i < NMEMBERS; i++) {
    RW_CHECK(member_solve(p, i, &s->Jm[i], gk, gu));
    s->J += s->Jm[i];
    RW_CHECK(VecAXPY(s->gk, 1, gk));
    RW_CHECK(VecAXPY(s->gu, 1, gu));
  }
  RW_CHECK(VecDestroy(&gk));
  RW_CHECK(VecDestroy(&gu));
}

static void compare(const char *what, PetscInt g, Sums *ref, PetscReal J, const PetscReal Jm[], Vec gk, Vec gu)
{
  PetscBool ek, eu, em = PETSC_TRUE;

  RW_CHECK(VecEqual(ref->gk, gk, &ek));
  RW_CHECK(VecEqual(ref->gu, gu, &eu));
  for (PetscInt i = 0; i < NMEMBERS; i++) em = (PetscBool)(em && Jm[i] == ref->Jm[i]);
  rw_assert_all(J == ref->J && em && ek && eu, "%d ranks, %" PetscInt_FMT " groups (%s): J %.17g, the loop's %.17g; member J equal %d, kappa gradient equal %d, u0 gradient equal %d", rw_test_size(), g, what, J, ref->J, em, ek, eu);
}

/* The sum over g groups, by RwEnsembleSum (all of a group's gradients) and by rounds (one at a time) */
static void check_split(RwTestProblem *world, PetscInt g, Sums *ref)
{
  RwEnsemble      e;
  MPI_Comm        sub;
  RwModel         model;
  RwTestProblem   p;
  DM              subda, da;
  PetscInt        n, nr;
  const PetscInt *ids;
  PetscReal       Jm[NMEMBERS], J, Ju;
  const PetscReal *Jall;
  Vec             gk[NMEMBERS], gu[NMEMBERS], Gk, Gu;

  RW_CHECK(RwEnsembleCreate(PETSC_COMM_WORLD, &e));
  RW_CHECK(RwEnsembleSetSize(e, NMEMBERS));
  RW_CHECK(RwEnsembleSetGroups(e, g));
  RW_CHECK(RwEnsembleSetFromOptions(e));
  RW_CHECK(RwEnsembleSetUp(e));
  RW_CHECK(RwEnsembleGetSubComm(e, &sub));
  RW_CHECK(RwEnsembleGetMembers(e, &n, &ids));
  RW_CHECK(rw_test_model_comm(sub, opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwModelGetStateDM(model, &subda));
  RW_CHECK(RwModelGetStateDM(world->model, &da));
  RW_CHECK(RwEnsembleSetDM(e, subda, da));
  for (PetscInt j = 0; j < n; j++) {
    RW_CHECK(RwModelCreateState(model, &gk[j]));
    RW_CHECK(VecDuplicate(gk[j], &gu[j]));
    RW_CHECK(member_solve(&p, ids[j], &Jm[j], gk[j], gu[j]));
  }
  RW_CHECK(VecDuplicate(ref->gk, &Gk));
  RW_CHECK(VecDuplicate(ref->gk, &Gu));
  RW_CHECK(RwEnsembleSum(e, Jm, gk, &J, Gk));
  RW_CHECK(RwEnsembleSum(e, Jm, gu, &Ju, Gu));
  RW_CHECK(RwEnsembleGetMemberValues(e, &Jall));
  compare("RwEnsembleSum", g, ref, J, Jall, Gk, Gu);
  rw_assert_all(J == Ju, "the two sums of the same J's differ: %.17g %.17g", J, Ju);
  if (!rw_test_rank()) printf("# %d ranks, %" PetscInt_FMT " groups: J %.17g = %.17g + %.17g + %.17g + %.17g\n", rw_test_size(), g, J, Jall[0], Jall[1], Jall[2], Jall[3]);
  for (PetscInt j = 0; j < n; j++) {
    RW_CHECK(VecDestroy(&gk[j]));
    RW_CHECK(VecDestroy(&gu[j]));
  }

  /* by rounds: each group solves and holds one member at a time */
  RW_CHECK(RwEnsembleGetRounds(e, &nr));
  RW_CHECK(RwModelCreateState(model, &gk[0]));
  RW_CHECK(VecDuplicate(gk[0], &gu[0]));
  RW_CHECK(RwEnsembleSumBegin(e, Gk));
  for (PetscInt r = 0; r < nr; r++) {
    PetscInt  i;
    PetscReal Ji = 0;

    RW_CHECK(RwEnsembleGetRoundMember(e, r, &i));
    if (i >= 0) RW_CHECK(member_solve(&p, i, &Ji, gk[0], gu[0]));
    RW_CHECK(RwEnsembleSumAdd(e, Ji, i >= 0 ? gk[0] : NULL));
  }
  RW_CHECK(RwEnsembleSumEnd(e, &J));
  RW_CHECK(RwEnsembleGetMemberValues(e, &Jall));
  compare("rounds", g, ref, J, Jall, Gk, Gu);
  RW_CHECK(VecDestroy(&gk[0]));
  RW_CHECK(VecDestroy(&gu[0]));
  RW_CHECK(VecDestroy(&Gk));
  RW_CHECK(VecDestroy(&Gu));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(RwEnsembleDestroy(&e));
}

START_TEST(test_splits)
{
  RwModel       model;
  RwTestProblem world;
  Sums          ref;
  PetscInt      gmax = PetscMin(rw_test_size(), NMEMBERS);

  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(rw_test_problem(model, &world));
  sequential(&world, &ref);
  if (!rw_test_rank()) printf("# %d ranks, plain loop: J %.17g\n", rw_test_size(), ref.J);
  rw_assert_all(ref.Jm[0] != ref.Jm[1] && ref.Jm[1] != ref.Jm[2] && ref.Jm[2] != ref.Jm[3], "the members should differ: J %g %g %g %g", ref.Jm[0], ref.Jm[1], ref.Jm[2], ref.Jm[3]);
  for (PetscInt g = 1; g <= gmax; g++) check_split(&world, g, &ref);
  RW_CHECK(VecDestroy(&ref.gk));
  RW_CHECK(VecDestroy(&ref.gu));
  RW_CHECK(rw_test_problem_destroy(&world));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* A parent vector reaches every group whole, and comes back with its bits */
START_TEST(test_scatter)
{
  RwEnsemble e;
  MPI_Comm   sub;
  RwModel    model, wmodel;
  DM         subda, da;
  Vec        X, x, Y;
  PetscBool  eq;
  PetscInt   g = PetscMin(rw_test_size(), 2), group;
  PetscReal  sum, wsum;

  RW_CHECK(rw_test_model(opts, &wmodel));
  RW_CHECK(RwEnsembleCreate(PETSC_COMM_WORLD, &e));
  RW_CHECK(RwEnsembleSetSize(e, 3));
  RW_CHECK(RwEnsembleSetGroups(e, g));
  RW_CHECK(RwEnsembleSetUp(e));
  RW_CHECK(RwEnsembleGetSubComm(e, &sub));
  RW_CHECK(RwEnsembleGetGroup(e, &group, NULL));
  RW_CHECK(rw_test_model_comm(sub, opts, &model));
  RW_CHECK(RwModelGetStateDM(model, &subda));
  RW_CHECK(RwModelGetStateDM(wmodel, &da));
  RW_CHECK(RwEnsembleSetDM(e, subda, da));
  RW_CHECK(DMCreateGlobalVector(da, &X));
  RW_CHECK(VecDuplicate(X, &Y));
  RW_CHECK(DMCreateGlobalVector(subda, &x));
  RW_CHECK(VecSetRandom(X, NULL));
  RW_CHECK(RwEnsembleScatterToGroups(e, X, x));
  RW_CHECK(RwVecSumRepro(X, &wsum));
  RW_CHECK(RwVecSumRepro(x, &sum));
  rw_assert_all(sum == wsum, "group %" PetscInt_FMT " got a vector summing to %.17g; the parent's sums to %.17g", group, sum, wsum);
  /* a group that owns the member must pass its vector: every rank stops */
  rw_assert_error(RwEnsembleGatherMember(e, 1, 0.5, NULL, &sum, Y), "must pass the member's gradient");
  /* member 1 lives in group 1 % g */
  RW_CHECK(RwEnsembleGatherMember(e, 1, 0.5, group == 1 % g ? x : NULL, &sum, Y));
  RW_CHECK(VecEqual(X, Y, &eq));
  rw_assert_all(eq && sum == 0.5, "a vector scattered to the groups and gathered back from group %" PetscInt_FMT " differs (J %g)", 1 % g, sum);
  RW_CHECK(VecDestroy(&X));
  RW_CHECK(VecDestroy(&Y));
  RW_CHECK(VecDestroy(&x));
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(RwModelDestroy(&wmodel));
  RW_CHECK(RwEnsembleDestroy(&e));
}
END_TEST

/* Whether rank 0 sees dir/name; every rank gets the answer */
static PetscBool exists(const char dir[], const char name[])
{
  char path[PETSC_MAX_PATH_LEN];
  int  yes = 0;

  snprintf(path, sizeof(path), "%s/%s", dir, name);
  if (!rw_test_rank()) yes = access(path, F_OK) == 0;
  RW_CHECK(MPI_Bcast(&yes, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  return yes ? PETSC_TRUE : PETSC_FALSE;
}

/* Member 2's driver writes its checkpoints to dir/ck-m2.h5 and keeps its
   reverse sweep in dir/ck-m2-reverse.h5 when the user gave
   -rw_store_hdf5_file dir/ck.h5, which the options database still holds
   as given, and nothing under a member's prefix */
static void member_files(RwEnsemble e)
{
  RwModel       model;
  RwTestProblem p;
  RwStore       store;
  const char   *file, *prefix, *tag;
  char          dir[PETSC_MAX_PATH_LEN], o[2 * PETSC_MAX_PATH_LEN], given[PETSC_MAX_PATH_LEN + 16], s[PETSC_MAX_PATH_LEN + 16];
  PetscBool     keep, overwrite, has;
  PetscReal     J;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(o, sizeof(o), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_store_type hdf5 -rw_store_hdf5_file %s/ck.h5 -rw_adjoint_keep_interval 4", opts, dir);
  RW_CHECK(rw_test_model(o, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwEnsembleSetMemberFiles(e, 2, p.adj));
  RW_CHECK(RwAdjointGetFileTag(p.adj, &tag));
  ck_assert_str_eq(tag, "m2");
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
  ck_assert(exists(dir, "ck-m2.h5") && exists(dir, "ck-m2-reverse.h5") && exists(dir, "ck-m2-reverse-gradient.h5"));
  ck_assert(!exists(dir, "ck.h5") && !exists(dir, "ck-reverse.h5"));
  RW_CHECK(RwAdjointGetStore(p.adj, RW_LEVEL_RAM, &store));
  RW_CHECK(RwStoreHDF5GetFileOptions(store, &file, &keep, &overwrite));
  snprintf(given, sizeof(given), "%s/ck.h5", dir);
  ck_assert_str_eq(file, given); /* the store's file is the user's; the tag makes its path */
  RW_CHECK(PetscObjectGetOptionsPrefix((PetscObject)p.adj, &prefix));
  RW_CHECK(PetscOptionsGetString(NULL, prefix, "-rw_store_hdf5_file", s, sizeof(s), NULL));
  ck_assert_str_eq(s, given);
  RW_CHECK(PetscOptionsHasName(NULL, "m2_", "-rw_store_hdf5_file", &has));
  ck_assert(!has);
  rw_assert_error(RwAdjointSetFileTag(p.adj, "m3"), "before the first solve");
  rw_assert_error(RwStoreHDF5SetFileTag(store, "a/b"), "without '/'");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
  if (!rw_test_rank()) ck_assert_msg(rmdir(dir) == 0, "the member's files were left in %s", dir);
}

START_TEST(test_api)
{
  RwEnsemble e = NULL;
  char       s[PETSC_MAX_PATH_LEN];
  PetscInt   g, n, nr, i;

  RW_CHECK(RwEnsembleDestroy(&e)); /* NULL-safe */
  RW_CHECK(RwEnsembleDestroy(NULL));
  RW_CHECK(RwEnsembleCreate(PETSC_COMM_WORLD, &e));
  RW_CHECK(RwEnsembleSetSize(e, 2));
  RW_CHECK(RwEnsembleSetGroups(e, 3));
  rw_assert_error(RwEnsembleSetUp(e), "-rw_ensemble_groups 3");
  RW_CHECK(RwEnsembleDestroy(&e));
  ck_assert_ptr_null(e);
  /* 0: gcd(ranks, members) */
  RW_CHECK(RwEnsembleCreate(PETSC_COMM_WORLD, &e));
  RW_CHECK(RwEnsembleSetSize(e, 6));
  RW_CHECK(RwEnsembleSetGroups(e, 0));
  RW_CHECK(RwEnsembleSetUp(e));
  RW_CHECK(RwEnsembleSetUp(e)); /* idempotent */
  RW_CHECK(RwEnsembleGetGroup(e, NULL, &g));
  ck_assert_int_eq(g, rw_test_size() == 4 ? 2 : rw_test_size());
  RW_CHECK(RwEnsembleGetMembers(e, &n, NULL));
  RW_CHECK(RwEnsembleGetRounds(e, &nr));
  ck_assert_int_eq(n, 6 / g);
  ck_assert_int_eq(nr, 6 / g);
  RW_CHECK(RwEnsembleGetRoundMember(e, nr, &i));
  ck_assert_int_eq(i, -1);
  rw_assert_error(RwEnsembleSumBegin(e, NULL), "RwEnsembleSetDM");
  RW_CHECK(RwEnsembleView(e, NULL));
  RW_CHECK(RwEnsembleGetMemberPrefix(e, 3, s, sizeof(s)));
  ck_assert_str_eq(s, "m3_");
  RW_CHECK(RwEnsembleGetMemberFileName(e, 3, "ck.h5", s, sizeof(s)));
  ck_assert_str_eq(s, "ck-m3.h5");
  RW_CHECK(RwEnsembleGetMemberFileName(e, 12, "run.d/ck", s, sizeof(s)));
  ck_assert_str_eq(s, "run.d/ck-m12");
  RW_CHECK(RwEnsembleGetMemberFileName(e, 0, "/tmp/.h5", s, sizeof(s)));
  ck_assert_str_eq(s, "/tmp/.h5-m0");
  member_files(e);
  RW_CHECK(RwEnsembleDestroy(&e));
}
END_TEST

/* -log_view's table of checkpoint traffic is collective over the world: it
   must not wait for ranks whose group used no store (this hung before) */
START_TEST(test_logview)
{
  RwEnsemble e;
  MPI_Comm   sub;
  RwModel    model;
  RwStore    store;
  Vec        u;
  PetscInt   group, g;

  RW_CHECK(RwEnsembleCreate(PETSC_COMM_WORLD, &e));
  RW_CHECK(RwEnsembleSetSize(e, 2));
  RW_CHECK(RwEnsembleSetGroups(e, PetscMin(rw_test_size(), 2)));
  RW_CHECK(RwEnsembleSetUp(e));
  RW_CHECK(RwEnsembleGetSubComm(e, &sub));
  RW_CHECK(RwEnsembleGetGroup(e, &group, &g));
  if (group == g - 1) {
    RW_CHECK(rw_test_model_comm(sub, opts, &model));
    RW_CHECK(RwModelCreateState(model, &u));
    RW_CHECK(VecSet(u, 1));
    RW_CHECK(RwStoreCreate(sub, &store));
    RW_CHECK(RwStoreSetType(store, RWSTOREMEMORY));
    RW_CHECK(RwStoreSetSlots(store, 1));
    RW_CHECK(RwStoreSetTemplate(store, u));
    RW_CHECK(RwStoreSetUp(store));
    RW_CHECK(RwStoreWrite(store, 0, 0, u));
    RW_CHECK(RwStoreDestroy(&store));
    RW_CHECK(VecDestroy(&u));
    RW_CHECK(RwModelDestroy(&model));
  }
  RW_CHECK(PetscOptionsSetValue(NULL, "-log_view", "ascii:/dev/null"));
  RW_CHECK(RwStoreLogView_Private());
  RW_CHECK(PetscOptionsClearValue(NULL, "-log_view"));
  RW_CHECK(RwEnsembleDestroy(&e));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("ensemble");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_api);
  tcase_add_test(tc, test_logview);
  tcase_add_test(tc, test_scatter);
  tcase_add_test(tc, test_splits);
  suite_add_tcase(s, tc);
  return s;
}
