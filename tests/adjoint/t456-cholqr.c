/*
  The linear algebra under the Lyapunov spectrum and NILSS (src/horizon/gram.c,
  src/horizon/nilsskkt.c):
  - Cholesky QR from an exactly summed Gram matrix: Q R = W to rounding, Q's
    loss of orthogonality within eps cond(W)^2 at cond(W) about 1e3, the same
    bits (R, and Q's checksum) on all ranks and on one; column 0 divided by its
    exact norm (RwVecNormRepro()) bit for bit; a zero, dependent or non-finite
    column reported by its index with W left as it was;
  - NILSS's least squares by the block-tridiagonal Schur complement against
    the dense KKT system solved by LU, at S = 5 and at S = 200 segments, to
    rounding; its constraints a_i = R_i a_i-1 + b_i hold; a Gram matrix that is
    not positive definite is refused naming the segment.
*/
#include "rwtest.h"
#include <rewind/private/horizonimpl.h>
#include <petscblaslapack.h>

#define P 6

/* W_j = d_0 + 10^(-3 j / (P - 1)) d_j (W_0 = d_0), d_j seeded directions of unit norm: columns
   that lean on d_0, cond(W) about 1e3 */
static void make_columns(RwModel model, Vec W[])
{
  for (PetscInt j = 0; j < P; j++) {
    RW_CHECK(RwModelCreateState(model, &W[j]));
    RW_CHECK(RwHorizonInitialDirection(model, j + 1, W[j]));
  }
  for (PetscInt j = 1; j < P; j++) RW_CHECK(VecAYPX(W[j], PetscPowReal(10, -3.0 * j / (P - 1)), W[0]));
}

/* The Gram matrix of W, exactly summed */
static void gram(MPI_Comm comm, PetscInt p, Vec W[], PetscReal G[])
{
  RwReproSum acc;

  RW_CHECK(RwReproSumCreate(RwGramSlots(p), &acc));
  RW_CHECK(RwHorizonGramAdd(acc, 0, p, W));
  RW_CHECK(RwReproSumAllreduce(acc, comm, G));
  RW_CHECK(RwReproSumDestroy(&acc));
}

/* QR of the test's columns on comm; R, the checksums of Q, and the checks that need W */
static void cholqr(MPI_Comm comm, PetscReal R[], uint64_t sums[])
{
  RwModel   model;
  Vec       W[P], V[P];
  PetscReal G[RwGramSlots(P)], Gq[RwGramSlots(P)], nrm, worst = 0, back = 0, wn = 0;
  PetscInt  broken;

  RW_CHECK(rw_test_model_type_comm(comm, "l96", "-da_grid_x 40 -rw_steps 10", &model));
  make_columns(model, W);
  for (PetscInt j = 0; j < P; j++) {
    RW_CHECK(VecDuplicate(W[j], &V[j]));
    RW_CHECK(VecCopy(W[j], V[j]));
  }
  RW_CHECK(RwVecNormRepro(W[0], &nrm));
  gram(comm, P, W, G);
  RW_CHECK(RwHorizonCholQR(P, G, W, R, &broken));
  rw_assert_all(broken == -1, "Cholesky QR broke down at column %d", (int)broken);
  rw_assert_all(!memcmp(&R[0], &nrm, sizeof(nrm)), "R_00 %a, the exact norm %a", R[0], nrm);
  gram(comm, P, W, Gq); /* Q^T Q - I */
  for (PetscInt l = 0; l < P; l++)
    for (PetscInt j = 0; j <= l; j++) worst = PetscMax(worst, PetscAbsReal(Gq[RwGramIndex(j, l)] - (j == l)));
  for (PetscInt j = 0; j < P; j++) { /* |W_j - sum_i Q_i R_ij| / |W_j| */
    PetscReal e, w;
    RW_CHECK(RwVecNormRepro(V[j], &w));
    for (PetscInt i = 0; i <= j; i++) RW_CHECK(VecAXPY(V[j], -R[i * P + j], W[i]));
    RW_CHECK(RwVecNormRepro(V[j], &e));
    back = PetscMax(back, e / w);
    wn   = PetscMax(wn, R[j * P + j]);
  }
  if (!rw_test_rank()) printf("# Cholesky QR, %d columns, R_55/R_00 = %.3g: |Q^T Q - I| = %.3g, |W - Q R| / |W| = %.3g\n", P, (double)(R[(P - 1) * P + P - 1] / R[0]), (double)worst, (double)back);
  rw_assert_all(worst < 1e-9, "|Q^T Q - I| = %g: more than eps cond(W)^2 (cond about 1e3)", (double)worst);
  rw_assert_all(back < 1e-14, "|W - Q R| / |W| = %g", (double)back);
  for (PetscInt j = 0; j < P; j++) RW_CHECK(RwVecChecksum(W[j], &sums[j]));
  for (PetscInt j = 0; j < P; j++) RW_CHECK(VecDestroy(&W[j]));
  for (PetscInt j = 0; j < P; j++) RW_CHECK(VecDestroy(&V[j]));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_cholqr)
{
  PetscReal R[P * P], Rs[P * P];
  uint64_t  q[P], qs[P];

  cholqr(PETSC_COMM_WORLD, R, q);
  cholqr(PETSC_COMM_SELF, Rs, qs);
  rw_assert_all(!memcmp(R, Rs, sizeof(R)) && !memcmp(q, qs, sizeof(q)), "Cholesky QR differs between %d ranks and one (R_11 %a against %a)", rw_test_size(), R[P + 1], Rs[P + 1]);
}
END_TEST

