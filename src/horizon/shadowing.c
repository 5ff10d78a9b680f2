/*
  A shadowing remedy past the horizon: NILSS, non-intrusive least squares
  shadowing (Ni and Wang 2017, J. Comput. Phys. 347).  The sensitivity of a
  long-time average <J> to a parameter s is the response along the
  shadowing trajectory, the one perturbed trajectory that stays close to the
  unperturbed one.  NILSS finds it in the unstable subspace only: u
  homogeneous tangents W (dm = 0) and one inhomogeneous tangent v (dm = e_s)
  run along the trajectory (RwTangentPropagate()), the run is cut into
  segments, and at each segment end
  - W and v lose their component along the flow f(u) (the neutral direction;
    what v loses, xi f, is a shift in time: the time dilation term below),
  - W = Q R (Cholesky QR of W's Gram matrix, summed exactly: src/horizon/gram.c),
    b = Q^T v, v -= Q b, and the next segment starts from Q and v.
  The shadowing tangent on segment i is v_i + W_i a_i with a_i = R_i a_i-1 + b_i
  (continuity); the a_i minimise sum_i |v_i + W_i a_i|^2 summed over the steps,
  a KKT system with block-tridiagonal Schur complement solved identically on
  every rank (src/horizon/nilsskkt.c).  Then
    d<J>/ds = sum_k dJ/du_k . (v_k + W_k a_i(k))
            + (1/T) sum_i xi_i (<j> - j(u at segment end i)),
  with xi_i the shadowing tangent's flow component removed at interior end i
  (j the per-step quantity averaged, taken linear in the state, T the run's
  time).  Every sum is exact (RwReproSum): the estimate is the same bits on any
  number of ranks for an explicit model.  Each segment end takes two
  reductions: the segment's sums with the flow's products, then the Gram
  matrix of [W v] after the flow is removed.  Its error is the spread over
  independent runs.
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/private/objectiveimpl.h>
#include <rewind/private/horizonimpl.h>
#include <petscblaslapack.h>

typedef struct {
  PetscInt   u, nseg, nslot;
  PetscInt64 seglen, n;
  PetscReal  dt;
  RwReproSum acc;   /* this segment's sums (the NILSS_ slots below), and at its end the flow's products */
  RwReproSum gram;  /* the Gram matrix of [W v] at a segment end: one reduction */
  PetscReal *sums;  /* nslot */
  PetscReal *G;     /* the Gram matrix of [W v], packed */
  PetscReal *C, *d, *gw, *gv, *vv; /* per segment */
  PetscReal *R, *b, *xw, *xv, *jb; /* per interior end 1..nseg-1 (index i: end of segment i-1) */
  Vec        g, f, uprev;
  RwObjective obj;
  RwModel     model;
} RwNilss;

/* The slots of acc, for u homogeneous tangents W = du[0..u) and v = du[u]: the Gram matrix
   of [W v] summed over the segment (packed: C, d and |v|^2), g^T du; then, added at the
   segment's end only, f^T f, du^T f and g^T u of the end */
#define NILSS_GRAM(u)  0
#define NILSS_G(u)     (RwGramSlots((u) + 1))
#define NILSS_FF(u)    (NILSS_G(u) + (u) + 1)
#define NILSS_DUF(u)   (NILSS_FF(u) + 1)
#define NILSS_GU(u)    (NILSS_DUF(u) + (u) + 1)
#define NILSS_SLOTS(u) (NILSS_GU(u) + 1)

