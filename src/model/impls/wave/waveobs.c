/*
  Observations of a multi-shot survey in HDF5 (doc/wave.md, "Observations"):

    /                 attributes nshots (integer), dim (integer), dt (real)
    /shot<i>/source     [dim]          the source position (physical coordinates)
    /shot<i>/receivers  [nrec, dim]    receiver positions
    /shot<i>/data       [nt, nrec]     samples r_k, k = 0..nt-1 at t_k = k dt

  Written by rank 0 (a small file); read on rank 0 and broadcast, with
  errors naming the file, the dataset and what was expected.
*/
#include "waveimpl.h"
#include <rewind/io.h>

static PetscErrorCode WriteAttribute(hid_t g, const char name[], hid_t type, const void *v)
{
  hid_t space, a;

  PetscFunctionBegin;
  RwCallHDF5Return(space, H5Screate, (H5S_SCALAR));
  RwCallHDF5Return(a, H5Acreate2, (g, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
  RwCallHDF5(H5Awrite, (a, type, v));
  RwCallHDF5(H5Aclose, (a));
  RwCallHDF5(H5Sclose, (space));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwWaveObsWrite - writes a survey's observations in rewind's HDF5 schema

  Collective (rank 0 writes); every rank passes the same arrays

  Input Parameters:
+ comm   - the ranks
. file   - the file to create
. nshots, dim, dt - the survey
. src    - source positions, src[s * dim + d]
. nrec   - receivers of each shot, nrec[s] (they may differ)
. rec    - receiver positions, shot after shot: shot s's start after the sum of nrec[0..s-1] receivers
. nt     - samples per trace
- data   - shot after shot, [k * nrec[s] + r] within shot s (nt * nrec[s] values)

  Level: intermediate

.seealso: RwWaveObsRead()
@*/
PetscErrorCode RwWaveObsWrite(MPI_Comm comm, const char file[], PetscInt nshots, PetscInt dim, PetscReal dt, const PetscReal src[], const PetscInt nrec[], const PetscReal rec[], PetscInt nt, const PetscReal data[])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    hid_t f, g;
    int   ns = (int)nshots, nd = (int)dim;

    RwCallHDF5Return(f, H5Fcreate, (file, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    PetscCall(WriteAttribute(f, "nshots", H5T_NATIVE_INT, &ns));
    PetscCall(WriteAttribute(f, "dim", H5T_NATIVE_INT, &nd));
    PetscCall(WriteAttribute(f, "dt", H5T_NATIVE_DOUBLE, &dt));
    for (PetscInt s = 0, off = 0; s < nshots; off += nrec[s++]) {
      char    name[32];
      hsize_t d1[1] = {(hsize_t)dim}, d2[2] = {(hsize_t)nrec[s], (hsize_t)dim}, d3[2] = {(hsize_t)nt, (hsize_t)nrec[s]};

      PetscCall(PetscSNPrintf(name, sizeof(name), "shot%" PetscInt_FMT, s));
      RwCallHDF5Return(g, H5Gcreate2, (f, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      PetscCall(RwH5WriteArray(g, "source", 1, d1, src + s * dim));
      PetscCall(RwH5WriteArray(g, "receivers", 2, d2, rec + off * dim));
      PetscCall(RwH5WriteArray(g, "data", 2, d3, data + off * nt));
      RwCallHDF5(H5Gclose, (g));
    }
    RwCallHDF5(H5Fclose, (f));
  }
  PetscCallMPI(MPI_Barrier(comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwWaveObsRead - reads shot s of a survey in rewind's HDF5 schema, checking
  it against what the run expects; every rank gets the arrays (free with PetscFree())

  Collective

  Input Parameters:
+ comm   - the ranks
. file   - the file
. s      - the shot
. dim    - the model's dimension
. nshots - the shots the run expects (-1: any)
. nrec   - the receivers expected (-1: any)
. nt     - the samples expected, n + 1 (-1: any)
- dt     - the run's dt (0: any), which the file's must equal to 1e-12 relative

  Output Parameters:
+ src  - the source position (dim values)
. nrecout - the receivers
. rec  - their positions
- data - the samples, data[k * nrec + r]

  Level: intermediate

.seealso: RwWaveObsWrite()
@*/
PetscErrorCode RwWaveObsRead(MPI_Comm comm, const char file[], PetscInt s, PetscInt dim, PetscInt nshots, PetscInt nrec, PetscInt nt, PetscReal dt, PetscReal **src, PetscInt *nrecout, PetscReal **rec, PetscReal **data)
{
  char       name[64];
  PetscInt64 v, dims[2], e1[1] = {dim}, e2[2] = {nrec, dim}, e3[2] = {nt, -1};
  PetscReal  fdt;
  PetscBool  found;

  PetscFunctionBegin;
  PetscCall(RwIOReadAttributeInt(comm, file, "/", "nshots", 1, PETSC_MAX_INT, &v, &found));
  PetscCheck(found, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: no attribute nshots on / (expected rewind's wave schema, doc/wave.md)", file);
  PetscCheck(nshots < 0 || v == nshots, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s hold %" PetscInt64_FMT " shots; the geometry has %" PetscInt_FMT, file, v, nshots);
  PetscCheck(s < v, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s hold %" PetscInt64_FMT " shots; shot %" PetscInt_FMT " was asked for", file, v, s);
  PetscCall(RwIOReadAttributeInt(comm, file, "/", "dim", 2, 3, &v, &found));
  PetscCheck(found && v == dim, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: attribute dim %s%" PetscInt64_FMT "; the model is %" PetscInt_FMT "D", file, found ? "" : "missing, ", found ? v : 0, dim);
  PetscCall(RwIOReadAttribute(comm, file, "/", "dt", &fdt, &found));
  PetscCheck(found, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: no attribute dt on /", file);
  PetscCheck(dt <= 0 || PetscAbsReal(fdt - dt) <= 1e-12 * dt, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s are sampled every dt = %g; the run steps -rw_dt %g: expected the same sample interval", file, (double)fdt, (double)dt);
  PetscCall(PetscSNPrintf(name, sizeof(name), "/shot%" PetscInt_FMT "/source", s));
  PetscCall(RwIOReadArray(comm, file, name, 1, e1, dims, src));
  PetscCall(PetscSNPrintf(name, sizeof(name), "/shot%" PetscInt_FMT "/receivers", s));
  PetscCall(RwIOReadArray(comm, file, name, 2, e2, dims, rec));
  *nrecout = (PetscInt)dims[0];
  e3[1]    = dims[0];
  PetscCall(PetscSNPrintf(name, sizeof(name), "/shot%" PetscInt_FMT "/data", s));
  PetscCall(RwIOReadArray(comm, file, name, 2, e3, dims, data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwWaveObsWriteModel - adds a velocity model to an observation file (or any
  HDF5 file, created if absent): dataset name, C order with x last, and
  real attributes "spacing" (m) and origin_x, origin_y[, origin_z], the
  coordinates of its first point as RwIOWriteMetadata() names them: the
  form rewind-fwi -rw_fwi_start file.h5:name reads

  Collective (rank 0 writes); every rank passes the same values

  Input Parameters:
+ comm, file, name - the ranks, the file, the dataset
. dim, n, h        - the dimension, the points per direction (x first), the spacing
. c                - the velocities, x fastest
- origin           - the first point's coordinates (dim values; NULL: no origin attributes)

  Level: intermediate

.seealso: RwWaveObsWrite()
@*/
PetscErrorCode RwWaveObsWriteModel(MPI_Comm comm, const char file[], const char name[], PetscInt dim, const PetscInt n[], PetscReal h, const PetscReal c[], const PetscReal origin[])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    hid_t     f, ds;
    hsize_t   dims[3];
    PetscBool exists;

    for (PetscInt d = 0; d < dim; d++) dims[d] = (hsize_t)n[dim - 1 - d];
    PetscCall(PetscTestFile(file, 'r', &exists));
    if (exists) RwCallHDF5Return(f, H5Fopen, (file, H5F_ACC_RDWR, H5P_DEFAULT));
    else RwCallHDF5Return(f, H5Fcreate, (file, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    PetscCall(RwH5WriteArray(f, name, (int)dim, dims, c));
    RwCallHDF5Return(ds, H5Dopen2, (f, name, H5P_DEFAULT));
    PetscCall(WriteAttribute(ds, "spacing", H5T_NATIVE_DOUBLE, &h));
    for (PetscInt d = 0; d < dim && origin; d++) {
      char aname[16];

      PetscCall(PetscSNPrintf(aname, sizeof(aname), "origin_%c", "xyz"[d])); /* RwIOWriteMetadata()'s names: x, y in 2D */
      PetscCall(WriteAttribute(ds, aname, H5T_NATIVE_DOUBLE, &origin[d]));
    }
    RwCallHDF5(H5Dclose, (ds));
    RwCallHDF5(H5Fclose, (f));
  }
  PetscCallMPI(MPI_Barrier(comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
