/*
  The ensemble's and the problem layer's moves of a state follow the layout
  the model declares (issue 37, item 1).  A state moves between the
  parent's decomposition and a group's through the DMDA's natural ordering,
  which takes each rank's array as interleaved; a state in planes (each
  rank's u_k block, then its u_k-1 block) is interleaved around it
  (RwEnsembleSetStateDM(), RwModelGet/SetStateInterleaved()).  The wave
  model steps interleaved today: RwModelSetStateLayout_Private() switches
  the parent's and the groups' models to planes, and the states are filled
  and read through RwModelSet/GetStateComponent(), each component a smooth
  function of the coordinates (the same bits on any decomposition).  On 2,
  3 and 4 ranks, in groups of unequal sizes (1+1, 2+1, 2+1+1), 2D and 3D:
  - the ensemble alone: a parent state scattered to the groups, every
    member's state gathered to the parent, and the member-order sum hold
    the same components in either layout, bit for bit; a pair set without
    the models (RwEnsembleSetDM()) scrambles a planes state, so the test
    can fail;
  - a problem whose unknown is u0, members solved by groups: the base u0
    moved to the groups (the problem's own pair), a member's dJ/du0
    gathered to the parent, and the unknown x (RwProblemGetUnknown(): x is
    interleaved in either layout, so its journal in natural order is the
    same bytes) are the same in planes as interleaved; with an unknown per
    member, each member's part set and read back through the layout.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>

#define NMEMBERS 3

static const char *geometry[2] = {
  "-rw_wave_dim 2 -rw_wave_nbl 2 -da_grid_x 23 -da_grid_y 19 -rw_wave_spacing 10,10 -rw_wave_origin 0,0 -rw_steps 4",
  "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 13 -da_grid_y 11 -da_grid_z 10 -rw_wave_spacing 10,10,10 -rw_wave_origin 0,0,0 -rw_steps 4",
};
/* each member's two receivers */
static const PetscReal rec[2][NMEMBERS * 2 * 3] = {
  {33.3, 12.7, 87.1, 65.5, 121.9, 84.4, 41.5, 50.2, 150.2, 20.5, 60.1, 100.3},
  {10.5, 20.2, 12.5, 44.4, 44.4, 44.4, 65.5, 10.1, 19.5, 5.5, 5.5, 60, 30.5, 70.7, 35.5, 80.2, 40.4, 20.2},
};

/* Component p[0] of member p[1]'s state at x: distinct smooth values */
static PetscReal comp(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscReal *p = (const PetscReal *)ctx, e = p[1];

  if (p[0] == 0) return PetscSinReal(0.031 * x[0] + 0.3 + 0.2 * e) * PetscCosReal(0.017 * x[1]) + (dim > 2 ? 0.01 * x[2] : 0);
  return 0.5 + PetscCosReal(0.023 * x[0] - 0.043 * x[1] + 0.1 * e) - (dim > 2 ? 0.002 * x[2] * x[2] : 0);
}

