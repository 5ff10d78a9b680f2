/*
  HDF5 input and output.  Small arrays (sensors, times, observations) are read
  by rank 0 and broadcast; fields are read collectively by PETSc's HDF5 viewer
  in natural grid order.  Every dataset is checked first (exists, shape,
  finite values) and a mismatch stops with the file, the dataset and the
  expected shape, on every rank alike.
*/
#include <float.h>
#include <rewind/private/modelimpl.h>
#include <rewind/io.h>
#include <petscviewerhdf5.h>
#include <errno.h>
#include <time.h>

/* The largest dataset rank a caller may expect; a file's dataset of any rank is refused by its rank alone */
#define RW_IO_MAXRANK 8

static void RwIOShape(char buf[], size_t len, PetscInt n, const PetscInt64 d[])
{
  size_t o = 0;

  buf[0] = 0;
  for (PetscInt i = 0; i < n && o < len; i++) {
    if (d[i] < 0) o += (size_t)snprintf(buf + o, len - o, "%sany", i ? " x " : "");
    else o += (size_t)snprintf(buf + o, len - o, "%s%lld", i ? " x " : "", (long long)d[i]);
  }
}

/* On rank 0: the file, read-only, or a negative id and the reason in msg */
static hid_t RwIOOpenFile0(const char file[], char msg[], size_t len)
{
  hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);

  if (f < 0) snprintf(msg, len, "Cannot open HDF5 file %s (missing, unreadable, or not HDF5)", file);
  return f;
}

/* On rank 0: open file, open dataset, compare shape; msg empty when all is well */
static hid_t RwIOOpen0(const char file[], const char dataset[], PetscInt ndims, const PetscInt64 expected[], PetscInt64 dims[], hid_t *f, char msg[], size_t len)
{
  hid_t   d, space;
  hsize_t h[RW_IO_MAXRANK];
  int     n;
  char    want[128], got[128];

  *f = RwIOOpenFile0(file, msg, len);
  if (*f < 0) return -1;
  if (H5Lexists(*f, dataset, H5P_DEFAULT) <= 0) {
    snprintf(msg, len, "HDF5 file %s has no dataset %s", file, dataset);
    return -1;
  }
  d = H5Dopen2(*f, dataset, H5P_DEFAULT);
  if (d < 0) {
    snprintf(msg, len, "Cannot open dataset %s in %s", dataset, file);
    return -1;
  }
  /* the rank comes first: the sizes go into a buffer of ndims entries */
  space = H5Dget_space(d);
  n     = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
  RwIOShape(want, sizeof(want), ndims, expected);
  if (n != ndims) {
    if (space >= 0) H5Sclose(space);
    if (n < 0) snprintf(msg, len, "Cannot read the shape of dataset %s in %s", dataset, file);
    else snprintf(msg, len, "Dataset %s in %s has rank %d, expected %d (shape %s)", dataset, file, n, (int)ndims, want);
    return d;
  }
  n = H5Sget_simple_extent_dims(space, h, NULL);
  H5Sclose(space);
  for (int i = 0; i < n; i++) dims[i] = (PetscInt64)h[i];
  RwIOShape(got, sizeof(got), n, dims);
  for (PetscInt i = 0; i < ndims; i++)
    if (expected[i] >= 0 && dims[i] != expected[i]) {
      snprintf(msg, len, "Dataset %s in %s has shape %s, expected %s", dataset, file, got, want);
      return d;
    }
  return d;
}

