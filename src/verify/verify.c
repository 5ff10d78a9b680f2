/*
  Verification, usable on any model: dot-product tests of one step and of a
  whole run, the Taylor test and central finite differences.

  Random vectors come from a hash of (seed, natural grid index), not from a
  per-rank generator, so the same seed gives the same fields on any number of
  ranks and the figures can be compared across decompositions.
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/verify.h>

/* uniform in [-1, 1) */
static PetscReal HashUniform(PetscInt64 seed, PetscInt64 index)
{
  return 2 * RwHashUniform01(seed, index) - 1;
}

/* v = hash(seed, natural index) over the model's grid: a field (one value a
   point) or a state (bs components a point, each its own natural index) */
static PetscErrorCode RandomField(RwModel model, PetscInt64 seed, Vec v)
{
  PetscInt     xs[3], xm[3], M[3], nlocal, npts, bs;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(model->da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(model->da, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  PetscCall(VecGetLocalSize(v, &nlocal));
  npts = xm[0] * xm[1] * xm[2];
  bs   = npts > 0 ? nlocal / npts : 1;
  PetscCall(VecGetArray(v, &a));
  /* a state's value (point, c) goes where the model's layout holds it: the
     same state on any decomposition, in any layout */
  for (PetscInt c = 0; c < bs; c++) {
    PetscInt stride = 1, offset = 0, p = 0;

    if (bs > 1 && bs == model->dof) PetscCall(RwModelGetStateLayout(model, c, npts, &stride, &offset));
    for (PetscInt k = xs[2]; k < xs[2] + xm[2]; k++)
      for (PetscInt j = xs[1]; j < xs[1] + xm[1]; j++)
        for (PetscInt i = xs[0]; i < xs[0] + xm[0]; i++, p++) a[offset + p * stride] = HashUniform(seed, bs * (i + (PetscInt64)M[0] * (j + (PetscInt64)M[1] * k)) + c);
  }
  PetscCall(VecRestoreArray(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwVerifyRandomState - a state with entries uniform in [-1, 1), the same on any number of ranks

  Collective

  Level: intermediate
@*/
PetscErrorCode RwVerifyRandomState(RwModel model, PetscInt64 seed, Vec u)
{
  PetscFunctionBegin;
  PetscCall(RandomField(model, seed, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwVerifyRandomDirection - a random parameter direction: field 0 (kappa for
  heat) relative to its value in m, dm_0 = m_0 u / 2 with u uniform in
  [-1, 1), so that small steps keep it positive; other fields and scalars uniform in [-1, 1)

  Collective

  Level: intermediate
@*/
PetscErrorCode RwVerifyRandomDirection(RwModel model, Vec m, PetscInt64 seed, Vec dm)
{
  PetscFunctionBegin;
  for (PetscInt f = 0; f < model->nfields; f++) {
    Vec d, v;

    PetscCall(RwModelGetParameterField(model, dm, f, &d));
    PetscCall(RandomField(model, seed + 101 * (f + 1), d));
    if (f == 0) {
      PetscCall(RwModelGetParameterField(model, m, f, &v));
      PetscCall(VecPointwiseMult(d, d, v));
      PetscCall(VecScale(d, 0.5));
      PetscCall(RwModelRestoreParameterField(model, m, f, &v));
    }
    PetscCall(RwModelRestoreParameterField(model, dm, f, &d));
  }
  for (PetscInt s = 0; s < model->nscalars; s++) PetscCall(RwModelSetParameterScalar(model, dm, s, HashUniform(seed, -1 - s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void DotError(RwDotTest *t, PetscReal lscale, PetscReal rscale)
{
  t->scale = PetscMax(lscale, rscale);
  t->err   = t->scale > 0 ? PetscAbsReal(t->lhs - t->rhs) / (PETSC_MACHINE_EPSILON * t->scale) : 0;
}

/*@
  RwVerifyStepDot - dot-product test of step k: with T the tangent and A the
  adjoint of the step at random u_k, checks <T (du, dm), l> = <A_u l, du> + <A_m l, dm>
  for random du, dm and l

  Collective

  Input Parameters:
+ model - the model, set up
. m     - the parameters
. k     - the step index
- seed  - for the random vectors

  Output Parameter:
. t - the two sides and the error in units of machine epsilon

  Level: intermediate

.seealso: RwVerifyDot()
@*/
PetscErrorCode RwVerifyStepDot(RwModel model, Vec m, PetscInt64 k, PetscInt64 seed, RwDotTest *t)
{
  Vec       u, unew, du, dunew, l1, l0, dm, g;
  PetscReal a, b, sa, sb, sc;

  PetscFunctionBegin;
  PetscCall(RwModelSetUp(model));
  PetscCall(RwModelCreateState(model, &u));
  PetscCall(VecDuplicate(u, &unew));
  PetscCall(VecDuplicate(u, &du));
  PetscCall(VecDuplicate(u, &dunew));
  PetscCall(VecDuplicate(u, &l1));
  PetscCall(VecDuplicate(u, &l0));
  PetscCall(VecDuplicate(m, &dm));
  PetscCall(VecDuplicate(m, &g));
  PetscCall(RandomField(model, seed, u));
  PetscCall(RandomField(model, seed + 1, du));
  PetscCall(RandomField(model, seed + 2, l1));
  PetscCall(RwVerifyRandomDirection(model, m, seed + 3, dm));
  PetscCall(RwModelSetParameters(model, m));
  PetscCall(RwModelSetDirection(model, dm));
  PetscCall(RwModelStep(model, k, u, unew));
  PetscCall(RwModelStepTangent(model, k, u, unew, du, dunew));
  PetscCall(RwModelAdjointBegin(model));
  PetscCall(RwModelStepAdjoint(model, k, u, unew, l1, l0));
  PetscCall(RwModelAdjointEnd(model, g));
  PetscCall(RwVecDotRepro(dunew, l1, &t->lhs, &sa));
  PetscCall(RwVecDotRepro(du, l0, &a, &sb));
  PetscCall(RwVecDotRepro(dm, g, &b, &sc));
  t->rhs = a + b;
  DotError(t, sa, sb + sc);
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&unew));
  PetscCall(VecDestroy(&du));
  PetscCall(VecDestroy(&dunew));
  PetscCall(VecDestroy(&l1));
  PetscCall(VecDestroy(&l0));
  PetscCall(VecDestroy(&dm));
  PetscCall(VecDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwVerifyDot - whole-run dot-product test: RwTangentSolve() along random (dm, du0)
  against <dJ/dm, dm> + <dJ/du0, du0> from RwAdjointSolve()

  Collective

  Level: intermediate

.seealso: RwVerifyStepDot(), RwVerifyTaylor()
@*/
PetscErrorCode RwVerifyDot(RwAdjoint adj, Vec m, Vec u0, PetscInt64 seed, RwDotTest *t)
{
  Vec       dm, du0, g, gu0;
  PetscReal a, b, sa, sb, J;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(m, &dm));
  PetscCall(VecDuplicate(m, &g));
  PetscCall(VecDuplicate(u0, &du0));
  PetscCall(VecDuplicate(u0, &gu0));
  PetscCall(RwVerifyRandomDirection(adj->model, m, seed, dm));
  PetscCall(RandomField(adj->model, seed + 7, du0));
  PetscCall(RwTangentSolve(adj, m, dm, u0, du0, &t->lhs));
  PetscCall(RwAdjointSolve(adj, m, u0, &J, g, gu0));
  PetscCall(RwVecDotRepro(dm, g, &a, &sa));
  PetscCall(RwVecDotRepro(du0, gu0, &b, &sb));
  t->rhs = a + b;
  /* the tangent side has no products to weigh: judge both against the adjoint's */
  DotError(t, 0, sa + sb);
  PetscCall(VecDestroy(&dm));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&du0));
  PetscCall(VecDestroy(&gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J at (m + h dm, u0 + h du0) */
static PetscErrorCode PerturbedJ(RwAdjoint adj, Vec m, Vec dm, Vec u0, Vec du0, PetscReal h, Vec mp, Vec up, PetscReal *J)
{
  PetscFunctionBegin;
  PetscCall(VecWAXPY(mp, h, dm, m));
  PetscCall(VecWAXPY(up, h, du0, u0));
  PetscCall(RwAdjointForward(adj, mp, up, J, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  Vec dm, du0, g, gu0, mp, up;
} VerifyWork;

static PetscErrorCode VerifyWorkCreate(RwAdjoint adj, Vec m, Vec u0, VerifyWork *w)
{
  PetscFunctionBegin;
  PetscCall(VecDuplicate(m, &w->dm));
  PetscCall(VecDuplicate(m, &w->g));
  PetscCall(VecDuplicate(m, &w->mp));
  PetscCall(VecDuplicate(u0, &w->du0));
  PetscCall(VecDuplicate(u0, &w->gu0));
  PetscCall(VecDuplicate(u0, &w->up));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VerifyWorkDestroy(VerifyWork *w)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&w->dm));
  PetscCall(VecDestroy(&w->g));
  PetscCall(VecDestroy(&w->mp));
  PetscCall(VecDestroy(&w->du0));
  PetscCall(VecDestroy(&w->gu0));
  PetscCall(VecDestroy(&w->up));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A random direction (dm, du0) and the adjoint's prediction <g, (dm, du0)> */
static PetscErrorCode VerifyDirection(RwAdjoint adj, Vec m, Vec u0, PetscInt64 seed, VerifyWork *w, PetscReal *J, PetscReal *slope)
{
  PetscReal a, b;

  PetscFunctionBegin;
  PetscCall(RwVerifyRandomDirection(adj->model, m, seed, w->dm));
  PetscCall(RandomField(adj->model, seed + 7, w->du0));
  PetscCall(RwAdjointSolve(adj, m, u0, J, w->g, w->gu0));
  PetscCall(RwVecDotRepro(w->dm, w->g, &a, NULL));
  PetscCall(RwVecDotRepro(w->du0, w->gu0, &b, NULL));
  *slope = a + b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwTaylorTestRun_Private - the Taylor test's table from J, the slope <g, d>
  and J along the direction at eps = 0.01 / 2^i: shared by RwVerifyTaylor()
  (one solve) and RwProblemVerifyTaylor() (a whole problem), which differ only
  in how J(x + eps d) is computed
*/
PetscErrorCode RwTaylorTestRun_Private(PetscReal J, PetscReal slope, PetscErrorCode (*Jat)(PetscReal, void *, PetscReal *), void *ctx, RwTaylorTest *t)
{
  PetscReal Jp;

  PetscFunctionBegin;
  t->n          = 5;
  t->min_order1 = PETSC_MAX_REAL;
  for (PetscInt i = 0; i < t->n; i++) {
    t->eps[i] = 0.01 / (PetscReal)(1 << i);
    PetscCall(Jat(t->eps[i], ctx, &Jp));
    t->r0[i] = PetscAbsReal(Jp - J);
    t->r1[i] = PetscAbsReal(Jp - J - t->eps[i] * slope);
    if (i) {
      t->order0[i]  = PetscLog2Real(t->r0[i - 1] / t->r0[i]);
      t->order1[i]  = PetscLog2Real(t->r1[i - 1] / t->r1[i]);
      t->min_order1 = PetscMin(t->min_order1, t->order1[i]);
    } else t->order0[i] = t->order1[i] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  RwAdjoint   adj;
  Vec         m, u0;
  VerifyWork *w;
} TaylorCtx;

/* J(m + eps dm, u0 + eps du0) for RwTaylorTestRun_Private() */
static PetscErrorCode TaylorJ(PetscReal eps, void *ctx, PetscReal *J)
{
  TaylorCtx *c = (TaylorCtx *)ctx;

  PetscFunctionBegin;
  PetscCall(PerturbedJ(c->adj, c->m, c->w->dm, c->u0, c->w->du0, eps, c->w->mp, c->w->up, J));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwVerifyTaylor - Taylor test along a random direction in the parameters and
  the initial state, eps = 0.01 / 2^i for i = 0..4: the zeroth-order residual
  falls like eps, the first-order one like eps^2 when the gradient is right

  Collective

  Level: intermediate

.seealso: RwVerifyDot(), RwVerifyFiniteDifferences()
@*/
PetscErrorCode RwVerifyTaylor(RwAdjoint adj, Vec m, Vec u0, PetscInt64 seed, RwTaylorTest *t)
{
  VerifyWork w;
  TaylorCtx  ctx;
  PetscReal  J, slope;

  PetscFunctionBegin;
  PetscCall(VerifyWorkCreate(adj, m, u0, &w));
  PetscCall(VerifyDirection(adj, m, u0, seed, &w, &J, &slope));
  ctx = (TaylorCtx){adj, m, u0, &w};
  PetscCall(RwTaylorTestRun_Private(J, slope, TaylorJ, &ctx, t));
  PetscCall(VerifyWorkDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwVerifyFiniteDifferences - central differences along ndirs random directions
  with h = 1e-5, against the adjoint gradient

  Collective

  Level: intermediate

.seealso: RwVerifyTaylor()
@*/
PetscErrorCode RwVerifyFiniteDifferences(RwAdjoint adj, Vec m, Vec u0, PetscInt64 seed, PetscInt ndirs, RwFDTest *t)
{
  VerifyWork w;
  PetscReal  J, Jp, Jm;

  PetscFunctionBegin;
  PetscCheck(ndirs >= 1 && ndirs <= RW_TAYLOR_MAX, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "Number of finite-difference directions %" PetscInt_FMT " must be in [1, %d]", ndirs, RW_TAYLOR_MAX);
  PetscCall(VerifyWorkCreate(adj, m, u0, &w));
  t->n          = ndirs;
  t->h          = 1e-5;
  t->max_relerr = 0;
  for (PetscInt i = 0; i < ndirs; i++) {
    PetscCall(VerifyDirection(adj, m, u0, seed + 1000 * i, &w, &J, &t->ad[i]));
    PetscCall(PerturbedJ(adj, m, w.dm, u0, w.du0, t->h, w.mp, w.up, &Jp));
    PetscCall(PerturbedJ(adj, m, w.dm, u0, w.du0, -t->h, w.mp, w.up, &Jm));
    t->fd[i]      = (Jp - Jm) / (2 * t->h);
    t->relerr[i]  = PetscAbsReal(t->fd[i] - t->ad[i]) / PetscMax(PetscAbsReal(t->ad[i]), PETSC_SMALL);
    t->max_relerr = PetscMax(t->max_relerr, t->relerr[i]);
  }
  PetscCall(VerifyWorkDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
