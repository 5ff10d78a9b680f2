/*
  RwProblem's parameters: the base every member starts from (the model's
  defaults, the observations' known values for all members, -rw_parameter),
  and the unknown x: which parameter it is, its DM on the parent and on each
  group, and its maps to a member's parameters and from a member's gradient.
  A field or u0 is x on the model's grid; a block of global scalars lives on
  one rank (a DMRedundant), as TAO wants each scalar once; a program's own
  unknown comes with its ops (RwProblemSetUnknownOps()).
*/
#include <rewind/private/problemimpl.h>
#include <rewind/io.h>

/* RwProblemFindField_Private - the index of a model's parameter field by name, or -1 */
PetscErrorCode RwProblemFindField_Private(RwModel model, const char name[], PetscInt *f)
{
  PetscInt           nf;
  const char *const *names;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterInfo(model, &nf, &names, NULL));
  for (*f = 0; *f < nf; (*f)++)
    if (!strcmp(names[*f], name)) PetscFunctionReturn(PETSC_SUCCESS);
  *f = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a name is: a field, a block or u0; an error naming the model's parameters otherwise */
static PetscErrorCode ParameterKind(RwModel model, const char name[], const char what[], RwUnknownKind *kind, PetscInt *index)
{
  PetscInt           nf, nb;
  const char *const *fields;
  char               list[512] = "";

  PetscFunctionBegin;
  *kind = RW_UNKNOWN_U0, *index = -1;
  if (!strcmp(name, "u0")) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwProblemFindField_Private(model, name, index));
  *kind = RW_UNKNOWN_FIELD;
  if (*index >= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwModelGetParameterInfo(model, &nf, &fields, &nb));
  for (PetscInt b = 0; b < nb; b++) {
    const char *bname;

    PetscCall(RwModelGetParameterBlockInfo(model, b, &bname, NULL, NULL, NULL));
    *kind = RW_UNKNOWN_BLOCK, *index = b;
    if (!strcmp(bname, name)) PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt f = 0; f < nf; f++) {
    PetscCall(PetscStrlcat(list, fields[f], sizeof(list)));
    PetscCall(PetscStrlcat(list, ", ", sizeof(list)));
  }
  for (PetscInt b = 0; b < nb; b++) {
    const char *bname;

    PetscCall(RwModelGetParameterBlockInfo(model, b, &bname, NULL, NULL, NULL));
    PetscCall(PetscStrlcat(list, bname, sizeof(list)));
    PetscCall(PetscStrlcat(list, ", ", sizeof(list)));
  }
  SETERRQ(PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_UNKNOWN_TYPE, "%s \"%s\": the model has no such parameter; its parameters are %su0", what, name, list);
}

