/*
  RwModel's parameter layout: one Vec, made by a DMComposite, holds the
  distributed parameter fields (each on the dof-1 field grid) and then every
  named block of replicated global scalars (a decay rate, network weights,
  a value per step) on one DMRedundant owned by rank 0, so that TAO sees
  every scalar exactly once.  Here: building the layout, reading and writing
  fields, blocks and scalars of a parameter vector, and choosing which
  parameters' gradients a reverse sweep computes.
*/
#include <rewind/private/modelimpl.h>

/*@C
  RwModelAddParameterBlock - declares a named block of replicated global
  scalars, in a type's setup before RwModelCreatePack_Private()

  Not collective

  Input Parameters:
+ model - the model
. name  - the block's name (in views, identities and files)
. size  - scalars in the block; for a time-indexed block, values per step
- timeindexed - the block holds size values for each of the n steps of a run
                (RwModelSetSteps()), step k -> k+1 using [k size, (k + 1) size)

  Level: developer

.seealso: RwModelGetParameterBlockInfo(), RwModelSetSteps()
@*/
PetscErrorCode RwModelAddParameterBlock(RwModel model, const char name[], PetscInt size, PetscBool timeindexed)
{
  RwModelBlock *b = &model->blocks[model->nblocks];

  PetscFunctionBegin;
  PetscCheck(!model->pack, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Parameter block %s added after the parameter layout was built", name);
  PetscCheck(model->nblocks < RW_MODEL_MAX_BLOCKS, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "At most %d parameter blocks", RW_MODEL_MAX_BLOCKS);
  PetscCheck(size >= 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter block %s has size %" PetscInt_FMT ": it must be at least 1", name, size);
  PetscCheck(!timeindexed || (PetscInt64)size * model->n <= PETSC_MAX_INT, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Time-indexed block %s: %" PetscInt_FMT " values for each of %" PetscInt64_FMT " steps do not fit a PetscInt", name, size, model->n);
  PetscCall(PetscStrncpy(b->name, name, sizeof(b->name)));
  b->perstep = timeindexed ? size : 0;
  b->size    = timeindexed ? size * (PetscInt)model->n : size;
  b->offset  = model->nscalars;
  model->nscalars += b->size;
  model->nblocks++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwModelCreatePack_Private - builds the parameter layout: one field grid per
  field, then every block's scalars on one DMRedundant owned by rank 0, so
  that TAO sees every global scalar exactly once.  Also what the driver uses
  of every block: the replicated values and the exact gradient sums.
*/
PetscErrorCode RwModelCreatePack_Private(RwModel model)
{
  DM red;

  PetscFunctionBegin;
  if (!model->fda) {
    PetscCheck(model->dof == 1, PetscObjectComm((PetscObject)model), PETSC_ERR_PLIB, "A model with %" PetscInt_FMT " state components must set its field grid (model->fda)", model->dof);
    PetscCall(PetscObjectReference((PetscObject)model->da));
    model->fda = model->da;
  }
  PetscCheck(model->observed >= 0 && model->observed < model->dof, PetscObjectComm((PetscObject)model), PETSC_ERR_PLIB, "Observed component %" PetscInt_FMT " of %" PetscInt_FMT, model->observed, model->dof);
  PetscCall(DMCompositeCreate(PetscObjectComm((PetscObject)model), &model->pack));
  for (PetscInt i = 0; i < model->nfields; i++) PetscCall(DMCompositeAddDM(model->pack, model->fda));
  PetscCall(DMRedundantCreate(PetscObjectComm((PetscObject)model), 0, model->nscalars, &red));
  PetscCall(DMCompositeAddDM(model->pack, red));
  PetscCall(DMDestroy(&red));
  PetscCall(DMSetUp(model->pack));
  PetscCall(PetscCalloc3(model->nscalars + 1, &model->scalars, model->nscalars + 1, &model->dscalars, model->nscalars + 1, &model->gtotal));
  PetscCall(RwReproSumCreate(PetscMax(model->nscalars, 1), &model->gsum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterDM - the DMComposite of the parameters: the fields on the
  state's grid, then the global scalars

  Not collective

  Level: intermediate

.seealso: RwModelCreateParameters(), RwModelGetParameterInfo()
@*/
PetscErrorCode RwModelGetParameterDM(RwModel model, DM *pack)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *pack = model->pack;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelCreateParameters - a new parameter vector (fields and scalars), zero

  Collective

  Level: beginner

.seealso: RwModelGetDefaults(), RwModelGetParameterField()
@*/
PetscErrorCode RwModelCreateParameters(RwModel model, Vec *m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCall(DMCreateGlobalVector(model->pack, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetParameterInfo - the parameter fields' names and the number of blocks of global scalars

  Not collective

  Output Parameters:
+ nfields    - number of distributed fields (may be NULL)
. fieldnames - their names, e.g. kappa and s (may be NULL)
- nblocks    - number of blocks of replicated scalars (may be NULL); see RwModelGetParameterBlockInfo()

  Level: intermediate

.seealso: RwModelGetParameterField(), RwModelGetParameterBlockInfo()
@*/
PetscErrorCode RwModelGetParameterInfo(RwModel model, PetscInt *nfields, const char *const **fieldnames, PetscInt *nblocks)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  if (nfields) *nfields = model->nfields;
  if (fieldnames) *fieldnames = model->fieldnames;
  if (nblocks) *nblocks = model->nblocks;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetParameterBlockInfo - what block b of global scalars is

  Not collective

  Output Parameters:
+ name    - its name (may be NULL)
. size    - its number of scalars (may be NULL)
. perstep - for a time-indexed block the values per step, so that size = perstep n; 0 otherwise (may be NULL)
- offset  - the index of its first scalar among all blocks', for RwModelGetParameterScalar() (may be NULL)

  Level: intermediate

.seealso: RwModelGetParameterBlock(), RwModelFindParameterBlock()
@*/
PetscErrorCode RwModelGetParameterBlockInfo(RwModel model, PetscInt b, const char **name, PetscInt *size, PetscInt *perstep, PetscInt *offset)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCheck(b >= 0 && b < model->nblocks, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter block %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", b, model->nblocks);
  if (name) *name = model->blocks[b].name;
  if (size) *size = model->blocks[b].size;
  if (perstep) *perstep = model->blocks[b].perstep;
  if (offset) *offset = model->blocks[b].offset;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelFindParameterBlock - the index of the block called name, or -1

  Not collective

  Level: intermediate

.seealso: RwModelGetParameterBlockInfo()
@*/
PetscErrorCode RwModelFindParameterBlock(RwModel model, const char name[], PetscInt *b)
{
  PetscBool same;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *b = -1;
  for (PetscInt i = 0; i < model->nblocks && *b < 0; i++) {
    PetscCall(PetscStrcmp(model->blocks[i].name, name, &same));
    if (same) *b = i;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterField - access to field i of a parameter vector, as a
  vector on the state's grid; give it back with RwModelRestoreParameterField()

  Collective

  Level: intermediate

.seealso: RwModelRestoreParameterField()
@*/
PetscErrorCode RwModelGetParameterField(RwModel model, Vec m, PetscInt i, Vec *field)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCheck(i >= 0 && i < model->nfields, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter field %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", i, model->nfields);
  PetscCall(DMCompositeGetAccessArray(model->pack, m, 1, &i, field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelRestoreParameterField - gives back what RwModelGetParameterField() gave

  Collective

  Level: intermediate

.seealso: RwModelGetParameterField()
@*/
PetscErrorCode RwModelRestoreParameterField(RwModel model, Vec m, PetscInt i, Vec *field)
{
  PetscFunctionBegin;
  PetscCall(DMCompositeRestoreAccessArray(model->pack, m, 1, &i, field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The scalars' vector is owned by rank 0; every rank needs their values:
   scalars [first, first + n) are read (one broadcast) or written (none: rank
   0 writes what every rank passed) */
PetscErrorCode RwModelScalarAccess_Private(RwModel model, Vec m, PetscInt first, PetscInt n, PetscReal *get, const PetscReal *set)
{
  PetscInt     which = model->nfields, nlocal;
  Vec          red;
  PetscScalar *a;

  PetscFunctionBegin;
  RwModelCheckSetUp(model);
  PetscCheck(first >= 0 && n >= 0 && first + n <= model->nscalars, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter scalars [%" PetscInt_FMT ", %" PetscInt_FMT ") out of range [0, %" PetscInt_FMT ")", first, first + n, model->nscalars);
  PetscCall(DMCompositeGetAccessArray(model->pack, m, 1, &which, &red));
  PetscCall(VecGetLocalSize(red, &nlocal));
  PetscCall(VecGetArray(red, &a));
  if (nlocal) {
    for (PetscInt i = 0; set && i < n; i++) a[first + i] = set[i];
    for (PetscInt i = 0; get && i < n; i++) get[i] = PetscRealPart(a[first + i]);
  }
  PetscCall(VecRestoreArray(red, &a));
  PetscCall(DMCompositeRestoreAccessArray(model->pack, m, 1, &which, &red));
  if (get && n) {
    PetscMPIInt count;

    PetscCall(PetscMPIIntCast(n, &count));
    PetscCallMPI(MPI_Bcast(get, count, MPIU_REAL, 0, PetscObjectComm((PetscObject)model)));
    model->nbroadcasts++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetParameterBlockValues - the values of block b that the model uses
  now (from the last RwModelSetParameters()), the same on every rank, with no
  communication: what objective terms that depend on the scalars read

  Not collective

  Output Parameter:
. values - the block's values, owned by the model

  Level: intermediate

.seealso: RwModelSetParameters(), RwModelGetParameterBlock()
@*/
PetscErrorCode RwModelGetParameterBlockValues(RwModel model, PetscInt b, const PetscReal *values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, NULL, NULL, NULL));
  PetscCheck(model->paramsset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() first");
  *values = RwModelBlockValues(model, b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterBlock - the values of block b of a parameter vector, on every rank

  Collective; one broadcast

  Output Parameter:
. values - the block's size values (RwModelGetParameterBlockInfo())

  Level: intermediate

.seealso: RwModelSetParameterBlock()
@*/
PetscErrorCode RwModelGetParameterBlock(RwModel model, Vec m, PetscInt b, PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, NULL, NULL, NULL));
  PetscCall(RwModelScalarAccess_Private(model, m, model->blocks[b].offset, model->blocks[b].size, values, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetParameterBlock - sets block b of a parameter vector

  Collective; every rank passes the same values (rank 0's are kept), no communication

  Level: intermediate

.seealso: RwModelGetParameterBlock()
@*/
PetscErrorCode RwModelSetParameterBlock(RwModel model, Vec m, PetscInt b, const PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, NULL, NULL, NULL));
  PetscCall(RwModelScalarAccess_Private(model, m, model->blocks[b].offset, model->blocks[b].size, NULL, values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterScalars - every block's scalars of a parameter vector, in block order, on every rank

  Collective; one broadcast

  Output Parameter:
. values - nscalars values, the sum of the blocks' sizes

  Level: intermediate

.seealso: RwModelGetParameterBlock()
@*/
PetscErrorCode RwModelGetParameterScalars(RwModel model, Vec m, PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelScalarAccess_Private(model, m, 0, model->nscalars, values, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetParameterScalars - sets every block's scalars of a parameter vector, in block order

  Collective; every rank passes the same values (rank 0's are kept), no communication

  Level: intermediate

.seealso: RwModelGetParameterScalars()
@*/
PetscErrorCode RwModelSetParameterScalars(RwModel model, Vec m, const PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelScalarAccess_Private(model, m, 0, model->nscalars, NULL, values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetNumParameterScalars - the number of global scalars, every block's

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwModelGetNumParameterScalars(RwModel model, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *n = model->nscalars;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterScalar - the value of global scalar i in a parameter vector, on every rank

  Collective

  Level: intermediate

.seealso: RwModelSetParameterScalar()
@*/
PetscErrorCode RwModelGetParameterScalar(RwModel model, Vec m, PetscInt i, PetscReal *value)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelScalarAccess_Private(model, m, i, 1, value, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetParameterScalar - sets global scalar i of a parameter vector

  Collective

  Level: intermediate

.seealso: RwModelGetParameterScalar()
@*/
PetscErrorCode RwModelSetParameterScalar(RwModel model, Vec m, PetscInt i, PetscReal value)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelScalarAccess_Private(model, m, i, 1, NULL, &value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelSetActiveParameters - the parameters whose gradient is wanted, by
  name (fields and blocks); a reverse sweep may skip the others' accumulators,
  and their part of the gradient is zero

  Logically collective; after RwModelSetUp()

  Input Parameters:
+ model - the model
. n     - the number of names, or -1 for every parameter
- names - field or block names, e.g. kappa

  Options Database Key:
. -rw_adjoint_active <names> - the same, read by the driver (RwAdjointSetFromOptions())

  Level: intermediate

  Notes:
  The initial state's gradient, lambda_0, is always computed.  The
  inversion of one field is the use: heat's adjoint then skips the
  accumulators of s and r (32 of its 80 bytes a point and step).

.seealso: RwAdjointSolve()
@*/
PetscErrorCode RwModelSetActiveParameters(RwModel model, PetscInt n, const char *const names[])
{
  PetscInt np;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  np = model->nfields + model->nblocks;
  PetscCheck(np <= 16, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "At most 16 parameters can be marked active");
  for (PetscInt p = 0; p < np; p++) model->inactive[p] = n < 0 ? PETSC_FALSE : PETSC_TRUE;
  for (PetscInt i = 0; i < n; i++) {
    PetscBool found = PETSC_FALSE, same;

    for (PetscInt f = 0; f < model->nfields && !found; f++) {
      PetscCall(PetscStrcmp(names[i], model->fieldnames[f], &same));
      if (same) model->inactive[f] = PETSC_FALSE, found = PETSC_TRUE;
    }
    for (PetscInt b = 0; b < model->nblocks && !found; b++) {
      PetscCall(PetscStrcmp(names[i], model->blocks[b].name, &same));
      if (same) model->inactive[model->nfields + b] = PETSC_FALSE, found = PETSC_TRUE;
    }
    PetscCheck(found, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_UNKNOWN_TYPE, "-rw_adjoint_active: the model has no parameter %s (its fields and blocks are listed by -rw_model_view)", names[i]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
