/*
  RwObjectiveSetFromOptions: the terms of one solve's objective from the
  options, for any model type.  Observations of many members (experiments,
  shots) are a problem's (RwProblem, -rw_obs); regularisers too, since they
  count once however many members there are.
*/
#include <rewind/private/objectiveimpl.h>
#include <rewind/io.h>
#include <rewind/wave.h>

/* -rw_objective_terminal file.h5:dataset: a terminal misfit to a field of a file */
static PetscErrorCode TerminalFromOptions(RwObjective obj, const char spec[], PetscReal weight)
{
  char  file[PETSC_MAX_PATH_LEN], *colon;
  Vec   target;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(file, spec, sizeof(file)));
  colon = strrchr(file, ':');
  PetscCheck(colon && colon[1] && colon != file, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "-rw_objective_terminal %s: expected file.h5:dataset", spec);
  *colon = 0;
  PetscCall(RwModelCreateField(obj->model, &target));
  PetscCall(RwIOReadField(obj->model, file, colon + 1, target));
  PetscCall(RwObjectiveAddTerminalMisfit(obj, target, weight));
  PetscCall(VecDestroy(&target));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_wave_receivers x,z,...: receivers of a wave model, with zero data */
static PetscErrorCode ReceiversFromOptions(RwObjective obj, PetscReal rec[], PetscInt nv)
{
  PetscInt dim;

  PetscFunctionBegin;
  PetscCall(RwModelWaveGetGeometry(obj->model, &dim, NULL, NULL, NULL, NULL));
  PetscCheck(nv % dim == 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_SIZ, "-rw_wave_receivers: %" PetscInt_FMT " values; expected %" PetscInt_FMT " per receiver", nv, dim);
  PetscCall(RwObjectiveAddWaveReceivers(obj, nv / dim, rec, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveSetFromOptions - adds the terms the options describe; with none
  of them, the model type's default misfit (RwObjectiveAddDefaultMisfit())

  Collective; after the model's set-up and its number of steps

  Options Database Keys:
+ -rw_objective_terminal <file.h5:dataset> - a terminal misfit to that field (the observed component)
. -rw_objective_terminal_weight <w>        - its weight (default 1)
. -rw_wave_receivers <x,z,...>             - a wave model's receivers, data zero (positions in the model's coordinates)
- -rw_objective_time_average <w>           - w times the time average of the mean (RwObjectiveAddTimeAverage())

  Level: beginner

.seealso: RwObjectiveAddTerminalMisfit(), RwProblemSetFromOptions()
@*/
PetscErrorCode RwObjectiveSetFromOptions(RwObjective obj)
{
  char      terminal[PETSC_MAX_PATH_LEN] = "";
  PetscReal weight = 1, *rec, avg = 0;
  PetscInt  nv = 3 * 4096;
  PetscBool hasterminal, hasrec = PETSC_FALSE, iswave, hasavg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)obj->model, RWMODELWAVE, &iswave));
  PetscCall(PetscMalloc1(nv, &rec));
  PetscObjectOptionsBegin((PetscObject)obj);
  PetscCall(PetscOptionsString("-rw_objective_terminal", "A terminal misfit to a field: file.h5:dataset", "RwObjectiveAddTerminalMisfit", terminal, terminal, sizeof(terminal), &hasterminal));
  PetscCall(RwOptionsReal("-rw_objective_terminal_weight", "Its weight", "RwObjectiveAddTerminalMisfit", weight, &weight, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  if (iswave) PetscCall(RwOptionsRealArray("-rw_wave_receivers", "Receiver positions x,z[,x,z...] (physical coordinates); data zero", "RwObjectiveAddWaveReceivers", NULL, rec, &nv, &hasrec, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_objective_time_average", "Weight w of the time average of the mean, w (1/n) sum_k (1/P) sum_i u_k,i", "RwObjectiveAddTimeAverage", avg, &avg, &hasavg, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscOptionsEnd();
  if (hasavg) PetscCall(RwObjectiveAddTimeAverage(obj, avg));
  if (hasterminal) PetscCall(TerminalFromOptions(obj, terminal, weight));
  if (hasrec) PetscCall(ReceiversFromOptions(obj, rec, nv));
  PetscCall(PetscFree(rec));
  if (!hasterminal && !hasrec && !hasavg) PetscCall(RwObjectiveAddDefaultMisfit(obj));
  PetscFunctionReturn(PETSC_SUCCESS);
}
