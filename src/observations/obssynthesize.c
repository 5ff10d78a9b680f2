/*
  Synthetic data: what a member's sensors would read from a run of a known
  truth, with Gaussian noise.  Programs that demonstrate an inversion
  (rewind-heat-inverse's embedded problem, rewind-4dvar's twin experiment)
  make their data this way; the noise is drawn per (member, time, sensor)
  from a hash of the seed, so the data are the same on any number of ranks.
*/
#include <rewind/private/observationsimpl.h>

/* The clean readings of member e's sensors at the observation steps: the model run from u0 */
static PetscErrorCode SynthesizeClean(RwObservations obs, PetscInt e, Vec m, Vec u0, PetscInt64 n, PetscReal data[])
{
  RwModel           model = obs->model;
  RwObjective       sensors;
  PetscInt          ns, nt, t = 0;
  const PetscReal  *coords;
  const PetscInt64 *steps;
  PetscReal        *zero;
  Vec               u, unew;

  PetscFunctionBegin;
  PetscCall(RwObservationsGetSensors(obs, e, &ns, &coords));
  PetscCall(RwObservationsGetSteps(obs, &nt, &steps));
  PetscCall(RwObjectiveCreate(model, &sensors)); /* only to read the sensors: its data are zeros */
  PetscCall(PetscCalloc1(ns * nt, &zero));
  PetscCall(RwObjectiveAddSensors(sensors, ns, coords, nt, steps, zero, 1.0));
  PetscCall(PetscFree(zero));
  PetscCall(VecDuplicate(u0, &u));
  PetscCall(VecDuplicate(u0, &unew));
  PetscCall(RwModelSetParameters(model, m));
  PetscCall(VecCopy(u0, u));
  for (PetscInt64 k = 0; k < n && t < nt; k++) {
    PetscCall(RwModelStep(model, k, u, unew));
    PetscCall(VecCopy(unew, u));
    if (steps[t] == k + 1) PetscCall(RwObjectiveInterpolate(sensors, 0, u, data + ns * t++));
  }
  PetscCall(RwModelCheckFinite(model));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&unew));
  PetscCall(RwObjectiveDestroy(&sensors));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSynthesize - member e's sensor data from a run of a known
  truth: the observations' model run forward from u0 with parameters m, its
  sensors read at the observation steps, Gaussian noise added; the data and
  their noise level become member e's (RwObservationsSetData())

  Collective

  Input Parameters:
+ obs      - observations with their model (RwObservationsSetModel()), steps and member e's sensors
. e        - the member
. m        - the truth's parameters (RwModelCreateParameters())
. u0       - the truth's initial state
. noise    - the noise's standard deviation sigma, or with relative its ratio to the largest clean value (> 0)
. relative - sigma = noise x the largest absolute clean reading
- seed     - the noise's seed: reading i of member e draws normal number e * (readings) + i

  Level: intermediate

  Notes:
  The run takes the model's number of steps (RwModelGetSteps()) and stops
  after the last observation step, whose sensors must be read at steps 1 and
  later (steps of the run's states after a step). With -help the model takes
  at most one step (a program's -help lists the model's options and solves
  nothing) and the data hold zeros plus noise of sigma 1.
  The noise is the same on any number of ranks, and so are the data when the
  model's run is (explicit models).

.seealso: RwObservationsSetData(), RwObservationsSetSensors(), RwHashNormal()
@*/
PetscErrorCode RwObservationsSynthesize(RwObservations obs, PetscInt e, Vec m, Vec u0, PetscReal noise, PetscBool relative, PetscInt64 seed)
{
  MPI_Comm          comm = PetscObjectComm((PetscObject)obs);
  PetscInt          ns, nt, nobs;
  const PetscInt64 *steps;
  PetscReal        *data, peak = 0, sigma;
  PetscInt64        n;
  PetscBool         help;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  PetscCheck(obs->model, comm, PETSC_ERR_ORDER, "Synthetic data need the observations' model first (RwObservationsSetModel())");
  PetscCheck(e >= 0 && e < obs->nmembers, comm, PETSC_ERR_ARG_OUTOFRANGE, "Synthetic data: member %" PetscInt_FMT " is not one of the %" PetscInt_FMT " members", e, obs->nmembers);
  PetscCheck(noise > 0 && PetscIsNormalReal(noise), comm, PETSC_ERR_ARG_OUTOFRANGE, "Synthetic data: the noise level %g must be > 0 and finite", (double)noise);
  PetscCall(RwObservationsGetSensors(obs, e, &ns, NULL));
  PetscCall(RwObservationsGetSteps(obs, &nt, &steps));
  PetscCheck(ns >= 1 && nt >= 1, comm, PETSC_ERR_ORDER, "Synthetic data of member %" PetscInt_FMT ": set its sensors and the steps they are read at first (%" PetscInt_FMT " sensors, %" PetscInt_FMT " steps)", e, ns, nt);
  for (PetscInt t = 0; t < nt; t++) PetscCheck(steps[t] >= 1 && (!t || steps[t] > steps[t - 1]), comm, PETSC_ERR_ARG_WRONG, "Synthetic data: observation steps must increase from 1 (index %" PetscInt_FMT " is step %" PetscInt64_FMT ")", t, steps[t]);
  /* -help solves nothing: one step lists the model's solver options (made at its first step), the data's shape is enough for the rest */
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  PetscCall(RwModelGetSteps(obs->model, &n));
  if (help) n = PetscMin(n, 1);
  PetscCheck(help || steps[nt - 1] <= n, comm, PETSC_ERR_ARG_OUTOFRANGE, "Synthetic data: observation step %" PetscInt64_FMT " lies past the run of %" PetscInt64_FMT " steps (-rw_steps)", steps[nt - 1], n);
  nobs = ns * nt;
  PetscCall(PetscCalloc1(nobs, &data));
  PetscCall(SynthesizeClean(obs, e, m, u0, n, data));
  for (PetscInt i = 0; i < nobs; i++) peak = PetscMax(peak, PetscAbsReal(data[i]));
  sigma = help ? 1 : relative ? noise * peak : noise;
  PetscCheck(sigma > 0, comm, PETSC_ERR_ARG_WRONG, "Synthetic data of member %" PetscInt_FMT ": every clean reading is 0, so a noise relative to the largest is 0", e);
  for (PetscInt i = 0; i < nobs; i++) data[i] += sigma * RwHashNormal(seed, e * nobs + i);
  PetscCall(RwObservationsSetData(obs, e, data, sigma));
  PetscCall(PetscFree(data));
  PetscFunctionReturn(PETSC_SUCCESS);
}
