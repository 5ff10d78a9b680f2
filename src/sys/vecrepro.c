/* Reductions of whole vectors that do not depend on the decomposition. */
#include <rewind/private/rwimpl.h>
#include <rewind/private/kernelisaimpl.h>
#include <petscdmda.h>
#include <string.h>

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

/* The checksum's loop, compiled per instruction set: four 64-bit multiplies
   per value, which AVX-512's vpmullq does 8 at a time (2.5x the portable
   loop at 512K values).  Integer sums wrap the same in any order, so every
   variant gives the same bits. */
RW_KERNEL_INLINE void RwChecksumRowsBody(const PetscInt M[3], const PetscInt start[3], const PetscInt count[3], PetscInt dof, const PetscScalar a[], uint64_t *sum)
{
  uint64_t local = 0;
  PetscInt p     = 0;

  for (PetscInt z = start[2]; z < start[2] + count[2]; z++)
    for (PetscInt y = start[1]; y < start[1] + count[1]; y++) {
      uint64_t row = (((uint64_t)z * (uint64_t)M[1] + (uint64_t)y) * (uint64_t)M[0] + (uint64_t)start[0]) * (uint64_t)dof;

      for (PetscInt c = 0; c < count[0] * dof; c++, p++) {
        uint64_t bits;

        memcpy(&bits, &a[p], sizeof(bits));
        local += RwSplitMix64(RwSplitMix64(row + (uint64_t)c) ^ bits);
      }
    }
  *sum = local;
}
RW_KERNEL_VARIANTS(RwChecksumRows, (const PetscInt M[3], const PetscInt start[3], const PetscInt count[3], PetscInt dof, const PetscScalar a[], uint64_t *sum), (M, start, count, dof, a, sum));

/*@C
  RwChecksumBlock - this rank's share of a checksum of a field on a grid that
  does not depend on the decomposition: the sum, modulo 2^64, of
  splitmix64(splitmix64(i) ^ bits(v)) over the values v of the block and their
  natural indices i = ((z M_y + y) M_x + x) dof + c.  Add the shares of all
  ranks (wrapping MPI_SUM of uint64_t) for the checksum of the whole field.

  Not collective

  Input Parameters:
+ M     - the grid sizes x, y, z (1 for unused directions)
. start - the block's first point
. count - the block's extent
. dof   - values per point
- a     - the block's values, x fastest, then components

  Level: developer

.seealso: RwSplitMix64()
@*/
uint64_t RwChecksumBlock(const PetscInt M[3], const PetscInt start[3], const PetscInt count[3], PetscInt dof, const PetscScalar a[])
{
  uint64_t local = 0;

  RwChecksumRowsVariants[RwKernelISABest()](M, start, count, dof, a, &local);
  return local;
}

/*@
  RwVecChecksum - a checksum of a vector that does not depend on the
  decomposition: RwChecksumBlock() over the natural order of its DMDA (a
  vector without one counts as a 1D grid in the order of its entries), the
  ranks' shares added with a wrapping sum

  Collective

  Input Parameter:
. v - the vector

  Output Parameter:
. sum - the checksum, the same on every rank and for any number of ranks

  Level: developer

.seealso: RwChecksumBlock()
@*/
PetscErrorCode RwVecChecksum(Vec v, uint64_t *sum)
{
  DM                 dm;
  PetscBool          isda = PETSC_FALSE;
  PetscInt           M[3] = {1, 1, 1}, s[3] = {0, 0, 0}, c[3] = {1, 1, 1}, dof = 1, lo, hi;
  const PetscScalar *a;
  uint64_t           local;

  PetscFunctionBegin;
  PetscCall(VecGetDM(v, &dm));
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  if (isda) {
    PetscCall(DMDAGetInfo(dm, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetCorners(dm, &s[0], &s[1], &s[2], &c[0], &c[1], &c[2]));
  } else {
    PetscCall(VecGetSize(v, &M[0]));
    PetscCall(VecGetOwnershipRange(v, &lo, &hi));
    s[0] = lo;
    c[0] = hi - lo;
  }
  PetscCall(VecGetArrayRead(v, &a));
  local = RwChecksumBlock(M, s, c, dof, a);
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscCallMPI(MPI_Allreduce(&local, sum, 1, MPI_UINT64_T, MPI_SUM, PetscObjectComm((PetscObject)v)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
