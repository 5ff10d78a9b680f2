/*
  A peer: the 2D explicit heat problem of rewind solved by PETSc's TSAdjoint,
  on the same ranks, the same DMDA, dt, kappa, u0 and objective.

  TS integrates du/dt = f(u) = div(kappa grad u) (periodic, the flux form of
  rewind's kernel, r = s = 0) with TSRK1FE, the one-stage forward Euler
  tableau registered by TSRK (TSEULER has no adjoint in PETSc 3.18), so
  u_k+1 = u_k + dt f(u_k) as rewind's explicit step.  The adjoint needs
  df/du, assembled (MatSetValuesStencil) whenever TS asks, and
  df/dkappa through TSSetRHSJacobianP: row i has entries for kappa_i and its
  four neighbours, 0.5 h^-2 (u_nb - u_i), the diagonal their sum.  The
  trajectory is kept in memory.  With the terminal cost
  J = 1/2 h^2 sum (u_n - d)^2, TSSetCostGradients starts from
  lambda_n = h^2 (u_n - d) and mu = 0 and returns dJ/du0 and dJ/dkappa.
*/
#include "bench.h"
#include <petscts.h>
#include <petscdmda.h>

typedef struct {
  DM        da;
  Vec       kloc, uloc; /* ghosted kappa (fixed) and state */
  PetscReal ih2[2];
} PeerCtx;

/* The stencil of point (i, j): east, west, north, south neighbours, then the point */
static void PeerStencil(PetscInt i, PetscInt j, MatStencil col[5])
{
  const PetscInt di[5] = {1, -1, 0, 0, 0}, dj[5] = {0, 0, 1, -1, 0};

  for (PetscInt s = 0; s < 5; s++) {
    col[s].i = i + di[s];
    col[s].j = j + dj[s];
    col[s].k = 0;
    col[s].c = 0;
  }
}

