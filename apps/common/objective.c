/*
  The objective of rewind-gradient and of rewind-bench's options case, from
  the options database: for a wave model, receivers (-rw_wave_receivers)
  with the data and source of an observation file (-rw_obs, -rw_obs_shot);
  otherwise, or when neither is given, the model type's default misfit.
  One function, so that a scaling study (rewind-bench) times the problem
  rewind-gradient solves.
*/
#include "objective.h"
#include <string.h>

/* The wave model's objective: receivers with data from -rw_obs (a shot of
   the observation schema: its source and receivers too) or zeros; false
   when neither receivers nor observations are given */
static PetscErrorCode WaveObjective(RwModel model, RwObjective obj, PetscBool *added)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)model);
  char       obs[PETSC_MAX_PATH_LEN] = "";
  PetscReal *rec, *src = NULL, *data = NULL, dt;
  PetscInt   nv = 3 * 4096, shot = 0, dim;
  PetscInt64 n;
  PetscBool  set, hasobs;

  PetscFunctionBegin;
  PetscCall(RwModelWaveGetGeometry(model, &dim, NULL, NULL, NULL, NULL));
  PetscCall(PetscMalloc1(nv, &rec));
  PetscOptionsBegin(comm, NULL, "rewind-gradient: wave receivers", "rewind");
  PetscCall(PetscOptionsRealArray("-rw_wave_receivers", "Receiver positions x,z[,x,z...] (physical coordinates)", NULL, rec, &nv, &set));
  PetscCall(PetscOptionsString("-rw_obs", "Observations: an HDF5 file of rewind's wave schema", NULL, obs, obs, sizeof(obs), &hasobs));
  PetscCall(PetscOptionsInt("-rw_obs_shot", "The shot of -rw_obs to use", NULL, shot, &shot, NULL));
  PetscOptionsEnd();
  *added = (PetscBool)(set || hasobs);
  PetscCheck(!set || nv % dim == 0, comm, PETSC_ERR_ARG_SIZ, "-rw_wave_receivers: %" PetscInt_FMT " values; expected %" PetscInt_FMT " per receiver", nv, dim);
  PetscCall(RwModelGetSteps(model, &n));
  PetscCall(RwModelGetTimeStep(model, &dt));
  if (hasobs) {
    PetscReal *frec;
    PetscInt   nrec;

    size_t len;

    PetscCall(PetscStrlen(obs, &len));
    if ((len > 4 && !strcmp(obs + len - 4, ".sgy")) || (len > 5 && !strcmp(obs + len - 5, ".segy"))) { /* a SEG-Y shot gather */
      PetscCall(RwWaveSegyRead(comm, obs, dim, dt, (PetscInt)n + 1, &src, &nrec, &frec, &data));
      PetscCheck(!set || nrec == nv / dim, comm, PETSC_ERR_FILE_UNEXPECTED, "-rw_obs %s has %" PetscInt_FMT " traces; -rw_wave_receivers gives %" PetscInt_FMT " receivers", obs, nrec, nv / dim);
    } else PetscCall(RwWaveObsRead(comm, obs, shot, dim, -1, set ? nv / dim : -1, (PetscInt)n + 1, dt, &src, &nrec, &frec, &data));
    PetscCall(RwModelWaveSetSources(model, 1, src));
    PetscCall(PetscArraycpy(rec, frec, nrec * dim));
    PetscCall(PetscFree(frec));
    nv = nrec * dim;
  }
  if (*added) PetscCall(RwObjectiveAddWaveReceivers(obj, nv / dim, rec, data));
  PetscCall(PetscFree(rec));
  PetscCall(PetscFree(src));
  PetscCall(PetscFree(data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAppObjectiveFromOptions - adds to obj the terms the options describe

  Collective
@*/
PetscErrorCode RwAppObjectiveFromOptions(RwModel model, RwObjective obj)
{
  PetscBool iswave, custom = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)model, RWMODELWAVE, &iswave));
  if (iswave) PetscCall(WaveObjective(model, obj, &custom));
  if (!custom) PetscCall(RwObjectiveAddDefaultMisfit(obj));
  PetscFunctionReturn(PETSC_SUCCESS);
}
