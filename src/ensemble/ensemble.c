/*
  RwEnsemble: independent solves (shots, experiments, members) on groups of
  contiguous ranks, summed in member order.

  Member i belongs to group i % g, so round r of a sum holds members r*g .. r*g+g-1,
  one per group.  A member's gradient travels from its group's DMDA to the
  parent's through the natural ordering, which both grids share: the group
  writes it in natural order (DMDAGlobalToNatural), a parent-comm vector
  that views that array on the group's ranks (and is empty elsewhere) is
  scattered into the parent's natural vector, which goes to the parent's
  global ordering (DMDANaturalToGlobal).  Only copies happen on the way, and
  the additions happen on the parent in member order 0, 1, 2, ...: for any
  split the same numbers are added in the same order, so the sum has the same
  bits.  Memory: one extra parent vector and one natural vector per group,
  whatever the number of members.
*/
#include <rewind/private/ensembleimpl.h>
#include <petscdmda.h>

PetscClassId  RW_ENSEMBLE_CLASSID;
PetscLogEvent RW_EnsembleSum, RW_EnsembleGather;

/*@C
  RwEnsembleCreate - creates an ensemble of independent solves over the ranks of comm

  Collective

  Input Parameter:
. comm - the parent communicator, split into groups by RwEnsembleSetUp()

  Output Parameter:
. ens - the ensemble

  Level: intermediate

.seealso: RwEnsembleSetSize(), RwEnsembleSetFromOptions(), RwEnsembleSetUp(), RwEnsembleDestroy()
@*/
PetscErrorCode RwEnsembleCreate(MPI_Comm comm, RwEnsemble *ens)
{
  RwEnsemble e;

  PetscFunctionBegin;
  PetscValidPointer(ens, 2);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(e, RW_ENSEMBLE_CLASSID, "RwEnsemble", "Ensemble of independent solves", "RwEnsemble", comm, RwEnsembleDestroy, RwEnsembleView));
  e->ngroups = 1;
  e->sub     = MPI_COMM_NULL;
  *ens       = e;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSetSize - sets the number of members

  Logically collective

  Input Parameters:
+ ens      - the ensemble
- nmembers - how many solves (at least 1)

  Level: intermediate

.seealso: RwEnsembleSetGroups(), RwEnsembleSetUp()
@*/
PetscErrorCode RwEnsembleSetSize(RwEnsemble ens, PetscInt nmembers)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCheck(!ens->setupcalled, PetscObjectComm((PetscObject)ens), PETSC_ERR_ORDER, "RwEnsembleSetSize() must come before RwEnsembleSetUp()");
  PetscCheck(nmembers >= 1, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "An ensemble needs at least 1 member; got %" PetscInt_FMT, nmembers);
  ens->nmembers = nmembers;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSetGroups - sets the number of groups the ranks are split into

  Logically collective

  Input Parameters:
+ ens     - the ensemble
- ngroups - from 1 to min(ranks, members); 0 picks gcd(ranks, members)

  Options Database Key:
. -rw_ensemble_groups <g> - the same

  Notes:
  The default is 1 group: every member is solved on all ranks one after
  another, as a plain loop would.  More groups solve members side by side on
  fewer ranks each; the sum is the same bits for explicit schemes (see
  doc/ensemble.md), to solver tolerance for implicit ones.

  Level: intermediate

.seealso: RwEnsembleSetUp(), RwEnsembleGetGroup()
@*/
PetscErrorCode RwEnsembleSetGroups(RwEnsemble ens, PetscInt ngroups)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCheck(!ens->setupcalled, PetscObjectComm((PetscObject)ens), PETSC_ERR_ORDER, "RwEnsembleSetGroups() must come before RwEnsembleSetUp()");
  PetscCheck(ngroups >= 0, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "-rw_ensemble_groups must be 0 (automatic) or positive; got %" PetscInt_FMT, ngroups);
  ens->ngroups = ngroups;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSetFromOptions - reads -rw_ensemble_groups

  Collective

  Input Parameter:
. ens - the ensemble

  Options Database Keys:
+ -rw_ensemble_groups <g> - groups of ranks (default 1; 0: gcd(ranks, members))
- -rw_ensemble_view       - view the split after RwEnsembleSetUp()

  Level: intermediate

