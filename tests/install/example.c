/* An external program built against an installed rewind through pkg-config. */
#include <rewind.h>

int main(int argc, char **argv)
{
  char      version[64];
  PetscReal terms[3], sum;
  RwModel   model;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(RwGetVersion(version, sizeof(version)));
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, &model));
  PetscCall(RwModelDestroy(&model));
  terms[0] = 1e100;
  terms[1] = 1.0;
  terms[2] = -1e100;
  PetscCall(RwGlobalSum(PETSC_COMM_WORLD, 3, terms, &sum));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s sum %d\n", version, (int)sum));
  PetscCall(PetscFinalize());
  return 0;
}
