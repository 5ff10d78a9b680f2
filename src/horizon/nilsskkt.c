/*
  NILSS's least-squares problem (src/horizon/shadowing.c): over S segments,
  minimise sum_i a_i^T C_i a_i + 2 d_i^T a_i subject to a_i = R_i a_i-1 + b_i
  (i = 1..S-1), with C_i symmetric positive definite (the homogeneous
  tangents' Gram matrix summed over segment i).  Its KKT system
      C a + B^T mu = -d,   B a = b
  (B: the constraints, I at block i and -R_i at block i-1) is solved by the
  Schur complement on the multipliers, a = -C^-1 (d + B^T mu) and
      (B C^-1 B^T) mu = -(b + B C^-1 d),
  whose matrix is block tridiagonal and positive definite:
      diagonal block i       C_i^-1 + R_i C_i-1^-1 R_i^T,
      block (i, i + 1)       -C_i^-1 R_i+1^T.
  It is stored as a band of half-width 2u - 1 and solved by LAPACK's banded
  Cholesky (pbsv): O(S u^3) work and O(S u^2) memory, where the dense LU of
  the (2S - 1) u unknowns took O(S^3 u^3) and O(S^2 u^2) (S = 200, u = 14:
  250 MB).  Every rank solves the same system from the same numbers.
*/
#include <rewind/private/horizonimpl.h>
#include <petscblaslapack.h>

/* LAPACK's banded Cholesky solve: in every LAPACK, not declared by petscblaslapack.h */
#define LAPACKpbsv_ PETSCBLAS(pbsv, PBSV)
BLAS_EXTERN void LAPACKpbsv_(const char *, const PetscBLASInt *, const PetscBLASInt *, const PetscBLASInt *, PetscScalar *, const PetscBLASInt *, PetscScalar *, const PetscBLASInt *, PetscBLASInt *);

typedef struct {
  PetscBLASInt p, S, one;
  PetscReal   *L;  /* S blocks: the Cholesky factors of C_i (potrf, lower) */
  PetscReal   *X;  /* S blocks: X_i = C_i-1^-1 R_i^T (block 0 unused) */
  PetscReal   *Ci; /* S blocks: C_i^-1 */
  PetscReal   *e;  /* S x p: C_i^-1 d_i */
} RwKKT;

