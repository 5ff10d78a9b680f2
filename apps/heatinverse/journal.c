/*
  rewind-heat-inverse's evaluation journal (apps/common/journal.c,
  doc/inverse.md): the description of its problem, everything that decides
  an evaluation's values, which a resumed run must share with the journal.
*/
#include "inverse.h"

/* The model: grid, steps, dt, and its identity (physics, boundaries and the linear solver as configured) */
static PetscErrorCode DescribeModel(Inverse *inv, RwAppJournal j)
{
  char        v[512], id[256] = "";
  PetscInt    M[3];
  PetscInt64  n;
  PetscReal   dt;
  RwModelType type;
  DM          da;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT, M[0], M[1], M[2]));
  PetscCall(RwAppJournalAddLine(j, "grid", v));
  PetscCall(RwAdjointGetSteps(inv->adj, &n));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt64_FMT, n));
  PetscCall(RwAppJournalAddLine(j, "steps", v));
  PetscCall(RwModelGetTimeStep(inv->model, &dt));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%.17g", (double)dt));
  PetscCall(RwAppJournalAddLine(j, "dt", v));
  PetscCall(RwModelGetType(inv->model, &type));
  /* the model's identity names its linear solver as configured (type, preconditioner, tolerances), whatever set it */
  PetscCall(RwModelGetIdentity(inv->model, id, sizeof(id)));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%s (%s)", type, id));
  PetscCall(RwAppJournalAddLine(j, "model", v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data: sensors, times, observations, noise levels, the experiments' known fields */
static PetscErrorCode DescribeData(Inverse *inv, RwAppJournal j)
{
  uint64_t   h = 0;
  char       v[1024] = "";
  PetscInt   ns, nfields;
  PetscReal *r;

  PetscFunctionBegin;
  PetscCall(RwModelGetNumParameterScalars(inv->model, &ns));
  PetscCall(PetscMalloc1(ns + 1, &r));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT, inv->nexp));
  PetscCall(RwAppJournalAddLine(j, "experiments", v));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " at %016llx", inv->nsensors, (unsigned long long)RwHashBytes(0, inv->coords, sizeof(PetscReal) * 2 * inv->nsensors)));
  PetscCall(RwAppJournalAddLine(j, "sensors", v));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " at %016llx", inv->ntimes, (unsigned long long)RwHashBytes(0, inv->steps, sizeof(PetscInt64) * inv->ntimes)));
  PetscCall(RwAppJournalAddLine(j, "observation steps", v));
  for (PetscInt e = 0; e < inv->nexp; e++) h = RwHashBytes(h, inv->exp[e].data, sizeof(PetscReal) * inv->nobs);
  PetscCall(RwAppJournalAddHash(j, "observations", h));
  v[0] = 0;
  for (PetscInt e = 0; e < inv->nexp; e++) PetscCall(PetscSNPrintf(v + strlen(v), sizeof(v) - strlen(v), "%s%.17g", e ? " " : "", (double)inv->exp[e].sigma));
  PetscCall(RwAppJournalAddLine(j, "noise sigma", v));
  h = 0;
  PetscCall(RwModelGetParameterInfo(inv->model, &nfields, NULL, NULL));
  for (PetscInt e = 0; e < inv->nexp; e++) {
    uint64_t s;
    /* the fields the inversion does not overwrite: the unknown one is x */
    for (PetscInt f = 0; f < nfields; f++) {
      Vec fv;
      if (inv->target != INV_U0 && f == (inv->target == INV_KAPPA ? 0 : 1)) continue;
      PetscCall(RwModelGetParameterField(inv->model, inv->exp[e].m, f, &fv));
      PetscCall(RwAppJournalChecksum(j, fv, &s));
      PetscCall(RwModelRestoreParameterField(inv->model, inv->exp[e].m, f, &fv));
      h = RwSplitMix64(h ^ s);
    }
    PetscCall(RwModelGetParameterScalars(inv->model, inv->exp[e].m, r)); /* one broadcast */
    for (PetscInt i = 0; i < ns; i++) h = RwHashBytes(h, &r[i], sizeof(r[i]));
    if (inv->target != INV_U0) {
      PetscCall(RwAppJournalChecksum(j, inv->exp[e].u0, &s));
      h = RwSplitMix64(h ^ s);
    }
  }
  PetscCall(RwAppJournalAddHash(j, "known fields of the experiments", h));
  PetscCall(PetscFree(r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The inversion: target, start, regulariser, bounds, optimiser */
static PetscErrorCode DescribeInversion(Inverse *inv, Tao tao, RwAppJournal j)
{
  char     v[256];
  uint64_t h, s;
  Vec      lb, ub;
  TaoType  type;

  PetscFunctionBegin;
  PetscCall(RwAppJournalAddLine(j, "target", InvTargets[inv->target]));
  PetscCall(RwAppJournalChecksum(j, inv->xinit, &h));
  PetscCall(RwAppJournalAddHash(j, "start", h));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%s, alpha %.17g, tv eps %.17g", RwRegTypes[inv->reg], (double)inv->alpha, (double)inv->tveps));
  PetscCall(RwAppJournalAddLine(j, "regulariser", v));
  PetscCall(TaoGetVariableBounds(tao, &lb, &ub));
  h = 0;
  if (lb) PetscCall(RwAppJournalChecksum(j, lb, &h));
  s = 0;
  if (ub) PetscCall(RwAppJournalChecksum(j, ub, &s));
  if (lb && ub) {
    PetscReal lo, hi;
    PetscCall(VecMin(lb, NULL, &lo));
    PetscCall(VecMax(ub, NULL, &hi));
    PetscCall(PetscSNPrintf(v, sizeof(v), "[%.17g, %.17g], %016llx", (double)lo, (double)hi, (unsigned long long)RwSplitMix64(h ^ RwSplitMix64(s))));
  } else PetscCall(PetscSNPrintf(v, sizeof(v), "none"));
  PetscCall(RwAppJournalAddLine(j, "bounds", v));
  PetscCall(TaoGetType(tao, &type));
  PetscCall(RwAppJournalAddLine(j, "tao type", type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvJournalSetUp - the journal of this inversion (always on: <-rw_output>.state
  or rewind-heat-inverse.state): describes the problem, refuses a kept
  journal of another problem or one not asked to be resumed, and with
  -rw_restart starts replaying it.  Called once TAO is configured.
*/
PetscErrorCode InvJournalSetUp(Inverse *inv, Tao tao, const char output[])
{
  const char *const opt[3] = {"-rw_inverse_state", "-rw_inverse_state_overwrite", "-rw_inverse_state_keep"};
  DM                da;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(RwAppJournalCreate("rewind-heat-inverse", opt, output, PETSC_TRUE, da, inv->nexp, &inv->t0, &inv->journal));
  PetscCall(DescribeModel(inv, inv->journal));
  PetscCall(DescribeData(inv, inv->journal));
  PetscCall(DescribeInversion(inv, tao, inv->journal));
  PetscCall(RwAppJournalOpen(inv->journal));
  PetscFunctionReturn(PETSC_SUCCESS);
}