/* One -rw_parameter spec, name=file.h5:dataset or name=value, into the base m or u0 */
static PetscErrorCode ApplySpec(RwProblem prob, const char spec[])
{
  MPI_Comm      comm = PetscObjectComm((PetscObject)prob);
  char          name[64], value[PETSC_MAX_PATH_LEN], *eq = strchr(spec, '='), *colon, *end;
  RwUnknownKind kind;
  PetscInt      index, size;
  PetscReal     v = 0;
  PetscBool     file;

  PetscFunctionBegin;
  PetscCheck(eq && eq > spec && eq[1], comm, PETSC_ERR_ARG_WRONG, "-rw_parameter %s: expected name=file.h5:dataset or name=value", spec);
  PetscCall(PetscStrncpy(name, spec, PetscMin(sizeof(name), (size_t)(eq - spec) + 1)));
  PetscCall(PetscStrncpy(value, eq + 1, sizeof(value)));
  PetscCall(ParameterKind(prob->model, name, "-rw_parameter", &kind, &index));
  colon = strrchr(value, ':');
  file  = (PetscBool)(colon != NULL);
  if (!file) {
    v = strtod(value, &end);
    PetscCheck(end != value && !*end && !PetscIsInfOrNanReal(v), comm, PETSC_ERR_ARG_WRONG, "-rw_parameter %s: \"%s\" is not a finite number (or a file.h5:dataset)", spec, value);
  } else *colon = 0;
  if (kind == RW_UNKNOWN_BLOCK) {
    PetscReal *vals;

    PetscCall(RwModelGetParameterBlockInfo(prob->model, index, NULL, &size, NULL, NULL));
    if (file) {
      PetscInt64 want[1] = {size};
      PetscCall(RwIOReadArray(comm, value, colon + 1, 1, want, NULL, &vals));
    } else {
      PetscCall(PetscMalloc1(size, &vals));
      for (PetscInt i = 0; i < size; i++) vals[i] = v;
    }
    PetscCall(RwModelSetParameterBlock(prob->model, prob->m, index, vals));
    PetscCall(PetscFree(vals));
  } else {
    Vec f = prob->u0;

    if (kind == RW_UNKNOWN_FIELD) PetscCall(RwModelGetParameterField(prob->model, prob->m, index, &f));
    if (file) PetscCall(RwIOReadField(prob->model, value, colon + 1, f));
    else PetscCall(VecSet(f, v));
    if (kind == RW_UNKNOWN_FIELD) PetscCall(RwModelRestoreParameterField(prob->model, prob->m, index, &f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The observations' known values of every member into the base */
static PetscErrorCode ApplyKnown(RwProblem prob)
{
  RwObservations obs = prob->obs;

  PetscFunctionBegin;
  for (PetscInt i = 0; obs && i < obs->nknown; i++) {
    RwObsKnown   *k = &obs->known[i];
    RwUnknownKind kind;
    PetscInt      index;
    Vec           f = prob->u0;

    if (k->member != RW_OBS_ALL_MEMBERS) continue;
    PetscCall(ParameterKind(prob->model, k->name, "Known parameter", &kind, &index));
    if (kind == RW_UNKNOWN_BLOCK) {
      PetscCall(RwModelSetParameterBlock(prob->model, prob->m, index, k->values));
      continue;
    }
    if (kind == RW_UNKNOWN_FIELD) PetscCall(RwModelGetParameterField(prob->model, prob->m, index, &f));
    PetscCall(VecCopy(k->field, f));
    if (kind == RW_UNKNOWN_FIELD) PetscCall(RwModelRestoreParameterField(prob->model, prob->m, index, &f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemApplyParameters_Private - the base on the parent: the observations' known values, then -rw_parameter */
PetscErrorCode RwProblemApplyParameters_Private(RwProblem prob)
{
  PetscFunctionBegin;
  PetscCall(ApplyKnown(prob));
  for (PetscInt i = 0; i < prob->nparams; i++) PetscCall(ApplySpec(prob, prob->params[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the built-in unknowns: a field, u0, a block ---------------------------- */

static PetscErrorCode CreateDM_Builtin(RwProblem prob, RwModel model, DM *dm, void *ctx)
{
  PetscInt size;

  PetscFunctionBegin;
  if (prob->ukind == RW_UNKNOWN_FIELD) PetscCall(RwModelGetFieldDM(model, dm));
  if (prob->ukind == RW_UNKNOWN_U0) PetscCall(RwModelGetStateDM(model, dm));
  if (prob->ukind != RW_UNKNOWN_BLOCK) PetscCall(PetscObjectReference((PetscObject)*dm));
  else {
    PetscCall(RwModelGetParameterBlockInfo(model, prob->uindex, NULL, &size, NULL, NULL));
    PetscCall(DMRedundantCreate(PetscObjectComm((PetscObject)model), 0, size, dm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x into m or u0 (to), or out of them (from) */
static PetscErrorCode Move_Builtin(RwProblem prob, RwModel model, Vec x, Vec m, Vec u0, PetscBool to)
{
  Vec          f;
  PetscScalar *a;

  PetscFunctionBegin;
  if (prob->ukind == RW_UNKNOWN_U0) PetscCall(to ? VecCopy(x, u0) : VecCopy(u0, x));
  if (prob->ukind == RW_UNKNOWN_FIELD) {
    PetscCall(RwModelGetParameterField(model, m, prob->uindex, &f));
    PetscCall(to ? VecCopy(x, f) : VecCopy(f, x));
    PetscCall(RwModelRestoreParameterField(model, m, prob->uindex, &f));
  }
  if (prob->ukind == RW_UNKNOWN_BLOCK) { /* x on the first rank, which keeps what it passes */
    PetscInt size, n;

    PetscCall(RwModelGetParameterBlockInfo(model, prob->uindex, NULL, &size, NULL, NULL));
    PetscCall(VecGetLocalSize(x, &n));
    PetscCall(VecGetArray(x, &a));
    if (to) PetscCall(RwModelSetParameterBlock(model, m, prob->uindex, a));
    else {
      PetscReal *v;

      PetscCall(PetscMalloc1(size, &v));
      PetscCall(RwModelGetParameterBlock(model, m, prob->uindex, v));
      for (PetscInt i = 0; i < n; i++) a[i] = v[i];
      PetscCall(PetscFree(v));
    }
    PetscCall(VecRestoreArray(x, &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ToParameters_Builtin(RwProblem prob, RwModel model, Vec x, Vec m, Vec u0, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(Move_Builtin(prob, model, x, m, u0, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FromParameters_Builtin(RwProblem prob, RwModel model, Vec m, Vec u0, Vec x, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(Move_Builtin(prob, model, x, m, u0, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Gradient_Builtin(RwProblem prob, RwModel model, Vec x, Vec g, Vec gu0, Vec w, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(Move_Builtin(prob, model, w, g, gu0, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Only the unknown's gradient is wanted: the reverse sweep skips the others' accumulators */
static PetscErrorCode SetActive(RwProblem prob)
{
  const char *name = prob->unknown;

  PetscFunctionBegin;
  if (prob->ukind == RW_UNKNOWN_FIELD || prob->ukind == RW_UNKNOWN_BLOCK) PetscCall(RwModelSetActiveParameters(prob->gmodel, 1, &name));
  if (prob->ukind == RW_UNKNOWN_U0) PetscCall(RwModelSetActiveParameters(prob->gmodel, 0, &name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemSetUpUnknown_Private - x's kind, its DMs and vectors, its pair of grids in the ensemble */
PetscErrorCode RwProblemSetUpUnknown_Private(RwProblem prob)
{
  PetscFunctionBegin;
  if (prob->ukind == RW_UNKNOWN_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  if (prob->ukind != RW_UNKNOWN_CUSTOM) {
    PetscCall(ParameterKind(prob->model, prob->unknown, "The unknown", &prob->ukind, &prob->uindex));
    prob->uops.createdm       = CreateDM_Builtin;
    prob->uops.toparameters   = ToParameters_Builtin;
    prob->uops.fromparameters = FromParameters_Builtin;
    prob->uops.gradient       = Gradient_Builtin;
    PetscCall(SetActive(prob));
  }
  PetscCall((*prob->uops.createdm)(prob, prob->model, &prob->udm, prob->uctx));
  if (prob->shared) {
    PetscCall(PetscObjectReference((PetscObject)prob->udm));
    prob->gudm = prob->udm;
  } else {
    PetscCall((*prob->uops.createdm)(prob, prob->gmodel, &prob->gudm, prob->uctx));
    PetscCall(RwEnsembleSetDM(prob->ens, prob->gudm, prob->udm));
  }
  PetscCall(DMCreateGlobalVector(prob->gudm, &prob->xg));
  PetscCall(VecDuplicate(prob->xg, &prob->wg));
  PetscCall(DMCreateGlobalVector(prob->udm, &prob->gx));
  PetscCall(PetscMalloc1(prob->ngroups, &prob->W));
  for (PetscInt k = 0; k < prob->ngroups; k++) PetscCall(DMCreateGlobalVector(prob->udm, &prob->W[k])); /* each knows its DM: the ensemble moves it by its pair */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemToParameters_Private - x (the group's layout) into a member's m and u0 */
PetscErrorCode RwProblemToParameters_Private(RwProblem prob, Vec x, Vec m, Vec u0)
{
  PetscFunctionBegin;
  PetscCall((*prob->uops.toparameters)(prob, prob->gmodel, x, m, u0, prob->uctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemMemberGradient_Private - a member's dJ/dx (the group's layout) from its dJ/dm and dJ/du0 */
PetscErrorCode RwProblemMemberGradient_Private(RwProblem prob, Vec x, Vec g, Vec gu0, Vec w)
{
  PetscFunctionBegin;
  PetscCall((*prob->uops.gradient)(prob, prob->gmodel, x, g, gu0, w, prob->uctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemCreateUnknownVector - a vector of the unknown's layout on the parent (for TAO's solution, bounds, a mask)

  Collective

  Level: beginner

.seealso: RwProblemGetUnknown(), RwProblemSetUnknown()
@*/
PetscErrorCode RwProblemCreateUnknownVector(RwProblem prob, Vec *x)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(prob->setupcalled, PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "Call RwProblemSetUp() first");
  PetscCheck(prob->udm, PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "The problem has no unknown: RwProblemSetUnknown()");
  PetscCall(DMCreateGlobalVector(prob->udm, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetUnknown - the unknown's value in the base parameters: where an optimisation starts unless told otherwise

  Collective

  Level: beginner
@*/
PetscErrorCode RwProblemGetUnknown(RwProblem prob, Vec x)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(prob->udm, PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "The problem has no unknown: RwProblemSetUnknown()");
  PetscCall((*prob->uops.fromparameters)(prob, prob->model, prob->m, prob->u0, x, prob->uctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The field a regulariser acts on: x itself (the unknown), or a field or u0 of the parameters m, u0 */
static PetscErrorCode RegField(RwProblem prob, RwProblemReg *r, Vec x, Vec m, Vec u0, Vec *f, PetscInt *index)
{
  RwUnknownKind kind;

  PetscFunctionBegin;
  *index = -1;
  if (!r->name[0] || !strcmp(r->name, prob->unknown)) {
    PetscCheck(x && (prob->ukind == RW_UNKNOWN_FIELD || prob->ukind == RW_UNKNOWN_U0), PetscObjectComm((PetscObject)prob), PETSC_ERR_SUP, "A regulariser acts on a field or u0 (-rw_reg_parameter): the unknown %s is not one", prob->unknown[0] ? prob->unknown : "(none)");
    *f = x;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(ParameterKind(prob->model, r->name, "-rw_reg_parameter", &kind, index));
  PetscCheck(kind != RW_UNKNOWN_BLOCK, PetscObjectComm((PetscObject)prob), PETSC_ERR_SUP, "-rw_reg_parameter %s: a regulariser acts on a field or u0, not on a block of scalars", r->name);
  PetscCheck(m, PetscObjectComm((PetscObject)prob), PETSC_ERR_SUP, "-rw_reg_parameter %s: an optimisation regularises its unknown %s only", r->name, prob->unknown);
  if (kind == RW_UNKNOWN_U0) *f = u0;
  else PetscCall(RwModelGetParameterField(prob->model, m, *index, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwProblemRegularize_Private - adds every regulariser to J and its gradient:
  of the unknown x into G (an optimisation), or with x NULL of a field or u0
  of the base parameters into g or gu0 (RwProblemComputeGradient()); the
  values go to prob->terms_[1..]
*/
PetscErrorCode RwProblemRegularize_Private(RwProblem prob, Vec x, PetscReal *J, Vec G, Vec gu0)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < prob->nreg; i++) {
    RwProblemReg *r = &prob->reg[i];
    Vec           f, gf, ref = r->ref;
    PetscInt      index;

    PetscCall(RegField(prob, r, x, x ? NULL : prob->m, prob->u0, &f, &index));
    if (!ref && r->type == RW_REG_L2) {
      if (!prob->x0) { /* the start: the field at the first evaluation */
        PetscCall(VecDuplicate(f, &prob->x0));
        PetscCall(VecCopy(f, prob->x0));
      }
      ref = prob->x0;
    }
    if (x) gf = prob->gx;
    else PetscCall(VecDuplicate(f, &gf));
    PetscCall(RwRegularize(prob->model, r->type, r->alpha, r->eps, f, ref, &prob->terms_[1 + i], gf));
    if (x) PetscCall(VecAXPY(G, 1, gf));
    else if (index < 0) PetscCall(VecAXPY(gu0, 1, gf));
    else {
      Vec gp;

      PetscCall(RwModelGetParameterField(prob->model, G, index, &gp));
      PetscCall(VecAXPY(gp, 1, gf));
      PetscCall(RwModelRestoreParameterField(prob->model, G, index, &gp));
      PetscCall(RwModelRestoreParameterField(prob->model, prob->m, index, &f));
    }
    if (!x) PetscCall(VecDestroy(&gf));
    *J += prob->terms_[1 + i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
