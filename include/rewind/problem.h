/*
  RwProblem: the evaluation of a whole problem, J(x) = sum over the members
  (experiments, shots, trajectories) of each member's objective, plus
  regularisers of the unknown x, and its exact gradient: one checkpointed
  adjoint solve per member, the members solved on groups of ranks
  (RwEnsemble) and summed in member order, so that J and the gradient are the
  same bits for any split of the ranks when the scheme is explicit.  An
  optimisation over it with PETSc TAO is resumable (the journal: -rw_restart)
  and recorded (the history: -rw_history_view).  doc/problem.md explains it.
*/
#ifndef REWIND_PROBLEM_H
#define REWIND_PROBLEM_H

#include <rewind/adjoint.h>
#include <rewind/ensemble.h>
#include <rewind/observations.h>
#include <rewind/verify.h>
#include <petsctao.h>

/*S
  RwProblem - J and its gradient over the members of an observation set, for TAO

  Level: beginner

.seealso: RwProblemCreate(), RwProblemSetFromOptions(), RwProblemEvaluate(), RwProblemSolve()
S*/
typedef struct _p_RwProblem *RwProblem;

PETSC_EXTERN PetscClassId RW_PROBLEM_CLASSID;

/*S
  RwProblemUnknownOps - what the unknown x of an optimisation is, when it is
  not one parameter (RwProblemSetUnknown()): a program's map between x and
  the parameters of a member's solve

  Level: advanced

  Notes:
  createdm makes the DM of x on a model's communicator (the parent's, and
  each group's: the same global layout); toparameters puts x into a member's
  parameters m and initial state u0 (x in the group's layout); fromparameters
  takes the start x from the base parameters (on the parent); gradient turns a
  member's dJ/dm and dJ/du0 into dJ/dx (w, the group's layout).  Both
  toparameters and gradient receive the member being solved (0 .. members - 1),
  so that each member may take its own part of x (its own initial state, as
  multiple shooting's segments do); the evaluation sums the members' w in
  member order, so a part only member e touches is member e's bits.  member
  is -1 on the parent (a regulariser of a named parameter).  x of a block
  of global scalars lives on one rank (a DMRedundant): broadcast it if every
  rank needs it.  toparameters and gradient also run on the parent's model
  and layouts, for a regulariser of a named parameter (-rw_reg_parameter).

.seealso: RwProblemSetUnknownOps()
S*/
typedef struct {
  PetscErrorCode (*createdm)(RwProblem, RwModel, DM *, void *);
  PetscErrorCode (*toparameters)(RwProblem, RwModel, PetscInt, Vec, Vec, Vec, void *);
  PetscErrorCode (*fromparameters)(RwProblem, RwModel, Vec, Vec, Vec, void *);
  PetscErrorCode (*gradient)(RwProblem, RwModel, PetscInt, Vec, Vec, Vec, Vec, void *);
} RwProblemUnknownOps;

