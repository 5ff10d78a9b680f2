/*
  RwModel: the physics.  A model owns a DMDA for its state (dof components a
  point, one of them observed by objectives), a dof-1 DMDA for its parameter
  fields, and a DMComposite for its parameters (the fields, then named blocks
  of replicated global scalars on one DMRedundant; a block may hold a value
  per step), and steps the state forward with three forms of each step:
  forward, tangent and adjoint.  It owns the time grid: n steps of dt.

  The driver talks to a model in this order for one gradient:
    RwModelSetParameters(m)            once per solve (operators rebuilt only if m changed)
    RwModelStep(k, u_k, u_k+1)         forward sweep and recomputations, or
    RwModelStepBlock(k, T, u_k, u_k+1..u_k+T)   T of them in one pass, where the type fuses them
    RwModelAdjointBegin()              zero the parameter-gradient accumulators
    RwModelStepAdjoint(k, u_k, u_k+1, l_k+1, l_k)   reverse sweep; accumulates dJ/dm
    RwModelAdjointEnd(g)               write dJ/dm into g (global scalars reduced once, reproducibly)
  and for a directional derivative:
    RwModelSetDirection(dm); RwModelStepTangent(k, u_k, u_k+1, du_k, du_k+1)
*/
#ifndef REWIND_MODEL_H
#define REWIND_MODEL_H

#include <petscdm.h>
#include <rewind/nn.h>

/*S
  RwModel - the physics: steps a state on a distributed grid forward, with its tangent and adjoint

  Level: beginner

.seealso: RwModelCreate(), RwModelSetType(), RwModelType
S*/
typedef struct _p_RwModel *RwModel;

/*J
  RwModelType - name of a model, chosen with -rw_model_type

  Level: beginner

.seealso: RwModelSetType(), RwModelRegister()
J*/
typedef const char *RwModelType;
#define RWMODELHEAT "heat"
#define RWMODELL96  "l96" /* Lorenz-96, doc/chaos.md */

