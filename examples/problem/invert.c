/* Your own inverse problem: recover a field of a model from your data with
   TAO, through rewind's problem layer (doc/problem.md).  The data come from
   -rw_obs file.h5 (doc/observations.md); the rest from options. */
static char help[] = "invert: recovers -rw_unknown (default kappa) from -rw_obs file.h5 with TAO; writes invert.h5\n";

#include <rewind.h>
#include <petscviewerhdf5.h>

int main(int argc, char **argv)
{
  RwProblem   prob;
  RwModel     model;
  Tao         tao;
  Vec         x, lo, hi;
  PetscViewer v;
  char        unknown[64] = "kappa";

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-rw_unknown", unknown, sizeof(unknown), NULL));
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &prob));
  PetscCall(RwProblemSetUnknown(prob, unknown));                            /* what TAO changes, for every member */
  PetscCall(RwProblemAddRegularizer(prob, NULL, RW_REG_TV, 100, 0.5, NULL)); /* -rw_reg_type, -rw_reg_alpha change it */
  PetscCall(RwProblemSetJournal(prob, "invert.state"));                     /* a killed run resumes with -rw_restart */
  PetscCall(RwProblemSetFromOptions(prob));                                 /* -rw_obs, -rw_model_type, -rw_ensemble_groups, ... */
  PetscCall(RwProblemSetUp(prob));
  PetscCall(RwProblemCreateUnknownVector(prob, &x));
  PetscCall(VecSet(x, 1));                                                  /* the start */
  PetscCall(VecDuplicate(x, &lo));
  PetscCall(VecDuplicate(x, &hi));
  PetscCall(VecSet(lo, 0.05));                                              /* kappa > 0 */
  PetscCall(VecSet(hi, PETSC_INFINITY));
  PetscCall(TaoCreate(PETSC_COMM_WORLD, &tao));
  PetscCall(TaoSetType(tao, TAOBLMVM));
  PetscCall(TaoSetSolution(tao, x));
  PetscCall(TaoSetVariableBounds(tao, lo, hi));
  PetscCall(TaoSetFromOptions(tao));                                        /* -tao_max_it, -tao_monitor, ... */
  PetscCall(RwProblemSolve(prob, tao));                                     /* -rw_history_view ascii: a line an iteration */
  PetscCall(RwProblemComplete(prob));
  PetscCall(RwProblemGetModel(prob, &model));
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, "invert.h5", FILE_MODE_WRITE, &v));
  PetscCall(RwIOWriteField(model, v, unknown, x));                          /* h5py: f["kappa"][()] */
  PetscCall(RwProblemHistoryView(prob, v));                                 /* f["history/J"][()] */
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(TaoDestroy(&tao));
  PetscCall(VecDestroy(&lo));
  PetscCall(VecDestroy(&hi));
  PetscCall(VecDestroy(&x));
  PetscCall(RwProblemDestroy(&prob));                                       /* after the output: the journal goes */
  PetscCall(PetscFinalize());
  return 0;
}
