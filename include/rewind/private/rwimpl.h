/* Private to rewind and to code that extends it (new models, stores). */
#ifndef REWIND_PRIVATE_RWIMPL_H
#define REWIND_PRIVATE_RWIMPL_H

#include <rewind.h>
#include <petsc/private/petscimpl.h>
#include <hdf5.h>

/* Log events shown by -log_view; registered in RwInitializePackage() */
PETSC_EXTERN PetscLogEvent RW_Forward, RW_Tangent, RW_Adjoint, RW_Reduce;
PETSC_EXTERN PetscLogEvent RW_StoreWrite, RW_StoreRead;

/* Constructor registered under type, or an error listing the known types */
PETSC_EXTERN PetscErrorCode RwTypeFind(PetscObject, PetscFunctionList, const char[], const char[], void (**)(void));

/* The innermost message on HDF5's error stack, for error reports */
PETSC_EXTERN PetscErrorCode RwHDF5ErrorMessage(char[], size_t);
PETSC_EXTERN PetscErrorCode RwH5WriteArray(hid_t, const char[], int, const hsize_t[], const PetscReal[]);

/* The items in which two checkpoint identities differ ("name value; ...") */
PETSC_EXTERN void RwIdentityDiff(const char[], const char[], char[], size_t);

/*MC
  RwCallHDF5 - calls an HDF5 function that returns herr_t and turns a negative
  status into a PETSc error carrying HDF5's own explanation.

  Synopsis:
  #include <rewind/private/rwimpl.h>
  void RwCallHDF5(func, (args))

  Level: developer

.seealso: RwCallHDF5Return()
M*/
#define RwCallHDF5(func, args) \
  do { \
    herr_t rw_hdf5_status_; \
    PetscStackPushExternal(#func); \
    rw_hdf5_status_ = func args; \
    PetscStackPop; \
    if (PetscUnlikely(rw_hdf5_status_ < 0)) { \
      char rw_hdf5_msg_[256]; \
      PetscCall(RwHDF5ErrorMessage(rw_hdf5_msg_, sizeof(rw_hdf5_msg_))); \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 call %s() failed: %s", #func, rw_hdf5_msg_); \
    } \
  } while (0)

/*MC
  RwCallHDF5Return - calls an HDF5 function that returns a handle (hid_t) or a
  count, stores it in ret and turns a negative value into a PETSc error.

  Synopsis:
  #include <rewind/private/rwimpl.h>
  void RwCallHDF5Return(ret, func, (args))

  Level: developer

.seealso: RwCallHDF5()
M*/
#define RwCallHDF5Return(ret, func, args) \
  do { \
    PetscStackPushExternal(#func); \
    ret = func args; \
    PetscStackPop; \
    if (PetscUnlikely((ret) < 0)) { \
      char rw_hdf5_msg_[256]; \
      PetscCall(RwHDF5ErrorMessage(rw_hdf5_msg_, sizeof(rw_hdf5_msg_))); \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 call %s() failed: %s", #func, rw_hdf5_msg_); \
    } \
  } while (0)

#endif
