/*
  Multi-shot wave gradients on RwEnsemble sub-communicators: 4 shots (one
  source each, 6 shared receivers, data = the default model's traces, the
  run's m = that model with a bump), J and dJ/dm summed in shot order.
  For every number of shot groups from 1 to min(ranks, 4), by rounds, J,
  each shot's J and dJ/dm are bit for bit those of a plain loop over the
  shots on all ranks, and those are bit for bit the one-rank loop's.
  Receivers moved per shot (a spread of another size each time) give the
  bits of an objective made afresh with them.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>
#include <petscdmda.h>

#define NSHOTS 4
#define NREC   6
static const char     *opts = "-rw_wave_space_order 4 -da_grid_x 30 -da_grid_y 24 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 30";
static const PetscReal src[NSHOTS][2] = {{31.3, 12.7}, {83.9, 13.1}, {137.2, 11.9}, {191.6, 12.3}};
static const PetscReal rec[NREC * 2]  = {21.7, 101.3, 58.1, 102.9, 96.4, 99.6, 133.3, 100.2, 171.8, 101.7, 205.5, 98.8};

typedef struct {
  RwModel     model;
  RwObjective obj;
  RwAdjoint   adj;
  Vec         mtrue, m, u0, g, gu0;
  PetscReal  *d;
} Shots;

static PetscErrorCode shots_create(MPI_Comm comm, Shots *S)
{
  const PetscReal centre[3] = {0.5, 0.45, 0};
  const char     *prefix;
  PetscInt64  n;

  PetscFunctionBegin;
  PetscCall(rw_test_model_type_comm(comm, "wave", opts, &S->model));
  PetscCall(RwModelCreateParameters(S->model, &S->mtrue));
  PetscCall(RwModelCreateState(S->model, &S->u0));
  PetscCall(RwModelGetDefaults(S->model, S->mtrue, S->u0, NULL));
  PetscCall(VecDuplicate(S->mtrue, &S->m));
  PetscCall(VecCopy(S->mtrue, S->m));
  PetscCall(rw_test_bump(S->model, S->m, 0.1, 10, centre));
  PetscCall(RwModelGetSteps(S->model, &n));
  PetscCall(PetscMalloc1((n + 1) * NREC, &S->d));
  PetscCall(RwObjectiveCreate(S->model, &S->obj));
  PetscCall(RwObjectiveAddWaveReceivers(S->obj, NREC, rec, NULL));
  PetscCall(RwAdjointCreate(S->model, S->obj, &S->adj));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)S->model, &prefix));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)S->adj, prefix));
  PetscCall(RwAdjointSetFromOptions(S->adj));
  PetscCall(RwAdjointSetUp(S->adj));
  PetscCall(VecDuplicate(S->m, &S->g));
  PetscCall(VecDuplicate(S->u0, &S->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode shots_destroy(Shots *S)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointDestroy(&S->adj));
  PetscCall(RwObjectiveDestroy(&S->obj));
  PetscCall(VecDestroy(&S->mtrue));
  PetscCall(VecDestroy(&S->m));
  PetscCall(VecDestroy(&S->u0));
  PetscCall(VecDestroy(&S->g));
  PetscCall(VecDestroy(&S->gu0));
  PetscCall(PetscFree(S->d));
  PetscCall(RwModelDestroy(&S->model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Shot i: its source, its observed data, its J and dJ/dm (into gm, a field-grid vector) */
