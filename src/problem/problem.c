/*
  RwProblem: the class, its options and its set-up.  A problem owns

  - the parent's model, objective and driver on every rank: the grid of the
    unknown, the outputs, the base parameters (the model's defaults, then the
    observations' known values for all members, then -rw_parameter);
  - an RwEnsemble of its members and, on each group of ranks, a model,
    objective and driver of its own (with one group, the parent's), and the
    parameters of the group's members: the base with the member's own known
    values;
  - the unknown x (problemunknown.c), the regularisers, the journal
    (journal.c) and the history (history.c).

  The evaluation is in problemeval.c.  A program configures the models it
  does not own through RwProblemSetModelDefaults(), never by writing the
  options database.
*/
#include <rewind/private/problemimpl.h>
#include <rewind/io.h>

PetscClassId  RW_PROBLEM_CLASSID;
PetscLogEvent RW_ProblemEvaluate;

/*@C
  RwProblemCreate - creates a problem: members, unknown and regularisers, solved on the ranks of comm

  Collective

  Input Parameter:
. comm - the ranks

  Output Parameter:
. prob - the problem

  Level: beginner

.seealso: RwProblemSetFromOptions(), RwProblemSetUp(), RwProblemEvaluate(), RwProblemSolve()
@*/
PetscErrorCode RwProblemCreate(MPI_Comm comm, RwProblem *prob)
{
  RwProblem p;

  PetscFunctionBegin;
  PetscValidPointer(prob, 2);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(p, RW_PROBLEM_CLASSID, "RwProblem", "Evaluation of a problem over its members", "RwProblem", comm, RwProblemDestroy, RwProblemView));
  PetscCall(PetscStrncpy(p->modeltype, RWMODELHEAT, sizeof(p->modeltype)));
  p->member    = -1;
  p->fieldterm = -1;
  PetscCall(RwEnsembleCreate(comm, &p->ens));
  *prob = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetOptionsPrefix - the prefix of the problem's options and of every object it makes

  Logically collective

  Level: intermediate
@*/
PetscErrorCode RwProblemSetOptionsPrefix(RwProblem prob, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)prob, prefix));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)prob->ens, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemGetOptionsPrefix - the problem's options prefix

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetOptionsPrefix(RwProblem prob, const char *prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)prob, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define RwProblemCheckNotSetUp(p) PetscCheck(!(p)->setupcalled, PetscObjectComm((PetscObject)(p)), PETSC_ERR_ORDER, "Call this before RwProblemSetUp()")
#define RwProblemCheckSetUp(p)    PetscCheck((p)->setupcalled, PetscObjectComm((PetscObject)(p)), PETSC_ERR_ORDER, "Call RwProblemSetUp() first")