START_TEST(test_cholqr_breakdown)
{
  RwModel   model;
  Vec       W[3];
  PetscReal G[RwGramSlots(3)], R[9], inf = PETSC_INFINITY;
  uint64_t  before, after;
  PetscInt  broken;

  RW_CHECK(rw_test_model_type("l96", "-da_grid_x 40 -rw_steps 10", &model));
  for (PetscInt j = 0; j < 3; j++) {
    RW_CHECK(RwModelCreateState(model, &W[j]));
    RW_CHECK(RwHorizonInitialDirection(model, j + 1, W[j]));
  }
  RW_CHECK(VecWAXPY(W[2], 2, W[0], W[1])); /* dependent */
  gram(PETSC_COMM_WORLD, 3, W, G);
  RW_CHECK(RwVecChecksum(W[1], &before));
  RW_CHECK(RwHorizonCholQR(3, G, W, R, &broken));
  RW_CHECK(RwVecChecksum(W[1], &after));
  rw_assert_all(broken == 2 && before == after, "a dependent column 2: broken %d, W %s", (int)broken, before == after ? "kept" : "changed");
  RW_CHECK(VecSet(W[1], 0)); /* zero */
  gram(PETSC_COMM_WORLD, 3, W, G);
  RW_CHECK(RwHorizonCholQR(3, G, W, R, &broken));
  rw_assert_all(broken == 1, "a zero column 1: broken %d", (int)broken);
  RW_CHECK(RwHorizonInitialDirection(model, 2, W[1]));
  RW_CHECK(RwHorizonInitialDirection(model, 3, W[2]));
  if (!rw_test_rank()) RW_CHECK(VecSetValue(W[1], 0, inf, INSERT_VALUES));
  RW_CHECK(VecAssemblyBegin(W[1]));
  RW_CHECK(VecAssemblyEnd(W[1]));
  gram(PETSC_COMM_WORLD, 3, W, G);
  RW_CHECK(RwHorizonCholQR(3, G, W, R, &broken));
  rw_assert_all(broken == 1, "a non-finite column 1: broken %d", (int)broken);
  for (PetscInt j = 0; j < 3; j++) RW_CHECK(VecDestroy(&W[j]));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* A pseudo-random value in [-1, 1) */
static PetscReal rnd(uint64_t *state)
{
  *state = RwSplitMix64(*state);
  return (PetscReal)(*state >> 11) / 4503599627370496.0 - 1;
}

/* Data like NILSS's: C_i = Z^T Z + I (positive definite), R_i upper triangular with diagonal
   in (0.5, 1.5), b and d of order 1 */
static void make_data(PetscInt p, PetscInt S, PetscReal C[], PetscReal d[], PetscReal R[], PetscReal b[])
{
  uint64_t st = 42;

  for (PetscInt i = 0; i < S; i++) {
    PetscReal Z[16 * 16];
    for (PetscInt j = 0; j < p * p; j++) Z[j] = rnd(&st);
    for (PetscInt j = 0; j < p; j++)
      for (PetscInt l = 0; l < p; l++) {
        PetscReal v = j == l;
        for (PetscInt m = 0; m < p; m++) v += Z[m * p + j] * Z[m * p + l];
        C[i * p * p + j * p + l] = v;
        R[i * p * p + j * p + l] = l < j ? 0 : l == j ? 1 + rnd(&st) / 2 : rnd(&st) / 2;
      }
    for (PetscInt j = 0; j < p; j++) d[i * p + j] = rnd(&st), b[i * p + j] = rnd(&st);
  }
}

/* The dense KKT system [C B^T; B 0] [a; mu] = [-d; b] by LU: the solve NILSS used before */
static void dense(PetscInt p, PetscInt S, const PetscReal C[], const PetscReal d[], const PetscReal R[], const PetscReal b[], PetscReal a[])
{
  const PetscInt na = S * p, nk = (2 * S - 1) * p;
  PetscReal     *K, *rhs;
  PetscBLASInt   n = (PetscBLASInt)nk, one = 1, info, *piv;

  RW_CHECK(PetscCalloc3(nk * nk, &K, nk, &rhs, nk, &piv));
  for (PetscInt i = 0; i < S; i++)
    for (PetscInt j = 0; j < p; j++) {
      for (PetscInt l = 0; l < p; l++) K[(i * p + j) + (i * p + l) * nk] = C[i * p * p + j * p + l];
      rhs[i * p + j] = -d[i * p + j];
    }
  for (PetscInt i = 1; i < S; i++)
    for (PetscInt j = 0; j < p; j++) {
      const PetscInt row = na + (i - 1) * p + j;
      K[row + (i * p + j) * nk] = K[(i * p + j) + row * nk] = 1;
      for (PetscInt l = 0; l < p; l++) K[row + ((i - 1) * p + l) * nk] = K[((i - 1) * p + l) + row * nk] = -R[i * p * p + j * p + l];
      rhs[row] = b[i * p + j];
    }
  LAPACKgesv_(&n, &one, K, &n, piv, rhs, &n, &info);
  rw_assert_all(info == 0, "dense KKT: gesv info %d", (int)info);
  for (PetscInt j = 0; j < na; j++) a[j] = rhs[j];
  RW_CHECK(PetscFree3(K, rhs, piv));
}

static void kkt_against_dense(PetscInt p, PetscInt S)
{
  PetscReal *C, *d, *R, *b, *a, *ad, diff = 0, scale = 0, viol = 0;

  RW_CHECK(PetscMalloc6(S * p * p, &C, S * p, &d, S * p * p, &R, S * p, &b, S * p, &a, S * p, &ad));
  make_data(p, S, C, d, R, b);
  RW_CHECK(RwHorizonShadowingSolveKKT(p, S, C, d, R, b, a));
  dense(p, S, C, d, R, b, ad);
  for (PetscInt j = 0; j < S * p; j++) diff = PetscMax(diff, PetscAbsReal(a[j] - ad[j])), scale = PetscMax(scale, PetscAbsReal(ad[j]));
  for (PetscInt i = 1; i < S; i++)
    for (PetscInt j = 0; j < p; j++) {
      PetscReal r = a[i * p + j] - b[i * p + j];
      for (PetscInt l = 0; l < p; l++) r -= R[i * p * p + j * p + l] * a[(i - 1) * p + l];
      viol = PetscMax(viol, PetscAbsReal(r));
    }
  if (!rw_test_rank()) printf("# KKT, %d tangents, %d segments: Schur complement against dense LU %.3g (max |a| %.3g), constraints %.3g\n", (int)p, (int)S, (double)diff, (double)scale, (double)viol);
  rw_assert_all(diff <= 1e-10 * scale && viol <= 1e-10 * scale, "%d tangents, %d segments: the Schur solve differs from dense LU by %g (max |a| %g), constraints violated by %g", (int)p, (int)S, (double)diff, (double)scale, (double)viol);
  RW_CHECK(PetscFree6(C, d, R, b, a, ad));
}

START_TEST(test_kkt)
{
  PetscReal C[8], d[4], R[8], b[4], a[4];

  kkt_against_dense(3, 5);
  kkt_against_dense(14, 12);
  kkt_against_dense(2, 200);
  make_data(2, 2, C, d, R, b);
  C[4 + 0] = C[4 + 3] = -1; /* segment 1's Gram matrix negative */
  rw_assert_error(RwHorizonShadowingSolveKKT(2, 2, C, d, R, b, a), "Gram matrix of segment 1 is not positive definite");
  rw_assert_error(RwHorizonShadowingSolveKKT(2, 1, C, d, R, b, a), "need at least 1 and 2");
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("cholqr");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_cholqr);
  tcase_add_test(tc, test_cholqr_breakdown);
  tcase_add_test(tc, test_kkt);
  suite_add_tcase(s, tc);
  return s;
}
