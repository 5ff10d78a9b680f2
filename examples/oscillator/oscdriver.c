static char help[] = "oscdriver: J and its gradient for the oscillator model (osc.c), then a Taylor test.\n"
                     "Prints J, the gradient's norms and the Taylor remainders; exits 0 when the\n"
                     "first-order remainder falls at order >= 1.9 (PASS), 2 otherwise (FAIL).\n\n"
                     "  -osc_dim <1,2,3> -osc_block_size <N> -da_grid_x <M> -rw_steps <n> -rw_dt <dt>\n"
                     "Checkpointing: -rw_schedule_type, -rw_schedule_ram_slots, -rw_store_type, ...\n\n";

#include <rewind.h>

/* osc.c, compiled into this program (or into libosc.so for -rw_model_plugin) */
PETSC_EXTERN PetscErrorCode RwModelPluginRegister(void);

/* |dJ/dc| and the damping block's gradient, summed in index order on every rank alike */
static PetscErrorCode Report(RwModel model, PetscReal J, Vec g)
{
  Vec        dc;
  PetscReal  norm, *gw, sum = 0;
  PetscInt   b, size;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, g, 0, &dc));
  PetscCall(RwVecNormRepro(dc, &norm));
  PetscCall(RwModelRestoreParameterField(model, g, 0, &dc));
  PetscCall(RwModelFindParameterBlock(model, "w", &b));
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, &size, NULL, NULL));
  PetscCall(PetscMalloc1(size, &gw));
  PetscCall(RwModelGetParameterBlock(model, g, b, gw));
  for (PetscInt i = 0; i < size; i++) sum += gw[i];
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "J %.17g\nnorm2_dJdc %.17g\nsum_dJdw %.17g (%" PetscInt_FMT " coefficients)\n", (double)J, (double)norm, (double)sum, size));
  PetscCall(PetscFree(gw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  RwModel      model;
  RwObjective  obj;
  RwAdjoint    adj;
  Vec          m, u0, g, gu0;
  PetscReal    J;
  RwTaylorTest t;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(RwModelPluginRegister());
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, &model));
  PetscCall(RwModelSetType(model, "osc"));
  PetscCall(RwModelSetFromOptions(model));
  PetscCall(RwModelSetUp(model));
  PetscCall(RwModelCreateParameters(model, &m));
  PetscCall(RwModelCreateState(model, &u0));
  PetscCall(RwModelGetDefaults(model, m, u0, NULL));
  PetscCall(RwObjectiveCreate(model, &obj));
  PetscCall(RwObjectiveAddDefaultMisfit(obj));
  PetscCall(RwAdjointCreate(model, obj, &adj));
  PetscCall(RwAdjointSetFromOptions(adj));
  PetscCall(RwAdjointSetUp(adj));
  PetscCall(VecDuplicate(m, &g));
  PetscCall(VecDuplicate(u0, &gu0));
  PetscCall(RwAdjointSolve(adj, m, u0, &J, g, gu0));
  PetscCall(Report(model, J, g));
  PetscCall(RwVerifyTaylor(adj, m, u0, 3, &t));
  for (PetscInt i = 0; i < t.n; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "taylor eps %.3e r0 %.6e r1 %.6e order1 %.3f\n", (double)t.eps[i], (double)t.r0[i], (double)t.r1[i], (double)t.order1[i]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "taylor_min_order1 %.3f %s\n", (double)t.min_order1, t.min_order1 >= 1.9 ? "PASS" : "FAIL"));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&gu0));
  PetscCall(VecDestroy(&u0));
  PetscCall(VecDestroy(&m));
  PetscCall(RwAdjointDestroy(&adj));
  PetscCall(RwObjectiveDestroy(&obj));
  PetscCall(RwModelDestroy(&model));
  PetscCall(PetscFinalize());
  return t.min_order1 >= 1.9 ? 0 : 2;
}
