/*
  Orthonormalising tangents after one reduction.  Gram-Schmidt takes one
  reduction, a synchronisation of all ranks, per dot product: p (p + 1) / 2 of
  them for p tangents, and modified Gram-Schmidt cannot batch them (each
  product needs the vector the previous one updated).  Cholesky QR takes one:
  the Gram matrix G = W^T W, every entry an exact sum (RwReproSum: the same
  bits on any number of ranks), all entries in one reduction; its Cholesky
  factor R (G = R^T R, LAPACK potrf on the same data on every rank); and
  Q = W R^-1, column by column.

  Q's loss of orthogonality is about eps cond(W)^2, against modified
  Gram-Schmidt's eps cond(W) (Stathopoulos and Wu 2002, SIAM J. Sci. Comput.
  23; Yamamoto et al. 2015, ETNA 44).  Tangents renormalised before they grow
  far apart lose nothing that matters: the Lyapunov spectrum reads only R's
  diagonal, and NILSS only needs W = Q R exactly, which holds to rounding
  whatever Q's orthogonality.  When cond(W) nears 1/sqrt(eps) the factorisation
  breaks down and the caller stops, asking for more frequent renormalisation.

  Column 0 is only divided by its exact norm (sqrt(G_00), as RwVecNormRepro()):
  a single tangent and the first of several are renormalised the same way, so
  exponent 0 of a spectrum is RwHorizonLyapunov()'s, bit for bit.
*/
#include <rewind/private/horizonimpl.h>
#include <petscblaslapack.h>

#define RW_GRAM_CHUNK 256

/* The exact products x_e y_e of this rank's entries, into slot s */
static PetscErrorCode AddProducts(RwReproSum acc, PetscInt s, Vec x, Vec y)
{
  const PetscScalar *a, *c;
  PetscReal          buf[RW_GRAM_CHUNK];
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(y, &c));
  for (PetscInt e = 0; e < n; e += RW_GRAM_CHUNK) {
    const PetscInt m = PetscMin(RW_GRAM_CHUNK, n - e);

    for (PetscInt l = 0; l < m; l++) buf[l] = PetscRealPart(a[e + l] * c[e + l]);
    PetscCall(RwReproSumAddArray(acc, s, m, buf));
  }
  PetscCall(VecRestoreArrayRead(y, &c));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwHorizonGramAdd - adds this rank's terms of the Gram matrix W^T W of p
  vectors, packed upper, into slots slot .. slot + p (p + 1) / 2 - 1 of acc:
  entry (j, l), j <= l, in slot + l (l + 1) / 2 + j (RwGramIndex())

  Not collective

  Level: developer

.seealso: RwHorizonCholQR(), RwReproSumAllreduce()
@*/
PetscErrorCode RwHorizonGramAdd(RwReproSum acc, PetscInt slot, PetscInt p, Vec W[])
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < p; l++)
    for (PetscInt j = 0; j <= l; j++) PetscCall(AddProducts(acc, slot + RwGramIndex(j, l), W[j], W[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwHorizonDotsAdd - adds this rank's terms of x^T W_j, j < p, into slots slot + j of acc

  Not collective

  Level: developer

.seealso: RwHorizonGramAdd()
@*/
PetscErrorCode RwHorizonDotsAdd(RwReproSum acc, PetscInt slot, Vec x, PetscInt p, Vec W[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < p; j++) PetscCall(AddProducts(acc, slot + j, x, W[j]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwHorizonCholQR - W = Q R from W's Gram matrix: R by Cholesky, W replaced by Q = W R^-1

  Not collective (every rank must pass the same G: the result of one reduction)

  Input Parameters:
+ p - the number of vectors
- G - their Gram matrix, packed upper (RwHorizonGramAdd()), exact sums rounded once

  Input/Output Parameter:
. W - the vectors, replaced by Q

  Output Parameters:
+ R      - p x p, row-major, upper triangular (R[i p + j] = R_ij, zero below)
- broken - -1, or the first column at which the factorisation broke down (W is then
           unchanged): that vector is, to rounding, a combination of the ones before
           it, or zero, or not finite

  Level: developer

.seealso: RwHorizonGramAdd(), RwHorizonLyapunovSpectrum(), RwHorizonShadowingSensitivity()
@*/
PetscErrorCode RwHorizonCholQR(PetscInt p, const PetscReal G[], Vec W[], PetscReal R[], PetscInt *broken)
{
  PetscBLASInt n, info;

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(p, &n));
  /* G symmetric, stored in full: row-major and column-major are the same memory, and
     potrf's lower factor L in column-major is R = L^T in row-major */
  for (PetscInt l = 0; l < p; l++)
    for (PetscInt j = 0; j <= l; j++) R[j * p + l] = R[l * p + j] = G[RwGramIndex(j, l)];
  *broken = -1;
  for (PetscInt j = 0; j < p; j++)
    if (!(R[j * p + j] > 0) || PetscIsInfOrNanReal(R[j * p + j])) { /* potrf's own checks miss NaN off the diagonal */
      *broken = j;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  LAPACKpotrf_("L", &n, R, &n, &info);
  if (info > 0) *broken = (PetscInt)info - 1;
  for (PetscInt j = 0; j < p && *broken < 0; j++)
    if (!(R[j * p + j] > 0) || PetscIsInfOrNanReal(R[j * p + j])) *broken = j;
  if (*broken >= 0) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt j = 0; j < p; j++)
    for (PetscInt i = j + 1; i < p; i++) R[i * p + j] = 0;
  for (PetscInt j = 0; j < p; j++) {
    for (PetscInt i = 0; i < j; i++) PetscCall(VecAXPY(W[j], -R[i * p + j], W[i]));
    PetscCall(VecScale(W[j], 1 / R[j * p + j]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
