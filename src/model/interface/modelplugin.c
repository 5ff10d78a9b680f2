/*
  RwModel plugins: a model type compiled as a shared library, loaded at run
  time (-rw_model_plugin) so that a user's physics needs no rebuild of rewind.
  Apart from the class because it is the one place that touches the dynamic
  loader.
*/
#include <rewind/private/modelimpl.h>

/*@C
  RwModelLoadPlugin - loads a model type compiled as a shared library: opens
  it and calls its RwModelPluginRegister(), which registers its types with
  RwModelRegister(); the library stays loaded until the process ends

  Collective (every rank loads it)

  Input Parameter:
. path - the shared library, e.g. ./libmymodel.so

  Options Database Key:
. -rw_model_plugin <path> - a library to load before the type is chosen

  Level: advanced

.seealso: RwModelRegister(), RwModelSetFromOptions()
@*/
PetscErrorCode RwModelLoadPlugin(MPI_Comm comm, const char path[])
{
  PetscDLHandle handle;
  void         *sym = NULL;
  PetscBool     exists;

  PetscFunctionBegin;
  PetscCall(PetscTestFile(path, 'r', &exists));
  PetscCheck(exists, comm, PETSC_ERR_FILE_OPEN, "Model plugin %s (-rw_model_plugin) cannot be read", path);
  PetscCall(PetscDLOpen(path, PETSC_DL_DECIDE, &handle));
  PetscCall(PetscDLSym(handle, "RwModelPluginRegister", &sym));
  PetscCheck(sym, comm, PETSC_ERR_ARG_WRONG, "Model plugin %s has no function RwModelPluginRegister(void): it must define one that calls RwModelRegister()", path);
  PetscCall((*(PetscErrorCode(*)(void))sym)());
  PetscFunctionReturn(PETSC_SUCCESS);
}
