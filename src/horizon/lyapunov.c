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
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/horizon.h>

typedef struct {
  PetscInt64 transient, interval, blocklen;
  PetscInt   nblocks;
  PetscReal *logs; /* the sum of ln |du| per block */
} RwBenettin;

/* After every step: every interval steps, add ln |du| to its block and reset |du| to 1 */
static PetscErrorCode RwBenettinStep(RwAdjoint adj, PetscInt64 k, Vec u, PetscInt ndir, Vec du[], void *ctx)
{
  RwBenettin *b = (RwBenettin *)ctx;
  PetscReal   nrm;

  PetscFunctionBegin;
  if (k == 0 || k % b->interval) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwVecNormRepro(du[0], &nrm));
  PetscCheck(nrm > 0 && !PetscIsInfOrNanReal(nrm), PetscObjectComm((PetscObject)adj), PETSC_ERR_FP, "Lyapunov estimate: the tangent's norm is %g at step %" PetscInt64_FMT ": renormalise more often (a smaller interval)", (double)nrm, k);
  if (k > b->transient) b->logs[(k - b->transient - 1) / b->blocklen] += PetscLogReal(nrm);
  PetscCall(VecScale(du[0], 1 / nrm));
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
  PetscCall(VecStrideScatter(f, comp, du, INSERT_VALUES));
  PetscCall(VecDestroy(&f));
  PetscCall(RwVecNormRepro(du, &nrm));
  PetscCall(VecScale(du, 1 / nrm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The blocks' mean and the standard error of the mean */
static void RwBlockStatistics(const RwBenettin *b, PetscReal dt, RwLyapunov *ly)
{
  const PetscReal tb  = b->blocklen * dt;
  PetscReal       sum = 0, var = 0;

  for (PetscInt i = 0; i < b->nblocks; i++) sum += b->logs[i] / tb;
  ly->exponent = sum / b->nblocks;
  for (PetscInt i = 0; i < b->nblocks; i++) var += PetscSqr(b->logs[i] / tb - ly->exponent);
  ly->error   = b->nblocks > 1 ? PetscSqrtReal(var / (b->nblocks - 1) / b->nblocks) : PETSC_INFINITY;
  ly->nblocks = b->nblocks;
  ly->time    = tb * b->nblocks;
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
  MPI_Comm   comm = PetscObjectComm((PetscObject)adj);
  RwBenettin b    = {0};
  PetscInt64 n;
  PetscReal  dt;
  Vec        du;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(RwAdjointSetUp(adj));
  PetscCall(RwAdjointGetSteps(adj, &n));
  PetscCall(RwModelGetTimeStep(adj->model, &dt));
  PetscCheck(interval >= 1 && nblocks >= 2 && transient >= 0 && transient < n, comm, PETSC_ERR_ARG_OUTOFRANGE, "Lyapunov estimate: need interval >= 1 (%" PetscInt64_FMT "), nblocks >= 2 (%" PetscInt_FMT ") and 0 <= transient (%" PetscInt64_FMT ") < steps %" PetscInt64_FMT, interval, nblocks, transient, n);
  PetscCheck((n - transient) % (interval * nblocks) == 0 && transient % interval == 0, comm, PETSC_ERR_ARG_INCOMP, "Lyapunov estimate: steps %" PetscInt64_FMT " minus transient %" PetscInt64_FMT " must split into %" PetscInt_FMT " blocks of whole renormalisation intervals of %" PetscInt64_FMT " steps, and the transient too", n, transient, nblocks, interval);
  b.transient = transient;
  b.interval  = interval;
  b.nblocks   = nblocks;
  b.blocklen  = (n - transient) / nblocks;
  PetscCall(PetscCalloc1(nblocks, &b.logs));
  PetscCall(RwModelCreateState(adj->model, &du));
  PetscCall(RwHorizonInitialDirection(adj->model, 1, du));
  PetscCall(RwTangentPropagate(adj, m, u0, 1, NULL, &du, RwBenettinStep, &b, NULL));
  RwBlockStatistics(&b, dt, ly);
  PetscCall(VecDestroy(&du));
  PetscCall(PetscFree(b.logs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
