/*
  The largest Lyapunov exponent by Benettin's method: one tangent du carried
  along the run (RwTangentPropagate()), its norm measured and reset to 1
  every few steps; the logs of the norms, summed over a block of time and
  divided by it, give the block's exponent.  After a transient (the state
  reaching its attractor, du aligning with the leading Lyapunov vector) the
  blocks are near-independent samples, so their mean is the estimate and the
  spread over sqrt(blocks) its standard error (Benettin, Galgani, Giorgilli
  and Strelcyn 1980).  Norms are the exact reproducible ones: the estimate is
  the same bits on any number of ranks for an explicit model.

  The first p exponents (RwHorizonLyapunovSpectrum()) carry p tangents and
  orthonormalise them at each renormalisation (the QR method of Benettin et
  al. 1980 and Shimada and Nagashima 1979) by Cholesky QR of their Gram
  matrix, summed exactly in one reduction (src/horizon/gram.c): the log of
  the j-th diagonal of R, summed, gives exponent j.  The first tangent is treated exactly as the single one, so exponent 0
  is RwHorizonLyapunov()'s, bit for bit.  The span of the tangents with
  positive exponents is the unstable subspace that shadowing methods (NILSS)
  work in; its size, the number of positive exponents, sets their cost.
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/private/horizonimpl.h>

typedef struct {
  PetscInt64 transient, interval, blocklen;
  PetscInt   nblocks, p;
  PetscReal *logs; /* [block * p + j]: the sum of ln R_jj per block */
  RwReproSum acc;  /* the tangents' Gram matrix: one reduction a renormalisation */
  PetscReal *G, *R;
} RwBenettin;

/* After every step: every interval steps, orthonormalise the tangents (Cholesky QR of their
   exactly summed Gram matrix, src/horizon/gram.c), add ln R_jj to their blocks; one tangent
   is only rescaled */