/* f(u) in the order of rewind's HeatDiv, so that both round alike */
static PetscErrorCode PeerRHS(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
  PeerCtx            *c = (PeerCtx *)ctx;
  const PetscScalar **u, **k;
  PetscScalar       **f;
  PetscInt            xs, ys, xm, ym;

  PetscFunctionBegin;
  PetscCall(DMGlobalToLocal(c->da, U, INSERT_VALUES, c->uloc));
  PetscCall(DMDAVecGetArrayRead(c->da, c->uloc, &u));
  PetscCall(DMDAVecGetArrayRead(c->da, c->kloc, &k));
  PetscCall(DMDAVecGetArray(c->da, F, &f));
  PetscCall(DMDAGetCorners(c->da, &xs, &ys, NULL, &xm, &ym, NULL));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      const PetscScalar u0 = u[j][i], k0 = k[j][i];
      PetscScalar       v;

      v = c->ih2[0] * (0.5 * (k0 + k[j][i + 1]) * (u[j][i + 1] - u0) - 0.5 * (k0 + k[j][i - 1]) * (u0 - u[j][i - 1]));
      v += c->ih2[1] * (0.5 * (k0 + k[j + 1][i]) * (u[j + 1][i] - u0) - 0.5 * (k0 + k[j - 1][i]) * (u0 - u[j - 1][i]));
      f[j][i] = v;
    }
  PetscCall(DMDAVecRestoreArray(c->da, F, &f));
  PetscCall(DMDAVecRestoreArrayRead(c->da, c->kloc, &k));
  PetscCall(DMDAVecRestoreArrayRead(c->da, c->uloc, &u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The five entries of row (i, j) from the ghosted array a (kappa or u) */
typedef void (*PeerRowFn)(const PeerCtx *, const PetscScalar **, PetscInt, PetscInt, const MatStencil[5], PetscScalar[5]);

/* df/du: the face conductivities over h^2 off the diagonal, minus their sum on it */
static void PeerRowJacobian(const PeerCtx *c, const PetscScalar **k, PetscInt i, PetscInt j, const MatStencil col[5], PetscScalar v[5])
{
  v[4] = 0;
  for (PetscInt s = 0; s < 4; s++) {
    v[s] = 0.5 * c->ih2[s / 2] * (k[j][i] + k[col[s].j][col[s].i]);
    v[4] -= v[s];
  }
}

/* df/dkappa at u: entry (i, nb) is 0.5 h^-2 (u_nb - u_i), entry (i, i) their sum */
static void PeerRowJacobianP(const PeerCtx *c, const PetscScalar **u, PetscInt i, PetscInt j, const MatStencil col[5], PetscScalar v[5])
{
  v[4] = 0;
  for (PetscInt s = 0; s < 4; s++) {
    v[s] = 0.5 * c->ih2[s / 2] * (u[col[s].j][col[s].i] - u[j][i]);
    v[4] += v[s];
  }
}

/* Assembles A row by row with MatSetValuesStencil, the way PETSc users do */
static PetscErrorCode PeerAssemble(const PeerCtx *c, Vec loc, PeerRowFn row, Mat A)
{
  const PetscScalar **a;
  PetscInt            xs, ys, xm, ym;

  PetscFunctionBegin;
  PetscCall(DMDAVecGetArrayRead(c->da, loc, &a));
  PetscCall(DMDAGetCorners(c->da, &xs, &ys, NULL, &xm, &ym, NULL));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      MatStencil  col[5];
      PetscScalar v[5];

      PeerStencil(i, j, col);
      row(c, a, i, j, col, v);
      PetscCall(MatSetValuesStencil(A, 1, &col[4], 5, col, v, INSERT_VALUES));
    }
  PetscCall(DMDAVecRestoreArrayRead(c->da, loc, &a));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TS scales and shifts the matrix it is given, so df/du is refilled whenever TS asks */
static PetscErrorCode PeerJacobian(TS ts, PetscReal t, Vec U, Mat A, Mat P, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PeerAssemble((PeerCtx *)ctx, ((PeerCtx *)ctx)->kloc, PeerRowJacobian, P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PeerJacobianP(TS ts, PetscReal t, Vec U, Mat A, void *ctx)
{
  PeerCtx *c = (PeerCtx *)ctx;

  PetscFunctionBegin;
  PetscCall(DMGlobalToLocal(c->da, U, INSERT_VALUES, c->uloc));
  PetscCall(PeerAssemble(c, c->uloc, PeerRowJacobianP, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Everything both solvers share, and what TS needs besides */
typedef struct {
  BenchProblem rw;
  PeerCtx      ctx;
  Mat         J, Jp;
  Vec         u, lambda, mu; /* TS */
  PetscReal   dt, vol, Jrw, Jts;
  PetscInt    steps;
  PetscLogDouble tforward, tadjoint; /* TS: seconds in TSSolve and TSAdjointSolve, all calls */
} Peer;

static PetscErrorCode PeerCreateTS(Peer *p, TS *ts)
{
  TSTrajectory tj;
  TSAdapt      adapt;

  PetscFunctionBegin;
  PetscCall(TSCreate(PetscObjectComm((PetscObject)p->rw.model), ts));
  PetscCall(TSSetType(*ts, TSRK));
  PetscCall(TSRKSetType(*ts, TSRK1FE));
  PetscCall(TSSetRHSFunction(*ts, NULL, PeerRHS, &p->ctx));
  PetscCall(TSSetRHSJacobian(*ts, p->J, p->J, PeerJacobian, &p->ctx));
  PetscCall(TSSetRHSJacobianP(*ts, p->Jp, PeerJacobianP, &p->ctx));
  PetscCall(TSSetTimeStep(*ts, p->dt));
  PetscCall(TSSetMaxSteps(*ts, p->steps));
  PetscCall(TSSetMaxTime(*ts, 2 * p->steps * p->dt));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSGetAdapt(*ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  PetscCall(TSSetSaveTrajectory(*ts));
  PetscCall(TSGetTrajectory(*ts, &tj));
  PetscCall(TSTrajectorySetType(tj, *ts, TSTRAJECTORYMEMORY));
  PetscCall(TSSetCostGradients(*ts, 1, &p->lambda, &p->mu));
  PetscCall(TSSetSolution(*ts, p->u));
  PetscCall(TSSetUp(*ts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One gradient by TSAdjoint: forward with the trajectory, lambda_n, reverse */
static PetscErrorCode PeerRunTS(void *ctx, PetscInt calls)
{
  Peer          *p = (Peer *)ctx;
  TS             ts;
  PetscInt       steps;
  PetscLogDouble t0, t1, t2;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) {
    PetscCall(PeerCreateTS(p, &ts));
    PetscCall(VecCopy(p->rw.u0, p->u));
    PetscCall(PetscTime(&t0));
    PetscCall(TSSolve(ts, p->u));
    PetscCall(PetscTime(&t1));
    PetscCall(TSGetStepNumber(ts, &steps));
    PetscCheck(steps == p->steps, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "TS took %" PetscInt_FMT " steps, not %" PetscInt_FMT, steps, p->steps);
    PetscCall(VecWAXPY(p->lambda, -1.0, p->rw.target, p->u));
    PetscCall(VecDot(p->lambda, p->lambda, &p->Jts));
    p->Jts *= 0.5 * p->vol;
    PetscCall(VecScale(p->lambda, p->vol));
    PetscCall(VecSet(p->mu, 0));
    PetscCall(TSAdjointSolve(ts));
    PetscCall(PetscTime(&t2));
    p->tforward += t1 - t0;
    p->tadjoint += t2 - t1;
    PetscCall(TSDestroy(&ts));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PeerRunRewind(void *ctx, PetscInt calls)
{
  Peer *p = (Peer *)ctx;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) PetscCall(RwAdjointSolve(p->rw.adj, p->rw.m, p->rw.u0, &p->Jrw, p->rw.g, p->rw.gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rewind's side: the default problem on the grid, storeall in RAM */
static PetscErrorCode PeerSetUpRewind(const BenchConfig *cfg, Peer *p)
{
  const PetscInt M[2] = {cfg->peer_grid, cfg->peer_grid};
  RwModel        model;
  char           opts[128];

  PetscFunctionBegin;
  PetscCheck(cfg->peer_grid >= 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_peer_grid %" PetscInt_FMT ": the peer needs at least 3 points per direction", cfg->peer_grid);
  PetscCall(BenchHeatModel(PETSC_COMM_WORLD, 2, "explicit", M, &model));
  PetscCall(BenchProblemCreate(model, &p->rw));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-rw_steps %" PetscInt_FMT " -rw_schedule_type storeall -rw_store_type memory", cfg->peer_steps));
  PetscCall(BenchProblemAdjoint(&p->rw, opts));
  PetscCall(RwModelGetTimeStep(model, &p->dt));
  PetscCall(RwModelGetCellVolume(model, &p->vol));
  p->steps = cfg->peer_steps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TS's side on rewind's grid: kappa ghosted once, the two Jacobians' matrices */
static PetscErrorCode PeerSetUpTS(Peer *p)
{
  Vec      kappa;
  PetscInt M[2];

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(p->rw.model, &p->ctx.da));
  PetscCall(DMDAGetInfo(p->ctx.da, NULL, &M[0], &M[1], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt d = 0; d < 2; d++) p->ctx.ih2[d] = (PetscReal)M[d] * M[d]; /* h = 1/M, as rewind */
  PetscCall(DMCreateLocalVector(p->ctx.da, &p->ctx.kloc));
  PetscCall(DMCreateLocalVector(p->ctx.da, &p->ctx.uloc));
  PetscCall(RwModelGetParameterField(p->rw.model, p->rw.m, 0, &kappa));
  PetscCall(DMGlobalToLocal(p->ctx.da, kappa, INSERT_VALUES, p->ctx.kloc));
  PetscCall(RwModelRestoreParameterField(p->rw.model, p->rw.m, 0, &kappa));
  PetscCall(DMCreateMatrix(p->ctx.da, &p->J));
  PetscCall(DMCreateMatrix(p->ctx.da, &p->Jp));
  PetscCall(VecDuplicate(p->rw.u0, &p->u));
  PetscCall(VecDuplicate(p->rw.u0, &p->lambda));
  PetscCall(VecDuplicate(p->rw.u0, &p->mu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PeerDestroy(Peer *p)
{
  Vec *v[] = {&p->ctx.kloc, &p->ctx.uloc, &p->u, &p->lambda, &p->mu};

  PetscFunctionBegin;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(v); i++) PetscCall(VecDestroy(v[i]));
  PetscCall(MatDestroy(&p->J));
  PetscCall(MatDestroy(&p->Jp));
  PetscCall(BenchProblemDestroy(&p->rw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||a - b|| / ||b|| */
static PetscErrorCode PeerRelativeDifference(Vec a, Vec b, PetscReal *d)
{
  Vec       e;
  PetscReal nb;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(a, &e));
  PetscCall(VecWAXPY(e, -1.0, b, a));
  PetscCall(VecNorm(e, NORM_2, d));
  PetscCall(VecNorm(b, NORM_2, &nb));
  *d /= nb;
  PetscCall(VecDestroy(&e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchPeer(const BenchConfig *cfg, BenchResults res)
{
  Peer        p;
  BenchTiming trw, tts;
  Vec         gk;
  PetscReal   dk, du, dJ;
  char        grid[64];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&p, sizeof(p)));
  PetscCall(BenchSectionBegin(res, "peer", "the same gradient by PETSc TSAdjoint (TSRK 1fe, assembled Jacobians, memory trajectory)"));
  PetscCall(PeerSetUpRewind(cfg, &p));
  PetscCall(PeerSetUpTS(&p));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, PeerRunRewind, &p, &trw));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, PeerRunTS, &p, &tts));
  PetscCall(RwModelGetParameterField(p.rw.model, p.rw.g, 0, &gk));
  PetscCall(PeerRelativeDifference(p.mu, gk, &dk));
  PetscCall(RwModelRestoreParameterField(p.rw.model, p.rw.g, 0, &gk));
  PetscCall(PeerRelativeDifference(p.lambda, p.rw.gu0, &du));
  dJ = PetscAbsReal(p.Jts - p.Jrw) / PetscAbsReal(p.Jrw);
  PetscCall(BenchGridName(p.rw.model, grid, sizeof(grid)));
  PetscCall(BenchRow(res, "2D explicit %s, %" PetscInt_FMT " steps", grid, p.steps));
  PetscCall(BenchReal(res, "rewind", "s", trw.best));
  PetscCall(BenchReal(res, "tsadjoint", "s", tts.best));
  PetscCall(BenchReal(res, "rewind_over_ts", "", trw.best / tts.best));
  PetscCall(BenchReal(res, "speedup", "", tts.best / trw.best));
  PetscCall(BenchReal(res, "ts_forward_share", "", p.tforward / (p.tforward + p.tadjoint)));
  PetscCall(BenchReal(res, "relerr_dJdkappa", "", dk));
  PetscCall(BenchReal(res, "relerr_dJdu0", "", du));
  PetscCall(BenchReal(res, "relerr_J", "", dJ));
  PetscCall(BenchReal(res, "spread", "%", 100 * PetscMax(BenchSpread(&trw), BenchSpread(&tts))));
  PetscCall(BenchNote(res, "rewind: RwAdjointSolve, storeall in RAM; tsadjoint: TSSolve with the trajectory + TSAdjointSolve (TS created per gradient); best of %" PetscInt_FMT, cfg->repeat));
  PetscCall(BenchNote(res, "relerr_x = ||x_TS - x_rewind||_2 / ||x_rewind||_2; ts_forward_share: TSSolve's part of the TS time"));
  PetscCall(BenchSectionEnd(res));
  PetscCall(PeerDestroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