/* Step k's terms of the segment's sums: W^T W, W^T v, v^T v, g^T W, g^T v */
static PetscErrorCode NilssAccumulate(RwNilss *s, PetscInt64 k, Vec u, Vec du[])
{
  PetscFunctionBegin;
  PetscCall(VecSet(s->g, 0));
  PetscCall(RwObjectiveAdjointSource(s->obj, k, u, s->g));
  PetscCall(RwHorizonGramAdd(s->acc, NILSS_GRAM(s->u), s->u + 1, du));
  PetscCall(RwHorizonDotsAdd(s->acc, NILSS_G(s->u), s->g, s->u + 1, du));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* At a segment's end: the flow f = (u_k+1 - u_k-1) / 2 dt and the products that give the
   tangents' components along it and j(u_k), added to the segment's sums (one reduction) */
static PetscErrorCode NilssFlowAdd(RwNilss *s, PetscInt64 k, Vec u, Vec du[])
{
  PetscFunctionBegin;
  PetscCall(RwModelStep(s->model, k, u, s->f));
  PetscCall(VecAXPY(s->f, -1, s->uprev));
  PetscCall(VecScale(s->f, 1 / (2 * s->dt)));
  PetscCall(RwHorizonGramAdd(s->acc, NILSS_FF(s->u), 1, &s->f));
  PetscCall(RwHorizonDotsAdd(s->acc, NILSS_DUF(s->u), s->f, s->u + 1, du));
  PetscCall(RwHorizonDotsAdd(s->acc, NILSS_GU(s->u), s->g, 1, &u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The segment's sums, rounded once, into its slots */
static PetscErrorCode NilssCloseSegment(RwNilss *s, MPI_Comm comm, PetscInt i)
{
  const PetscInt p = s->u;

  PetscFunctionBegin;
  PetscCall(RwReproSumAllreduce(s->acc, comm, s->sums));
  PetscCall(RwReproSumReset(s->acc));
  for (PetscInt l = 0; l < p; l++)
    for (PetscInt j = 0; j <= l; j++) s->C[i * p * p + j * p + l] = s->C[i * p * p + l * p + j] = s->sums[RwGramIndex(j, l)];
  for (PetscInt j = 0; j < p; j++) {
    s->d[i * p + j]  = s->sums[RwGramIndex(j, p)];
    s->gw[i * p + j] = s->sums[NILSS_G(p) + j];
  }
  s->gv[i] = s->sums[NILSS_G(p) + p];
  s->vv[i] = s->sums[RwGramIndex(p, p)];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tangents' components along the flow, xi = <du, f> / <f, f>, removed; a state at rest
   (f = 0) has no flow direction */
static PetscErrorCode NilssRemoveFlow(RwNilss *s, PetscInt i, Vec du[])
{
  const PetscInt  p  = s->u;
  const PetscReal ff = s->sums[NILSS_FF(p)];

  PetscFunctionBegin;
  for (PetscInt j = 0; j <= p; j++) {
    const PetscReal xi = ff == 0 ? 0 : s->sums[NILSS_DUF(p) + j] / ff;

    if (j < p) s->xw[i * p + j] = xi;
    else s->xv[i] = xi;
    if (xi != 0) PetscCall(VecAXPY(du[j], -xi, s->f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W = Q R (Cholesky QR of the exactly summed Gram matrix of [W v], one reduction), then
   b = Q^T v = R^-T W^T v and v -= Q b (b NULL: v is zero, as at k = 0) */
static PetscErrorCode NilssOrthonormalize(RwNilss *s, MPI_Comm comm, PetscInt64 k, Vec du[], PetscReal R[], PetscReal b[])
{
  const PetscInt p = s->u;
  PetscInt       broken;
  PetscBLASInt   n, one = 1, info;

  PetscFunctionBegin;
  PetscCall(RwReproSumReset(s->gram));
  PetscCall(RwHorizonGramAdd(s->gram, 0, b ? p + 1 : p, du));
  PetscCall(RwReproSumAllreduce(s->gram, comm, s->G));
  PetscCall(RwHorizonCholQR(p, s->G, du, R, &broken));
  PetscCheck(broken < 0, comm, PETSC_ERR_FP, "NILSS: homogeneous tangent %" PetscInt_FMT " is zero, not finite or (to rounding) a combination of the others at step %" PetscInt64_FMT " (its squared norm %g): use shorter segments, or fewer tangents than the state has directions", broken, k, (double)s->G[RwGramIndex(broken, broken)]);
  if (!b) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt j = 0; j < p; j++) b[j] = s->G[RwGramIndex(j, p)];
  PetscCall(PetscBLASIntCast(p, &n));
  LAPACKtrtrs_("L", "N", "N", &n, &one, R, &n, b, &n, &info); /* row-major R is column-major R^T */
  PetscCheck(info == 0, comm, PETSC_ERR_LIB, "NILSS: LAPACK trtrs failed (info %d)", (int)info);
  for (PetscInt j = 0; j < p; j++) PetscCall(VecAXPY(du[p], -b[j], du[j]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After every step: the segment's sums; at an interior segment end, in the same reduction,
   the flow's products; then the flow components removed and the QR of W with the projection
   of v (a second reduction); at k = 0 only the QR of the starting directions */
static PetscErrorCode NilssStep(RwAdjoint adj, PetscInt64 k, Vec u, PetscInt ndir, Vec du[], void *ctx)
{
  RwNilss *s    = (RwNilss *)ctx;
  MPI_Comm comm = PetscObjectComm((PetscObject)adj);
  PetscInt i;

  PetscFunctionBegin;
  if (k == 0) PetscCall(NilssOrthonormalize(s, comm, k, du, s->R, NULL)); /* block 0 of R is unused: scratch */
  if (k == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(NilssAccumulate(s, k, u, du));
  if ((k + 1) % s->seglen == 0) PetscCall(VecCopy(u, s->uprev));
  if (k % s->seglen) PetscFunctionReturn(PETSC_SUCCESS);
  i = (PetscInt)(k / s->seglen); /* the end of segment i - 1 */
  if (i < s->nseg) PetscCall(NilssFlowAdd(s, k, u, du));
  PetscCall(NilssCloseSegment(s, comm, i - 1));
  if (i == s->nseg) PetscFunctionReturn(PETSC_SUCCESS);
  s->jb[i] = s->sums[NILSS_GU(s->u)] * (PetscReal)s->n; /* j(u_k): the objective's per-step quantity, linear in u */
  PetscCall(NilssRemoveFlow(s, i, du));
  PetscCall(NilssOrthonormalize(s, comm, k, du, &s->R[i * s->u * s->u], &s->b[i * s->u]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* d<J>/ds of one run from its sums and the coefficients a */
static PetscErrorCode NilssSensitivity(const RwNilss *s, const PetscReal a[], PetscReal J, PetscReal *value)
{
  const PetscInt p = s->u;
  PetscReal      dJ = 0, dil = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < s->nseg; i++) {
    dJ += s->gv[i];
    for (PetscInt j = 0; j < p; j++) dJ += s->gw[i * p + j] * a[i * p + j];
  }
  for (PetscInt i = 1; i < s->nseg; i++) {
    PetscReal xi = s->xv[i];
    for (PetscInt j = 0; j < p; j++) xi += s->xw[i * p + j] * a[(i - 1) * p + j];
    dil += xi * (J - s->jb[i]);
  }
  {
    PetscReal worst = 0, amax = 0; /* the shadowing tangent's mean squared norm, worst segment (diagnostic) */
    for (PetscInt i = 0; i < s->nseg; i++) {
      PetscReal q = s->vv[i];
      for (PetscInt j = 0; j < p; j++) {
        q += 2 * s->d[i * p + j] * a[i * p + j];
        for (PetscInt l = 0; l < p; l++) q += a[i * p + j] * s->C[i * p * p + j * p + l] * a[i * p + l];
        amax = PetscMax(amax, PetscAbsReal(a[i * p + j]));
      }
      worst = PetscMax(worst, q / s->seglen);
    }
    PetscCall(PetscInfo(s->model, "NILSS run: worst segment's mean |v + W a|^2 %g, max |a| %g\n", (double)worst, (double)amax));
  }
  PetscCall(PetscInfo(s->model, "NILSS run: the shadowing tangent's part %g, the time dilation's %g\n", (double)dJ, (double)(dil / (s->n * s->dt))));
  *value = dJ + dil / (s->n * s->dt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One run from u0: W from seeded directions (the same on any rank count), v = 0; the
   tangents, the segment sums, the least squares and the run's d<J>/ds */
static PetscErrorCode NilssRun(RwAdjoint adj, RwNilss *s, Vec m, Vec u0, Vec du[], Vec dms[], PetscReal a[], PetscReal *value, PetscReal *J)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < s->u; j++) PetscCall(RwHorizonInitialDirection(s->model, j + 1, du[j]));
  PetscCall(VecSet(du[s->u], 0));
  PetscCall(RwReproSumReset(s->acc));
  PetscCall(RwTangentPropagate(adj, m, u0, s->u + 1, dms, du, NilssStep, s, J));
  PetscCall(RwHorizonShadowingSolveKKT(s->u, s->nseg, s->C, s->d, s->R, s->b, a));
  PetscCall(NilssSensitivity(s, a, *J, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The direction e_index of parameter block "block" in dm, the rest zero */
static PetscErrorCode NilssParameterDirection(RwModel model, const char block[], PetscInt index, Vec dm)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)model);
  PetscInt   b, size;
  PetscReal *vals;

  PetscFunctionBegin;
  PetscCall(RwModelFindParameterBlock(model, block, &b));
  PetscCheck(b >= 0, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "NILSS: the parameter %s is not a block of global scalars of the model", block);
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, &size, NULL, NULL));
  PetscCheck(index >= 0 && index < size, comm, PETSC_ERR_ARG_OUTOFRANGE, "NILSS: parameter block %s has %" PetscInt_FMT " scalars: index %" PetscInt_FMT " is not one", block, size, index);
  PetscCall(PetscCalloc1(size, &vals));
  vals[index] = 1;
  PetscCall(VecSet(dm, 0));
  PetscCall(RwModelSetParameterBlock(model, dm, b, vals));
  PetscCall(PetscFree(vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mean of v[0..n) in order, and its standard error */
static void NilssMean(PetscInt n, const PetscReal v[], PetscReal *mean, PetscReal *err)
{
  PetscReal sum = 0, q = 0;

  for (PetscInt i = 0; i < n; i++) sum += v[i];
  *mean = sum / n;
  for (PetscInt i = 0; i < n; i++) q += PetscSqr(v[i] - *mean);
  *err = n > 1 ? PetscSqrtReal(q / (n - 1) / n) : PETSC_INFINITY;
}

static PetscErrorCode NilssCheck(RwAdjoint adj, Vec u0, PetscInt nruns, PetscInt u, PetscInt64 seglen, PetscInt64 n)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)adj);
  PetscInt size;

  PetscFunctionBegin;
  PetscCall(VecGetSize(u0, &size));
  PetscCheck(nruns >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "NILSS: need at least 2 independent runs for an error bar, not %" PetscInt_FMT, nruns);
  PetscCheck(u >= 1 && u < size, comm, PETSC_ERR_ARG_OUTOFRANGE, "NILSS: %" PetscInt_FMT " homogeneous tangents for a state of %" PetscInt_FMT " values: need 1 <= tangents < the state's size (at least the number of positive Lyapunov exponents)", u, size);
  PetscCheck(seglen >= 2 && n % seglen == 0 && n / seglen >= 2, comm, PETSC_ERR_ARG_INCOMP, "NILSS: segments of %" PetscInt64_FMT " steps must divide the run's %" PetscInt64_FMT " steps into at least 2 segments of at least 2 steps", seglen, n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sums and the time-dilation term hold for J = (1/n) sum_k j(u_k), j linear in the
   state, with no direct dependence on the parameters: every term must be a time average */
static PetscErrorCode NilssCheckObjective(RwAdjoint adj)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)adj);
  RwObjective obj  = adj->obj;

  PetscFunctionBegin;
  PetscCheck(obj && obj->nterms > 0, comm, PETSC_ERR_ARG_WRONGSTATE, "NILSS: the driver's objective has no terms: add a time average (RwObjectiveAddTimeAverage(), -rw_objective_time_average)");
  for (PetscInt t = 0; t < obj->nterms; t++) {
    const RwTerm *term = &obj->terms[t];

    PetscCheck(!term->ops.gradient, comm, PETSC_ERR_SUP, "NILSS: the objective's term \"%s\" depends on the parameters directly, which NILSS does not count: use time averages of the state alone (RwObjectiveAddTimeAverage())", term->name);
    PetscCheck(!strcmp(term->name, "time average"), comm, PETSC_ERR_SUP, "NILSS: the objective's term \"%s\" is not a time average of a quantity linear in the state, which NILSS's time-dilation term assumes: use time averages alone (RwObjectiveAddTimeAverage(), -rw_objective_time_average)", term->name);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwHorizonShadowingSensitivity - the sensitivity d<J>/ds of a long-time
  average to one global scalar parameter by non-intrusive least squares
  shadowing (NILSS, Ni and Wang 2017), as the mean and standard error over
  independent runs

  Collective

  Input Parameters:
+ adj    - the driver: its model, its objective (a time average of a quantity linear in the
           state, e.g. RwObjectiveAddTimeAverage()) and its number of steps n define each run
. m      - the parameters
. nruns  - the number of independent runs, >= 2
. starts - their initial states, on the attractor (e.g. RwHorizonWindowStarts() spaced n apart)
. block  - the name of the parameter block holding s (e.g. "F")
. index  - s's index in the block
. u      - homogeneous tangents: at least the number of positive Lyapunov exponents
- seglen - steps per segment; must divide n into at least 2 segments

  Output Parameter:
. est - value +- error: d<J>/ds over the runs; J +- Jerror: the runs' averages; members: nruns;
        steps: model steps taken, forward and tangent (u + 1 per forward step)

  Level: intermediate

  Notes:
  Cost per run: one forward run and u + 1 tangent runs of n steps, (u + 1)(u + 4)/2
  products of state vectors per step (exact sums; two reductions per segment) and a
  least-squares system of (2 n / seglen - 1) u unknowns solved in O(n / seglen u^3) work
  through its block-tridiagonal Schur complement.  The tangents' work grows like N (u + 1) per
  step, so NILSS scales with the grid only while the number of positive exponents, which
  for extensive chaos grows like N too, stays modest.  The estimate is the same bits on any
  number of ranks (explicit models).  The objective must be made of time averages
  (RwObjectiveAddTimeAverage()): other terms, and terms that depend on the parameters
  directly, are refused by name.

.seealso: RwHorizonEnsembleSensitivity(), RwHorizonLyapunovSpectrum(), doc/chaos.md
@*/
PetscErrorCode RwHorizonShadowingSensitivity(RwAdjoint adj, Vec m, PetscInt nruns, Vec starts[], const char block[], PetscInt index, PetscInt u, PetscInt64 seglen, RwEstimate *est)
{
  RwNilss    s = {0};
  PetscInt64 n;
  PetscReal *a, *val, *Jr;
  Vec       *du, *dms, zero;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(RwAdjointSetUp(adj));
  PetscCall(RwAdjointGetSteps(adj, &n));
  PetscCall(NilssCheck(adj, starts[0], nruns, u, seglen, n));
  PetscCall(NilssCheckObjective(adj));
  s.model  = adj->model;
  s.obj    = adj->obj;
  s.u      = u;
  s.n      = n;
  s.seglen = seglen;
  s.nseg   = (PetscInt)(n / seglen);
  s.nslot  = NILSS_SLOTS(u);
  PetscCall(RwModelGetTimeStep(s.model, &s.dt));
  PetscCall(RwReproSumCreate(s.nslot, &s.acc));
  PetscCall(RwReproSumCreate(RwGramSlots(u + 1), &s.gram));
  PetscCall(PetscMalloc1(RwGramSlots(u + 1), &s.G));
  PetscCall(PetscMalloc6(s.nslot, &s.sums, s.nseg * u * u, &s.C, s.nseg * u, &s.d, s.nseg * u, &s.gw, s.nseg, &s.gv, s.nseg, &s.vv));
  PetscCall(PetscCalloc5(s.nseg * u * u, &s.R, s.nseg * u, &s.b, s.nseg * u, &s.xw, s.nseg, &s.xv, s.nseg, &s.jb));
  PetscCall(PetscMalloc3(s.nseg * u, &a, nruns, &val, nruns, &Jr));
  PetscCall(VecDuplicate(starts[0], &s.g));
  PetscCall(VecDuplicate(starts[0], &s.f));
  PetscCall(VecDuplicate(starts[0], &s.uprev));
  PetscCall(VecDuplicateVecs(starts[0], u + 1, &du));
  PetscCall(PetscMalloc1(u + 1, &dms));
  PetscCall(VecDuplicate(m, &zero));
  PetscCall(VecSet(zero, 0));
  for (PetscInt j = 0; j < u; j++) dms[j] = zero;
  PetscCall(VecDuplicate(m, &dms[u]));
  PetscCall(NilssParameterDirection(s.model, block, index, dms[u]));
  for (PetscInt r = 0; r < nruns; r++) PetscCall(NilssRun(adj, &s, m, starts[r], du, dms, a, &val[r], &Jr[r]));
  NilssMean(nruns, val, &est->value, &est->error);
  NilssMean(nruns, Jr, &est->J, &est->Jerror);
  est->x0norm = est->x0error = 0;
  est->members = nruns;
  est->steps   = nruns * (n * (u + 2) + s.nseg);
  PetscCall(VecDestroy(&dms[u]));
  PetscCall(VecDestroy(&zero));
  PetscCall(PetscFree(dms));
  PetscCall(VecDestroyVecs(u + 1, &du));
  PetscCall(VecDestroy(&s.g));
  PetscCall(VecDestroy(&s.f));
  PetscCall(VecDestroy(&s.uprev));
  PetscCall(PetscFree3(a, val, Jr));
  PetscCall(PetscFree5(s.R, s.b, s.xw, s.xv, s.jb));
  PetscCall(PetscFree(s.G));
  PetscCall(RwReproSumDestroy(&s.gram));
  PetscCall(PetscFree6(s.sums, s.C, s.d, s.gw, s.gv, s.vv));
  PetscCall(RwReproSumDestroy(&s.acc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
