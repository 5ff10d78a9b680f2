/*
  The values of a vector that lives on the first rank (a problem's unknown
  block: a control, network weights), on every rank, as the model's block
  setters and the programs' reports need them.
*/
#include <rewind/private/rwimpl.h>

/*@
  RwVecGetFirstRankValues - the n values of x, which the first rank of its
  communicator holds (the others hold none), on every rank

  Collective

  Input Parameters:
+ x - the vector
- n - its global size

  Output Parameter:
. v - n values

  Level: developer
@*/
PetscErrorCode RwVecGetFirstRankValues(Vec x, PetscInt n, PetscReal v[])
{
  const PetscScalar *a;
  PetscInt           nl;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &nl));
  PetscCall(VecGetArrayRead(x, &a));
  for (PetscInt i = 0; i < nl; i++) v[i] = PetscRealPart(a[i]);
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCallMPI(MPI_Bcast(v, (PetscMPIInt)n, MPIU_REAL, 0, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
