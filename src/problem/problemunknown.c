/*
  RwProblem's parameters: the base every member starts from (the model's
  defaults, the observations' known values for all members, -rw_parameter),
  and the unknown x: which parameter it is, its DM on the parent and on each
  group, and its maps to a member's parameters and from a member's gradient.
  A field or u0 is x on the model's grid; a block of global scalars lives on
  one rank (a DMRedundant), as TAO wants each scalar once; a program's own
  unknown comes with its ops (RwProblemSetUnknownOps()).  A field or u0 per
  member (RwProblemSetUnknownPerMember()) is a DMDA of the same grid with
  members times the dofs: member e's part is components e*dof .. e*dof+dof-1
  at every point, so natural order, and with it the journal's checksums and
  the ensemble's moves, stay decomposition-independent.
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
  /* x of u0 is interleaved whatever the state's layout: a DM of its own, as the ensemble moves the state DM's vectors through the layout */
  if (prob->ukind == RW_UNKNOWN_U0 || (prob->ukind != RW_UNKNOWN_BLOCK && prob->permember)) {
    PetscInt dof;

    PetscCall(DMDAGetInfo(*dm, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDACreateCompatibleDMDA(*dm, dof * (prob->permember ? prob->nmembers : 1), dm));
  } else if (prob->ukind != RW_UNKNOWN_BLOCK) PetscCall(PetscObjectReference((PetscObject)*dm));
  else {
    PetscCall(RwModelGetParameterBlockInfo(model, prob->uindex, NULL, &size, NULL, NULL));
    PetscCall(DMRedundantCreate(PetscObjectComm((PetscObject)model), 0, size, dm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwProblemMovePart_Private - member e's part of x to or from p (a field, or
  a state of smodel): components e*dof .. e*dof+dof-1 of x, copies only.  x
  interleaves its members' components at every point; a state goes through
  the interleaved order (RwModelGetStateInterleaved()), in a work vector of
  the state DM's pool
*/
PetscErrorCode RwProblemMovePart_Private(RwModel smodel, PetscInt e, Vec x, Vec p, PetscBool to)
{
  PetscInt dof, *idx;
  Vec      q = p;
  DM       da = NULL;

  PetscFunctionBegin;
  if (smodel) {
    PetscCall(RwModelGetStateDM(smodel, &da));
    PetscCall(DMGetGlobalVector(da, &q));
    if (!to) PetscCall(RwModelGetStateInterleaved(smodel, p, q));
  }
  PetscCall(VecGetBlockSize(p, &dof));
  PetscCall(PetscMalloc1(dof, &idx));
  for (PetscInt c = 0; c < dof; c++) idx[c] = e * dof + c;
  if (to) PetscCall(VecStrideSubSetGather(x, dof, idx, NULL, q, INSERT_VALUES));
  else PetscCall(VecStrideSubSetScatter(q, dof, NULL, idx, x, INSERT_VALUES));
  PetscCall(PetscFree(idx));
  if (smodel) {
    if (to) PetscCall(RwModelSetStateInterleaved(smodel, q, p));
    PetscCall(DMRestoreGlobalVector(da, &q));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x (or member e's part of it) to p, or p into x: every member's part when e < 0 (the base, the start); p a state of smodel, or a field (smodel NULL) */
static PetscErrorCode MoveField(RwProblem prob, RwModel smodel, PetscInt e, Vec x, Vec p, PetscBool to)
{
  PetscFunctionBegin;
  if (!prob->permember && smodel) PetscCall(to ? RwModelSetStateInterleaved(smodel, x, p) : RwModelGetStateInterleaved(smodel, p, x));
  else if (!prob->permember) PetscCall(to ? VecCopy(x, p) : VecCopy(p, x));
  else if (e >= 0) PetscCall(RwProblemMovePart_Private(smodel, e, x, p, to));
  else {
    PetscCheck(!to, PetscObjectComm((PetscObject)x), PETSC_ERR_ARG_WRONG, "An unknown per member goes to one member's parameters: give the member");
    for (PetscInt k = 0; k < prob->nmembers; k++) PetscCall(RwProblemMovePart_Private(smodel, k, x, p, PETSC_FALSE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x into m or u0 (to), or out of them (from); e: the member (an unknown per member), -1 every member alike */
static PetscErrorCode Move_Builtin(RwProblem prob, RwModel model, PetscInt e, Vec x, Vec m, Vec u0, PetscBool to)
{
  Vec          f;
  PetscScalar *a;

  PetscFunctionBegin;
  if (prob->ukind == RW_UNKNOWN_U0) PetscCall(MoveField(prob, model, e, x, u0, to));
  if (prob->ukind == RW_UNKNOWN_FIELD) {
    PetscCall(RwModelGetParameterField(model, m, prob->uindex, &f));
    PetscCall(MoveField(prob, NULL, e, x, f, to));
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

static PetscErrorCode ToParameters_Builtin(RwProblem prob, RwModel model, PetscInt e, Vec x, Vec m, Vec u0, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(Move_Builtin(prob, model, e, x, m, u0, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The start: the base's value in every member's part */
static PetscErrorCode FromParameters_Builtin(RwProblem prob, RwModel model, Vec m, Vec u0, Vec x, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(Move_Builtin(prob, model, -1, x, m, u0, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Per member: w is zero outside member e's part, so the members' sum in member order puts each part's bits unchanged */
static PetscErrorCode Gradient_Builtin(RwProblem prob, RwModel model, PetscInt e, Vec x, Vec g, Vec gu0, Vec w, void *ctx)
{
  PetscFunctionBegin;
  if (prob->permember) PetscCall(VecSet(w, 0));
  PetscCall(Move_Builtin(prob, model, e, w, g, gu0, PETSC_FALSE));
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
  PetscCheck(!prob->permember || prob->ukind != RW_UNKNOWN_CUSTOM, PetscObjectComm((PetscObject)prob), PETSC_ERR_SUP, "An unknown per member is a field or u0; a program's own map (RwProblemSetUnknownOps()) is given each member's index instead");
  if (prob->ukind != RW_UNKNOWN_CUSTOM) {
    PetscCall(ParameterKind(prob->model, prob->unknown, "The unknown", &prob->ukind, &prob->uindex));
    PetscCheck(!prob->permember || prob->ukind != RW_UNKNOWN_BLOCK, PetscObjectComm((PetscObject)prob), PETSC_ERR_SUP, "-rw_problem_unknown_per_member: the unknown %s is a block of scalars; an unknown per member is a field or u0", prob->unknown);
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

/* RwProblemToParameters_Private - x (the group's layout) into member e's m and u0 */
PetscErrorCode RwProblemToParameters_Private(RwProblem prob, PetscInt e, Vec x, Vec m, Vec u0)
{
  PetscFunctionBegin;
  PetscCall((*prob->uops.toparameters)(prob, prob->gmodel, e, x, m, u0, prob->uctx));
  PetscCall(RwProblemShootingToMember_Private(prob, e, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemMemberGradient_Private - member e's dJ/dx (the group's layout) from its dJ/dm and dJ/du0 */
PetscErrorCode RwProblemMemberGradient_Private(RwProblem prob, PetscInt e, Vec x, Vec g, Vec gu0, Vec w)
{
  PetscFunctionBegin;
  PetscCall((*prob->uops.gradient)(prob, prob->gmodel, e, x, g, gu0, w, prob->uctx));
  PetscCall(RwProblemShootingGradient_Private(prob, e, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A state or a field of the unknown's parameter, for member e's part (an unknown per member) */
static PetscErrorCode CheckMemberPart(RwProblem prob, PetscInt e, Vec x, Vec p)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)prob);
  PetscInt nx, np;

  PetscFunctionBegin;
  PetscCheck(prob->setupcalled && prob->permember, comm, PETSC_ERR_ORDER, "The problem has no unknown per member (RwProblemSetUnknownPerMember(), then RwProblemSetUp())");
  PetscCheck(e >= 0 && e < prob->nmembers, comm, PETSC_ERR_ARG_OUTOFRANGE, "Member %" PetscInt_FMT ": the problem has members 0 .. %" PetscInt_FMT, e, prob->nmembers - 1);
  PetscCall(VecGetSize(x, &nx));
  PetscCall(VecGetSize(p, &np));
  PetscCheck(nx == np * prob->nmembers, comm, PETSC_ERR_ARG_SIZ, "A member's part of the unknown has %" PetscInt_FMT " entries, not %" PetscInt_FMT " (of %s)", nx / prob->nmembers, np, prob->unknown);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetMemberUnknown - member e's part of an unknown per member: a field or a state of the parent's model

  Collective

  Input Parameters:
+ prob - the problem, set up, with an unknown per member
. e    - the member
- x    - the unknown (RwProblemCreateUnknownVector())

  Output Parameter:
. p - its part: a field (RwModelCreateField()) when the unknown is a field, a state (RwModelCreateState()) when it is u0

  Level: intermediate

.seealso: RwProblemSetUnknownPerMember(), RwProblemSetMemberUnknown()
@*/
PetscErrorCode RwProblemGetMemberUnknown(RwProblem prob, PetscInt e, Vec x, Vec p)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(CheckMemberPart(prob, e, x, p));
  PetscCall(RwProblemMovePart_Private(prob->ukind == RW_UNKNOWN_U0 ? prob->model : NULL, e, x, p, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetMemberUnknown - sets member e's part of an unknown per member from p (a field or a state of the parent's model)

  Collective

  Level: intermediate

.seealso: RwProblemGetMemberUnknown()
@*/
PetscErrorCode RwProblemSetMemberUnknown(RwProblem prob, PetscInt e, Vec p, Vec x)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(CheckMemberPart(prob, e, x, p));
  PetscCall(RwProblemMovePart_Private(prob->ukind == RW_UNKNOWN_U0 ? prob->model : NULL, e, x, p, PETSC_FALSE));
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

/* What a regulariser acts on: the unknown x itself (unknown set), or a named parameter */
static PetscErrorCode RegTarget(RwProblem prob, RwProblemReg *r, PetscBool optimising, RwUnknownKind *kind, PetscInt *index, PetscBool *onx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)prob);

  PetscFunctionBegin;
  *onx = (PetscBool)(optimising && (!r->name[0] || !strcmp(r->name, prob->unknown)));
  if (*onx && prob->permember) { /* of each member's part (or one member's): through the map, as a named parameter */
    *onx = PETSC_FALSE;
    PetscCall(ParameterKind(prob->model, prob->unknown, "The unknown", kind, index));
  } else if (*onx) {
    PetscCheck(prob->ukind != RW_UNKNOWN_CUSTOM, comm, PETSC_ERR_SUP, "A regulariser of the program's own unknown names the parameter it acts on (-rw_reg_parameter)");
    *kind = prob->ukind, *index = prob->uindex;
  } else {
    PetscCheck(r->name[0], comm, PETSC_ERR_ARG_WRONG, "A regulariser of the whole gradient needs its parameter: -rw_reg_parameter (the problem has no unknown)");
    PetscCall(ParameterKind(prob->model, r->name, "-rw_reg_parameter", kind, index));
  }
  PetscCheck(*kind != RW_UNKNOWN_BLOCK || r->type == RW_REG_L2 || r->type == RW_REG_NONE, comm, PETSC_ERR_SUP, "-rw_reg_type %s of %s: a block of scalars has no grid; it takes l2 (weight decay) only", RwRegTypes[r->type], r->name[0] ? r->name : prob->unknown);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reference of l2: the one given, or the start, kept at the first evaluation */
static PetscErrorCode RegReference(RwProblemReg *r, Vec f, Vec *ref)
{
  PetscFunctionBegin;
  if (!r->ref && !r->x0) {
    PetscCall(VecDuplicate(f, &r->x0));
    PetscCall(VecCopy(f, r->x0));
  }
  *ref = r->ref ? r->ref : r->x0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 1/2 alpha |f - ref|^2 over the entries (no cell volume: a block's scalars), summed the same on any number of ranks */
static PetscErrorCode BlockL2(PetscReal alpha, Vec f, Vec ref, PetscReal *R, Vec grad)
{
  const PetscScalar *a, *c;
  PetscScalar       *g;
  PetscInt           n;
  RwReproSum         acc;

  PetscFunctionBegin;
  PetscCall(RwReproSumCreate(1, &acc));
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(VecGetArrayRead(f, &a));
  PetscCall(VecGetArrayRead(ref, &c));
  PetscCall(VecGetArray(grad, &g));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal e = PetscRealPart(a[i] - c[i]);

    PetscCall(RwReproSumAdd(acc, 0, 0.5 * alpha * e * e));
    g[i] = alpha * e;
  }
  PetscCall(VecRestoreArray(grad, &g));
  PetscCall(VecRestoreArrayRead(ref, &c));
  PetscCall(VecRestoreArrayRead(f, &a));
  PetscCall(RwReproSumAllreduce(acc, PetscObjectComm((PetscObject)f), R));
  PetscCall(RwReproSumDestroy(&acc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Regulariser r of a named parameter of m, u0 (the parent's layout): its value, its gradient added to g or gu0 */
static PetscErrorCode RegularizeNamed(RwProblem prob, RwProblemReg *r, Vec m, Vec u0, PetscReal *R, Vec g, Vec gu0)
{
  RwModel       model = prob->model;
  RwUnknownKind kind;
  PetscInt      index, size;
  PetscBool     onx;
  Vec           f, gf, ref = r->ref;

  PetscFunctionBegin;
  PetscCall(RegTarget(prob, r, (PetscBool)(prob->permember && !r->name[0]), &kind, &index, &onx));
  if (kind == RW_UNKNOWN_BLOCK) { /* the block's values on every rank, a vector of each: every rank computes the same */
    PetscScalar *a;

    PetscCheck(!r->ref, PetscObjectComm((PetscObject)prob), PETSC_ERR_SUP, "The l2 regulariser of block %s takes the start as its reference", r->name);
    PetscCall(RwModelGetParameterBlockInfo(model, index, NULL, &size, NULL, NULL));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, size, &f));
    PetscCall(VecDuplicate(f, &gf));
    PetscCall(VecGetArray(f, &a));
    PetscCall(RwModelGetParameterBlock(model, m, index, a));
    PetscCall(VecRestoreArray(f, &a));
    PetscCall(RegReference(r, f, &ref));
    PetscCall(BlockL2(r->alpha, f, ref, R, gf));
    PetscCall(VecGetArray(f, &a)); /* f now holds the block of g, plus the regulariser's */
    PetscCall(RwModelGetParameterBlock(model, g, index, a));
    PetscCall(VecRestoreArray(f, &a));
    PetscCall(VecAXPY(f, 1, gf));
    PetscCall(VecGetArray(f, &a));
    PetscCall(RwModelSetParameterBlock(model, g, index, a));
    PetscCall(VecRestoreArray(f, &a));
    PetscCall(VecDestroy(&f));
    PetscCall(VecDestroy(&gf));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (kind == RW_UNKNOWN_U0) f = u0;
  else PetscCall(RwModelGetParameterField(model, m, index, &f));
  if (r->type == RW_REG_L2) PetscCall(RegReference(r, f, &ref));
  PetscCall(VecDuplicate(f, &gf));
  PetscCall(RwRegularize(model, r->type, r->alpha, r->eps, f, ref, R, gf));
  if (kind == RW_UNKNOWN_U0) PetscCall(VecAXPY(gu0, 1, gf));
  else {
    Vec gp;

    PetscCall(RwModelGetParameterField(model, g, index, &gp));
    PetscCall(VecAXPY(gp, 1, gf));
    PetscCall(RwModelRestoreParameterField(model, g, index, &gp));
    PetscCall(RwModelRestoreParameterField(model, m, index, &f));
  }
  PetscCall(VecDestroy(&gf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Regulariser r of the unknown x itself: its value, its gradient into G */
static PetscErrorCode RegularizeX(RwProblem prob, RwProblemReg *r, RwUnknownKind kind, Vec x, PetscReal *R, Vec G)
{
  Vec ref = r->ref;

  PetscFunctionBegin;
  if (r->type == RW_REG_L2) PetscCall(RegReference(r, x, &ref));
  if (kind == RW_UNKNOWN_BLOCK) PetscCall(BlockL2(r->alpha, x, ref, R, prob->gx));
  else PetscCall(RwRegularize(prob->model, r->type, r->alpha, r->eps, x, ref, R, prob->gx));
  PetscCall(VecAXPY(G, 1, prob->gx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Regulariser r of a named parameter in an optimisation: of m(x), u0(x) on
  the parent, its gradient taken to x by the unknown's map; member e's
  parameters (e >= 0: an unknown per member), or the map's for every member (-1)
*/
static PetscErrorCode RegularizeThroughX(RwProblem prob, RwProblemReg *r, PetscInt e, Vec x, PetscReal *R, Vec G)
{
  PetscFunctionBegin;
  if (!prob->rm) {
    PetscCall(VecDuplicate(prob->m, &prob->rm));
    PetscCall(VecDuplicate(prob->m, &prob->rg));
    PetscCall(VecDuplicate(prob->u0, &prob->ru0));
    PetscCall(VecDuplicate(prob->u0, &prob->rgu0));
  }
  PetscCall(VecCopy(prob->m, prob->rm));
  PetscCall(VecCopy(prob->u0, prob->ru0));
  PetscCall((*prob->uops.toparameters)(prob, prob->model, e, x, prob->rm, prob->ru0, prob->uctx));
  PetscCall(VecSet(prob->rg, 0));
  PetscCall(VecSet(prob->rgu0, 0));
  PetscCall(RegularizeNamed(prob, r, prob->rm, prob->ru0, R, prob->rg, prob->rgu0));
  PetscCall((*prob->uops.gradient)(prob, prob->model, e, x, prob->rg, prob->rgu0, prob->gx, prob->uctx));
  PetscCall(VecAXPY(G, 1, prob->gx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With an unknown per member: r of its member's parameters, or of each member's summed in member order */
static PetscErrorCode RegularizeMembers(RwProblem prob, RwProblemReg *r, Vec x, PetscReal *R, Vec G)
{
  PetscReal Re;

  PetscFunctionBegin;
  if (r->member >= 0) {
    PetscCall(RegularizeThroughX(prob, r, r->member, x, R, G));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *R = 0;
  for (PetscInt e = 0; e < prob->nmembers; e++) {
    PetscCall(RegularizeThroughX(prob, r, e, x, &Re, G));
    *R += Re;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwProblemCheckRegularizers_Private - at set-up, what every regulariser acts
  on exists and takes its type: the first evaluation would find out only after
  the first solves, with the journal written
*/
PetscErrorCode RwProblemCheckRegularizers_Private(RwProblem prob)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < prob->nreg; i++) {
    RwUnknownKind kind;
    PetscInt      index;
    PetscBool     onx;

    PetscCall(RegTarget(prob, &prob->reg[i], (PetscBool)(prob->ukind != RW_UNKNOWN_NONE), &kind, &index, &onx));
    PetscCheck(prob->reg[i].member < prob->nmembers, PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_OUTOFRANGE, "Regulariser %" PetscInt_FMT " acts on member %" PetscInt_FMT ": the problem has %" PetscInt_FMT " members", i, prob->reg[i].member, prob->nmembers);
    /* l2 without a reference keeps one start: one member's */
    PetscCheck(!prob->permember || prob->reg[i].member >= 0 || prob->reg[i].type != RW_REG_L2 || prob->reg[i].ref || prob->nmembers == 1, PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_WRONG, "With an unknown per member, an l2 regulariser of every member's part needs its reference (RwProblemAddRegularizer()), or acts on one member (RwProblemSetRegularizerMember())");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwProblemRegularize_Private - adds every regulariser to J and its
  gradient: in an optimisation (x given) into G, of x itself or of a named
  parameter through x's map; with x NULL, of a named parameter of the base
  into G (the parameters' gradient) or gu0 (RwProblemComputeGradient()); the
  values go to prob->terms_[1..]
*/
PetscErrorCode RwProblemRegularize_Private(RwProblem prob, Vec x, PetscReal *J, Vec G, Vec gu0)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < prob->nreg; i++) {
    RwProblemReg *r = &prob->reg[i];
    PetscReal    *R = &prob->terms_[1 + i];
    RwUnknownKind kind;
    PetscInt      index;
    PetscBool     onx;

    PetscCall(RegTarget(prob, r, (PetscBool)(x != NULL), &kind, &index, &onx));
    if (onx) PetscCall(RegularizeX(prob, r, kind, x, R, G));
    else if (x && prob->permember) PetscCall(RegularizeMembers(prob, r, x, R, G));
    else if (x) PetscCall(RegularizeThroughX(prob, r, -1, x, R, G));
    else PetscCall(RegularizeNamed(prob, r, prob->m, prob->u0, R, G, gu0));
    *J += *R;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
