/* An external program built against an installed rewind through pkg-config;
   it also calls HDF5 through rewind's public HDF5 header (a failing call is
   a PETSc error with HDF5's reason). */
#include <rewind.h>
#include <rewind/hdf5.h>

static PetscErrorCode OpenMissing(hid_t *f)
{
  PetscFunctionBegin;
  RwCallHDF5Return(*f, H5Fopen, ("/nonexistent/rewind-example.h5", H5F_ACC_RDONLY, H5P_DEFAULT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      version[64];
  PetscReal terms[3], sum;
  RwModel   model;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(RwGetVersion(version, sizeof(version)));
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, &model));
  PetscCall(RwModelDestroy(&model));
  terms[0] = 1e100;
  terms[1] = 1.0;
  terms[2] = -1e100;
  PetscCall(RwGlobalSum(PETSC_COMM_WORLD, 3, terms, &sum));
  { /* a dataset that cannot be opened: the error is caught, not fatal */
    hid_t     d = -1;
    PetscBool refused;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    refused = (PetscBool)(OpenMissing(&d) != PETSC_SUCCESS);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(refused && d < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "RwCallHDF5Return let a failed H5Fopen through");
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s sum %d\n", version, (int)sum));
  PetscCall(PetscFinalize());
  return 0;
}