/* State u of model: member e's two components, through the declared layout */
static PetscErrorCode FillState(RwModel model, PetscInt e, Vec u)
{
  Vec f;

  PetscFunctionBegin;
  PetscCall(RwModelCreateField(model, &f));
  for (PetscInt c = 0; c < 2; c++) {
    PetscReal ctx[2] = {(PetscReal)c, (PetscReal)e};

    PetscCall(RwModelFillField(model, f, comp, ctx));
    PetscCall(RwModelSetStateComponent(model, f, c, u));
  }
  PetscCall(VecDestroy(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether this rank's part of state u holds member e's components, bit for bit, where the layout puts them */
static PetscBool Holds(RwModel model, PetscInt e, Vec u)
{
  Vec                f, g;
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscBool          same = PETSC_TRUE;

  RW_CHECK(RwModelCreateField(model, &f));
  RW_CHECK(VecDuplicate(f, &g));
  RW_CHECK(VecGetLocalSize(f, &n));
  for (PetscInt c = 0; c < 2; c++) {
    PetscReal ctx[2] = {(PetscReal)c, (PetscReal)e};

    RW_CHECK(RwModelFillField(model, f, comp, ctx));
    RW_CHECK(RwModelGetStateComponent(model, u, c, g));
    RW_CHECK(VecGetArrayRead(f, &a));
    RW_CHECK(VecGetArrayRead(g, &b));
    if (n && memcmp(a, b, (size_t)n * sizeof(*a))) same = PETSC_FALSE;
    RW_CHECK(VecRestoreArrayRead(g, &b));
    RW_CHECK(VecRestoreArrayRead(f, &a));
  }
  RW_CHECK(VecDestroy(&g));
  RW_CHECK(VecDestroy(&f));
  return same;
}

/* Whether two vectors' parts on this rank are the same bits */
static PetscBool SameLocal(Vec x, Vec y)
{
  const PetscScalar *a, *b;
  PetscInt           n, m;
  PetscBool          same;

  RW_CHECK(VecGetLocalSize(x, &n));
  RW_CHECK(VecGetLocalSize(y, &m));
  RW_CHECK(VecGetArrayRead(x, &a));
  RW_CHECK(VecGetArrayRead(y, &b));
  same = (PetscBool)(n == m && (!n || !memcmp(a, b, (size_t)n * sizeof(*a))));
  RW_CHECK(VecRestoreArrayRead(y, &b));
  RW_CHECK(VecRestoreArrayRead(x, &a));
  return same;
}

/* Groups of unequal sizes where the ranks allow: 2 ranks 1+1, 3 ranks 2+1, 4 ranks 2+1+1 */
static PetscInt Groups(void)
{
  return rw_test_size() == 2 ? 2 : rw_test_size() - 1;
}

static RwModelStateLayout Layout(int l)
{
  return l ? RW_MODEL_STATE_PLANES : RW_MODEL_STATE_INTERLEAVED;
}

static const char *name[2] = {"interleaved", "planes"};

/* Every member's state gathered from its group holds its components; J comes along */
static void CheckGather(RwEnsemble ens, RwModel P, RwModel G, const char *what)
{
  PetscInt group, ng;
  Vec      y, Y;

  RW_CHECK(RwEnsembleGetGroup(ens, &group, &ng));
  RW_CHECK(RwModelCreateState(G, &y));
  RW_CHECK(RwModelCreateState(P, &Y));
  for (PetscInt k = 0; k < NMEMBERS; k++) {
    PetscBool mine = (PetscBool)(k % ng == group);
    PetscReal J    = -1;

    if (mine) RW_CHECK(FillState(G, 1 + k, y));
    RW_CHECK(RwEnsembleGatherMember(ens, k, 0.5 + k, mine ? y : NULL, &J, Y));
    rw_assert_all(Holds(P, 1 + k, Y) && J == 0.5 + k, "%s: member %d's state gathered from group %d does not hold its components (J %g)", what, (int)k, (int)(k % ng), (double)J);
  }
  RW_CHECK(VecDestroy(&Y));
  RW_CHECK(VecDestroy(&y));
}

/* The ensemble alone: scatter, gather and the member-order sum in either layout */
START_TEST(test_ensemble_moves)
{
  for (int dim = 2; dim <= 3; dim++) {
    RwEnsemble ens, plain;
    MPI_Comm   sub;
    RwModel    P, G;
    Vec        X, x, S, s[2][2];
    PetscInt   nr;
    char       what[64];

    RW_CHECK(RwEnsembleCreate(PETSC_COMM_WORLD, &ens));
    RW_CHECK(RwEnsembleSetSize(ens, NMEMBERS));
    RW_CHECK(RwEnsembleSetGroups(ens, Groups()));
    RW_CHECK(RwEnsembleSetUp(ens));
    RW_CHECK(RwEnsembleGetSubComm(ens, &sub));
    RW_CHECK(rw_test_model_type("wave", geometry[dim - 2], &P));
    RW_CHECK(rw_test_model_type_comm(sub, "wave", geometry[dim - 2], &G));
    RW_CHECK(RwEnsembleSetStateDM(ens, G, P));
    RW_CHECK(RwModelCreateState(P, &X));
    RW_CHECK(RwModelCreateState(P, &S));
    RW_CHECK(RwModelCreateState(G, &x));
    for (int l = 0; l < 2; l++) {
      PetscReal J;

      RW_CHECK(PetscSNPrintf(what, sizeof(what), "%dD, %s, %d ranks", dim, name[l], rw_test_size()));
      RW_CHECK(RwModelSetStateLayout_Private(P, Layout(l)));
      RW_CHECK(RwModelSetStateLayout_Private(G, Layout(l)));
      RW_CHECK(FillState(P, 0, X));
      RW_CHECK(VecSet(x, -1));
      RW_CHECK(RwEnsembleScatterToGroups(ens, X, x));
      rw_assert_all(Holds(G, 0, x), "%s: the parent's state scattered to a group does not hold its components", what);
      CheckGather(ens, P, G, what);
      /* the sum: one member a round from each group, added in member order */
      RW_CHECK(RwEnsembleGetRounds(ens, &nr));
      RW_CHECK(RwEnsembleSumBegin(ens, S));
      for (PetscInt r = 0; r < nr; r++) {
        PetscInt m;

        RW_CHECK(RwEnsembleGetRoundMember(ens, r, &m));
        if (m >= 0) RW_CHECK(FillState(G, 1 + m, x));
        RW_CHECK(RwEnsembleSumAdd(ens, m >= 0 ? 1.0 + m : 0, m >= 0 ? x : NULL));
      }
      RW_CHECK(RwEnsembleSumEnd(ens, &J));
      rw_assert_all(J == 6, "%s: the members' J sum to %g; expected 6", what, (double)J);
      for (int c = 0; c < 2; c++) {
        RW_CHECK(RwModelCreateField(P, &s[l][c]));
        RW_CHECK(RwModelGetStateComponent(P, S, c, s[l][c]));
      }
    }
    for (int c = 0; c < 2; c++) rw_assert_all(SameLocal(s[0][c], s[1][c]), "%dD, %d ranks: component %d of the members' sum differs in planes", dim, rw_test_size(), c);
    rw_assert_all(!SameLocal(s[0][0], s[0][1]), "%dD: the sum's two components are the same", dim);

    /* without the models the natural scatter takes the planes array as interleaved: scrambled somewhere */
    RW_CHECK(RwEnsembleCreate(PETSC_COMM_WORLD, &plain));
    RW_CHECK(RwEnsembleSetSize(plain, NMEMBERS));
    RW_CHECK(RwEnsembleSetGroups(plain, Groups()));
    RW_CHECK(RwEnsembleSetUp(plain));
    {
      MPI_Comm sub2;
      RwModel  G2;
      DM       da, gda;
      Vec      x2;
      int      ok, all;

      RW_CHECK(RwEnsembleGetSubComm(plain, &sub2));
      RW_CHECK(rw_test_model_type_comm(sub2, "wave", geometry[dim - 2], &G2));
      RW_CHECK(RwModelSetStateLayout_Private(G2, RW_MODEL_STATE_PLANES));
      RW_CHECK(RwModelGetStateDM(P, &da));
      RW_CHECK(RwModelGetStateDM(G2, &gda));
      RW_CHECK(RwEnsembleSetDM(plain, gda, da));
      RW_CHECK(RwModelCreateState(G2, &x2));
      RW_CHECK(RwEnsembleScatterToGroups(plain, X, x2));
      ok = Holds(G2, 0, x2);
      MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD);
      ck_assert_msg(!all, "%dD, %d ranks: a planes state moved without its layout arrived intact: the test could not tell", dim, rw_test_size());
      RW_CHECK(VecDestroy(&x2));
      RW_CHECK(RwModelDestroy(&G2));
    }
    RW_CHECK(RwEnsembleDestroy(&plain));
    for (int l = 0; l < 2; l++)
      for (int c = 0; c < 2; c++) RW_CHECK(VecDestroy(&s[l][c]));
    RW_CHECK(VecDestroy(&X));
    RW_CHECK(VecDestroy(&S));
    RW_CHECK(VecDestroy(&x));
    RW_CHECK(RwModelDestroy(&G));
    RW_CHECK(RwModelDestroy(&P));
    RW_CHECK(RwEnsembleDestroy(&ens));
  }
}
END_TEST

/* A wave problem of NMEMBERS members (two receivers each), unknown u0 (per member or not), solved by groups; set up */
static void MakeProblem(const char *pre, int dim, PetscBool permember, RwProblem *prob, RwObservations *obs)
{
  const PetscInt64 steps[2] = {2, 4};
  PetscReal        d[4]     = {0.1, 0.2, 0.3, 0.4};
  RwEnsemble       e;
  RwModel          model;

  RW_CHECK(rw_test_problem_create_prefixed(pre, geometry[dim - 2], prob));
  RW_CHECK(RwProblemSetModelType(*prob, RWMODELWAVE));
  RW_CHECK(RwProblemSetUnknown(*prob, "u0"));
  RW_CHECK(RwProblemSetUnknownPerMember(*prob, permember));
  RW_CHECK(RwProblemGetEnsemble(*prob, &e));
  RW_CHECK(RwEnsembleSetGroups(e, Groups()));
  RW_CHECK(RwProblemSetFromOptions(*prob));
  RW_CHECK(RwProblemGetModel(*prob, &model));
  RW_CHECK(RwObservationsCreate(PETSC_COMM_WORLD, obs));
  RW_CHECK(RwObservationsSetModel(*obs, model));
  RW_CHECK(RwObservationsSetNumMembers(*obs, NMEMBERS));
  RW_CHECK(RwObservationsSetSteps(*obs, 2, steps));
  for (PetscInt m = 0; m < NMEMBERS; m++) {
    RW_CHECK(RwObservationsSetSensors(*obs, m, 2, &rec[dim - 2][m * 2 * dim]));
    RW_CHECK(RwObservationsSetData(*obs, m, d, 1));
  }
  RW_CHECK(RwProblemSetObservations(*prob, *obs));
  RW_CHECK(RwProblemSetUp(*prob));
}

/* The problem's moves: u0 to the groups, dJ/du0 back, the unknown x */
START_TEST(test_problem_moves)
{
  for (int dim = 2; dim <= 3; dim++) {
    RwProblem      prob;
    RwObservations obs;
    RwEnsemble     ens;
    RwModel        P, G;
    Vec            m, u0, x[2], gs;
    char           pre[32], what[64];

    RW_CHECK(PetscSNPrintf(pre, sizeof(pre), "pm%d_", dim));
    MakeProblem(pre, dim, PETSC_FALSE, &prob, &obs);
    RW_CHECK(RwProblemGetModel(prob, &P));
    RW_CHECK(RwProblemGetMemberSolver(prob, &G, NULL, NULL));
    RW_CHECK(RwProblemGetEnsemble(prob, &ens));
    RW_CHECK(RwProblemGetParameters(prob, &m, &u0));
    RW_CHECK(RwModelCreateState(G, &gs));
    for (int l = 0; l < 2; l++) {
      RW_CHECK(PetscSNPrintf(what, sizeof(what), "problem, %dD, %s, %d ranks", dim, name[l], rw_test_size()));
      RW_CHECK(RwModelSetStateLayout_Private(P, Layout(l)));
      RW_CHECK(RwModelSetStateLayout_Private(G, Layout(l)));
      RW_CHECK(FillState(P, 0, u0));
      /* the base u0 to the groups, by the pair the problem's set-up made */
      RW_CHECK(RwEnsembleScatterToGroups(ens, u0, gs));
      rw_assert_all(Holds(G, 0, gs), "%s: the base u0 moved to a group does not hold its components", what);
      /* a member's dJ/du0 (a state of the group's model) gathered */
      CheckGather(ens, P, G, what);
      /* the unknown: interleaved whatever the layout */
      RW_CHECK(RwProblemCreateUnknownVector(prob, &x[l]));
      RW_CHECK(RwProblemGetUnknown(prob, x[l]));
      if (!l) rw_assert_all(SameLocal(x[0], u0), "%s: the unknown x is not the interleaved u0", what);
    }
    rw_assert_all(SameLocal(x[0], x[1]), "problem, %dD, %d ranks: the unknown x of a planes u0 differs from the interleaved one's", dim, rw_test_size());
    for (int l = 0; l < 2; l++) RW_CHECK(VecDestroy(&x[l]));
    RW_CHECK(VecDestroy(&gs));
    RW_CHECK(RwProblemDestroy(&prob));
    RW_CHECK(RwObservationsDestroy(&obs));
  }
}
END_TEST

/* An unknown per member: member e's part set from a state and read back, through the layout */
START_TEST(test_problem_member_parts)
{
  for (int dim = 2; dim <= 3; dim++) {
    RwProblem      prob;
    RwObservations obs;
    RwModel        P;
    Vec            p, x[2];
    char           pre[32];

    RW_CHECK(PetscSNPrintf(pre, sizeof(pre), "pp%d_", dim));
    MakeProblem(pre, dim, PETSC_TRUE, &prob, &obs);
    RW_CHECK(RwProblemGetModel(prob, &P));
    RW_CHECK(RwModelCreateState(P, &p));
    for (int l = 0; l < 2; l++) {
      RW_CHECK(RwModelSetStateLayout_Private(P, Layout(l)));
      RW_CHECK(RwProblemCreateUnknownVector(prob, &x[l]));
      for (PetscInt e = 0; e < NMEMBERS; e++) {
        RW_CHECK(FillState(P, e, p));
        RW_CHECK(RwProblemSetMemberUnknown(prob, e, p, x[l]));
      }
      for (PetscInt e = 0; e < NMEMBERS; e++) {
        RW_CHECK(VecSet(p, -1));
        RW_CHECK(RwProblemGetMemberUnknown(prob, e, x[l], p));
        rw_assert_all(Holds(P, e, p), "per member, %dD, %s: member %d's part read back does not hold its components", dim, name[l], (int)e);
      }
    }
    rw_assert_all(SameLocal(x[0], x[1]), "per member, %dD, %d ranks: the unknown x of planes states differs from the interleaved one's", dim, rw_test_size());
    for (int l = 0; l < 2; l++) RW_CHECK(VecDestroy(&x[l]));
    RW_CHECK(VecDestroy(&p));
    RW_CHECK(RwProblemDestroy(&prob));
    RW_CHECK(RwObservationsDestroy(&obs));
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("wave-ensemble-layout");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_ensemble_moves);
  tcase_add_test(tc, test_problem_moves);
  tcase_add_test(tc, test_problem_member_parts);
  suite_add_tcase(s, tc);
  return s;
}