static PetscErrorCode RwBenettinStep(RwAdjoint adj, PetscInt64 k, Vec u, PetscInt ndir, Vec du[], void *ctx)
{
  RwBenettin *b = (RwBenettin *)ctx;
  PetscInt    broken;

  PetscFunctionBegin;
  if (k == 0 || k % b->interval) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwReproSumReset(b->acc));
  PetscCall(RwHorizonGramAdd(b->acc, 0, b->p, du));
  PetscCall(RwReproSumAllreduce(b->acc, PetscObjectComm((PetscObject)adj), b->G));
  PetscCall(RwHorizonCholQR(b->p, b->G, du, b->R, &broken));
  PetscCheck(broken < 0, PetscObjectComm((PetscObject)adj), PETSC_ERR_FP, "Lyapunov estimate: tangent %" PetscInt_FMT " is zero, not finite or (to rounding) a combination of the ones before it at step %" PetscInt64_FMT " (its squared norm %g): renormalise more often (a smaller interval), or ask for fewer exponents than the state has directions", broken, k, (double)b->G[RwGramIndex(broken, broken)]);
  if (k > b->transient)
    for (PetscInt j = 0; j < b->p; j++) b->logs[(k - b->transient - 1) / b->blocklen * b->p + j] += PetscLogReal(b->R[j * b->p + j]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pseudo-random value in [-1, 1) from a point's coordinates: the same on any decomposition */
static PetscReal RwHorizonHash(PetscInt dim, const PetscReal x[], void *ctx)
{
  uint64_t h = (uint64_t)(*(PetscInt *)ctx);

  for (PetscInt d = 0; d < dim; d++) h = RwSplitMix64(h ^ RwHashBytes(0, &x[d], sizeof(x[d])));
  return (PetscReal)(h >> 11) / 4503599627370496.0 - 1; /* 2^52 */
}

/*@
  RwHorizonInitialDirection - a state direction of unit norm whose values
  are pseudo-random functions of each point's coordinates and the seed: the
  same vector on any number of ranks; only the observed component is nonzero

  Collective

  Input Parameters:
+ model - a set-up model
- seed  - the seed

  Output Parameter:
. du - a state vector (RwModelCreateState())

  Level: developer

.seealso: RwHorizonLyapunov()
@*/
PetscErrorCode RwHorizonInitialDirection(RwModel model, PetscInt seed, Vec du)
{
  Vec       f;
  PetscInt  dof, comp;
  PetscReal nrm;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateInfo(model, &dof, NULL, &comp));
  PetscCall(RwModelCreateField(model, &f));
  PetscCall(RwModelFillField(model, f, RwHorizonHash, &seed));
  PetscCall(VecSet(du, 0));
  PetscCall(RwModelSetStateComponent(model, f, comp, du));
  PetscCall(VecDestroy(&f));
  PetscCall(RwVecNormRepro(du, &nrm));
  PetscCall(VecScale(du, 1 / nrm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Exponent j: the blocks' mean and the standard error of the mean */
static void RwBlockStatistics(const RwBenettin *b, PetscInt j, PetscReal dt, PetscReal *exponent, PetscReal *error)
{
  const PetscReal tb  = b->blocklen * dt;
  PetscReal       sum = 0, var = 0;

  for (PetscInt i = 0; i < b->nblocks; i++) sum += b->logs[i * b->p + j] / tb;
  *exponent = sum / b->nblocks;
  for (PetscInt i = 0; i < b->nblocks; i++) var += PetscSqr(b->logs[i * b->p + j] / tb - *exponent);
  *error = b->nblocks > 1 ? PetscSqrtReal(var / (b->nblocks - 1) / b->nblocks) : PETSC_INFINITY;
}

/* The first p exponents along the run from u0, and the time averaged over */
static PetscErrorCode RwBenettinRun(RwAdjoint adj, Vec m, Vec u0, PetscInt p, PetscInt64 transient, PetscInt64 interval, PetscInt nblocks, PetscReal exponent[], PetscReal error[], PetscReal *time)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)adj);
  RwBenettin b    = {0};
  PetscInt64 n;
  PetscInt   size;
  PetscReal  dt;
  Vec       *du;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(RwAdjointSetUp(adj));
  PetscCall(RwAdjointGetSteps(adj, &n));
  PetscCall(RwModelGetTimeStep(adj->model, &dt));
  PetscCall(VecGetSize(u0, &size));
  PetscCheck(p >= 1 && p <= size, comm, PETSC_ERR_ARG_OUTOFRANGE, "Lyapunov estimate: %" PetscInt_FMT " exponents asked of a state of %" PetscInt_FMT " values: need 1 <= exponents <= the state's size", p, size);
  PetscCheck(interval >= 1 && nblocks >= 2 && transient >= 0 && transient < n, comm, PETSC_ERR_ARG_OUTOFRANGE, "Lyapunov estimate: need interval >= 1 (%" PetscInt64_FMT "), nblocks >= 2 (%" PetscInt_FMT ") and 0 <= transient (%" PetscInt64_FMT ") < steps %" PetscInt64_FMT, interval, nblocks, transient, n);
  PetscCheck((n - transient) % (interval * nblocks) == 0 && transient % interval == 0, comm, PETSC_ERR_ARG_INCOMP, "Lyapunov estimate: steps %" PetscInt64_FMT " minus transient %" PetscInt64_FMT " must split into %" PetscInt_FMT " blocks of whole renormalisation intervals of %" PetscInt64_FMT " steps, and the transient too", n, transient, nblocks, interval);
  b.transient = transient;
  b.interval  = interval;
  b.nblocks   = nblocks;
  b.p         = p;
  b.blocklen  = (n - transient) / nblocks;
  PetscCall(PetscCalloc1(nblocks * p, &b.logs));
  PetscCall(RwReproSumCreate(RwGramSlots(p), &b.acc));
  PetscCall(PetscMalloc2(RwGramSlots(p), &b.G, p * p, &b.R));
  PetscCall(VecDuplicateVecs(u0, p, &du));
  for (PetscInt j = 0; j < p; j++) PetscCall(RwHorizonInitialDirection(adj->model, j + 1, du[j]));
  PetscCall(RwTangentPropagate(adj, m, u0, p, NULL, du, RwBenettinStep, &b, NULL));
  for (PetscInt j = 0; j < p; j++) RwBlockStatistics(&b, j, dt, &exponent[j], &error[j]);
  *time = b.blocklen * dt * nblocks;
  PetscCall(VecDestroyVecs(p, &du));
  PetscCall(PetscFree2(b.G, b.R));
  PetscCall(RwReproSumDestroy(&b.acc));
  PetscCall(PetscFree(b.logs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwHorizonLyapunov - estimates the largest Lyapunov exponent of the model
  along the run from u0, from its tangent with renormalisation (Benettin)

  Collective

  Input Parameters:
+ adj       - the driver: its model, parameters and number of steps n define the run
. m         - the parameters
. u0        - the initial state
. transient - steps left out at the start (reaching the attractor, aligning the tangent)
. interval  - steps between renormalisations (the tangent must stay finite over them)
- nblocks   - blocks the remaining n - transient steps are split into, >= 2: their spread gives the error

  Output Parameter:
. ly - the exponent per unit time, its standard error, the blocks and the time averaged over

  Level: intermediate

  Notes:
  n - transient must be a multiple of interval * nblocks. Costs one forward
  and one tangent run of n steps. The error assumes the blocks independent:
  blocks of many Lyapunov times (Lorenz-96, N = 40, F = 8: blocks of 10 time
  units) make it so. A negative exponent is the decay rate of the slowest
  mode of a stable system (the heat equation's, or Lorenz-96's for F < 8/9).

.seealso: RwTangentPropagate(), RwAdjointGetHorizonGrowth(), doc/chaos.md
@*/
PetscErrorCode RwHorizonLyapunov(RwAdjoint adj, Vec m, Vec u0, PetscInt64 transient, PetscInt64 interval, PetscInt nblocks, RwLyapunov *ly)
{
  PetscFunctionBegin;
  PetscCall(RwBenettinRun(adj, m, u0, 1, transient, interval, nblocks, &ly->exponent, &ly->error, &ly->time));
  ly->nblocks = nblocks;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwHorizonLyapunovSpectrum - estimates the first p Lyapunov exponents of the
  model along the run from u0: p tangents orthonormalised every interval steps
  (the QR method), each exponent a block mean with its standard error

  Collective

  Input Parameters:
+ adj       - the driver: its model, parameters and number of steps n define the run
. m         - the parameters
. u0        - the initial state
. p         - the number of exponents, 1 <= p <= the state's size
. transient - steps left out at the start
. interval  - steps between orthonormalisations
- nblocks   - blocks the remaining steps are split into, >= 2

  Output Parameters:
+ exponent - p exponents per unit time, largest first (on average: estimates of nearby exponents may swap)
- error    - their standard errors (the spread of the blocks over sqrt(nblocks))

  Level: intermediate

  Notes:
  Costs one forward run and p tangent runs of n steps, and p(p+1)/2 exact
  dot products per orthonormalisation, all in one reduction (Cholesky QR of
  the Gram matrix: the tangents must not drift to within 1/sqrt(eps) of
  dependence between renormalisations); the tangents are p state vectors.
  Exponent 0 equals RwHorizonLyapunov()'s bit for bit, and every exponent is
  the same bits on any number of ranks (explicit models). The sum of all N
  exponents is the mean rate of volume change: -N exactly for Lorenz-96's flow
  (its Jacobian's trace), which the RK4 step reproduces to O(dt^4). The
  exponents above zero count the unstable directions: 13 for Lorenz-96,
  N = 40, F = 8 (doc/chaos.md).

.seealso: RwHorizonLyapunov(), RwTangentPropagate(), doc/chaos.md
@*/
PetscErrorCode RwHorizonLyapunovSpectrum(RwAdjoint adj, Vec m, Vec u0, PetscInt p, PetscInt64 transient, PetscInt64 interval, PetscInt nblocks, PetscReal exponent[], PetscReal error[])
{
  PetscReal time;

  PetscFunctionBegin;
  PetscCall(RwBenettinRun(adj, m, u0, p, transient, interval, nblocks, exponent, error, &time));
  PetscFunctionReturn(PETSC_SUCCESS);
}
