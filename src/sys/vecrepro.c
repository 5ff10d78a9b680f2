/* Reductions of whole vectors that do not depend on the decomposition. */
#include <rewind/private/rwimpl.h>

/*@
  RwVecDotRepro - <x, y> and, if asked, sum |x_i y_i|; each product is rounded
  on its own and the products are summed exactly, so the result is bitwise the
  same on any number of ranks

  Collective

  Output Parameters:
+ dot    - the dot product
- absdot - the sum of |x_i y_i| (may be NULL): the scale against which to judge rounding

  Level: intermediate

.seealso: RwGlobalSum(), RwVecSumRepro(), RwVecNormRepro()
@*/
PetscErrorCode RwVecDotRepro(Vec x, Vec y, PetscReal *dot, PetscReal *absdot)
{
  RwReproSum         rs;
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          s[2];

  PetscFunctionBegin;
  PetscCall(RwReproSumCreate(2, &rs));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(y, &b));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal p = PetscRealPart(a[i] * b[i]);
    PetscCall(RwReproSumAdd(rs, 0, p));
    PetscCall(RwReproSumAdd(rs, 1, PetscAbsReal(p)));
  }
  PetscCall(VecRestoreArrayRead(y, &b));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(RwReproSumAllreduce(rs, PetscObjectComm((PetscObject)x), s));
  PetscCall(RwReproSumDestroy(&rs));
  *dot = s[0];
  if (absdot) *absdot = s[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwVecSumRepro - the sum of the entries, bitwise the same on any number of ranks

  Collective

  Level: intermediate

.seealso: RwVecDotRepro()
@*/
PetscErrorCode RwVecSumRepro(Vec x, PetscReal *sum)
{
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(RwGlobalSum(PetscObjectComm((PetscObject)x), n, (const PetscReal *)a, sum));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwVecNormRepro - the 2-norm, bitwise the same on any number of ranks

  Collective

  Level: intermediate

.seealso: RwVecDotRepro()
@*/
PetscErrorCode RwVecNormRepro(Vec x, PetscReal *norm)
{
  PetscReal d;

  PetscFunctionBegin;
  PetscCall(RwVecDotRepro(x, x, &d, NULL));
  *norm = PetscSqrtReal(d);
  PetscFunctionReturn(PETSC_SUCCESS);
}