PETSC_EXTERN PetscErrorCode RwProblemCreate(MPI_Comm, RwProblem *);
PETSC_EXTERN PetscErrorCode RwProblemSetOptionsPrefix(RwProblem, const char[]);
PETSC_EXTERN PetscErrorCode RwProblemGetOptionsPrefix(RwProblem, const char *[]);
PETSC_EXTERN PetscErrorCode RwProblemSetModelType(RwProblem, RwModelType);
PETSC_EXTERN PetscErrorCode RwProblemSetModelDefaults(RwProblem, PetscErrorCode (*)(RwModel, void *), void *);
PETSC_EXTERN PetscErrorCode RwProblemSetAdjointDefaults(RwProblem, PetscErrorCode (*)(RwAdjoint, void *), void *);
PETSC_EXTERN PetscErrorCode RwProblemSetObjectiveTerms(RwProblem, PetscErrorCode (*)(RwProblem, RwObjective, void *), void *);
PETSC_EXTERN PetscErrorCode RwProblemSetObservations(RwProblem, RwObservations);
PETSC_EXTERN PetscErrorCode RwProblemGetObservations(RwProblem, RwObservations *);
PETSC_EXTERN PetscErrorCode RwProblemSetUnknown(RwProblem, const char[]);
PETSC_EXTERN PetscErrorCode RwProblemSetUnknownOps(RwProblem, const RwProblemUnknownOps *, void *);
/* issue 34: an unknown per member (multiple shooting's segments), a regulariser of one member's */
PETSC_EXTERN PetscErrorCode RwProblemSetUnknownPerMember(RwProblem, PetscBool);
PETSC_EXTERN PetscErrorCode RwProblemGetUnknownPerMember(RwProblem, PetscBool *);
PETSC_EXTERN PetscErrorCode RwProblemGetMemberUnknown(RwProblem, PetscInt, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwProblemSetMemberUnknown(RwProblem, PetscInt, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwProblemSetRegularizerMember(RwProblem, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode RwProblemSetShooting(RwProblem, PetscInt64, PetscReal);
PETSC_EXTERN PetscErrorCode RwProblemSetShootingWeight(RwProblem, PetscReal);
PETSC_EXTERN PetscErrorCode RwProblemAddRegularizer(RwProblem, const char[], RwRegType, PetscReal, PetscReal, Vec);
PETSC_EXTERN PetscErrorCode RwProblemSetMask(RwProblem, Vec);
PETSC_EXTERN PetscErrorCode RwProblemGetEnsemble(RwProblem, RwEnsemble *);
PETSC_EXTERN PetscErrorCode RwProblemSetJournal(RwProblem, const char[]);
PETSC_EXTERN PetscErrorCode RwProblemAddIdentity(RwProblem, const char[], const char[]);
PETSC_EXTERN PetscErrorCode RwProblemSetEvaluationSalt(RwProblem, uint64_t);
PETSC_EXTERN PetscErrorCode RwProblemSetFromOptions(RwProblem);
PETSC_EXTERN PetscErrorCode RwProblemSetUp(RwProblem);
PETSC_EXTERN PetscErrorCode RwProblemGetModel(RwProblem, RwModel *);
PETSC_EXTERN PetscErrorCode RwProblemGetAdjoint(RwProblem, RwAdjoint *);
PETSC_EXTERN PetscErrorCode RwProblemGetMemberSolver(RwProblem, RwModel *, RwObjective *, RwAdjoint *);
PETSC_EXTERN PetscErrorCode RwProblemGetNumMembers(RwProblem, PetscInt *);
PETSC_EXTERN PetscErrorCode RwProblemGetMemberParameters(RwProblem, PetscInt, Vec *, Vec *);
PETSC_EXTERN PetscErrorCode RwProblemGetParameters(RwProblem, Vec *, Vec *);
PETSC_EXTERN PetscErrorCode RwProblemCreateUnknownVector(RwProblem, Vec *);
PETSC_EXTERN PetscErrorCode RwProblemGetUnknown(RwProblem, Vec);
PETSC_EXTERN PetscErrorCode RwProblemEvaluate(RwProblem, Vec, PetscReal *, Vec);
PETSC_EXTERN PetscErrorCode RwProblemComputeGradient(RwProblem, PetscReal *, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwProblemSolveMember(RwProblem, PetscInt, PetscReal *, Vec *, Vec *); /* issue 34 */
PETSC_EXTERN PetscErrorCode RwProblemGetTerms(RwProblem, PetscInt *, const char *const *[], const PetscReal *[]);
PETSC_EXTERN PetscErrorCode RwProblemGetFirstEvaluation(RwProblem, PetscReal *, Vec *);
PETSC_EXTERN PetscErrorCode RwProblemGetCounts(RwProblem, PetscInt64 *, PetscInt64 *, PetscInt64 *, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwProblemTaoObjectiveAndGradient(Tao, Vec, PetscReal *, Vec, void *);
PETSC_EXTERN PetscErrorCode RwProblemSetUpTao(RwProblem, Tao);
PETSC_EXTERN PetscErrorCode RwProblemSolve(RwProblem, Tao);
PETSC_EXTERN PetscErrorCode RwProblemComplete(RwProblem);
PETSC_EXTERN PetscErrorCode RwProblemGetTime(RwProblem, PetscReal *);
PETSC_EXTERN PetscErrorCode RwProblemVerifyTaylor(RwProblem, Vec, PetscInt64, RwTaylorTest *);
PETSC_EXTERN PetscErrorCode RwProblemAddHistoryColumn(RwProblem, const char[], PetscErrorCode (*)(RwProblem, Vec, PetscReal *, void *), void *);
PETSC_EXTERN PetscErrorCode RwProblemGetHistory(RwProblem, PetscInt *, PetscInt *, const char *const *[], const PetscReal *[]);
PETSC_EXTERN PetscErrorCode RwProblemGetHistoryValues(RwProblem, PetscInt, PetscInt, const char *const[], PetscReal[]);
PETSC_EXTERN PetscErrorCode RwProblemHistoryView(RwProblem, PetscViewer);
PETSC_EXTERN PetscErrorCode RwProblemSetUnits(RwProblem, const char[], const char[]);
PETSC_EXTERN PetscErrorCode RwProblemSetHistoryColumnInfo(RwProblem, const char[], const char[], const char[]);
PETSC_EXTERN PetscErrorCode RwProblemView(RwProblem, PetscViewer);
/* the run as y = F(m, u0) and its vector-Jacobian products (src/problem/problemvjp.c) */
PETSC_EXTERN PetscErrorCode RwProblemGetOutputSize(RwProblem, PetscInt *);
PETSC_EXTERN PetscErrorCode RwProblemComputeOutputs(RwProblem, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwProblemComputeOutputsForVJP(RwProblem, PetscReal[]); /* issue 35: checkpoints kept for the VJP */
PETSC_EXTERN PetscErrorCode RwProblemComputeVJP(RwProblem, const PetscReal[], PetscReal[], Vec, Vec);
PETSC_EXTERN PetscErrorCode RwProblemDestroy(RwProblem *);

/* Adam (Kingma and Ba 2015) as a TAO type, registered by rewind: -tao_type adam */
#define TAOADAM "adam"
PETSC_EXTERN PetscErrorCode TaoCreate_Adam(Tao);
PETSC_EXTERN PetscErrorCode TaoAdamSetLearningRate(Tao, PetscReal, PetscReal);

#endif
