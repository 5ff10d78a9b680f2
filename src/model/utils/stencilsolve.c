/*
  RwStencil: the implicit schemes' solver.  A model assembles its operator
  into the matrix the layer creates, chooses its solver's defaults, and
  solves each step from the previous step's value.
*/
#include <rewind/private/stencilimpl.h>

/*@C
  RwStencilCreateKSP - a matrix on the state's grid and a KSP for it, under
  the model's options prefix, starting from the initial guess it is given;
  the model sets its defaults (type, preconditioner, tolerances) and then
  calls KSPSetFromOptions()

  Collective

  Output Parameters:
+ P   - the operator, to assemble (MatSetValuesStencil())
- ksp - its solver

  Level: developer

.seealso: RwStencilSolve()
@*/
PetscErrorCode RwStencilCreateKSP(RwStencil st, Mat *P, KSP *ksp)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(DMCreateMatrix(st->da, P));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)st->model), ksp));
  PetscCall(KSPSetOperators(*ksp, *P, *P));
  PetscCall(KSPSetInitialGuessNonzero(*ksp, PETSC_TRUE));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)st->model, &prefix));
  PetscCall(KSPSetOptionsPrefix(*ksp, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStencilSolve - solves P x = b (or P^T x = b) with guess as the initial
  guess: states change little per step, so Krylov methods converge in fewer
  iterations from the previous step's value; a failure names the step

  Collective

  Input Parameters:
+ ksp       - the solver
. comm      - where to report
. k         - the step, for the message
. b         - the right-hand side
. guess     - the initial guess (copied into x first; may be b)
. transpose - solve with the transpose (adjoint steps)
- what      - what is solved, for the message ("forward step", "tangent", "adjoint")

  Output Parameter:
. x - the solution

  Level: developer
@*/
PetscErrorCode RwStencilSolve(KSP ksp, MPI_Comm comm, PetscInt64 k, Vec b, Vec guess, Vec x, PetscBool transpose, const char what[])
{
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(VecCopy(guess, x));
  if (transpose) PetscCall(KSPSolveTranspose(ksp, b, x));
  else PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, comm, PETSC_ERR_NOT_CONVERGED, "The linear solve of the %s of step %" PetscInt64_FMT " failed (%s): the state may hold NaN or Inf, or the solver needs other options (-ksp_type, -pc_type, -ksp_max_it)", what, k, KSPConvergedReasons[reason]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