/* y = C_i^-1 y for nrhs columns of p (column-major) */
static PetscErrorCode KKTCSolve(RwKKT *k, PetscInt i, PetscBLASInt nrhs, PetscReal y[])
{
  PetscBLASInt info;

  PetscFunctionBegin;
  LAPACKpotrs_("L", &k->p, &nrhs, &k->L[i * k->p * k->p], &k->p, y, &k->p, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "NILSS: LAPACK potrs failed (info %d)", (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Factor every C_i; C_i^-1, C_i^-1 d_i and C_i-1^-1 R_i^T */
static PetscErrorCode KKTFactor(RwKKT *k, MPI_Comm comm, const PetscReal C[], const PetscReal d[], const PetscReal R[])
{
  const PetscInt p = k->p, pp = p * p;
  PetscBLASInt   info;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < k->S; i++) {
    PetscCall(PetscArraycpy(&k->L[i * pp], &C[i * pp], pp));
    LAPACKpotrf_("L", &k->p, &k->L[i * pp], &k->p, &info);
    PetscCheck(info == 0, comm, PETSC_ERR_NOT_CONVERGED, "NILSS: the homogeneous tangents' Gram matrix of segment %" PetscInt_FMT " is not positive definite (LAPACK potrf info %d): use fewer homogeneous tangents or shorter segments", i, (int)info);
    for (PetscInt j = 0; j < pp; j++) k->Ci[i * pp + j] = (j % (p + 1)) ? 0 : 1;
    PetscCall(KKTCSolve(k, i, k->p, &k->Ci[i * pp]));
    PetscCall(PetscArraycpy(&k->e[i * p], &d[i * p], p));
    PetscCall(KKTCSolve(k, i, k->one, &k->e[i * p]));
  }
  for (PetscInt i = 1; i < k->S; i++) {
    for (PetscInt r = 0; r < p; r++) /* column r of R_i^T is row r of R_i */
      for (PetscInt c = 0; c < p; c++) k->X[i * pp + r * p + c] = R[i * pp + r * p + c];
    PetscCall(KKTCSolve(k, i - 1, k->p, &k->X[i * pp]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Schur complement's upper band (pbsv's 'U' storage, half-width 2p - 1) and its
   right-hand side; block row r holds constraint i = r + 1 */
static void KKTSchur(const RwKKT *k, const PetscReal R[], const PetscReal b[], PetscReal AB[], PetscReal mu[])
{
  const PetscInt p = k->p, pp = p * p, kd = 2 * p - 1, ld = kd + 1;

  for (PetscInt r = 0; r < k->S - 1; r++) {
    const PetscInt i = r + 1;
    for (PetscInt c = 0; c < p; c++) { /* column r p + c: rows of block (r, r) */
      for (PetscInt a = 0; a <= c; a++) {
        PetscReal v = k->Ci[i * pp + c * p + a]; /* C_i^-1 + R_i X_i, X_i = C_i-1^-1 R_i^T */
        for (PetscInt l = 0; l < p; l++) v += R[i * pp + a * p + l] * k->X[i * pp + c * p + l];
        AB[(kd + a - c) + (r * p + c) * ld] = v;
      }
      if (r == 0) continue;
      for (PetscInt a = 0; a < p; a++) AB[(kd + (r - 1) * p + a - (r * p + c)) + (r * p + c) * ld] = -k->X[i * pp + c * p + a]; /* block (r-1, r): -C_i-1^-1 R_i^T */
    }
    for (PetscInt a = 0; a < p; a++) { /* -(b_i + C_i^-1 d_i - R_i C_i-1^-1 d_i-1) */
      PetscReal v = b[i * p + a] + k->e[i * p + a];
      for (PetscInt l = 0; l < p; l++) v -= R[i * pp + a * p + l] * k->e[(i - 1) * p + l];
      mu[r * p + a] = -v;
    }
  }
}

/*@C
  RwHorizonShadowingSolveKKT - NILSS's least squares: the a_i minimising
  sum_i a_i^T C_i a_i + 2 d_i^T a_i subject to a_i = R_i a_i-1 + b_i, by the
  Schur complement on the constraints' multipliers (block tridiagonal, LAPACK
  banded Cholesky)

  Not collective (every rank passes the same numbers and gets the same a)

  Input Parameters:
+ p - the homogeneous tangents (the size of each a_i)
. S - the segments, >= 2
. C - S blocks of p x p, symmetric positive definite
. d - S x p
. R - S blocks of p x p, row-major (R[i p p + j p + l] = (R_i)_jl), block 0 unused
- b - S x p, block 0 unused

  Output Parameter:
. a - S x p

  Level: developer

.seealso: RwHorizonShadowingSensitivity()
@*/
PetscErrorCode RwHorizonShadowingSolveKKT(PetscInt p, PetscInt S, const PetscReal C[], const PetscReal d[], const PetscReal R[], const PetscReal b[], PetscReal a[])
{
  const PetscInt pp = p * p, n = (S - 1) * p, ld = 2 * p;
  RwKKT          k  = {0};
  PetscReal     *AB, *mu;
  PetscBLASInt   bn, kd, bld, info;

  PetscFunctionBegin;
  PetscCheck(p >= 1 && S >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "NILSS: %" PetscInt_FMT " tangents and %" PetscInt_FMT " segments: need at least 1 and 2", p, S);
  PetscCall(PetscBLASIntCast(p, &k.p));
  PetscCall(PetscBLASIntCast(S, &k.S));
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscBLASIntCast(2 * p - 1, &kd));
  PetscCall(PetscBLASIntCast(ld, &bld));
  k.one = 1;
  PetscCall(PetscMalloc4(S * pp, &k.L, S * pp, &k.X, S * pp, &k.Ci, S * p, &k.e));
  PetscCall(PetscCalloc2(ld * n, &AB, n, &mu));
  PetscCall(KKTFactor(&k, PETSC_COMM_SELF, C, d, R));
  KKTSchur(&k, R, b, AB, mu);
  LAPACKpbsv_("U", &bn, &kd, &k.one, AB, &bld, mu, &bn, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "NILSS: the least-squares (KKT) system's Schur complement is not positive definite (LAPACK pbsv info %d): use fewer homogeneous tangents or longer segments", (int)info);
  for (PetscInt i = 0; i < S; i++) { /* a_i = -C_i^-1 (d_i + mu_i - R_i+1^T mu_i+1) */
    for (PetscInt j = 0; j < p; j++) {
      PetscReal v = d[i * p + j];
      if (i >= 1) v += mu[(i - 1) * p + j];
      if (i + 1 < S)
        for (PetscInt l = 0; l < p; l++) v -= R[(i + 1) * pp + l * p + j] * mu[i * p + l];
      a[i * p + j] = -v;
    }
    PetscCall(KKTCSolve(&k, i, k.one, &a[i * p]));
  }
  PetscCall(PetscFree2(AB, mu));
  PetscCall(PetscFree4(k.L, k.X, k.Ci, k.e));
  PetscFunctionReturn(PETSC_SUCCESS);
}