static PetscErrorCode shot_solve(Shots *S, PetscInt i, PetscReal *J, Vec gm)
{
  Vec f;

  PetscFunctionBegin;
  PetscCall(RwModelWaveSetSources(S->model, 1, src[i]));
  PetscCall(RwModelWaveRecord(S->model, S->mtrue, NREC, rec, S->d));
  PetscCall(RwObjectiveSetWaveReceiverData(S->obj, S->d));
  PetscCall(RwAdjointSolve(S->adj, S->m, S->u0, J, S->g, S->gu0));
  PetscCall(RwModelGetParameterField(S->model, S->g, 0, &f));
  PetscCall(VecCopy(f, gm));
  PetscCall(RwModelRestoreParameterField(S->model, S->g, 0, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plain loop: J, each shot's J, and the summed dJ/dm */
static PetscErrorCode shots_loop(Shots *S, PetscReal *J, PetscReal Jm[], Vec G)
{
  Vec gi;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(G, &gi));
  PetscCall(VecSet(G, 0));
  *J = 0;
  for (PetscInt i = 0; i < NSHOTS; i++) {
    PetscCall(shot_solve(S, i, &Jm[i], gi));
    *J += Jm[i];
    PetscCall(VecAXPY(G, 1, gi));
  }
  PetscCall(VecDestroy(&gi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode natural_all(DM da, Vec g, PetscReal **out, PetscInt *n)
{
  Vec                nat, all;
  VecScatter         sc;
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(DMDACreateNaturalVector(da, &nat));
  PetscCall(DMDAGlobalToNaturalBegin(da, g, INSERT_VALUES, nat));
  PetscCall(DMDAGlobalToNaturalEnd(da, g, INSERT_VALUES, nat));
  PetscCall(VecScatterCreateToAll(nat, &sc, &all));
  PetscCall(VecScatterBegin(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetSize(all, n));
  PetscCall(PetscMalloc1(*n, out));
  PetscCall(VecGetArrayRead(all, &a));
  for (PetscInt i = 0; i < *n; i++) (*out)[i] = PetscRealPart(a[i]);
  PetscCall(VecRestoreArrayRead(all, &a));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&all));
  PetscCall(VecDestroy(&nat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_shot_groups)
{
  Shots      W, S1;
  PetscReal  J, Jm[NSHOTS], J1, Jm1[NSHOTS], *gw, *g1;
  PetscInt   nw, n1;
  Vec        G, G1;
  PetscBool  same;

  RW_CHECK(shots_create(PETSC_COMM_WORLD, &W));
  RW_CHECK(DMCreateGlobalVector(W.model->fda, &G));
  RW_CHECK(shots_loop(&W, &J, Jm, G));
  /* one rank: every rank builds its own */
  RW_CHECK(shots_create(PETSC_COMM_SELF, &S1));
  RW_CHECK(DMCreateGlobalVector(S1.model->fda, &G1));
  RW_CHECK(shots_loop(&S1, &J1, Jm1, G1));
  RW_CHECK(natural_all(W.model->fda, G, &gw, &nw));
  RW_CHECK(natural_all(S1.model->fda, G1, &g1, &n1));
  same = (PetscBool)(J == J1 && nw == n1 && !memcmp(gw, g1, nw * sizeof(PetscReal)));
  for (int i = 0; i < NSHOTS; i++) same = (PetscBool)(same && Jm[i] == Jm1[i]);
  if (!rw_test_rank()) printf("# %d ranks: J %.17g = %.17g + %.17g + %.17g + %.17g; one rank: J %.17g, dJ/dm %s\n", rw_test_size(), J, Jm[0], Jm[1], Jm[2], Jm[3], J1, same ? "identical" : "DIFFERENT");
  rw_assert_all(Jm[0] > 0 && Jm[1] != Jm[0], "the shots' J %g %g: the test would prove nothing", Jm[0], Jm[1]);
  rw_assert_all(same, "%d ranks: J %.17g, one rank %.17g; shot J's and dJ/dm must be identical", rw_test_size(), J, J1);
  RW_CHECK(PetscFree(gw));
  RW_CHECK(PetscFree(g1));
  RW_CHECK(VecDestroy(&G1));
  RW_CHECK(shots_destroy(&S1));

  for (PetscInt g = 1; g <= PetscMin(rw_test_size(), NSHOTS); g++) {
    RwEnsemble       e;
    MPI_Comm         sub;
    Shots            S;
    PetscInt         nr;
    PetscReal        Je;
    const PetscReal *Jall;
    Vec              Ge, gi;
    PetscBool        eq, em = PETSC_TRUE;

    RW_CHECK(RwEnsembleCreate(PETSC_COMM_WORLD, &e));
    RW_CHECK(RwEnsembleSetSize(e, NSHOTS));
    RW_CHECK(RwEnsembleSetGroups(e, g));
    RW_CHECK(RwEnsembleSetUp(e));
    RW_CHECK(RwEnsembleGetSubComm(e, &sub));
    RW_CHECK(shots_create(sub, &S));
    RW_CHECK(RwEnsembleSetDM(e, S.model->fda, W.model->fda));
    RW_CHECK(DMCreateGlobalVector(S.model->fda, &gi));
    RW_CHECK(VecDuplicate(G, &Ge));
    RW_CHECK(RwEnsembleGetRounds(e, &nr));
    RW_CHECK(RwEnsembleSumBegin(e, Ge));
    for (PetscInt r = 0; r < nr; r++) {
      PetscInt  i;
      PetscReal Ji = 0;

      RW_CHECK(RwEnsembleGetRoundMember(e, r, &i));
      if (i >= 0) RW_CHECK(shot_solve(&S, i, &Ji, gi));
      RW_CHECK(RwEnsembleSumAdd(e, Ji, i >= 0 ? gi : NULL));
    }
    RW_CHECK(RwEnsembleSumEnd(e, &Je));
    RW_CHECK(RwEnsembleGetMemberValues(e, &Jall));
    RW_CHECK(VecEqual(G, Ge, &eq));
    for (int i = 0; i < NSHOTS; i++) em = (PetscBool)(em && Jall[i] == Jm[i]);
    if (!rw_test_rank()) printf("# %d ranks, %" PetscInt_FMT " shot groups: J %.17g, dJ/dm %s the loop's\n", rw_test_size(), g, Je, eq ? "identical to" : "DIFFERENT from");
    rw_assert_all(Je == J && em && eq, "%d ranks, %" PetscInt_FMT " groups: J %.17g (loop %.17g), shot J's equal %d, dJ/dm equal %d", rw_test_size(), g, Je, J, em, eq);
    RW_CHECK(VecDestroy(&gi));
    RW_CHECK(VecDestroy(&Ge));
    RW_CHECK(shots_destroy(&S));
    RW_CHECK(RwEnsembleDestroy(&e));
  }
  RW_CHECK(VecDestroy(&G));
  RW_CHECK(shots_destroy(&W));
}
END_TEST

/* Shot i's own spread: 3 + i receivers, moved 10.3 i along x (a moving spread of another size each shot) */
static void spread(PetscInt i, PetscInt *n, PetscReal r[])
{
  *n = 3 + i;
  for (PetscInt k = 0; k < *n; k++) r[2 * k] = rec[2 * k] + 10.3 * i, r[2 * k + 1] = rec[2 * k + 1];
}

/* A driver's J and dJ/dm for shot i with data d, copied out */
static PetscErrorCode spread_solve(Shots *S, RwAdjoint adj, PetscInt i, PetscReal *J, Vec gm)
{
  Vec f;

  PetscFunctionBegin;
  PetscCall(RwModelWaveSetSources(S->model, 1, src[i]));
  PetscCall(RwAdjointSolve(adj, S->m, S->u0, J, S->g, S->gu0));
  PetscCall(RwModelGetParameterField(S->model, S->g, 0, &f));
  PetscCall(VecCopy(f, gm));
  PetscCall(RwModelRestoreParameterField(S->model, S->g, 0, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Receivers moved per shot (RwObjectiveSetWaveReceivers, in the order 0 1 2 3 1:
  growing, then back to a smaller spread) give the very J and dJ/dm of an
  objective and driver made afresh with that shot's receivers
*/
START_TEST(test_moving_receivers)
{
  const PetscInt order[5] = {0, 1, 2, 3, 1};
  Shots          S;
  PetscInt64     n;
  PetscReal      r[2 * NREC], *d;
  PetscInt       nr;
  Vec            ga, gb;

  RW_CHECK(shots_create(PETSC_COMM_WORLD, &S));
  RW_CHECK(RwModelGetSteps(S.model, &n));
  RW_CHECK(PetscMalloc1((n + 1) * NREC, &d));
  RW_CHECK(DMCreateGlobalVector(S.model->fda, &ga));
  RW_CHECK(VecDuplicate(ga, &gb));
  for (int q = 0; q < 5; q++) {
    const PetscInt i = order[q];
    RwObjective    obj;
    RwAdjoint      adj;
    const char    *prefix;
    PetscReal      Ja, Jb;
    PetscBool      eq;

    spread(i, &nr, r);
    RW_CHECK(RwModelWaveSetSources(S.model, 1, src[i]));
    RW_CHECK(RwModelWaveRecord(S.model, S.mtrue, nr, r, d));
    RW_CHECK(RwObjectiveSetWaveReceivers(S.obj, nr, r, d));
    RW_CHECK(spread_solve(&S, S.adj, i, &Ja, ga));
    RW_CHECK(RwObjectiveCreate(S.model, &obj));
    RW_CHECK(RwObjectiveAddWaveReceivers(obj, nr, r, d));
    RW_CHECK(RwAdjointCreate(S.model, obj, &adj));
    RW_CHECK(PetscObjectGetOptionsPrefix((PetscObject)S.model, &prefix));
    RW_CHECK(PetscObjectSetOptionsPrefix((PetscObject)adj, prefix));
    RW_CHECK(RwAdjointSetFromOptions(adj));
    RW_CHECK(RwAdjointSetUp(adj));
    RW_CHECK(spread_solve(&S, adj, i, &Jb, gb));
    RW_CHECK(VecEqual(ga, gb, &eq));
    if (!rw_test_rank()) printf("# shot %" PetscInt_FMT ", %" PetscInt_FMT " receivers moved: J %.17g, afresh %.17g, dJ/dm %s\n", i, nr, Ja, Jb, eq ? "identical" : "DIFFERENT");
    rw_assert_all(Ja > 0 && Ja == Jb && eq, "shot %" PetscInt_FMT ": moved receivers give J %.17g, a fresh objective %.17g; dJ/dm equal %d", i, Ja, Jb, eq);
    RW_CHECK(RwAdjointDestroy(&adj));
    RW_CHECK(RwObjectiveDestroy(&obj));
  }
  RW_CHECK(VecDestroy(&ga));
  RW_CHECK(VecDestroy(&gb));
  RW_CHECK(PetscFree(d));
  RW_CHECK(shots_destroy(&S));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("wave-shots");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_shot_groups);
  tcase_add_test(tc, test_moving_receivers);
  suite_add_tcase(s, tc);
  return s;
}
