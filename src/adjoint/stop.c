/*
  Stopping a run while it runs: a test on the state after each step of the
  first forward sweep (a user's, RwAdjointSetStopTest(), or the steady state
  of -rw_adjoint_stop_steady) may end the run there.  The driver's n
  (-rw_steps) is then an upper bound, and the reversal needs a schedule that
  does not plan for a known n: RWSCHEDULEONLINE.
*/
#include <rewind/private/adjointimpl.h>

/*@C
  RwAdjointSetStopTest - a test called after each step of the first forward
  sweep that may end the run there: "stop after this step"

  Logically collective

  Input Parameters:
+ adj  - the driver
. test - test(adj, k, u_k, u_km1, &stop, ctx): the run has just reached x_k
         (u_k) from x_(k-1) (u_km1), 1 <= k < n; setting *stop ends the run
         at n' = k. The vectors are the driver's, valid during the call. NULL removes the test.
- ctx  - passed to test

  Options Database Key:
. -rw_adjoint_stop_steady <tol> - a built-in test: stop when max |u_k - u_(k-1)| <= tol (steady state)

  Level: intermediate

  Notes:
  The run stops if the test says so on any rank, so every rank agrees. The
  test must depend on the states only (it is called again, with the same
  states, in every solve), since a solve's gradient is that of the run it
  stopped. The objective's terms at RW_OBJECTIVE_FINAL_STEP are evaluated at
  n'; RwAdjointGetCounts() gives n' as steps. RwAdjointSolve() needs the
  online schedule (-rw_schedule_type online) and refuses any other, which plan
  for a known n; RwAdjointForward() stops too, whatever the schedule.

.seealso: RWSCHEDULEONLINE, RwScheduleStopAt(), RwAdjointGetCounts()
@*/
PetscErrorCode RwAdjointSetStopTest(RwAdjoint adj, PetscErrorCode (*test)(RwAdjoint, PetscInt64, Vec, Vec, PetscBool *, void *), void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  adj->stoptest = test;
  adj->stopctx  = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwAdjointStopSetFromOptions_Private(RwAdjoint adj, PetscOptionItems *PetscOptionsObject)
{
  PetscFunctionBegin;
  PetscCall(RwOptionsReal("-rw_adjoint_stop_steady", "Stop the run at the first step k with max |u_k - u_k-1| <= tol (steady state); -rw_steps is then an upper bound (needs -rw_schedule_type online; 0: no test)", "RwAdjointSetStopTest", adj->stopsteady, &adj->stopsteady, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What stops the run, for the identity of the problem: a restart must resume the same run */
PetscErrorCode RwAdjointStopDescribe_Private(RwAdjoint adj, char desc[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(desc, len, "%s%s", adj->stoptest ? "user test " : "", adj->stopsteady > 0 ? "steady" : ""));
  if (adj->stopsteady > 0) {
    size_t used;

    PetscCall(PetscStrlen(desc, &used));
    PetscCall(PetscSNPrintf(desc + used, len - used, " %.17g", (double)adj->stopsteady));
  }
  if (!desc[0]) PetscCall(PetscStrncpy(desc, "none", len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Whether the run ends at x_k: W = x_k, T = x_(k-1) (the driver's buffers right
  after the step).  The steady test's difference goes into lam[1]: the test
  runs only in a first sweep, before any adjoint step, and the tangent sweeps
  use no lambda; nothing is allocated.
*/
PetscErrorCode RwAdjointStopCheck_Private(RwAdjoint adj, PetscInt64 k, PetscBool *stop)
{
  PetscBool mine = PETSC_FALSE;

  PetscFunctionBegin;
  *stop = PETSC_FALSE;
  if (!adj->stoptest && !(adj->stopsteady > 0)) PetscFunctionReturn(PETSC_SUCCESS);
  if (adj->stopsteady > 0) {
    PetscReal d;

    PetscCall(VecWAXPY(adj->lam[1], -1.0, adj->T, adj->W));
    PetscCall(VecNorm(adj->lam[1], NORM_INFINITY, &d)); /* collective: every rank gets the same d */
    if (d <= adj->stopsteady) *stop = PETSC_TRUE;
  }
  if (adj->stoptest) {
    PetscCall((*adj->stoptest)(adj, k, adj->W, adj->T, &mine, adj->stopctx));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &mine, 1, MPIU_BOOL, MPI_LOR, PetscObjectComm((PetscObject)adj)));
    if (mine) *stop = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
