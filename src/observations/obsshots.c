/*
  The shots schema of the wave model (doc/wave.md, "Observations"): per shot
  a point source, its own receivers and their traces at every step 0..n
  (RwWaveObsRead(), RwWaveObsWrite()); or one SEG-Y shot gather
  (RwWaveSegyRead()), a survey of one shot.  Receivers are point sensors of
  the member's own with sigma 1: J = 1/2 sum_k sum_r (r_k - d_k)^2.
*/
#include <rewind/private/observationsimpl.h>
#include <rewind/io.h>
#include <rewind/wave.h>

static PetscBool IsSegy(const char file[])
{
  size_t len = strlen(file);

  return (PetscBool)((len > 4 && !strcmp(file + len - 4, ".sgy")) || (len > 5 && !strcmp(file + len - 5, ".segy")));
}

PetscErrorCode RwObservationsLoadShots_Private(RwObservations obs)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)obs);
  PetscInt64 v, e3[2] = {-1, -1}, dims[2];
  PetscBool  found;

  PetscFunctionBegin;
  if (IsSegy(obs->file)) {
    PetscInt nt;

    PetscCall(RwWaveSegyReadBinaryHeader(comm, obs->file, &obs->fdt, &nt));
    PetscCall(RwObservationsSetNumMembers(obs, 1));
    obs->fsteps = nt - 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwIOReadAttributeInt(comm, obs->file, "/", "nshots", 1, PETSC_MAX_INT, &v, &found));
  PetscCall(RwObservationsSetNumMembers(obs, (PetscInt)v));
  PetscCall(RwIOReadAttributeInt(comm, obs->file, "/", "dim", 2, 3, &v, &found));
  PetscCheck(found, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: no attribute dim on / (the shots schema, doc/wave.md)", obs->file);
  obs->fdim = (PetscInt)v;
  PetscCall(RwIOReadAttribute(comm, obs->file, "/", "dt", &obs->fdt, &found));
  PetscCheck(found && obs->fdt > 0, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: no attribute dt > 0 on /", obs->file);
  PetscCall(RwIOCheckDataset(comm, obs->file, "/shot0/data", 2, e3, dims));
  PetscCheck(dims[0] >= 2, comm, PETSC_ERR_FILE_UNEXPECTED, "Dataset /shot0/data in %s holds %" PetscInt64_FMT " samples a trace: expected at least 2", obs->file, dims[0]);
  obs->fsteps = dims[0] - 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every shot as the run expects it: the model's dimension, dt and n + 1 samples */
PetscErrorCode RwObservationsSetUpShots_Private(RwObservations obs)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)obs);
  PetscInt64 n, *steps;
  PetscReal  dt;
  PetscBool  iswave;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)obs->model, RWMODELWAVE, &iswave));
  PetscCheck(iswave, comm, PETSC_ERR_ARG_INCOMP, "Observations %s are shots of the wave model's schema (sources, receivers): they need -rw_model_type wave", obs->file);
  PetscCall(RwModelGetSteps(obs->model, &n));
  PetscCall(RwModelGetTimeStep(obs->model, &dt));
  PetscCall(PetscMalloc1(n + 1, &steps));
  for (PetscInt64 k = 0; k <= n; k++) steps[k] = k;
  PetscCall(RwObservationsSetSteps(obs, (PetscInt)n + 1, steps));
  PetscCall(PetscFree(steps));
  for (PetscInt s = 0; s < obs->nmembers; s++) {
    PetscReal *src, *rec, *data;
    PetscInt   nrec;

    if (IsSegy(obs->file)) PetscCall(RwWaveSegyRead(comm, obs->file, obs->dim, dt, (PetscInt)n + 1, &src, &nrec, &rec, &data));
    else PetscCall(RwWaveObsRead(comm, obs->file, s, obs->dim, obs->nmembers, -1, (PetscInt)n + 1, dt, &src, &nrec, &rec, &data));
    PetscCall(RwObservationsSetSources(obs, s, 1, src));
    PetscCall(RwObservationsSetSensors(obs, s, nrec, rec));
    PetscCall(RwObservationsSetData(obs, s, data, 1.0));
    PetscCall(PetscFree(src));
    PetscCall(PetscFree(rec));
    PetscCall(PetscFree(data));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwObservationsWriteShots_Private(RwObservations obs, const char file[])
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)obs);
  PetscInt  *nrec, total = 0;
  PetscReal *src, *rec, *data, dt;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < obs->nmembers; s++) {
    PetscCheck(obs->m[s].nsrc == 1 && obs->m[s].coords, comm, PETSC_ERR_SUP, "The shots schema holds one source and the receivers of each shot; member %" PetscInt_FMT " has %" PetscInt_FMT " sources%s", s, obs->m[s].nsrc, obs->m[s].coords ? "" : " and no receivers of its own");
    total += obs->m[s].nsensors;
  }
  PetscCall(RwModelGetTimeStep(obs->model, &dt));
  PetscCall(PetscMalloc4(obs->nmembers, &nrec, obs->nmembers * obs->dim, &src, total * obs->dim, &rec, total * obs->ntimes, &data));
  for (PetscInt s = 0, off = 0; s < obs->nmembers; off += obs->m[s++].nsensors) {
    nrec[s] = obs->m[s].nsensors;
    PetscCall(PetscArraycpy(src + s * obs->dim, obs->m[s].src, obs->dim));
    PetscCall(PetscArraycpy(rec + off * obs->dim, obs->m[s].coords, nrec[s] * obs->dim));
    PetscCall(PetscArraycpy(data + off * obs->ntimes, obs->m[s].data, nrec[s] * obs->ntimes));
  }
  PetscCall(RwWaveObsWrite(comm, file, obs->nmembers, obs->dim, dt, src, nrec, rec, obs->ntimes, data));
  PetscCall(PetscFree4(nrec, src, rec, data));
  PetscFunctionReturn(PETSC_SUCCESS);
}