/*@C
  RwIOCheckDataset - checks that a dataset exists with the expected shape

  Collective

  Input Parameters:
+ comm     - the communicator whose ranks all get the same verdict
. file     - the HDF5 file
. dataset  - the dataset's path
. ndims    - the expected number of dimensions
- expected - the expected sizes; a negative size accepts any

  Output Parameter:
. dims - the sizes found (may be NULL)

  Level: intermediate

.seealso: RwIOReadArray(), RwIOReadField()
@*/
PetscErrorCode RwIOCheckDataset(MPI_Comm comm, const char file[], const char dataset[], PetscInt ndims, const PetscInt64 expected[], PetscInt64 dims[])
{
  PetscMPIInt rank;
  char        msg[512] = "";
  PetscInt64  d[RW_IO_MAXRANK] = {0};

  PetscFunctionBegin;
  PetscCheck(ndims > 0 && ndims <= RW_IO_MAXRANK, comm, PETSC_ERR_ARG_OUTOFRANGE, "Dataset %s: expected rank %" PetscInt_FMT " is not in 1..%d", dataset, ndims, RW_IO_MAXRANK);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    hid_t f, ds = RwIOOpen0(file, dataset, ndims, expected, d, &f, msg, sizeof(msg));
    if (ds >= 0) H5Dclose(ds);
    if (f >= 0) H5Fclose(f);
    H5Eclear2(H5E_DEFAULT);
  }
  PetscCall(RwErrorAgree(comm, 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
  PetscCallMPI(MPI_Bcast(d, RW_IO_MAXRANK, MPIU_INT64, 0, comm));
  if (dims)
    for (PetscInt i = 0; i < ndims; i++) dims[i] = d[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOHasDataset - whether a file holds a dataset (a missing file is an error)

  Collective

  Level: intermediate
@*/
PetscErrorCode RwIOHasDataset(MPI_Comm comm, const char file[], const char dataset[], PetscBool *has)
{
  PetscMPIInt rank;
  char        msg[512] = "";
  int         h        = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    hid_t f = RwIOOpenFile0(file, msg, sizeof(msg));
    if (f >= 0) {
      h = H5Lexists(f, dataset, H5P_DEFAULT) > 0;
      H5Fclose(f);
    }
    H5Eclear2(H5E_DEFAULT);
  }
  PetscCall(RwErrorAgree(comm, 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
  PetscCallMPI(MPI_Bcast(&h, 1, MPI_INT, 0, comm));
  *has = h ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOReadArray - reads a small dataset of reals on rank 0 and gives it to every rank;
  its shape must match and its values must be finite

  Collective

  Input Parameters:
+ comm, file, dataset, ndims, expected - as for RwIOCheckDataset()

  Output Parameters:
+ dims - the sizes found (may be NULL)
- data - the values in C order, allocated with PetscMalloc; free with PetscFree

  Level: intermediate

.seealso: RwIOCheckDataset()
@*/
PetscErrorCode RwIOReadArray(MPI_Comm comm, const char file[], const char dataset[], PetscInt ndims, const PetscInt64 expected[], PetscInt64 dims[], PetscReal **data)
{
  PetscMPIInt rank;
  PetscInt64  d[RW_IO_MAXRANK] = {0}, total = 1;
  char        msg[512] = "";
  PetscBool   failed;

  PetscFunctionBegin;
  PetscCall(RwIOCheckDataset(comm, file, dataset, ndims, expected, d));
  for (PetscInt i = 0; i < ndims; i++) total *= d[i];
  PetscCall(PetscMalloc1(total, data));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    hid_t f, ds = RwIOOpen0(file, dataset, ndims, expected, d, &f, msg, sizeof(msg));
    if (!msg[0] && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data) < 0) snprintf(msg, sizeof(msg), "Cannot read dataset %s in %s as real numbers", dataset, file);
    for (PetscInt64 i = 0; i < total && !msg[0]; i++)
      if (PetscIsInfOrNanReal((*data)[i])) snprintf(msg, sizeof(msg), "Dataset %s in %s holds a non-finite value (%g at flat index %lld)", dataset, file, (double)(*data)[i], (long long)i);
    if (ds >= 0) H5Dclose(ds);
    if (f >= 0) H5Fclose(f);
    H5Eclear2(H5E_DEFAULT);
  }
  PetscCall(RwErrorAgreeTest(comm, 0, msg, sizeof(msg), &failed));
  if (failed) PetscCall(PetscFree(*data));
  PetscCheck(!failed, comm, PETSC_ERR_FILE_UNEXPECTED, "%s", msg);
  PetscCallMPI(MPI_Bcast(*data, (PetscMPIInt)total, MPIU_REAL, 0, comm));
  if (dims)
    for (PetscInt i = 0; i < ndims; i++) dims[i] = d[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: an attribute read as one number must hold one number, of a number type */
static void AttributeIsOneNumber0(hid_t a, const char file[], const char object[], const char name[], char msg[], size_t len)
{
  hid_t       t = H5Aget_type(a), sp = H5Aget_space(a);
  H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
  hssize_t    n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;

  if (c != H5T_INTEGER && c != H5T_FLOAT) snprintf(msg, len, "Attribute %s of %s in %s is %s: expected one real number", name, object, file, c == H5T_STRING ? "a string" : "not a number");
  else if (n != 1) snprintf(msg, len, "Attribute %s of %s in %s holds %lld values: expected one real number", name, object, file, (long long)n);
  if (t >= 0) H5Tclose(t);
  if (sp >= 0) H5Sclose(sp);
}

/*@C
  RwIOReadAttribute - a real attribute of an object (group or dataset) of a file

  Collective

  Output Parameters:
+ value - the value (unchanged when absent)
- found - whether the attribute exists

  Level: intermediate
@*/
PetscErrorCode RwIOReadAttribute(MPI_Comm comm, const char file[], const char object[], const char name[], PetscReal *value, PetscBool *found)
{
  PetscMPIInt rank;
  char        msg[512] = "";
  double      v[2]     = {0, 0};

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    hid_t f = RwIOOpenFile0(file, msg, sizeof(msg));
    if (f >= 0) {
      if (H5Aexists_by_name(f, object, name, H5P_DEFAULT) > 0) {
        hid_t a = H5Aopen_by_name(f, object, name, H5P_DEFAULT, H5P_DEFAULT);
        if (a < 0) snprintf(msg, sizeof(msg), "Cannot open attribute %s of %s in %s", name, object, file);
        else AttributeIsOneNumber0(a, file, object, name, msg, sizeof(msg));
        if (!msg[0] && H5Aread(a, H5T_NATIVE_DOUBLE, &v[1]) < 0) snprintf(msg, sizeof(msg), "Cannot read attribute %s of %s in %s as a real number", name, object, file);
        else if (!msg[0] && PetscIsInfOrNanReal(v[1])) snprintf(msg, sizeof(msg), "Attribute %s of %s in %s is not finite (%g)", name, object, file, v[1]);
        else if (!msg[0] && !PetscIsNormalReal(v[1]) && v[1] != 0) snprintf(msg, sizeof(msg), "Attribute %s of %s in %s is %g, below the smallest normal number (%g): a value this small is not a meaningful scale", name, object, file, v[1], DBL_MIN);
        else if (!msg[0]) v[0] = 1;
        if (a >= 0) H5Aclose(a);
      }
      H5Fclose(f);
    }
    H5Eclear2(H5E_DEFAULT);
  }
  PetscCall(RwErrorAgree(comm, 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
  PetscCallMPI(MPI_Bcast(v, 2, MPI_DOUBLE, 0, comm));
  *found = v[0] ? PETSC_TRUE : PETSC_FALSE;
  if (*found) *value = v[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOReadAttributeInt - an integer attribute (stored as any number type):
  it must be a whole number in [lo, hi], checked before it is converted

  Collective

  Output Parameters:
+ value - the value (unchanged when absent)
- found - whether the attribute exists

  Level: intermediate

.seealso: RwIOReadAttribute()
@*/
PetscErrorCode RwIOReadAttributeInt(MPI_Comm comm, const char file[], const char object[], const char name[], PetscInt64 lo, PetscInt64 hi, PetscInt64 *value, PetscBool *found)
{
  PetscReal v = 0;
  char      val[32];

  PetscFunctionBegin;
  PetscCall(RwIOReadAttribute(comm, file, object, name, &v, found));
  if (!*found) PetscFunctionReturn(PETSC_SUCCESS);
  /* the range is compared in double before the cast, which would be undefined outside it */
  snprintf(val, sizeof(val), "%.17g", (double)v); /* as the file holds it */
  PetscCheck(v == PetscFloorReal(v) && v >= (PetscReal)lo && v <= (PetscReal)hi, comm, PETSC_ERR_FILE_UNEXPECTED, "Attribute %s of %s in %s is %s: expected a whole number in [%" PetscInt64_FMT ", %" PetscInt64_FMT "]", name, object, file, val, lo, hi);
  *value = (PetscInt64)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The grid's shape as HDF5 stores a field: slowest direction first */
static PetscErrorCode RwIOGridShape(RwModel model, PetscInt *n, PetscInt64 shape[3])
{
  PetscInt dim, M[3];

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(model->da, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt d = 0; d < dim; d++) shape[d] = M[dim - 1 - d];
  *n = dim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether f is a state of a model of several components (else a field of one value a point) */
static PetscErrorCode RwIOIsState(RwModel model, Vec f, PetscBool *state)
{
  PetscInt n, xm, ym, zm;

  PetscFunctionBegin;
  *state = PETSC_FALSE;
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(DMDAGetCorners(model->da, NULL, NULL, NULL, &xm, &ym, &zm));
  *state = (PetscBool)(model->dof > 1 && n == xm * ym * zm * model->dof);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether f is a state of a model that holds its components in another
   layout than the DMDA's interleaved one (RwModelGetStateLayout()): PETSc's
   VecView and VecLoad of a vector on the DMDA write and read interleaved
   components in natural order, so such a state goes through an
   interleaved copy, and a file holds the same values in either layout */
static PetscErrorCode RwIOStateNotInterleaved(RwModel model, Vec f, PetscBool *other)
{
  PetscBool state = PETSC_FALSE;
  PetscInt  xm, ym, zm, stride, offset;

  PetscFunctionBegin;
  *other = PETSC_FALSE;
  PetscCall(RwIOIsState(model, f, &state));
  if (!state) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDAGetCorners(model->da, NULL, NULL, NULL, &xm, &ym, &zm));
  PetscCall(RwModelGetStateLayout(model, 1, xm * ym * zm, &stride, &offset));
  *other = (PetscBool)(stride != model->dof || offset != 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwIOSplitPath(const char path[], char group[], char name[], size_t len)
{
  const char *slash = strrchr(path, '/');

  PetscFunctionBegin;
  if (!slash) {
    PetscCall(PetscStrncpy(group, "/", len));
    PetscCall(PetscStrncpy(name, path, len));
  } else {
    size_t g = (size_t)(slash - path);
    PetscCall(PetscStrncpy(group, g ? path : "/", g ? PetscMin(len, g + 1) : len));
    PetscCall(PetscStrncpy(name, slash + 1, len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwIOFieldFindOutside - counts the points of a field on the model's grid that
  are NaN, Inf or outside [lo, hi], and finds the first of them in natural
  order, on every rank alike (a reduction of the first index, not of the
  values, which a MAX would lose a NaN in)

  Collective

  Input Parameters:
+ model  - the model, set up
. f      - a vector on the state's grid
- lo, hi - the range accepted (PETSC_NINFINITY, PETSC_INFINITY: only finiteness)

  Output Parameters:
+ count - the number of such points over all ranks
. ijk   - the grid indices of the first (unset when count is 0)
. c     - its component
- value - its value

  Notes:
  A state is read in the layout the model declares (RwModelGetStateLayout()).

  Level: developer

.seealso: RwIOReadField()
@*/
PetscErrorCode RwIOFieldFindOutside(RwModel model, Vec f, PetscReal lo, PetscReal hi, PetscInt64 *count, PetscInt64 ijk[3], PetscInt *c, PetscReal *value)
{
  PetscBool other;
  Vec       w;

  PetscFunctionBegin;
  PetscCall(RwIOStateNotInterleaved(model, f, &other));
  if (!other) {
    PetscCall(RwIODAFindOutside(model->da, f, lo, hi, count, ijk, c, value));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetGlobalVector(model->da, &w));
  PetscCall(RwModelGetStateInterleaved(model, f, w));
  PetscCall(RwIODAFindOutside(model->da, w, lo, hi, count, ijk, c, value));
  PetscCall(DMRestoreGlobalVector(model->da, &w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwIODAFindOutside - RwIOFieldFindOutside() for a vector on any DMDA (a
  model's field grid, whose dof may differ from the state's)

  Collective

  Level: developer

.seealso: RwIOFieldFindOutside()
@*/
PetscErrorCode RwIODAFindOutside(DM da, Vec f, PetscReal lo, PetscReal hi, PetscInt64 *count, PetscInt64 ijk[3], PetscInt *c, PetscReal *value)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)da);
  const PetscScalar *a;
  PetscInt           M[3], s[3], n[3], dof, p = 0;
  PetscInt64         mine[2] = {0, RW_INT64_MAX}, first, nbad;
  PetscReal          v = 0, all;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &n[0], &n[1], &n[2]));
  PetscCall(VecGetArrayRead(f, &a));
  for (PetscInt k = s[2]; k < s[2] + n[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + n[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + n[0]; i++)
        for (PetscInt d = 0; d < dof; d++, p++) {
          PetscReal  x   = PetscRealPart(a[p]);
          PetscInt64 nat = d + dof * (i + (PetscInt64)M[0] * (j + (PetscInt64)M[1] * k));

          if (!PetscIsInfOrNanReal(x) && x >= lo && x <= hi) continue;
          mine[0]++;
          if (nat < mine[1]) mine[1] = nat, v = x;
        }
  PetscCall(VecRestoreArrayRead(f, &a));
  PetscCallMPI(MPI_Allreduce(&mine[0], &nbad, 1, MPIU_INT64, MPI_SUM, comm));
  PetscCallMPI(MPI_Allreduce(&mine[1], &first, 1, MPIU_INT64, MPI_MIN, comm));
  *count = nbad;
  if (!nbad) PetscFunctionReturn(PETSC_SUCCESS);
  /* only the owner adds its value: a sum of one term and zeros keeps a NaN or an Inf exactly */
  if (mine[1] != first) v = 0;
  PetscCall(MPIU_Allreduce(&v, &all, 1, MPIU_REAL, MPIU_SUM, comm));
  *value = all;
  *c     = (PetscInt)(first % dof);
  first /= dof;
  ijk[0] = first % M[0];
  ijk[1] = (first / M[0]) % M[1];
  ijk[2] = first / M[0] / M[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOReadField - reads a field on the model's grid, stored in natural order
  with the grid's shape (slowest direction first: z, y, x)

  Collective

  Input Parameters:
+ model   - the model, set up
. file    - the HDF5 file
- dataset - the dataset's path

  Output Parameter:
. f - a vector on the state's grid (a field, or a state: its components
      stored interleaved, as RwIOWriteField() writes them, and put where
      the model's layout holds them)

  Level: intermediate

.seealso: RwIOWriteField()
@*/
PetscErrorCode RwIOReadField(RwModel model, const char file[], const char dataset[], Vec f)
{
  PetscInt64  shape[4];
  PetscInt    n;
  PetscViewer v;
  PetscBool   other = PETSC_FALSE;
  Vec         w = f;
  char        group[PETSC_MAX_PATH_LEN], name[PETSC_MAX_PATH_LEN], keep[256];
  const char *old;
  PetscReal   bad;
  PetscInt64  nbad, ijk[3];
  PetscInt    c;
  char        val[32];

  PetscFunctionBegin;
  PetscCall(RwIOGridShape(model, &n, shape));
  PetscCall(RwIOIsState(model, f, &other));
  if (other) shape[n++] = model->dof; /* a state's components: the fastest dimension, as VecView writes them */
  PetscCall(RwIOCheckDataset(PetscObjectComm((PetscObject)model), file, dataset, n, shape, NULL));
  PetscCall(RwIOSplitPath(dataset, group, name, sizeof(group)));
  /* VecLoad finds the dataset by the vector's name: lend it the dataset's */
  PetscCall(PetscObjectGetName((PetscObject)f, &old));
  PetscCall(PetscStrncpy(keep, old ? old : "", sizeof(keep)));
  PetscCall(PetscObjectSetName((PetscObject)f, name));
  PetscCall(RwIOStateNotInterleaved(model, f, &other));
  if (other) {
    PetscCall(DMGetGlobalVector(model->da, &w));
    PetscCall(PetscObjectSetName((PetscObject)w, name));
  }
  PetscCall(PetscViewerHDF5Open(PetscObjectComm((PetscObject)model), file, FILE_MODE_READ, &v));
  PetscCall(PetscViewerHDF5PushGroup(v, group));
  PetscCall(VecLoad(w, v));
  PetscCall(PetscViewerHDF5PopGroup(v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(PetscObjectSetName((PetscObject)f, keep));
  if (other) {
    PetscCall(RwModelSetStateInterleaved(model, w, f));
    PetscCall(DMRestoreGlobalVector(model->da, &w));
  }
  PetscCall(RwIOFieldFindOutside(model, f, PETSC_NINFINITY, PETSC_INFINITY, &nbad, ijk, &c, &bad));
  snprintf(val, sizeof(val), "%g", (double)bad); /* PETSc's %g would print NaN as "nan." */
  PetscCheck(!nbad, PetscObjectComm((PetscObject)model), PETSC_ERR_FILE_UNEXPECTED, "Dataset %s in %s holds %" PetscInt64_FMT " non-finite values, expected finite values only; the first in natural order is %s at grid point (%" PetscInt64_FMT ", %" PetscInt64_FMT ", %" PetscInt64_FMT ")", dataset, file, nbad, val, ijk[0], ijk[1], ijk[2]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOWriteField - writes a field on the model's grid as a dataset of an open
  PETSc HDF5 viewer, in natural order with the grid's shape

  Collective

  Notes:
  A state's components are written interleaved (the last, fastest dimension
  of the dataset), whatever layout the model holds them in
  (RwModelGetStateLayout()): a file does not depend on it.

  Level: intermediate

.seealso: RwIOReadField(), RwIOWriteXDMF()
@*/
PetscErrorCode RwIOWriteField(RwModel model, PetscViewer viewer, const char name[], Vec f)
{
  const char *old;
  char        keep[256];
  PetscBool   other;
  Vec         w;

  PetscFunctionBegin;
  PetscCall(RwIOStateNotInterleaved(model, f, &other));
  if (other) {
    PetscCall(DMGetGlobalVector(model->da, &w));
    PetscCall(RwModelGetStateInterleaved(model, f, w));
    PetscCall(PetscObjectSetName((PetscObject)w, name));
    PetscCall(VecView(w, viewer));
    PetscCall(DMRestoreGlobalVector(model->da, &w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectGetName((PetscObject)f, &old));
  PetscCall(PetscStrncpy(keep, old ? old : "", sizeof(keep)));
  PetscCall(PetscObjectSetName((PetscObject)f, name));
  PetscCall(VecView(f, viewer));
  PetscCall(PetscObjectSetName((PetscObject)f, keep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What every grid of an XDMF file shares: the points, origin and spacing of a
   3D co-rectilinear mesh in XDMF's order (z, y, x), which is also the
   attributes' shape */
typedef struct {
  char topo[96], origin[128], spacing[128];
} RwIOXDMFGeom;

/*
  A 1D or 2D grid is written as a one-layer 3D grid: XDMF's 2DCoRectMesh puts
  its two directions in ParaView's y-z plane, where the default camera sees it
  edge on; a one-layer 3D grid spans x (and y) as the model does.  The
  attributes' Dimensions are the topology's (1 ny nx, not ny nx): ParaView's
  legacy XDMF reader takes an attribute's first dimension as its count of
  points.  A model whose last direction is depth (the wave's) is drawn with
  that coordinate negated (origin -z0, spacing -h), so that depth points
  downwards and the surface is on top, as in the model's pictures
*/
static PetscErrorCode RwIOXDMFGeometry(RwModel model, RwIOXDMFGeom *g)
{
  PetscInt64 shape[3];
  PetscInt   dim;
  PetscReal  x0[3] = {0, 0, 0}, h[3] = {0, 0, 0}, hmin = PETSC_MAX_REAL;
  PetscInt64 n[3] = {1, 1, 1};

  PetscFunctionBegin;
  PetscCall(RwIOGridShape(model, &dim, shape));
  for (PetscInt d = 0; d < dim; d++) {
    PetscReal x1;

    PetscCall(RwModelGetCoordinates(model, d, 0, &x0[d]));
    PetscCall(RwModelGetCoordinates(model, d, 1, &x1));
    h[d]    = x1 - x0[d];
    hmin    = PetscMin(hmin, h[d]);
    n[d]    = shape[dim - 1 - d];
  }
  /* the missing directions: one point, at 0, as thick as the finest spacing */
  for (PetscInt d = dim; d < 3; d++) h[d] = hmin;
  if (model->depthlast) {
    x0[dim - 1] = -x0[dim - 1];
    h[dim - 1]  = -h[dim - 1];
  }
  PetscCall(PetscSNPrintf(g->topo, sizeof(g->topo), "%lld %lld %lld", (long long)n[2], (long long)n[1], (long long)n[0]));
  PetscCall(PetscSNPrintf(g->origin, sizeof(g->origin), "%.17g %.17g %.17g", (double)x0[2], (double)x0[1], (double)x0[0]));
  PetscCall(PetscSNPrintf(g->spacing, sizeof(g->spacing), "%.17g %.17g %.17g", (double)h[2], (double)h[1], (double)h[0]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One uniform grid: geometry, an optional time, and a scalar attribute per field at group/name */
static void RwIOXDMFGrid(FILE *fp, const RwIOXDMFGeom *g, const char indent[], const char gridname[], const PetscReal *t, const char h5[], const char group[], PetscInt n, const char *const names[])
{
  fprintf(fp, "%s<Grid Name=\"%s\" GridType=\"Uniform\">\n", indent, gridname);
  if (t) fprintf(fp, "%s <Time Value=\"%.17g\"/>\n", indent, (double)*t);
  fprintf(fp, "%s <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%s\"/>\n%s <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n", indent, g->topo, indent);
  fprintf(fp, "%s  <DataItem Dimensions=\"3\" Format=\"XML\">%s</DataItem>\n", indent, g->origin);
  fprintf(fp, "%s  <DataItem Dimensions=\"3\" Format=\"XML\">%s</DataItem>\n%s </Geometry>\n", indent, g->spacing, indent);
  for (PetscInt i = 0; i < n; i++) {
    const char *base = strrchr(names[i], '/') ? strrchr(names[i], '/') + 1 : names[i];
    const char *sep  = names[i][0] == '/' ? "" : "/";

    fprintf(fp, "%s <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Node\">\n", indent, base);
    fprintf(fp, "%s  <DataItem Dimensions=\"%s\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s:%s%s%s</DataItem>\n%s </Attribute>\n", indent, g->topo, h5, group, sep, names[i], indent);
  }
  fprintf(fp, "%s</Grid>\n", indent);
}

static PetscErrorCode RwIOXDMFOpen(const char xmf[], FILE **fp)
{
  PetscFunctionBegin;
  *fp = fopen(xmf, "w");
  PetscCheck(*fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write XDMF file %s: %s", xmf, strerror(errno));
  fprintf(*fp, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwIOXDMFClose(const char xmf[], FILE *fp)
{
  PetscFunctionBegin;
  fprintf(fp, " </Domain>\n</Xdmf>\n");
  PetscCheck(fclose(fp) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot finish XDMF file %s", xmf);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOXDMFNames - the XDMF file that goes beside an HDF5 file (its name with
  .h5 replaced by .xmf, or .xmf added) and the HDF5 file's name as the XDMF
  file refers to it (without its directory: the two sit side by side)

  Not collective

  Input Parameter:
. h5 - the HDF5 file's path

  Output Parameters:
+ xmf - the XDMF file's path, len characters at most
- ref - the reference, len characters at most

  Level: developer

.seealso: RwIOWriteXDMF()
@*/
PetscErrorCode RwIOXDMFNames(const char h5[], char xmf[], char ref[], size_t len)
{
  size_t      n;
  const char *base = strrchr(h5, '/') ? strrchr(h5, '/') + 1 : h5;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(xmf, h5, len));
  PetscCall(PetscStrlen(xmf, &n));
  if (n > 3 && !strcmp(xmf + n - 3, ".h5")) xmf[n - 3] = 0;
  PetscCall(PetscStrlcat(xmf, ".xmf", len));
  PetscCall(PetscStrncpy(ref, base, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOWriteXDMF - an XDMF file that lets ParaView open fields of an HDF5 file
  written by RwIOWriteField() on the model's grid

  Collective

  Input Parameters:
+ model - the model
. xmf   - the XDMF file to write
. h5    - the HDF5 file, as the XDMF file should refer to it (a path relative to the XDMF file's directory)
. n     - the number of fields
- names - their dataset paths in the HDF5 file

  Notes:
  Every grid is a 3D co-rectilinear mesh, one point thick in the directions a
  1D or 2D model lacks, so that it lies in ParaView's x-y plane with the
  model's origin and spacing; a model whose last direction is depth (the
  wave's) has that coordinate negated, so that depth points downwards.  Every
  attribute has the topology's dimensions, which each of ParaView's XDMF
  readers needs to read every point.

  Level: intermediate

.seealso: RwIOWriteField(), RwIOWriteXDMFSeries()
@*/
PetscErrorCode RwIOWriteXDMF(RwModel model, const char xmf[], const char h5[], PetscInt n, const char *const names[])
{
  RwIOXDMFGeom g;
  FILE        *fp;
  PetscMPIInt  rank;

  PetscFunctionBegin;
  PetscCall(RwIOXDMFGeometry(model, &g));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)model), &rank));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwIOXDMFOpen(xmf, &fp));
  RwIOXDMFGrid(fp, &g, "  ", "rewind", NULL, h5, "", n, names);
  PetscCall(RwIOXDMFClose(xmf, fp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOWriteXDMFSeries - an XDMF temporal collection of fields written at
  several times, each time's fields in a group of their own, so that ParaView
  animates them

  Collective

  Input Parameters:
+ model  - the model
. xmf    - the XDMF file to write
. h5     - the HDF5 file, as the XDMF file should refer to it (relative to the XDMF file's directory)
. nt     - the number of times
. times  - the times
. groups - the group of each time's fields in the HDF5 file
. n      - the number of fields at each time
- names  - their dataset names within each group

  Level: intermediate

.seealso: RwIOWriteXDMF(), RwAdjointMonitorSolution()
@*/
PetscErrorCode RwIOWriteXDMFSeries(RwModel model, const char xmf[], const char h5[], PetscInt nt, const PetscReal times[], const char *const groups[], PetscInt n, const char *const names[])
{
  RwIOXDMFGeom g;
  FILE        *fp;
  PetscMPIInt  rank;

  PetscFunctionBegin;
  PetscCall(RwIOXDMFGeometry(model, &g));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)model), &rank));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwIOXDMFOpen(xmf, &fp));
  fprintf(fp, "  <Grid Name=\"rewind\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (PetscInt i = 0; i < nt; i++) RwIOXDMFGrid(fp, &g, "   ", groups[i] + (groups[i][0] == '/'), &times[i], h5, groups[i], n, names);
  fprintf(fp, "  </Grid>\n");
  PetscCall(RwIOXDMFClose(xmf, fp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwIOWriteMetadata - writes what a reader needs to know of a result as
  attributes of the root group of an HDF5 viewer's file: the grid (points,
  origin and spacing per direction), dt and the number of steps, the model and
  its configuration, the options given, the versions of rewind, PETSc and
  HDF5, and the date

  Collective

  Input Parameters:
+ model - the model the result belongs to, set up
- v     - an HDF5 viewer

  Level: intermediate

.seealso: RwIOWriteField(), RwIOWriteXDMF()
@*/
PetscErrorCode RwIOWriteMetadata(RwModel model, PetscViewer v)
{
  PetscInt    dim, M[3] = {1, 1, 1};
  PetscReal   origin[3] = {0, 0, 0}, h[3] = {0, 0, 0}, dt;
  PetscInt64  n;
  char        text[4096], *all = NULL, date[64];
  const char *type;
  unsigned    maj, min, rel;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(model->da, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt d = 0; d < dim; d++) {
    PetscReal x1;

    PetscCall(RwModelGetCoordinates(model, d, 0, &origin[d]));
    PetscCall(RwModelGetCoordinates(model, d, 1, &x1));
    h[d] = x1 - origin[d];
  }
  { /* per direction, as arrays would need their own datasets: x, y, z attributes */
    const char *axis[3] = {"x", "y", "z"};
    char        name[32];

    for (PetscInt d = 0; d < dim; d++) {
      PetscCall(PetscSNPrintf(name, sizeof(name), "grid_%s", axis[d]));
      PetscCall(PetscViewerHDF5WriteAttribute(v, "/", name, PETSC_INT, &M[d]));
      PetscCall(PetscSNPrintf(name, sizeof(name), "origin_%s", axis[d]));
      PetscCall(PetscViewerHDF5WriteAttribute(v, "/", name, PETSC_REAL, &origin[d]));
      PetscCall(PetscSNPrintf(name, sizeof(name), "spacing_%s", axis[d]));
      PetscCall(PetscViewerHDF5WriteAttribute(v, "/", name, PETSC_REAL, &h[d]));
    }
  }
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "dimension", PETSC_INT, &dim));
  /* which direction is depth, growing downwards (the XDMF file draws it so) */
  if (model->depthlast) PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "depth_axis", PETSC_STRING, dim == 2 ? "y" : "z"));
  PetscCall(RwModelGetTimeStep(model, &dt));
  PetscCall(RwModelGetSteps(model, &n));
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "dt", PETSC_REAL, &dt));
  {
    PetscInt steps = (PetscInt)n; /* -rw_steps is at most PETSC_MAX_INT */

    PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "steps", PETSC_INT, &steps));
  }
  PetscCall(RwModelGetType(model, &type));
  PetscCall(RwModelGetIdentity(model, text, sizeof(text)));
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "model", PETSC_STRING, type));
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "model_configuration", PETSC_STRING, text));
  PetscCall(PetscOptionsGetAll(NULL, &all));
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "options", PETSC_STRING, all ? all : ""));
  PetscCall(PetscFree(all));
  PetscCall(RwGetVersion(text, sizeof(text)));
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "rewind_version", PETSC_STRING, text));
  PetscCall(PetscGetVersion(text, sizeof(text)));
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "petsc_version", PETSC_STRING, text));
  RwCallHDF5(H5get_libversion, (&maj, &min, &rel));
  PetscCall(PetscSNPrintf(text, sizeof(text), "HDF5 %u.%u.%u", maj, min, rel));
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "hdf5_version", PETSC_STRING, text));
  { /* rank 0's clock, so that every rank writes the same string */
    time_t    t = time(NULL);
    long long tt = (long long)t;

    PetscCallMPI(MPI_Bcast(&tt, 1, MPI_LONG_LONG, 0, PetscObjectComm((PetscObject)model)));
    t = (time_t)tt;
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  }
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "date", PETSC_STRING, date));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwH5WriteArray - a dataset of doubles, dims[0] x ... x dims[rank-1], under
  an open HDF5 location, written by the calling rank alone (serial files:
  observations, histories); an empty array writes no data
*/
PetscErrorCode RwH5WriteArray(hid_t loc, const char name[], int rank, const hsize_t dims[], const PetscReal v[])
{
  hid_t   space, d;
  hsize_t count = 1;

  PetscFunctionBegin;
  for (int i = 0; i < rank; i++) count *= dims[i];
  RwCallHDF5Return(space, H5Screate_simple, (rank, dims, NULL));
  RwCallHDF5Return(d, H5Dcreate2, (loc, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (count) RwCallHDF5(H5Dwrite, (d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v));
  RwCallHDF5(H5Dclose, (d));
  RwCallHDF5(H5Sclose, (space));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: a string attribute of an object, replacing any of that name; a reason in msg on failure */
static void RwIOStringAttribute0(hid_t f, const char obj[], const char name[], const char value[], const char file[], char msg[], size_t len)
{
  hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR), a = -1;

  if (type >= 0) H5Tset_size(type, strlen(value) + 1);
  if (H5Aexists_by_name(f, obj, name, H5P_DEFAULT) > 0) H5Adelete_by_name(f, obj, name, H5P_DEFAULT);
  if (type >= 0 && space >= 0) a = H5Acreate_by_name(f, obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0 || H5Awrite(a, type, value) < 0) snprintf(msg, len, "Cannot write attribute %s of %s in %s", name, obj, file);
  if (a >= 0) H5Aclose(a);
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
}

/*@C
  RwIOWriteDatasetInfo - says what datasets of a closed output file hold: a
  units attribute (UDUNITS-style; "1" for a pure number) and a long_name
  attribute on each, as netCDF's conventions name them, so that h5py,
  ParaView and plot scripts can label them

  Collective (rank 0 writes)

  Input Parameters:
+ comm - the ranks that wrote the file
. file - the HDF5 file, closed by every writer
. n    - the number of datasets
- info - their paths, units and long names; a path the file lacks (an optional output) is passed over

  Level: intermediate

.seealso: RwIOWriteMetadata()
@*/
PetscErrorCode RwIOWriteDatasetInfo(MPI_Comm comm, const char file[], PetscInt n, const RwIODatasetInfo info[])
{
  PetscMPIInt rank;
  char        msg[512] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    hid_t f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);

    if (f < 0) snprintf(msg, sizeof(msg), "Cannot open %s to add its datasets' units (missing, read-only, or not HDF5)", file);
    for (PetscInt i = 0; f >= 0 && i < n && !msg[0]; i++) {
      if (H5Lexists(f, info[i].path, H5P_DEFAULT) <= 0) continue;
      RwIOStringAttribute0(f, info[i].path, "units", info[i].units, file, msg, sizeof(msg));
      if (!msg[0]) RwIOStringAttribute0(f, info[i].path, "long_name", info[i].long_name, file, msg, sizeof(msg));
    }
    if (f >= 0 && H5Fclose(f) < 0 && !msg[0]) snprintf(msg, sizeof(msg), "Cannot close %s after adding its datasets' units", file);
    H5Eclear2(H5E_DEFAULT);
  }
  PetscCall(RwErrorAgree(comm, 0, PETSC_ERR_FILE_WRITE, msg, sizeof(msg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