/*@C
  RwProblemSetModelType - the model type of the problem's models (default heat; -rw_model_type overrides it)

  Logically collective; before RwProblemSetUp()

  Level: beginner
@*/
PetscErrorCode RwProblemSetModelType(RwProblem prob, RwModelType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  PetscCall(PetscStrncpy(prob->modeltype, type, sizeof(prob->modeltype)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetModelDefaults - a program's defaults for every model the problem
  makes (the parent's and each group's), set by calls before the model's
  options are read, so that the options override them and the options
  database holds only what the user gave

  Logically collective; before RwProblemSetUp()

  Input Parameters:
+ prob - the problem
. fn   - fn(model, ctx): e.g. RwModelSetGridSizes(), RwModelHeatSetScheme(), RwModelWaveSetSpacing()
- ctx  - its context

  Level: intermediate

.seealso: RwProblemSetAdjointDefaults()
@*/
PetscErrorCode RwProblemSetModelDefaults(RwProblem prob, PetscErrorCode (*fn)(RwModel, void *), void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  prob->modeldefaults = fn;
  prob->modelctx      = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetAdjointDefaults - a program's defaults for every driver the
  problem makes, set before the driver's options are read

  Logically collective; before RwProblemSetUp()

  Level: intermediate

.seealso: RwProblemSetModelDefaults()
@*/
PetscErrorCode RwProblemSetAdjointDefaults(RwProblem prob, PetscErrorCode (*fn)(RwAdjoint, void *), void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  prob->adjointdefaults = fn;
  prob->adjointctx      = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetObjectiveTerms - terms of each member's objective: after the
  observations' terms, or alone when the problem has none (without either:
  RwObjectiveSetFromOptions())

  Logically collective; before RwProblemSetUp()

  Level: intermediate
@*/
PetscErrorCode RwProblemSetObjectiveTerms(RwProblem prob, PetscErrorCode (*fn)(RwProblem, RwObjective, void *), void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  prob->terms    = fn;
  prob->termsctx = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetObservations - the members and their data: a program's
  (RwObservationsCreate() and its setters, after RwObservationsSetModel() on
  the problem's model) or a file's (RwObservationsLoad(); -rw_obs does that)

  Logically collective; before RwProblemSetUp()

  Level: beginner

.seealso: RwProblemGetObservations()
@*/
PetscErrorCode RwProblemSetObservations(RwProblem prob, RwObservations obs)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 2);
  RwProblemCheckNotSetUp(prob);
  PetscCall(PetscObjectReference((PetscObject)obs));
  PetscCall(RwObservationsDestroy(&prob->obs));
  prob->obs = obs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetObservations - the problem's observations (NULL: none)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetObservations(RwProblem prob, RwObservations *obs)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  *obs = prob->obs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetUnknown - what an optimisation changes: a parameter field (e.g.
  kappa, m), a block of global scalars (e.g. theta) or u0; the same for every member

  Logically collective; before RwProblemSetUp()

  Level: beginner

.seealso: RwProblemSetUnknownOps(), RwProblemCreateUnknownVector()
@*/
PetscErrorCode RwProblemSetUnknown(RwProblem prob, const char name[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  PetscCall(PetscStrncpy(prob->unknown, name ? name : "", sizeof(prob->unknown)));
  prob->ukind = name && name[0] ? RW_UNKNOWN_FIELD : RW_UNKNOWN_NONE; /* resolved at set-up */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetUnknownOps - an unknown of a program's own: a map between x and a member's parameters

  Logically collective; before RwProblemSetUp()

  Input Parameters:
+ prob - the problem
. ops  - the map (RwProblemUnknownOps), copied
- ctx  - its context

  Level: advanced

.seealso: RwProblemSetUnknown()
@*/
PetscErrorCode RwProblemSetUnknownOps(RwProblem prob, const RwProblemUnknownOps *ops, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  PetscCheck(ops->createdm && ops->toparameters && ops->fromparameters && ops->gradient, PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_NULL, "An unknown's ops need createdm, toparameters, fromparameters and gradient");
  prob->uops  = *ops;
  prob->uctx  = ctx;
  prob->ukind = RW_UNKNOWN_CUSTOM;
  PetscCall(PetscStrncpy(prob->unknown, "x", sizeof(prob->unknown)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetUnknownPerMember - the unknown (a field or u0) has one part per
  member: member e's initial state (or field) is its own part of x, and the
  gradient puts member e's dJ/du0 (or dJ/dfield) into that part alone

  Logically collective; before RwProblemSetUp()

  Input Parameters:
+ prob - the problem, its unknown set (RwProblemSetUnknown())
- flg  - PETSC_TRUE: one part per member

  Options Database Key:
. -rw_problem_unknown_per_member - the same

  Notes:
  x is a DMDA of the model's grid with members times the dofs (member e's part:
  components e*dof .. e*dof+dof-1; RwProblemGetMemberUnknown() takes it out).
  The members' gradients are summed in member order as always, each nonzero
  only in its own part, so the gradient is the same bits for any split of the
  ranks into groups.  The start (RwProblemGetUnknown()) is the base value in
  every part.  Regularisers of the unknown act on each member's part, summed,
  or on one member's (RwProblemSetRegularizerMember(): a background term on
  the first of a chain of segments, multiple shooting).

  Level: intermediate

.seealso: RwProblemSetUnknown(), RwProblemGetMemberUnknown(), RwProblemUnknownOps
@*/
PetscErrorCode RwProblemSetUnknownPerMember(RwProblem prob, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  prob->permember = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetUnknownPerMember - whether the unknown has one part per member

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetUnknownPerMember(RwProblem prob, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  *flg = prob->permember;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetRegularizerMember - with an unknown per member, regulariser i acts on member e's parameters alone

  Logically collective; before RwProblemSetUp()

  Input Parameters:
+ prob - the problem
. i    - the regulariser, in the order they were added
- e    - the member (-1: each member's, summed: the default)

  Level: intermediate

.seealso: RwProblemSetUnknownPerMember(), RwProblemAddRegularizer()
@*/
PetscErrorCode RwProblemSetRegularizerMember(RwProblem prob, PetscInt i, PetscInt e)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  PetscCheck(i >= 0 && i < prob->nreg, PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_OUTOFRANGE, "Regulariser %" PetscInt_FMT ": the problem has %" PetscInt_FMT, i, prob->nreg);
  PetscCheck(e >= -1, PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_OUTOFRANGE, "Member %" PetscInt_FMT ": -1 (each member) or a member", e);
  prob->reg[i].member = e;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemAddRegularizer - adds alpha R(p) to J, R a regulariser of a parameter field, u0 or a block of scalars

  Logically collective

  Input Parameters:
+ prob  - the problem
. name  - the parameter (NULL: the unknown)
. type  - RW_REG_L2 (1/2 |p - ref|^2 h^d on a grid, 1/2 |p - ref|^2 on a
          block: weight decay), RW_REG_H1, RW_REG_TV (RwRegularize(); a grid's only)
. alpha - the weight, >= 0
. eps   - TV's smoothing
- ref   - l2's reference, of the parameter's layout (a field of its grid; for
          a block that is the unknown, RwProblemCreateUnknownVector()'s), or
          NULL: what the parameter was at the first evaluation

  Options Database Keys:
+ -rw_reg_type <none,l2,h1,tv> - the first regulariser's type (none removes it)
. -rw_reg_alpha <a>            - its weight
. -rw_reg_tv_eps <e>           - its TV smoothing
- -rw_reg_parameter <name>     - its parameter

  Level: intermediate

.seealso: RwRegularize()
@*/
PetscErrorCode RwProblemAddRegularizer(RwProblem prob, const char name[], RwRegType type, PetscReal alpha, PetscReal eps, Vec ref)
{
  RwProblemReg *r;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(prob->nreg < RW_PROBLEM_MAX_REGS, PetscObjectComm((PetscObject)prob), PETSC_ERR_SUP, "At most %d regularisers", RW_PROBLEM_MAX_REGS);
  r = &prob->reg[prob->nreg++];
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscStrncpy(r->name, name ? name : "", sizeof(r->name)));
  r->type = type, r->alpha = alpha, r->eps = eps, r->member = -1;
  if (ref) {
    PetscCall(PetscObjectReference((PetscObject)ref));
    r->ref = ref;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetMask - the parts of the unknown an optimisation holds: the gradient is multiplied by mask (0 held, 1 free)

  Logically collective

  Input Parameters:
+ prob - the problem, set up
- mask - a vector of the unknown's layout (RwProblemCreateUnknownVector()), referenced

  Level: intermediate
@*/
PetscErrorCode RwProblemSetMask(RwProblem prob, Vec mask)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(PetscObjectReference((PetscObject)mask));
  PetscCall(VecDestroy(&prob->mask));
  prob->mask = mask;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetEnsemble - the ensemble of the members (set its groups before RwProblemSetUp(); -rw_ensemble_groups)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetEnsemble(RwProblem prob, RwEnsemble *ens)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  *ens = prob->ens;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetJournal - the default place of the journal that makes an
  optimisation resumable (-rw_journal overrides it; NULL or "": none)

  Logically collective; before RwProblemSetUp()

  Level: intermediate

.seealso: RwProblemSolve()
@*/
PetscErrorCode RwProblemSetJournal(RwProblem prob, const char dir[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  PetscCall(PetscStrncpy(prob->journaldir, dir ? dir : "", sizeof(prob->journaldir)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemAddIdentity - an item of what decides the evaluations' values that
  the problem does not know (a program's data bands, its held region): a
  resumed run must share it with the journal, and a refusal names it

  Logically collective; before the first evaluation

  Input Parameters:
+ prob  - the problem
. name  - one word
- value - its value, the same on every rank

  Level: intermediate
@*/
PetscErrorCode RwProblemAddIdentity(RwProblem prob, const char name[], const char value[])
{
  size_t n;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(!strchr(name, ' ') && !strchr(name, ';'), PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_WRONG, "Identity item name \"%s\": expected one word", name);
  PetscCall(PetscStrlen(prob->identity, &n));
  PetscCall(PetscSNPrintf(prob->identity + n, sizeof(prob->identity) - n, "; %s %s", name, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetEvaluationSalt - what tells evaluations at one iterate apart
  beyond it (a data band): the journal's records carry it

  Logically collective

  Level: advanced
@*/
PetscErrorCode RwProblemSetEvaluationSalt(RwProblem prob, uint64_t salt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  prob->salt = salt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_reg_*: the first regulariser, or a new one */
static PetscErrorCode RegularizerFromOptions(RwProblem prob, PetscOptionItems *PetscOptionsObject)
{
  RwProblemReg r = prob->nreg ? prob->reg[0] : (RwProblemReg){"", RW_REG_NONE, 0, 0.5, NULL, NULL, -1};
  PetscInt     type = r.type;
  PetscBool    set[4];

  PetscFunctionBegin;
  PetscCall(PetscOptionsEList("-rw_reg_type", "Regulariser of the unknown (or of -rw_reg_parameter)", "RwProblemAddRegularizer", RwRegTypes, 4, RwRegTypes[type], &type, &set[0]));
  PetscCall(RwOptionsReal("-rw_reg_alpha", "Regularisation weight", "RwProblemAddRegularizer", r.alpha, &r.alpha, &set[1], 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_reg_tv_eps", "TV smoothing (gradient units)", "RwProblemAddRegularizer", r.eps, &r.eps, &set[2], 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(PetscOptionsString("-rw_reg_parameter", "The parameter regularised (default: the unknown)", "RwProblemAddRegularizer", r.name, r.name, sizeof(r.name), &set[3]));
  if (!(set[0] || set[1] || set[2] || set[3])) PetscFunctionReturn(PETSC_SUCCESS);
  r.type = (RwRegType)type;
  if (!prob->nreg) PetscCall(RwProblemAddRegularizer(prob, r.name, r.type, r.alpha, r.eps, NULL));
  else prob->reg[0] = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_obs file [-rw_obs_member i]: observations from a file, unless the program gave some */
static PetscErrorCode ObservationsFromOptions(RwProblem prob, PetscOptionItems *PetscOptionsObject)
{
  char      file[PETSC_MAX_PATH_LEN] = "";
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsDeprecated("-rw_obs_shot", "-rw_obs_member", "0.2", "a shot is a member of the observations"));
  PetscCall(PetscOptionsString("-rw_obs", "Observations: an HDF5 file of rewind's schemas (doc/observations.md), or a SEG-Y shot gather", "RwObservationsLoad", file, file, sizeof(file), &set));
  PetscCall(RwOptionsInt("-rw_obs_member", "Solve this member of -rw_obs alone (default: all)", "RwProblemSetFromOptions", prob->member, &prob->member, NULL, -1, PETSC_MAX_INT));
  if (!set || !file[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!prob->obs, PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_INCOMP, "-rw_obs %s: this program gives its own observations", file);
  PetscCall(RwObservationsCreate(PetscObjectComm((PetscObject)prob), &prob->obs));
  PetscCall(RwObservationsLoad(prob->obs, file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetFromOptions - reads the problem's options

  Collective

  Options Database Keys:
+ -rw_obs <file>              - observations (doc/observations.md): every member is solved
. -rw_obs_member <i>          - solve member i of them alone
. -rw_parameter name=spec,... - known parameters for every member: spec is file.h5:dataset or a number
                                (any field, block or u0: kappa=k.h5:kappa,theta=w.h5:theta,r=0)
. -rw_reg_type, -rw_reg_alpha, -rw_reg_tv_eps, -rw_reg_parameter - a regulariser
. -rw_ensemble_groups <g>     - solve the members g at a time on g groups of ranks
. -rw_journal <dir>           - the journal of an optimisation (-rw_restart, -rw_journal_keep, -rw_journal_overwrite)
- -rw_history_view <viewer>   - the history of an optimisation: ascii, or hdf5:file.h5

  Level: beginner

.seealso: RwProblemSetUp()
@*/
PetscErrorCode RwProblemSetFromOptions(RwProblem prob)
{
  char     *specs[16];
  PetscInt  n = 16;
  PetscBool set;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckNotSetUp(prob);
  PetscCall(RwOptionsCheckPetsc(PetscObjectComm((PetscObject)prob), ((PetscObject)prob)->prefix)); /* -tao_max_it ..., before any work */
  PetscObjectOptionsBegin((PetscObject)prob);
  PetscCall(ObservationsFromOptions(prob, PetscOptionsObject));
  PetscCall(PetscOptionsBool("-rw_problem_unknown_per_member", "The unknown (a field or u0) has one part per member: each member's own", "RwProblemSetUnknownPerMember", prob->permember, &prob->permember, NULL));
  PetscCall(PetscOptionsStringArray("-rw_parameter", "Known parameters of every member: name=file.h5:dataset or name=value, comma separated (fields, blocks, u0)", "RwProblemSetFromOptions", specs, &n, &set));
  if (set) {
    for (PetscInt i = 0; i < n; i++) {
      PetscCall(PetscStrncpy(prob->params[i], specs[i], sizeof(prob->params[i])));
      PetscCall(PetscFree(specs[i]));
    }
    prob->nparams = n;
  }
  PetscCall(RegularizerFromOptions(prob, PetscOptionsObject));
  PetscOptionsEnd();
  PetscCall(RwEnsembleSetFromOptions(prob->ens));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A model of the problem on comm: its type, the file's and the program's defaults, then the options */
static PetscErrorCode CreateModel(RwProblem prob, MPI_Comm comm, RwModel *model)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(RwModelCreate(comm, model));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)prob, &prefix));
  PetscCall(RwModelSetOptionsPrefix(*model, prefix));
  PetscCall(RwModelSetType(*model, prob->modeltype));
  if (prob->modeldefaults) PetscCall((*prob->modeldefaults)(*model, prob->modelctx));
  if (prob->obs) PetscCall(RwObservationsSetModelDefaults(prob->obs, *model)); /* a file's grid and steps before a program's */
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelSetUp(*model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwProblemCreateAdjoint_Private(RwProblem prob, RwModel model, RwObjective obj, RwAdjoint *adj)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(RwAdjointCreate(model, obj, adj));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)prob, &prefix));
  PetscCall(RwAdjointSetOptionsPrefix(*adj, prefix));
  if (prob->adjointdefaults) PetscCall((*prob->adjointdefaults)(*adj, prob->adjointctx));
  PetscCall(RwAdjointSetFromOptions(*adj));
  if (prob->shootsteps) PetscCall(RwAdjointSetSteps(*adj, prob->shootsteps)); /* a member's run is a segment of the window */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A member's objective: the observations' terms and a program's after them (a control
   cost beside a tracking misfit), or the options' when there is neither */
static PetscErrorCode AddTerms(RwProblem prob, RwObjective obj)
{
  PetscFunctionBegin;
  if (prob->obs) PetscCall(RwObservationsAddTerms(prob->obs, obj));
  if (prob->terms) PetscCall((*prob->terms)(prob, obj, prob->termsctx)); /* after the observations' (a control cost, 4D-Var's background, a windowed average) */
  if (!prob->obs && !prob->terms) PetscCall(RwObjectiveSetFromOptions(obj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The parent's model, objective and driver: every rank; with one group, also the group's.  Made
   once, at set-up or when a program asks for the model first (to build its observations) */
static PetscErrorCode SetUpModel(RwProblem prob)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)prob);

  PetscFunctionBegin;
  if (prob->model) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CreateModel(prob, comm, &prob->model));
  PetscCall(RwObjectiveCreate(prob->model, &prob->obj));
  PetscCall(RwObjectiveSetOptionsPrefix(prob->obj, ((PetscObject)prob)->prefix));
  PetscCall(RwProblemCreateAdjoint_Private(prob, prob->model, prob->obj, &prob->adj)); /* the driver owns -rw_steps: the run's length */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The observations on the parent's model, and the base parameters: the defaults, the known values of all members, -rw_parameter */
static PetscErrorCode SetUpParent(RwProblem prob)
{
  PetscFunctionBegin;
  PetscCall(SetUpModel(prob));
  if (prob->obs) PetscCall(RwObservationsSetUp(prob->obs, prob->model));
  PetscCall(RwModelCreateParameters(prob->model, &prob->m));
  PetscCall(RwModelCreateState(prob->model, &prob->u0));
  PetscCall(RwModelGetDefaults(prob->model, prob->m, prob->u0, NULL));
  PetscCall(RwProblemApplyParameters_Private(prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The members: the observations' (one of them with -rw_obs_member), else one */
static PetscErrorCode SetUpMembers(RwProblem prob)
{
  PetscInt n = 1;

  PetscFunctionBegin;
  if (prob->obs) PetscCall(RwObservationsGetNumMembers(prob->obs, &n));
  PetscCheck(prob->member < n, PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_OUTOFRANGE, "-rw_obs_member %" PetscInt_FMT ": the observations have %" PetscInt_FMT " members (0 .. %" PetscInt_FMT ")", prob->member, n, n - 1);
  PetscCheck(prob->member < 0 || prob->obs, PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_INCOMP, "-rw_obs_member %" PetscInt_FMT " selects a member of observations: give -rw_obs", prob->member);
  prob->nmembers = prob->member >= 0 ? 1 : n;
  PetscCall(RwEnsembleSetSize(prob->ens, prob->nmembers));
  PetscCall(RwEnsembleSetUp(prob->ens));
  PetscCall(RwEnsembleGetGroup(prob->ens, &prob->group, &prob->ngroups));
  prob->shared = (PetscBool)(prob->ngroups == 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This group's model, objective and driver (the parent's with one group), with checkpoint files of the group's own */
static PetscErrorCode SetUpGroup(RwProblem prob)
{
  MPI_Comm sub;

  PetscFunctionBegin;
  if (prob->shared) {
    prob->gmodel = prob->model, prob->gobj = prob->obj, prob->gadj = prob->adj;
    PetscCall(PetscObjectReference((PetscObject)prob->gmodel));
    PetscCall(PetscObjectReference((PetscObject)prob->gobj));
    PetscCall(PetscObjectReference((PetscObject)prob->gadj));
  } else {
    PetscCall(RwEnsembleGetSubComm(prob->ens, &sub));
    PetscCall(CreateModel(prob, sub, &prob->gmodel));
    PetscCall(RwObjectiveCreate(prob->gmodel, &prob->gobj));
    PetscCall(RwObjectiveSetOptionsPrefix(prob->gobj, ((PetscObject)prob)->prefix));
    PetscCall(RwProblemCreateAdjoint_Private(prob, prob->gmodel, prob->gobj, &prob->gadj));
    PetscCall(RwEnsembleSetMemberFiles(prob->ens, prob->group, prob->gadj));
  }
  PetscCall(RwModelCreateParameters(prob->gmodel, &prob->gg));
  PetscCall(RwModelCreateState(prob->gmodel, &prob->ggu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The observation member of problem member e */
static PetscInt ObsMember(RwProblem prob, PetscInt e)
{
  return prob->member >= 0 ? prob->member : e;
}

/* Parent vector P (of the parent model's grids) into group vector g, every rank taking part */
static PetscErrorCode ToGroup(RwProblem prob, Vec P, Vec g)
{
  PetscFunctionBegin;
  if (prob->shared) PetscCall(VecCopy(P, g));
  else PetscCall(RwEnsembleScatterToGroups(prob->ens, P, g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base parameters on the group: fields and u0 through the ensemble, the scalars broadcast */
static PetscErrorCode BaseToGroup(RwProblem prob)
{
  PetscInt   nf, ns;
  PetscReal *v;
  DM         sub, par;

  PetscFunctionBegin;
  if (prob->shared) {
    PetscCall(PetscObjectReference((PetscObject)prob->m));
    PetscCall(PetscObjectReference((PetscObject)prob->u0));
    prob->gm = prob->m, prob->gu0 = prob->u0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwModelGetFieldDM(prob->gmodel, &sub));
  PetscCall(RwModelGetFieldDM(prob->model, &par));
  PetscCall(RwEnsembleSetDM(prob->ens, sub, par));
  PetscCall(RwModelGetStateDM(prob->gmodel, &sub));
  PetscCall(RwModelGetStateDM(prob->model, &par));
  PetscCall(RwEnsembleSetDM(prob->ens, sub, par));
  PetscCall(RwEnsembleSetDMPlanes(prob->ens, par, prob->model->statelayout == RW_MODEL_STATE_PLANES ? PETSC_TRUE : PETSC_FALSE)); /* a wave state */
  PetscCall(RwModelCreateParameters(prob->gmodel, &prob->gm));
  PetscCall(RwModelCreateState(prob->gmodel, &prob->gu0));
  PetscCall(RwEnsembleScatterToGroups(prob->ens, prob->u0, prob->gu0));
  PetscCall(RwModelGetParameterInfo(prob->model, &nf, NULL, NULL));
  for (PetscInt f = 0; f < nf; f++) {
    Vec pf, gf;

    PetscCall(RwModelGetParameterField(prob->model, prob->m, f, &pf));
    PetscCall(RwModelGetParameterField(prob->gmodel, prob->gm, f, &gf));
    PetscCall(RwEnsembleScatterToGroups(prob->ens, pf, gf));
    PetscCall(RwModelRestoreParameterField(prob->gmodel, prob->gm, f, &gf));
    PetscCall(RwModelRestoreParameterField(prob->model, prob->m, f, &pf));
  }
  PetscCall(RwModelGetNumParameterScalars(prob->model, &ns));
  PetscCall(PetscMalloc1(ns + 1, &v));
  PetscCall(RwModelGetParameterScalars(prob->model, prob->m, v)); /* one broadcast */
  PetscCall(RwModelSetParameterScalars(prob->gmodel, prob->gm, v));
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether member e's observations give it a value of its own for a parameter */
static PetscErrorCode HasOwnKnown(RwProblem prob, PetscInt e, PetscBool *own)
{
  RwObservations obs = prob->obs;

  PetscFunctionBegin;
  *own = PETSC_FALSE;
  for (PetscInt i = 0; obs && i < obs->nknown; i++) *own = (PetscBool)(*own || obs->known[i].member == ObsMember(prob, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Known value k of a member, on the group: a field through the ensemble (every rank), a block set */
static PetscErrorCode KnownToMember(RwProblem prob, PetscInt e, RwObsKnown *k, PetscBool mine)
{
  PetscInt f, b;
  Vec      tmp, gf;

  PetscFunctionBegin;
  if (!strcmp(k->name, "u0")) {
    PetscCall(RwModelCreateState(prob->gmodel, &tmp));
    PetscCall(ToGroup(prob, k->field, tmp));
    if (mine) PetscCall(VecCopy(tmp, prob->mu0[e]));
    PetscCall(VecDestroy(&tmp));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (k->values) {
    PetscCall(RwModelFindParameterBlock(prob->gmodel, k->name, &b));
    if (mine) PetscCall(RwModelSetParameterBlock(prob->gmodel, prob->mm[e], b, k->values));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwProblemFindField_Private(prob->model, k->name, &f));
  PetscCall(RwModelCreateField(prob->gmodel, &tmp));
  PetscCall(ToGroup(prob, k->field, tmp));
  if (mine) {
    PetscCall(RwModelGetParameterField(prob->gmodel, prob->mm[e], f, &gf));
    PetscCall(VecCopy(tmp, gf));
    PetscCall(RwModelRestoreParameterField(prob->gmodel, prob->mm[e], f, &gf));
  }
  PetscCall(VecDestroy(&tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Member e's observed fields, on the group (every rank takes part) */
static PetscErrorCode StatesToMember(RwProblem prob, PetscInt e, PetscBool mine)
{
  PetscInt   n;
  const Vec *states;
  Vec        tmp;

  PetscFunctionBegin;
  PetscCall(RwObservationsGetStates(prob->obs, ObsMember(prob, e), &n, NULL, &states));
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  if (mine) PetscCall(PetscMalloc1(n, &prob->states[e]));
  for (PetscInt t = 0; t < n; t++) {
    PetscCall(RwModelCreateField(prob->gmodel, &tmp));
    PetscCall(ToGroup(prob, states[t], tmp));
    if (mine) prob->states[e][t] = tmp;
    else PetscCall(VecDestroy(&tmp));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each member's parameters on its group: the base, with its own known values on a copy; its observed fields */
static PetscErrorCode SetUpMemberData(RwProblem prob)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc3(prob->nmembers, &prob->mm, prob->nmembers, &prob->mu0, prob->nmembers, &prob->states));
  for (PetscInt e = 0; e < prob->nmembers; e++) {
    PetscBool mine = (PetscBool)(e % prob->ngroups == prob->group), own;

    PetscCall(HasOwnKnown(prob, e, &own));
    if (mine && own) {
      PetscCall(VecDuplicate(prob->gm, &prob->mm[e]));
      PetscCall(VecCopy(prob->gm, prob->mm[e]));
      PetscCall(VecDuplicate(prob->gu0, &prob->mu0[e]));
      PetscCall(VecCopy(prob->gu0, prob->mu0[e]));
    } else if (mine) {
      PetscCall(PetscObjectReference((PetscObject)prob->gm));
      PetscCall(PetscObjectReference((PetscObject)prob->gu0));
      prob->mm[e] = prob->gm, prob->mu0[e] = prob->gu0;
    }
    for (PetscInt i = 0; own && i < prob->obs->nknown; i++) {
      RwObsKnown *k = &prob->obs->known[i];

      if (k->member != ObsMember(prob, e)) continue;
      /* the unknown would overwrite it without a word: x is one value for every member */
      PetscCheck(prob->ukind == RW_UNKNOWN_NONE || prob->ukind == RW_UNKNOWN_CUSTOM || strcmp(k->name, prob->unknown), PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_INCOMP, "Member %" PetscInt_FMT " of the observations%s%s has a %s of its own, but %s is the unknown, one value for every member: remove the member's value or choose another unknown", ObsMember(prob, e), prob->obs->file[0] ? " " : "", prob->obs->file, k->name, prob->unknown);
      PetscCall(KnownToMember(prob, e, k, mine));
    }
    if (prob->obs) PetscCall(StatesToMember(prob, e, mine));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The group's objective: its terms; field observations with the group's first member's fields */
static PetscErrorCode SetUpGroupObjective(RwProblem prob)
{
  PetscInt          n, first = prob->group;
  const PetscInt64 *steps;

  PetscFunctionBegin;
  PetscCall(AddTerms(prob, prob->gobj));
  if (!prob->obs) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwObservationsGetStates(prob->obs, ObsMember(prob, first), &n, &steps, NULL));
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  prob->fieldterm = prob->gobj->nterms;
  PetscCall(RwObjectiveAddFieldObservations(prob->gobj, n, steps, prob->states[first], 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetUp - makes the models, objectives and drivers, the groups and
  the members' data, the unknown, the journal and the history

  Collective

  Level: beginner

.seealso: RwProblemSetFromOptions(), RwProblemEvaluate()
@*/
PetscErrorCode RwProblemSetUp(RwProblem prob)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  if (prob->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SetUpMembers(prob));
  PetscCall(SetUpParent(prob));
  PetscCall(SetUpGroup(prob));
  PetscCall(BaseToGroup(prob));
  PetscCall(SetUpMemberData(prob));
  PetscCall(SetUpGroupObjective(prob));
  PetscCall(RwProblemShootingSetUp_Private(prob));
  PetscCall(RwProblemSetUpUnknown_Private(prob));
  PetscCall(RwProblemCheckRegularizers_Private(prob));
  PetscCall(RwAdjointSetUp(prob->gadj)); /* the parent's driver solves only when it is the group's */
  PetscCall(RwOptionsCheckUnknown(PetscObjectComm((PetscObject)prob))); /* before the journal: a refused run leaves none */
  if (prob->ukind != RW_UNKNOWN_NONE) PetscCall(RwJournalCreate(prob, prob->udm, prob->nmembers + 1, prob->journaldir, &prob->journal));
  PetscCall(RwProblemHistorySetUp_Private(prob));
  PetscCall(PetscTime(&prob->t0));
  prob->setupcalled = PETSC_TRUE;
  PetscCall(PetscObjectViewFromOptions((PetscObject)prob, NULL, "-rw_problem_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetModel - the parent's model (every rank): the grid of the unknown and of the outputs;
  made here if the problem is not set up yet (after RwProblemSetFromOptions() and the program's
  defaults), so that a program can build its observations on it

  Collective the first time

  Level: intermediate
@*/
PetscErrorCode RwProblemGetModel(RwProblem prob, RwModel *model)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(SetUpModel(prob));
  *model = prob->model;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetAdjoint - the parent's driver (every rank): the run's steps; with one group, the one that solves

  Collective the first time (RwProblemGetModel())

  Level: intermediate
@*/
PetscErrorCode RwProblemGetAdjoint(RwProblem prob, RwAdjoint *adj)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(SetUpModel(prob));
  *adj = prob->adj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetMemberSolver - this rank's group's model, objective and driver (any may be NULL)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetMemberSolver(RwProblem prob, RwModel *model, RwObjective *obj, RwAdjoint *adj)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckSetUp(prob);
  if (model) *model = prob->gmodel;
  if (obj) *obj = prob->gobj;
  if (adj) *adj = prob->gadj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetMemberParameters - member e's parameters and initial state on its group: the base with its own known values

  Not collective; on the ranks of member e's group

  Level: intermediate
@*/
PetscErrorCode RwProblemGetMemberParameters(RwProblem prob, PetscInt e, Vec *m, Vec *u0)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckSetUp(prob);
  PetscCheck(e >= 0 && e < prob->nmembers && prob->mm[e], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Member %" PetscInt_FMT " is not one of this group's", e);
  if (m) *m = prob->mm[e];
  if (u0) *u0 = prob->mu0[e];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetNumMembers - the members an evaluation sums

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetNumMembers(RwProblem prob, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckSetUp(prob);
  *n = prob->nmembers;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetParameters - the base parameters and initial state on the parent: what every member starts from

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetParameters(RwProblem prob, Vec *m, Vec *u0)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  RwProblemCheckSetUp(prob);
  if (m) *m = prob->m;
  if (u0) *u0 = prob->u0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetCounts - what the evaluations took, over all ranks: evaluations
  made, member solves computed (not taken from a journal), their forward
  steps (recomputations included), and members taken from a journal

  Collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetCounts(RwProblem prob, PetscInt64 *evaluations, PetscInt64 *solves, PetscInt64 *fsteps, PetscInt64 *replayed)
{
  PetscInt64 mine[2] = {prob->solves, prob->fsteps}, all[2];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCallMPI(MPI_Allreduce(mine, all, 2, MPIU_INT64, MPI_SUM, PetscObjectComm((PetscObject)prob)));
  if (evaluations) *evaluations = prob->evaluations;
  if (solves) *solves = all[0];
  if (fsteps) *fsteps = all[1];
  if (replayed) *replayed = prob->replayed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemView - the problem: members, groups, unknown, regularisers, journal

  Collective

  Options Database Key:
. -rw_problem_view - view it after RwProblemSetUp()

  Level: intermediate
@*/
PetscErrorCode RwProblemView(RwProblem prob, PetscViewer viewer)
{
  PetscBool ascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)prob), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "RwProblem: %" PetscInt_FMT " member%s on %" PetscInt_FMT " group%s of ranks, unknown %s, %" PetscInt_FMT " regulariser%s\n", prob->nmembers, prob->nmembers == 1 ? "" : "s", prob->ngroups, prob->ngroups == 1 ? "" : "s", prob->unknown[0] ? prob->unknown : "none (every parameter's gradient)", prob->nreg, prob->nreg == 1 ? "" : "s"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (prob->obs) PetscCall(RwObservationsView(prob->obs, viewer));
  if (prob->permember) PetscCall(PetscViewerASCIIPrintf(viewer, "unknown per member: member e's %s is its own part of x\n", prob->unknown));
  for (PetscInt i = 0; i < prob->nreg; i++) PetscCall(PetscViewerASCIIPrintf(viewer, "regulariser %s of %s, alpha %g, tv eps %g\n", RwRegTypes[prob->reg[i].type], prob->reg[i].name[0] ? prob->reg[i].name : prob->unknown, (double)prob->reg[i].alpha, (double)prob->reg[i].eps));
  if (prob->journal) PetscCall(PetscObjectView((PetscObject)prob->journal, viewer));
  if (prob->gobj) PetscCall(RwObjectiveView(prob->gobj, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemDestroy - destroys a problem; NULL-safe.  A completed
  optimisation's journal goes with it (unless -rw_journal_keep): destroy it
  after the outputs, so that a run killed before them resumes

  Collective

  Level: beginner
@*/
PetscErrorCode RwProblemDestroy(RwProblem *prob)
{
  RwProblem p;

  PetscFunctionBegin;
  if (!prob || !*prob) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*prob, RW_PROBLEM_CLASSID, 1);
  if (--((PetscObject)(*prob))->refct > 0) {
    *prob = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  p = *prob;
  PetscCall(RwJournalDestroy(&p->journal));
  for (PetscInt e = 0; p->mm && e < p->nmembers; e++) {
    PetscCall(VecDestroy(&p->mm[e]));
    PetscCall(VecDestroy(&p->mu0[e]));
    if (p->states[e]) {
      PetscInt n;

      PetscCall(RwObservationsGetStates(p->obs, ObsMember(p, e), &n, NULL, NULL));
      PetscCall(VecDestroyVecs(n, &p->states[e]));
    }
  }
  PetscCall(PetscFree3(p->mm, p->mu0, p->states));
  for (PetscInt k = 0; p->W && k < p->ngroups; k++) PetscCall(VecDestroy(&p->W[k]));
  PetscCall(PetscFree(p->W));
  for (PetscInt i = 0; i < p->nreg; i++) {
    PetscCall(VecDestroy(&p->reg[i].ref));
    PetscCall(VecDestroy(&p->reg[i].x0));
  }
  PetscCall(VecDestroy(&p->xg));
  PetscCall(VecDestroy(&p->wg));
  PetscCall(VecDestroy(&p->gx));
  PetscCall(VecDestroy(&p->rm));
  PetscCall(VecDestroy(&p->ru0));
  PetscCall(VecDestroy(&p->rg));
  PetscCall(VecDestroy(&p->rgu0));
  PetscCall(VecDestroy(&p->mask));
  PetscCall(VecDestroy(&p->G0));
  PetscCall(VecDestroy(&p->gg));
  PetscCall(VecDestroy(&p->ggu0));
  PetscCall(VecDestroy(&p->gm));
  PetscCall(VecDestroy(&p->gu0));
  PetscCall(VecDestroy(&p->m));
  PetscCall(VecDestroy(&p->u0));
  PetscCall(DMDestroy(&p->gudm));
  PetscCall(DMDestroy(&p->udm));
  PetscCall(RwProblemHistoryDestroy_Private(p));
  /* the group's objects live on the ensemble's communicator: before the ensemble */
  PetscCall(RwAdjointDestroy(&p->vadj));
  PetscCall(VecDestroy(&p->vm));
  PetscCall(VecDestroy(&p->vu0));
  PetscCall(RwObjectiveDestroy(&p->vobj));
  PetscCall(RwAdjointDestroy(&p->gadj));
  PetscCall(RwObjectiveDestroy(&p->gobj));
  PetscCall(RwModelDestroy(&p->gmodel));
  PetscCall(RwAdjointDestroy(&p->adj));
  PetscCall(RwObjectiveDestroy(&p->obj));
  PetscCall(RwModelDestroy(&p->model));
  PetscCall(RwObservationsDestroy(&p->obs));
  PetscCall(RwEnsembleDestroy(&p->ens));
  PetscCall(PetscHeaderDestroy(prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}
