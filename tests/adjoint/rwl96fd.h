/* The finite-difference reference of d<x>/dF for Lorenz-96 (N = 40, F = 8)
   that the chaotic-sensitivity tests (t451 windowed adjoint, t453 NILSS)
   compare their estimates with.  Not collective: every rank, or one, may call it. */
#ifndef RW_L96FD_H
#define RW_L96FD_H
#include "rwtest.h"
#include <rewind/horizon.h>

/* (<x>(F + dF) - <x>(F - dF)) / 2 dF over nb blocks of len steps each, from the state after
   spinup steps: mean and standard error.  On each rank alone: long runs of 40 points are
   cheapest there (the same bits as on all ranks) */
static inline void rw_l96_finite_differences(PetscInt64 spinup, PetscReal dF, PetscInt nb, PetscInt64 len, PetscReal *fd, PetscReal *err)
{
  RwModel       model;
  RwTestProblem p;
  Vec           u[2], mp[2];
  PetscReal     s = 0, q = 0, v[64];
  char          opts[64];

  ck_assert_msg(nb >= 2 && nb <= 64, "finite differences over %d blocks: 2 to 64", (int)nb); /* not collective: a rank may compute them alone */

  snprintf(opts, sizeof(opts), "-da_grid_x 40 -rw_steps %lld", (long long)len);
  RW_CHECK(rw_test_model_type_comm(PETSC_COMM_SELF, "l96", opts, &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwObjectiveAddTimeAverage(p.obj, 1.0));
  RW_CHECK(rw_test_problem_driver(&p));
  RW_CHECK(RwHorizonWindowStarts(model, p.m, p.u0, spinup, 1, 1, &p.u0));
  for (int j = 0; j < 2; j++) {
    PetscReal F = 8 + (j ? -dF : dF);
    RW_CHECK(VecDuplicate(p.m, &mp[j]));
    RW_CHECK(VecCopy(p.m, mp[j]));
    RW_CHECK(RwModelSetParameterBlock(model, mp[j], 0, &F));
    RW_CHECK(VecDuplicate(p.u0, &u[j]));
    RW_CHECK(VecCopy(p.u0, u[j]));
  }
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal J[2];
    for (int j = 0; j < 2; j++) RW_CHECK(RwAdjointForward(p.adj, mp[j], u[j], &J[j], u[j]));
    v[b] = (J[0] - J[1]) / (2 * dF);
    s += v[b];
  }
  *fd = s / nb;
  for (PetscInt b = 0; b < nb; b++) q += PetscSqr(v[b] - *fd);
  *err = PetscSqrtReal(q / (nb - 1) / nb);
  if (!rw_test_rank()) printf("# finite differences, dF = %g, %" PetscInt_FMT " blocks of %lld steps: d<x>/dF = %.6f +- %.6f\n", (double)dF, nb, (long long)len, (double)*fd, (double)*err);
  for (int j = 0; j < 2; j++) {
    RW_CHECK(VecDestroy(&u[j]));
    RW_CHECK(VecDestroy(&mp[j]));
  }
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

#endif