PETSC_EXTERN PetscErrorCode RwModelHeatSetScheme(RwModel, PetscReal);
PETSC_EXTERN PetscErrorCode RwModelHeatSetSourceAmplitude(RwModel, PetscBool);
PETSC_EXTERN PetscErrorCode RwModelHeatSetDimension(RwModel, PetscInt);
PETSC_EXTERN PetscErrorCode RwModelHeatSetBoundaries(RwModel, const char[]);
PETSC_EXTERN PetscErrorCode RwModelHeatSetSolverDefaults(RwModel, const char[], const char[], PetscReal);
PETSC_EXTERN PetscErrorCode RwModelSetGridSizes(RwModel, const PetscInt[3]);
PETSC_EXTERN PetscErrorCode RwModelSetProcessors(RwModel, const PetscInt[3]);
PETSC_EXTERN PetscErrorCode RwModelHeatSetNN(RwModel, PetscBool);
PETSC_EXTERN PetscErrorCode RwModelHeatGetNN(RwModel, RwNN *);
/* the heat model's actuators (h-control, issue 33) */
PETSC_EXTERN PetscErrorCode RwModelHeatSetHeaters(RwModel, PetscInt, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelHeatSetFluxSides(RwModel, const char[]);
PETSC_EXTERN PetscErrorCode RwModelHeatSetControlNodes(RwModel, PetscInt);
PETSC_EXTERN PetscErrorCode RwModelHeatGetControl(RwModel, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelHeatGetHeaters(RwModel, PetscInt *, const PetscReal *[]); /* issue 33: rewind-heat-design */

PETSC_EXTERN PetscFunctionList RwModelList;
PETSC_EXTERN PetscErrorCode    RwModelRegister(const char[], PetscErrorCode (*)(RwModel));
PETSC_EXTERN PetscErrorCode    RwModelRegisterAll(void);
PETSC_EXTERN PetscErrorCode    RwModelLoadPlugin(MPI_Comm, const char[]);

PETSC_EXTERN PetscErrorCode RwModelCreate(MPI_Comm, RwModel *);
PETSC_EXTERN PetscErrorCode RwModelSetType(RwModel, RwModelType);
PETSC_EXTERN PetscErrorCode RwModelGetType(RwModel, RwModelType *);
PETSC_EXTERN PetscErrorCode RwModelSetFromOptions(RwModel);
PETSC_EXTERN PetscErrorCode RwModelSetOptionsPrefix(RwModel, const char[]);
PETSC_EXTERN PetscErrorCode RwModelAppendOptionsPrefix(RwModel, const char[]);
PETSC_EXTERN PetscErrorCode RwModelGetOptionsPrefix(RwModel, const char *[]);
PETSC_EXTERN PetscErrorCode RwModelSetUp(RwModel);
PETSC_EXTERN PetscErrorCode RwModelView(RwModel, PetscViewer);
PETSC_EXTERN PetscErrorCode RwModelDestroy(RwModel *);

PETSC_EXTERN PetscErrorCode RwModelGetStateDM(RwModel, DM *);
PETSC_EXTERN PetscErrorCode RwModelGetParameterDM(RwModel, DM *);
PETSC_EXTERN PetscErrorCode RwModelGetFieldDM(RwModel, DM *);
PETSC_EXTERN PetscErrorCode RwModelGetIdentity(RwModel, char[], size_t);
PETSC_EXTERN PetscErrorCode RwModelSetKernelISA(RwModel, const char[]);
PETSC_EXTERN PetscErrorCode RwModelGetKernelISA(RwModel, const char *[]);
PETSC_EXTERN PetscErrorCode RwModelGetKernelISAAuto(RwModel, PetscBool *); /* issue 37 */
PETSC_EXTERN PetscErrorCode RwModelCreateState(RwModel, Vec *);
PETSC_EXTERN PetscErrorCode RwModelCreateParameters(RwModel, Vec *);
PETSC_EXTERN PetscErrorCode RwModelGetParameterInfo(RwModel, PetscInt *, const char *const **, PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelGetParameterBlockInfo(RwModel, PetscInt, const char **, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelFindParameterBlock(RwModel, const char[], PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelGetParameterBlock(RwModel, Vec, PetscInt, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelGetParameterBlockValues(RwModel, PetscInt, const PetscReal *[]);
PETSC_EXTERN PetscErrorCode RwModelSetParameterBlock(RwModel, Vec, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelGetParameterScalars(RwModel, Vec, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelSetParameterScalars(RwModel, Vec, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelGetNumParameterScalars(RwModel, PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelGetParameterField(RwModel, Vec, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode RwModelRestoreParameterField(RwModel, Vec, PetscInt, Vec *);
PETSC_EXTERN PetscErrorCode RwModelGetParameterScalar(RwModel, Vec, PetscInt, PetscReal *);
PETSC_EXTERN PetscErrorCode RwModelSetParameterScalar(RwModel, Vec, PetscInt, PetscReal);
PETSC_EXTERN PetscErrorCode RwModelGetDefaults(RwModel, Vec, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwModelGetCoordinates(RwModel, PetscInt, PetscInt, PetscReal *);
PETSC_EXTERN PetscErrorCode RwModelFillField(RwModel, Vec, PetscReal (*)(PetscInt, const PetscReal[], void *), void *);
PETSC_EXTERN PetscErrorCode RwModelGetCellVolume(RwModel, PetscReal *);
PETSC_EXTERN PetscErrorCode RwModelGetGhostRule(RwModel, PetscInt, PetscBool *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwModelSetTimeStep(RwModel, PetscReal);
PETSC_EXTERN PetscErrorCode RwModelSetSteps(RwModel, PetscInt64);
PETSC_EXTERN PetscErrorCode RwModelSetActiveParameters(RwModel, PetscInt, const char *const[]);
PETSC_EXTERN PetscErrorCode RwModelGetSteps(RwModel, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwModelGetStateInfo(RwModel, PetscInt *, const char *const **, PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelSetObservedComponent(RwModel, PetscInt);
PETSC_EXTERN PetscErrorCode RwModelGetStateLayout(RwModel, PetscInt, PetscInt, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelGetStateComponent(RwModel, Vec, PetscInt, Vec);
PETSC_EXTERN PetscErrorCode RwModelSetStateComponent(RwModel, Vec, PetscInt, Vec);
/* a step's new state holds the old state's component 0 as its component 1 */
PETSC_EXTERN PetscErrorCode RwModelGetStateShift(RwModel, PetscBool *);
/* a state in the interleaved order, for moves between decompositions */
PETSC_EXTERN PetscErrorCode RwModelGetStateInterleaved(RwModel, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwModelSetStateInterleaved(RwModel, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwModelCreateField(RwModel, Vec *);
PETSC_EXTERN PetscErrorCode RwModelGetTimeStep(RwModel, PetscReal *);
PETSC_EXTERN PetscErrorCode RwModelGetStateBytes(RwModel, PetscInt64 *, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwModelGlobalToLocal(RwModel, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwModelFieldGlobalToLocal(RwModel, Vec, Vec);

PETSC_EXTERN PetscErrorCode RwModelSetParameters(RwModel, Vec);
PETSC_EXTERN PetscErrorCode RwModelSetDirection(RwModel, Vec);
PETSC_EXTERN PetscErrorCode RwModelStep(RwModel, PetscInt64, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwModelStepBlock(RwModel, PetscInt64, PetscInt, Vec, Vec[]);
#define RW_MODEL_MAX_STEP_BLOCK 8 /* the most steps any type fuses into one pass (-rw_model_step_block) */
PETSC_EXTERN PetscErrorCode RwModelGetStepBlock(RwModel, PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelStepTangent(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwModelAdjointBegin(RwModel);
PETSC_EXTERN PetscErrorCode RwModelStepAdjoint(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwModelAdjointEnd(RwModel, Vec);
PETSC_EXTERN PetscErrorCode RwModelCheckFinite(RwModel);
PETSC_EXTERN PetscErrorCode RwModelGetStepCounts(RwModel, PetscInt64 *, PetscInt64 *, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwModelResetStepCounts(RwModel);

#endif
