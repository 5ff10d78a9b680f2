/* HDF5's explanation of a failure, for the PETSc error that reports it. */
#include <rewind/private/rwimpl.h>

typedef struct {
  char  *buf;
  size_t len;
} RwHDF5Walk;

/* The walk goes from the innermost frame outwards; the innermost says most. */
static herr_t RwHDF5WalkFirst(unsigned n, const H5E_error2_t *err, void *ctx)
{
  RwHDF5Walk *w = (RwHDF5Walk *)ctx;

  if (n == 0) snprintf(w->buf, w->len, "%s (in %s)", err->desc && err->desc[0] ? err->desc : "no description", err->func_name ? err->func_name : "?");
  return 0;
}

/*@C
  RwHDF5ErrorMessage - the innermost message on HDF5's default error stack

  Not collective

  Output Parameter:
. msg - buffer of length len

  Level: developer

.seealso: RwCallHDF5()
@*/
PetscErrorCode RwHDF5ErrorMessage(char msg[], size_t len)
{
  RwHDF5Walk w = {msg, len};

  PetscFunctionBegin;
  /* some failures (short reads through MPI-IO, errors in a driver) push nothing:
     the caller's own words name the call; say what that usually means */
  PetscCall(PetscStrncpy(msg, "HDF5 left no explanation on its error stack; if the call read a file, the file may be truncated, still being written, or not HDF5 (check it with h5dump -H)", len));
  if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, RwHDF5WalkFirst, &w) < 0) PetscFunctionReturn(PETSC_SUCCESS);
  H5Eclear2(H5E_DEFAULT);
  PetscFunctionReturn(PETSC_SUCCESS);
}