.seealso: RwEnsembleSetGroups()
@*/
PetscErrorCode RwEnsembleSetFromOptions(RwEnsemble ens)
{
  PetscInt  g = ens->ngroups;
  PetscBool set;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)ens);
  PetscCall(RwOptionsInt("-rw_ensemble_groups", "Groups of ranks that solve members side by side (0: gcd of ranks and members)", "RwEnsembleSetGroups", g, &g, &set, 0, PETSC_MAX_INT));
  if (set) PetscCall(RwEnsembleSetGroups(ens, g));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt RwGcd(PetscInt a, PetscInt b)
{
  while (b) {
    PetscInt t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* This group's members: i % g == group, in increasing order */
static PetscErrorCode RwEnsembleAssign_Private(RwEnsemble e)
{
  PetscInt g = e->ngroups;

  PetscFunctionBegin;
  e->nmine = (e->nmembers - e->group + g - 1) / g;
  PetscCall(PetscMalloc1(e->nmine, &e->mine));
  for (PetscInt i = 0; i < e->nmine; i++) e->mine[i] = e->group + i * g;
  PetscCall(PetscCalloc1(e->nmembers, &e->Jm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSetUp - splits the communicator into groups and assigns the members

  Collective

  Input Parameter:
. ens - the ensemble

  Notes:
  Group k holds the contiguous parent ranks ceil(k p / g) .. ceil((k+1) p / g) - 1
  (p ranks, g groups: sizes differ by at most one), made with MPI_Comm_split
  keyed by the parent rank, so ranks keep their order.  Member i goes to group
  i % g.  Objects made on the sub-communicator must be destroyed before the
  ensemble, which frees it.

  Level: intermediate

.seealso: RwEnsembleGetSubComm(), RwEnsembleGetMembers()
@*/
PetscErrorCode RwEnsembleSetUp(RwEnsemble ens)
{
  MPI_Comm comm;
  PetscInt g;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  if (ens->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  comm = PetscObjectComm((PetscObject)ens);
  PetscCheck(ens->nmembers >= 1, comm, PETSC_ERR_ORDER, "Call RwEnsembleSetSize() before RwEnsembleSetUp()");
  PetscCallMPI(MPI_Comm_size(comm, &ens->size));
  PetscCallMPI(MPI_Comm_rank(comm, &ens->rank));
  g = ens->ngroups ? ens->ngroups : RwGcd(ens->size, ens->nmembers);
  PetscCheck(g <= ens->size && g <= ens->nmembers, comm, PETSC_ERR_ARG_OUTOFRANGE, "-rw_ensemble_groups %" PetscInt_FMT ": need at most one group per rank (%d ranks) and per member (%" PetscInt_FMT " members)", g, ens->size, ens->nmembers);
  ens->ngroups = g;
  PetscCall(PetscMalloc1(g + 1, &ens->first));
  for (PetscInt k = 0; k <= g; k++) ens->first[k] = (PetscMPIInt)((k * ens->size + g - 1) / g);
  ens->group = ((PetscInt)ens->rank * g) / ens->size;
  PetscCallMPI(MPI_Comm_split(comm, (PetscMPIInt)ens->group, ens->rank, &ens->sub));
  PetscCall(RwEnsembleAssign_Private(ens));
  ens->setupcalled = PETSC_TRUE;
  PetscCall(PetscObjectViewFromOptions((PetscObject)ens, NULL, "-rw_ensemble_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define RwEnsembleCheckSetUp(e) PetscCheck((e)->setupcalled, PetscObjectComm((PetscObject)(e)), PETSC_ERR_ORDER, "Call RwEnsembleSetUp() first")

/*@
  RwEnsembleGetSubComm - the communicator of this rank's group

  Not collective

  Input Parameter:
. ens - the ensemble, set up

  Output Parameter:
. sub - the group's communicator, owned by the ensemble (do not free it)

  Level: intermediate

.seealso: RwEnsembleGetGroup(), RwEnsembleGetMembers()
@*/
PetscErrorCode RwEnsembleGetSubComm(RwEnsemble ens, MPI_Comm *sub)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  RwEnsembleCheckSetUp(ens);
  *sub = ens->sub;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleGetGroup - this rank's group and the number of groups

  Not collective

  Input Parameter:
. ens - the ensemble, set up

  Output Parameters:
+ group   - this rank's group, from 0 (or NULL)
- ngroups - the number of groups (or NULL)

  Level: intermediate

.seealso: RwEnsembleSetGroups()
@*/
PetscErrorCode RwEnsembleGetGroup(RwEnsemble ens, PetscInt *group, PetscInt *ngroups)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  RwEnsembleCheckSetUp(ens);
  if (group) *group = ens->group;
  if (ngroups) *ngroups = ens->ngroups;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwEnsembleGetMembers - the members this rank's group solves, in increasing order

  Not collective

  Input Parameter:
. ens - the ensemble, set up

  Output Parameters:
+ n   - how many
- ids - their numbers (owned by the ensemble)

  Level: intermediate

.seealso: RwEnsembleGetRoundMember(), RwEnsembleSum()
@*/
PetscErrorCode RwEnsembleGetMembers(RwEnsemble ens, PetscInt *n, const PetscInt **ids)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  RwEnsembleCheckSetUp(ens);
  if (n) *n = ens->nmine;
  if (ids) *ids = ens->mine;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleGetRounds - the rounds of a sum: ceil(members / groups)

  Not collective

  Input Parameter:
. ens - the ensemble, set up

  Output Parameter:
. nrounds - the number of rounds; in each, every group solves at most one member

  Level: intermediate

.seealso: RwEnsembleGetRoundMember(), RwEnsembleSumAdd()
@*/
PetscErrorCode RwEnsembleGetRounds(RwEnsemble ens, PetscInt *nrounds)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  RwEnsembleCheckSetUp(ens);
  *nrounds = (ens->nmembers + ens->ngroups - 1) / ens->ngroups;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleGetRoundMember - the member this rank's group solves in a round

  Not collective

  Input Parameters:
+ ens   - the ensemble, set up
- round - from 0

  Output Parameter:
. member - round * groups + group, or -1 when the last round has none for this group

  Level: intermediate

.seealso: RwEnsembleGetRounds(), RwEnsembleSumAdd()
@*/
PetscErrorCode RwEnsembleGetRoundMember(RwEnsemble ens, PetscInt round, PetscInt *member)
{
  PetscInt i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  RwEnsembleCheckSetUp(ens);
  i       = round * ens->ngroups + ens->group;
  *member = round >= 0 && i < ens->nmembers ? i : -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwEnsembleGetMemberPrefix - the options prefix of a member: the ensemble's prefix, then "m<i>_"

  Not collective

  Input Parameters:
+ ens    - the ensemble
. member - the member
- len    - the size of prefix

  Output Parameter:
. prefix - e.g. "m3_", so that -m3_rw_heat_kappa 2 reaches member 3's objects

  Level: intermediate

.seealso: RwEnsembleGetMemberFileName(), RwEnsembleSetMemberFiles()
@*/
PetscErrorCode RwEnsembleGetMemberPrefix(RwEnsemble ens, PetscInt member, char prefix[], size_t len)
{
  const char *p;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)ens, &p));
  PetscCall(PetscSNPrintf(prefix, len, "%sm%" PetscInt_FMT "_", p ? p : "", member));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tag of a member's files: "m3" */
static PetscErrorCode RwEnsembleMemberTag(PetscInt member, char tag[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tag, len, "m%" PetscInt_FMT, member));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwEnsembleGetMemberFileName - a member's own file: "ck.h5" becomes "ck-m3.h5" for member 3

  Not collective

  Input Parameters:
+ ens    - the ensemble
. member - the member
. file   - the file name shared by all members
- len    - the size of out

  Output Parameter:
. out - the name with "-m<member>" before the extension of its last component (appended if it has none)

  Level: intermediate

.seealso: RwEnsembleSetMemberFiles()
@*/
PetscErrorCode RwEnsembleGetMemberFileName(RwEnsemble ens, PetscInt member, const char file[], char out[], size_t len)
{
  char tag[32];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCall(RwEnsembleMemberTag(member, tag, sizeof(tag)));
  PetscCall(RwFileNameTag(file, tag, out, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwEnsembleSetMemberFiles - gives a member's driver checkpoint and keep
  files of its own: "ck.h5" becomes "ck-m3.h5" for member 3
  (RwAdjointSetFileTag() with the tag of RwEnsembleGetMemberFileName())

  Logically collective on the driver; before its first solve

  Input Parameters:
+ ens    - the ensemble
. member - the member (or the group, when one driver per group solves the group's members)
- adj    - the member's driver

  Notes:
  The tag covers the hdf5 stores' file, the default or the user's
  -rw_store_hdf5_file, and the reverse-sweep keep's (-rw_adjoint_keep_file),
  so that groups running side by side never share a file; the options
  database is left as the user gave it.

  Level: intermediate

.seealso: RwEnsembleGetMemberFileName(), RwAdjointSetFileTag()
@*/
PetscErrorCode RwEnsembleSetMemberFiles(RwEnsemble ens, PetscInt member, RwAdjoint adj)
{
  char tag[32];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCall(RwEnsembleMemberTag(member, tag, sizeof(tag)));
  PetscCall(RwAdjointSetFileTag(adj, tag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The global grid of a DM: a DMDA's dim, sizes and dof; another DM's global size */
static PetscErrorCode RwEnsembleGrid_Private(DM dm, PetscBool *isda, PetscInt grid[5])
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, isda));
  for (int i = 0; i < 5; i++) grid[i] = 0;
  if (*isda) PetscCall(DMDAGetInfo(dm, &grid[0], &grid[1], &grid[2], &grid[3], NULL, NULL, NULL, &grid[4], NULL, NULL, NULL, NULL, NULL));
  else {
    Vec v;

    PetscCall(DMGetGlobalVector(dm, &v));
    PetscCall(VecGetSize(v, &grid[1]));
    PetscCall(DMRestoreGlobalVector(dm, &v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwEnsembleMoveDestroy_Private(RwEnsemble e, RwEnsembleMove *mv)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; mv->wrap && k < e->ngroups; k++) {
    PetscCall(VecDestroy(&mv->wrap[k]));
    PetscCall(VecScatterDestroy(&mv->sct[k]));
  }
  PetscCall(PetscFree2(mv->wrap, mv->sct));
  PetscCall(VecDestroy(&mv->subnat));
  PetscCall(VecDestroy(&mv->nat));
  PetscCall(VecDestroy(&mv->work));
  PetscCall(VecDestroy(&mv->perm));
  PetscCall(VecDestroy(&mv->subperm));
  mv->planes = PETSC_FALSE;
  PetscCall(DMDestroy(&mv->subda));
  PetscCall(DMDestroy(&mv->da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwEnsembleResetDM_Private(RwEnsemble e)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < e->nmoves; i++) PetscCall(RwEnsembleMoveDestroy_Private(e, &e->moves[i]));
  e->nmoves = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Group k's natural vector seen from the parent (empty off group k), and its scatter into the parent's natural vector */
static PetscErrorCode RwEnsembleMakeScatter_Private(RwEnsemble e, RwEnsembleMove *mv, PetscInt k)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)e);
  PetscInt n = 0, N, lo, hi;
  IS       is;

  PetscFunctionBegin;
  PetscCall(VecGetSize(mv->nat, &N));
  if (e->group == k) PetscCall(VecGetLocalSize(mv->subnat, &n));
  PetscCall(VecCreateMPIWithArray(comm, 1, n, N, NULL, &mv->wrap[k]));
  /* both are in natural order, and group k's ranks are in parent order: the identity */
  PetscCall(VecGetOwnershipRange(mv->nat, &lo, &hi));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, hi - lo, lo, 1, &is));
  PetscCall(VecScatterCreate(mv->wrap[k], is, mv->nat, is, &mv->sct[k]));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A DM's vector in an order that does not depend on the decomposition */
static PetscErrorCode RwEnsembleCreateNatural_Private(DM dm, PetscBool isda, Vec *v)
{
  PetscFunctionBegin;
  if (isda) PetscCall(DMDACreateNaturalVector(dm, v));
  else PetscCall(DMCreateGlobalVector(dm, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A vector of dof components in planes (each rank's component 0, then 1
   ...) to or from the same values interleaved, on this rank */
static PetscErrorCode RwEnsemblePlanes_Private(DM dm, Vec from, Vec to, PetscBool tointerleaved)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           dof, n;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(dm, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  PetscCall(VecGetLocalSize(from, &n));
  n /= dof;
  PetscCall(VecGetArrayRead(from, &a));
  PetscCall(VecGetArray(to, &b));
  for (PetscInt p = 0; p < n; p++)
    for (PetscInt c = 0; c < dof; c++) {
      if (tointerleaved) b[p * dof + c] = a[c * n + p];
      else b[c * n + p] = a[p * dof + c];
    }
  PetscCall(VecRestoreArray(to, &b));
  PetscCall(VecRestoreArrayRead(from, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* g in the natural ordering; perm (not NULL where g holds planes) takes g interleaved first */
static PetscErrorCode RwEnsembleToNatural_Private(DM dm, PetscBool isda, Vec perm, Vec g, Vec nat)
{
  PetscFunctionBegin;
  if (perm) {
    PetscCall(RwEnsemblePlanes_Private(dm, g, perm, PETSC_TRUE));
    g = perm;
  }
  if (isda) {
    PetscCall(DMDAGlobalToNaturalBegin(dm, g, INSERT_VALUES, nat));
    PetscCall(DMDAGlobalToNaturalEnd(dm, g, INSERT_VALUES, nat));
  } else PetscCall(VecCopy(g, nat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwEnsembleFromNatural_Private(DM dm, PetscBool isda, Vec perm, Vec nat, Vec g)
{
  Vec to = perm ? perm : g;

  PetscFunctionBegin;
  if (isda) {
    PetscCall(DMDANaturalToGlobalBegin(dm, nat, INSERT_VALUES, to));
    PetscCall(DMDANaturalToGlobalEnd(dm, nat, INSERT_VALUES, to));
  } else PetscCall(VecCopy(nat, to));
  if (perm) PetscCall(RwEnsemblePlanes_Private(dm, perm, g, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pair whose parent grid is da, or NULL */
static RwEnsembleMove *RwEnsembleFindMove_Private(RwEnsemble e, DM da)
{
  for (PetscInt i = 0; i < e->nmoves; i++)
    if (e->moves[i].da == da) return &e->moves[i];
  return NULL;
}

/*@
  RwEnsembleSetDM - a pair of grids vectors move between: the group's DM and the parent's

  Collective on the parent communicator

  Input Parameters:
+ ens   - the ensemble, set up
. subda - a DM on this rank's group communicator (RwEnsembleGetSubComm())
- da    - a DM on the parent communicator with the same global grid (and dof)

  Notes:
  Call it once for each grid the members' vectors live on (a parameter
  field, a state of several components, a block of global scalars): a
  vector moves by the pair of its parent grid, found from the parent
  vector's DM (VecGetDM()).  A second call with the same parent DM replaces
  its pair.  DMDAs move through their natural ordering; any other DM (a
  DMRedundant, whose vector lives on one rank) is taken to have a global
  ordering that does not depend on the ranks.

  Level: intermediate

.seealso: RwEnsembleGatherMember(), RwEnsembleScatterToGroups(), RwEnsembleSum()
@*/
PetscErrorCode RwEnsembleSetDM(RwEnsemble ens, DM subda, DM da)
{
  MPI_Comm        comm;
  PetscInt        gs[5], gp[5];
  PetscBool       sda, pda;
  PetscMPIInt     same, bad = 0, anybad;
  RwEnsembleMove *mv;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscValidHeaderSpecific(subda, DM_CLASSID, 2);
  PetscValidHeaderSpecific(da, DM_CLASSID, 3);
  RwEnsembleCheckSetUp(ens);
  comm = PetscObjectComm((PetscObject)ens);
  mv   = RwEnsembleFindMove_Private(ens, da);
  if (mv && mv->subda == subda) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwEnsembleGrid_Private(subda, &sda, gs));
  PetscCall(RwEnsembleGrid_Private(da, &pda, gp));
  PetscCallMPI(MPI_Comm_compare(PetscObjectComm((PetscObject)subda), ens->sub, &same));
  for (int i = 0; i < 5; i++) bad |= gs[i] != gp[i];
  bad |= sda != pda;
  bad |= (same != MPI_IDENT && same != MPI_CONGRUENT) ? 2 : 0;
  PetscCallMPI(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_BOR, comm));
  PetscCheck(!(anybad & 2), comm, PETSC_ERR_ARG_WRONG, "RwEnsembleSetDM(): the group's DM must live on the group's communicator (RwEnsembleGetSubComm())");
  PetscCheck(!anybad, comm, PETSC_ERR_ARG_INCOMP, "RwEnsembleSetDM(): the group's DM and the parent's must have the same global grid and dof; got %" PetscInt_FMT "-d %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " dof %" PetscInt_FMT " and %" PetscInt_FMT "-d %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " dof %" PetscInt_FMT " (on some rank)", gs[0], gs[1], gs[2], gs[3], gs[4], gp[0], gp[1], gp[2], gp[3], gp[4]);
  if (mv) PetscCall(RwEnsembleMoveDestroy_Private(ens, mv));
  else {
    PetscCheck(ens->nmoves < RW_ENSEMBLE_MAX_DMS, comm, PETSC_ERR_SUP, "RwEnsembleSetDM(): at most %d pairs of grids", RW_ENSEMBLE_MAX_DMS);
    mv = &ens->moves[ens->nmoves++];
  }
  PetscCall(PetscObjectReference((PetscObject)subda));
  PetscCall(PetscObjectReference((PetscObject)da));
  mv->subda = subda;
  mv->da    = da;
  mv->isda  = sda;
  PetscCall(RwEnsembleCreateNatural_Private(subda, sda, &mv->subnat));
  PetscCall(RwEnsembleCreateNatural_Private(da, sda, &mv->nat));
  PetscCall(DMCreateGlobalVector(da, &mv->work));
  PetscCall(PetscCalloc2(ens->ngroups, &mv->wrap, ens->ngroups, &mv->sct));
  for (PetscInt k = 0; k < ens->ngroups; k++) PetscCall(RwEnsembleMakeScatter_Private(ens, mv, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSetDMPlanes - says that the vectors of the pair of grids whose
  parent DM is da hold their components in planes (each rank's points'
  component 0, then component 1 ...: a model's RW_MODEL_STATE_PLANES), not
  interleaved as a DMDA numbers them

  Collective on the parent communicator

  Input Parameters:
+ ens    - the ensemble
. da     - the parent DM of a pair given to RwEnsembleSetDM()
- planes - whether its vectors hold planes

  Notes:
  A DMDA's natural ordering assumes interleaved components; a vector in
  planes is interleaved on its rank before it moves and put back in planes
  after, so that it arrives with the same values whatever the two
  decompositions (a wave state: RwModelGetStateLayout()).

  Level: advanced

.seealso: RwEnsembleSetDM()
@*/
PetscErrorCode RwEnsembleSetDMPlanes(RwEnsemble ens, DM da, PetscBool planes)
{
  RwEnsembleMove *mv;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  mv = RwEnsembleFindMove_Private(ens, da);
  PetscCheck(mv, PetscObjectComm((PetscObject)ens), PETSC_ERR_ORDER, "RwEnsembleSetDMPlanes(): give the pair of grids to RwEnsembleSetDM() first");
  PetscCheck(!planes || mv->isda, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_WRONG, "RwEnsembleSetDMPlanes(): components in planes on a DM that is not a DMDA");
  if (planes == mv->planes) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDestroy(&mv->perm));
  PetscCall(VecDestroy(&mv->subperm));
  mv->planes = planes;
  if (planes) {
    PetscCall(DMCreateGlobalVector(mv->da, &mv->perm));
    PetscCall(DMCreateGlobalVector(mv->subda, &mv->subperm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pair of grids a parent vector moves by: its DM's, or the only pair there is */
static PetscErrorCode RwEnsembleGetMove_Private(RwEnsemble e, Vec X, RwEnsembleMove **mv)
{
  DM dm = NULL;

  PetscFunctionBegin;
  PetscCheck(e->nmoves, PetscObjectComm((PetscObject)e), PETSC_ERR_ORDER, "Call RwEnsembleSetDM() first: the ensemble needs the grids vectors move between");
  if (X) PetscCall(VecGetDM(X, &dm));
  *mv = dm ? RwEnsembleFindMove_Private(e, dm) : NULL;
  if (!*mv && e->nmoves == 1) *mv = &e->moves[0];
  PetscCheck(*mv, PetscObjectComm((PetscObject)e), PETSC_ERR_ARG_WRONG, "The ensemble has %" PetscInt_FMT " pairs of grids and none is this vector's: give RwEnsembleSetDM() its DM", e->nmoves);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Moves subnat (on group k) to or from the parent's natural vector */
static PetscErrorCode RwEnsembleMove_Private(RwEnsemble e, RwEnsembleMove *mv, PetscInt k, ScatterMode mode)
{
  PetscScalar *a = NULL;

  PetscFunctionBegin;
  if (e->group == k) {
    PetscCall(VecGetArray(mv->subnat, &a));
    PetscCall(VecPlaceArray(mv->wrap[k], a));
  }
  if (mode == SCATTER_FORWARD) {
    PetscCall(VecScatterBegin(mv->sct[k], mv->wrap[k], mv->nat, INSERT_VALUES, mode));
    PetscCall(VecScatterEnd(mv->sct[k], mv->wrap[k], mv->nat, INSERT_VALUES, mode));
  } else {
    PetscCall(VecScatterBegin(mv->sct[k], mv->nat, mv->wrap[k], INSERT_VALUES, mode));
    PetscCall(VecScatterEnd(mv->sct[k], mv->nat, mv->wrap[k], INSERT_VALUES, mode));
  }
  if (e->group == k) {
    PetscCall(VecResetArray(mv->wrap[k]));
    PetscCall(VecRestoreArray(mv->subnat, &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleScatterToGroups - copies a parent vector to every group

  Collective on the parent communicator

  Input Parameters:
+ ens - the ensemble, with the grids of X set (RwEnsembleSetDM())
- X   - a global vector of a parent DM

  Output Parameter:
. x - a global vector of the group's DM of that pair: the same values, in the group's layout

  Notes:
  How members get the parameters of an optimisation that runs on the parent.

  Level: intermediate

.seealso: RwEnsembleGatherMember(), RwEnsembleSetDM()
@*/
PetscErrorCode RwEnsembleScatterToGroups(RwEnsemble ens, Vec X, Vec x)
{
  RwEnsembleMove *mv;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCall(RwEnsembleGetMove_Private(ens, X, &mv));
  PetscCall(RwEnsembleToNatural_Private(mv->da, mv->isda, mv->perm, X, mv->nat));
  for (PetscInt k = 0; k < ens->ngroups; k++) PetscCall(RwEnsembleMove_Private(ens, mv, k, SCATTER_REVERSE));
  PetscCall(RwEnsembleFromNatural_Private(mv->subda, mv->isda, mv->subperm, mv->subnat, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleGatherMember - brings one member's J and gradient from its group to every rank of the parent

  Collective on the parent communicator

  Input Parameters:
+ ens    - the ensemble, with the grids of G set (RwEnsembleSetDM())
. member - the member, the same on every rank
. Jm     - its J (read on the ranks of its group, group member % groups)
- gm     - its gradient, a global vector of the group's DM (read on its group's ranks; NULL elsewhere)

  Output Parameters:
+ J - the member's J, on every rank (or NULL)
- G - a global vector of the parent's DM: the member's gradient

  Notes:
  Only copies: G has the bits of gm.  Use it to look at (or journal) each
  member; RwEnsembleSumAdd() sums them.

  Level: advanced

.seealso: RwEnsembleSumAdd(), RwEnsembleScatterToGroups()
@*/
PetscErrorCode RwEnsembleGatherMember(RwEnsemble ens, PetscInt member, PetscReal Jm, Vec gm, PetscReal *J, Vec G)
{
  MPI_Comm        comm;
  PetscInt        k;
  RwEnsembleMove *mv;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCall(RwEnsembleGetMove_Private(ens, G, &mv));
  comm = PetscObjectComm((PetscObject)ens);
  PetscCheck(member >= 0 && member < ens->nmembers, comm, PETSC_ERR_ARG_OUTOFRANGE, "Member %" PetscInt_FMT " is not in the ensemble's 0 .. %" PetscInt_FMT, member, ens->nmembers - 1);
  k = member % ens->ngroups;
  {
    /* agreed on every rank, so that a missing vector stops all of them, not only its group */
    PetscMPIInt missing = ens->group == k && !gm, any;

    PetscCallMPI(MPI_Allreduce(&missing, &any, 1, MPI_INT, MPI_MAX, comm));
    PetscCheck(!any, comm, PETSC_ERR_ARG_NULL, "Group %" PetscInt_FMT " solves member %" PetscInt_FMT ": its ranks must pass the member's gradient, not NULL", k, member);
  }
  PetscCall(PetscLogEventBegin(RW_EnsembleGather, ens, 0, 0, 0));
  if (ens->group == k) PetscCall(RwEnsembleToNatural_Private(mv->subda, mv->isda, mv->subperm, gm, mv->subnat));
  PetscCall(RwEnsembleMove_Private(ens, mv, k, SCATTER_FORWARD));
  PetscCall(RwEnsembleFromNatural_Private(mv->da, mv->isda, mv->perm, mv->nat, G));
  PetscCallMPI(MPI_Bcast(&Jm, 1, MPIU_REAL, ens->first[k], comm));
  PetscCall(PetscLogEventEnd(RW_EnsembleGather, ens, 0, 0, 0));
  ens->Jm[member] = Jm;
  if (J) *J = Jm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSumBegin - starts a member-order sum of J and the gradient into G

  Collective on the parent communicator

  Input Parameters:
+ ens - the ensemble, with the grids of G set (RwEnsembleSetDM())
- G   - a global vector of a parent DM, zeroed here, that receives the sum

  Notes:
  Then call RwEnsembleSumAdd() once per round (RwEnsembleGetRounds()) on
  every rank, and RwEnsembleSumEnd().  Each group holds one member's gradient
  at a time.

  Level: intermediate

.seealso: RwEnsembleSumAdd(), RwEnsembleSumEnd(), RwEnsembleSum()
@*/
PetscErrorCode RwEnsembleSumBegin(RwEnsemble ens, Vec G)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCall(RwEnsembleGetMove_Private(ens, G, &ens->Gmove));
  PetscCall(VecSet(G, 0));
  ens->G    = G;
  ens->J    = 0;
  ens->next = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSumAdd - adds the next round's members, in member order

  Collective on the parent communicator

  Input Parameters:
+ ens - the ensemble, between RwEnsembleSumBegin() and RwEnsembleSumEnd()
. Jm  - J of this group's member of the round (RwEnsembleGetRoundMember())
- gm  - its gradient on the group's DM; NULL when the group has no member this round

  Level: intermediate

.seealso: RwEnsembleSumBegin(), RwEnsembleGetRoundMember()
@*/
PetscErrorCode RwEnsembleSumAdd(RwEnsemble ens, PetscReal Jm, Vec gm)
{
  MPI_Comm comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)ens);
  PetscCheck(ens->G, comm, PETSC_ERR_ORDER, "Call RwEnsembleSumBegin() before RwEnsembleSumAdd()");
  PetscCheck(ens->next < ens->nmembers, comm, PETSC_ERR_ORDER, "RwEnsembleSumAdd(): all %" PetscInt_FMT " members were added already", ens->nmembers);
  PetscCall(PetscLogEventBegin(RW_EnsembleSum, ens, 0, 0, 0));
  for (PetscInt k = 0; k < ens->ngroups && ens->next < ens->nmembers; k++, ens->next++) {
    PetscReal Jk;

    PetscCall(RwEnsembleGatherMember(ens, ens->next, Jm, gm, &Jk, ens->Gmove->work));
    ens->J += Jk;
    PetscCall(VecAXPY(ens->G, 1, ens->Gmove->work));
  }
  PetscCall(PetscLogEventEnd(RW_EnsembleSum, ens, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSumEnd - ends a sum: J of all members, added in member order

  Collective on the parent communicator

  Input Parameter:
. ens - the ensemble, after a RwEnsembleSumAdd() for every round

  Output Parameter:
. J - the sum, the same on every rank

  Level: intermediate

.seealso: RwEnsembleSumBegin(), RwEnsembleGetMemberValues()
@*/
PetscErrorCode RwEnsembleSumEnd(RwEnsemble ens, PetscReal *J)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  PetscCheck(ens->G && ens->next == ens->nmembers, PetscObjectComm((PetscObject)ens), PETSC_ERR_ORDER, "RwEnsembleSumEnd(): %" PetscInt_FMT " of %" PetscInt_FMT " members were added; call RwEnsembleSumAdd() once per round", ens->next, ens->nmembers);
  *J      = ens->J;
  ens->G  = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleSum - sums J and the gradients of all members, in member order

  Collective on the parent communicator

  Input Parameters:
+ ens - the ensemble, with its grids set (RwEnsembleSetDM())
. Jm  - J of this group's members, in RwEnsembleGetMembers() order
- gm  - their gradients, global vectors of the group's DMDA, in the same order

  Output Parameters:
+ J - the sum of every member's J, on every rank
- G - a global vector of the parent's DMDA: the sum of every member's gradient

  Notes:
  J = ((J_0 + J_1) + J_2) + ... and G likewise, elementwise, whatever the
  split: the bits a plain loop over the members on the parent gives when the
  members' own results do not depend on the decomposition.  Holds all of the
  group's gradients; RwEnsembleSumAdd() needs one at a time.

  Level: intermediate

.seealso: RwEnsembleSumBegin(), RwEnsembleGatherMember()
@*/
PetscErrorCode RwEnsembleSum(RwEnsemble ens, const PetscReal Jm[], const Vec gm[], PetscReal *J, Vec G)
{
  PetscInt nr;

  PetscFunctionBegin;
  PetscCall(RwEnsembleGetRounds(ens, &nr));
  PetscCall(RwEnsembleSumBegin(ens, G));
  for (PetscInt r = 0; r < nr; r++) PetscCall(RwEnsembleSumAdd(ens, r < ens->nmine ? Jm[r] : 0, r < ens->nmine ? gm[r] : NULL));
  PetscCall(RwEnsembleSumEnd(ens, J));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwEnsembleGetMemberValues - every member's J from the last gather or sum

  Not collective

  Input Parameter:
. ens - the ensemble

  Output Parameter:
. Jm - J of member i in Jm[i], on every rank (owned by the ensemble)

  Level: intermediate

.seealso: RwEnsembleSum(), RwEnsembleGatherMember()
@*/
PetscErrorCode RwEnsembleGetMemberValues(RwEnsemble ens, const PetscReal **Jm)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  RwEnsembleCheckSetUp(ens);
  *Jm = ens->Jm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwEnsembleView - the split: groups, their ranks and their members

  Collective

  Input Parameters:
+ ens    - the ensemble
- viewer - an ASCII viewer (NULL: stdout of the parent communicator)

  Options Database Key:
. -rw_ensemble_view - view after RwEnsembleSetUp()

  Level: intermediate

.seealso: RwEnsembleSetUp()
@*/
PetscErrorCode RwEnsembleView(RwEnsemble ens, PetscViewer viewer)
{
  PetscBool ascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, RW_ENSEMBLE_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)ens), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (!ens->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "RwEnsemble: %" PetscInt_FMT " members, not set up\n", ens->nmembers));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "RwEnsemble: %" PetscInt_FMT " members on %d ranks in %" PetscInt_FMT " groups; member i in group i %% %" PetscInt_FMT ", summed in member order\n", ens->nmembers, ens->size, ens->ngroups, ens->ngroups));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  for (PetscInt k = 0; k < ens->ngroups; k++) {
    PetscInt n = (ens->nmembers - k + ens->ngroups - 1) / ens->ngroups;
    char     list[128] = "";

    for (PetscInt i = 0; i < n && i < 8; i++) {
      size_t len = strlen(list);
      PetscCall(PetscSNPrintf(list + len, sizeof(list) - len, "%s%" PetscInt_FMT, i ? " " : "", k + i * ens->ngroups));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "group %" PetscInt_FMT ": ranks %d..%d, %" PetscInt_FMT " member%s: %s%s\n", k, ens->first[k], ens->first[k + 1] - 1, n, n == 1 ? "" : "s", list, n > 8 ? " ..." : ""));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwEnsembleDestroy - destroys an ensemble and frees its sub-communicator; NULL-safe

  Collective

  Input Parameter:
. ens - the ensemble (or a pointer to NULL)

  Level: intermediate

.seealso: RwEnsembleCreate()
@*/
PetscErrorCode RwEnsembleDestroy(RwEnsemble *ens)
{
  PetscFunctionBegin;
  if (!ens || !*ens) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*ens, RW_ENSEMBLE_CLASSID, 1);
  if (--((PetscObject)(*ens))->refct > 0) {
    *ens = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwEnsembleResetDM_Private(*ens));
  PetscCall(PetscFree((*ens)->first));
  PetscCall(PetscFree((*ens)->mine));
  PetscCall(PetscFree((*ens)->Jm));
  if ((*ens)->sub != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&(*ens)->sub));
  PetscCall(PetscHeaderDestroy(ens));
  PetscFunctionReturn(PETSC_SUCCESS);
}
