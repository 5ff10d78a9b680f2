/* Package registration: class ids, log events, type registries, HDF5 errors. */
#include <rewind/private/rwimpl.h>
#include <rewind/private/modelimpl.h>
#include <rewind/private/scheduleimpl.h>
#include <rewind/private/storeimpl.h>
#include <rewind/private/adjointimpl.h>
#include <rewind/private/ensembleimpl.h>
#include <rewind/private/problemimpl.h>
#include "reprosumimpl.h"
#include <rewind/design.h>

PetscClassId  RW_MODEL_CLASSID, RW_SCHEDULE_CLASSID, RW_STORE_CLASSID;
PetscLogEvent RW_Forward, RW_Tangent, RW_Adjoint, RW_Reduce;
PetscLogEvent RW_StoreWrite, RW_StoreRead, RW_StoreSetUp;

static PetscBool RwPackageInitialized = PETSC_FALSE;
static H5E_auto2_t rw_h5_saved_func;
static void       *rw_h5_saved_data;

/*@C
  RwFinalizePackage - releases what RwInitializePackage() set up; called by PetscFinalize()

  Level: developer

.seealso: RwInitializePackage()
@*/
PetscErrorCode RwFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(RwStoreLogView_Private());
  PetscCall(PetscFunctionListDestroy(&RwModelList));
  PetscCall(PetscFunctionListDestroy(&RwScheduleList));
  PetscCall(PetscFunctionListDestroy(&RwStoreList));
  RwModelRegisterAllCalled    = PETSC_FALSE;
  RwScheduleRegisterAllCalled = PETSC_FALSE;
  RwStoreRegisterAllCalled    = PETSC_FALSE;
  PetscCall(RwReproSumFinalize_Private());
  /* give HDF5 back its own error printing, in case the program goes on using it */
  RwCallHDF5(H5Eset_auto2, (H5E_DEFAULT, rw_h5_saved_func, rw_h5_saved_data));
  RwPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwInitializePackage - registers rewind's classes, log events and types;
  called on first use by every RwXXXCreate(), so programs need not call it

  Level: developer

  Notes:
  HDF5's automatic error printing is switched off while rewind is in use: every
  rank would print its own stack.  Errors reach the user as PETSc errors
  carrying HDF5's innermost message instead (RwCallHDF5()).

.seealso: RwFinalizePackage()
@*/
PetscErrorCode RwInitializePackage(void)
{
  PetscFunctionBegin;
  if (RwPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  RwPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("RwModel", &RW_MODEL_CLASSID));
  PetscCall(PetscClassIdRegister("RwSchedule", &RW_SCHEDULE_CLASSID));
  PetscCall(PetscClassIdRegister("RwStore", &RW_STORE_CLASSID));
  PetscCall(PetscClassIdRegister("RwObjective", &RW_OBJECTIVE_CLASSID));
  PetscCall(PetscClassIdRegister("RwAdjoint", &RW_ADJOINT_CLASSID));
  PetscCall(PetscClassIdRegister("RwEnsemble", &RW_ENSEMBLE_CLASSID));
  PetscCall(PetscClassIdRegister("RwObservations", &RW_OBSERVATIONS_CLASSID));
  PetscCall(PetscClassIdRegister("RwProblem", &RW_PROBLEM_CLASSID));
  PetscCall(PetscClassIdRegister("RwJournal", &RW_JOURNAL_CLASSID));
  PetscCall(PetscLogEventRegister("RwForward", RW_MODEL_CLASSID, &RW_Forward));
  PetscCall(PetscLogEventRegister("RwTangent", RW_MODEL_CLASSID, &RW_Tangent));
  PetscCall(PetscLogEventRegister("RwAdjoint", RW_MODEL_CLASSID, &RW_Adjoint));
  PetscCall(PetscLogEventRegister("RwReduce", RW_MODEL_CLASSID, &RW_Reduce));
  PetscCall(PetscLogEventRegister("RwStoreWrite", RW_STORE_CLASSID, &RW_StoreWrite));
  PetscCall(PetscLogEventRegister("RwStoreRead", RW_STORE_CLASSID, &RW_StoreRead));
  PetscCall(PetscLogEventRegister("RwStoreSetUp", RW_STORE_CLASSID, &RW_StoreSetUp)); /* the slots' allocation, or the file's creation */
  PetscCall(PetscLogEventRegister("RwEnsembleSum", RW_ENSEMBLE_CLASSID, &RW_EnsembleSum));
  PetscCall(PetscLogEventRegister("RwEnsembleGather", RW_ENSEMBLE_CLASSID, &RW_EnsembleGather));
  PetscCall(PetscLogEventRegister("RwProblemEval", RW_PROBLEM_CLASSID, &RW_ProblemEvaluate));
  PetscCall(PetscLogEventRegister("JournalWrite", RW_JOURNAL_CLASSID, &RW_JournalWrite));
  PetscCall(PetscLogEventRegister("JournalRead", RW_JOURNAL_CLASSID, &RW_JournalRead));
  PetscCall(RwModelRegisterAll());
  PetscCall(RwScheduleRegisterAll());
  PetscCall(RwStoreRegisterAll());
  PetscCall(RwReproSumInitialize_Private());
  PetscCall(TaoRegister(TAOADAM, TaoCreate_Adam)); /* -tao_type adam */
  PetscCall(TaoRegister(TAOOC, TaoCreate_OC));     /* -tao_type oc (src/design/oc.c) */
  RwCallHDF5(H5Eget_auto2, (H5E_DEFAULT, &rw_h5_saved_func, &rw_h5_saved_data));
  RwCallHDF5(H5Eset_auto2, (H5E_DEFAULT, NULL, NULL));
  PetscHelpPrintf = RwHelpPrintf; /* -help from one rank, however objects are spread */
  PetscCall(PetscRegisterFinalize(RwFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwGetVersion - the rewind version as a string, "rewind 0.2.0"

  Not collective

  Input Parameter:
. len - the size of the buffer

  Output Parameter:
. version - the buffer

  Level: beginner
@*/
PetscErrorCode RwGetVersion(char version[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(version, len, "rewind %s", RW_VERSION_STRING));
  PetscFunctionReturn(PETSC_SUCCESS);
}
