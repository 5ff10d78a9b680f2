/*
  For programs that call HDF5 themselves beside rewind (the apps' output
  files): HDF5 calls checked with HDF5's own explanation in the PETSc error,
  and small serial arrays written as datasets.  Not included by rewind.h,
  so a program that does not call HDF5 needs no HDF5 headers.  A program
  that does links HDF5 too: `pkg-config --libs --static rewind` adds it.
*/
#ifndef REWIND_HDF5_H
#define REWIND_HDF5_H

#include <rewind.h>
#include <hdf5.h>

/* The innermost message on HDF5's error stack, for error reports */
PETSC_EXTERN PetscErrorCode RwHDF5ErrorMessage(char[], size_t);
/* A dataset of doubles under an open location, written by the calling rank alone */
PETSC_EXTERN PetscErrorCode RwH5WriteArray(hid_t, const char[], int, const hsize_t[], const PetscReal[]);

/*MC
  RwCallHDF5 - calls an HDF5 function that returns herr_t and turns a negative
  status into a PETSc error carrying HDF5's own explanation.

  Synopsis:
  #include <rewind/hdf5.h>
  void RwCallHDF5(func, (args))

  Level: intermediate

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
  #include <rewind/hdf5.h>
  void RwCallHDF5Return(ret, func, (args))

  Level: intermediate

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
