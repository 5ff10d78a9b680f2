/*
  What the last solve did: its counts (steps, stores and restores per level,
  seconds per phase), the costs it measured for the schedule, and the view.
*/
#include <rewind/private/adjointimpl.h>

/*@
  RwAdjointGetCounts - what the last solve did: steps, stores and restores per level, seconds per phase

  Not collective

  Level: intermediate

.seealso: RwAdjointView()
@*/
PetscErrorCode RwAdjointGetCounts(RwAdjoint adj, RwAdjointCounts *counts)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  *counts = adj->counts;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetMeasuredCosts - the costs the last solve measured, in seconds: a
  forward step, a reverse step, a disk write and a disk read of one state (0
  when none was made), the largest over the ranks; the units of RwScheduleSetCosts()

  Collective: every rank must plan the same schedule, so all get the same costs

  Options Database Key:
. -rw_adjoint_measured_costs - re-plan the schedule with them after the first solve

  Level: intermediate

.seealso: RwScheduleSetCosts(), RwAdjointGetCounts()
@*/
PetscErrorCode RwAdjointGetMeasuredCosts(RwAdjoint adj, PetscReal costs[4])
{
  RwAdjointCounts *c = &adj->counts;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  costs[0] = c->forward_steps ? c->seconds_forward / c->forward_steps : 0;
  costs[1] = c->reverse_steps ? c->seconds_reverse / c->reverse_steps : 0;
  costs[2] = c->stores[RW_LEVEL_DISK] ? c->seconds_store[RW_LEVEL_DISK] / c->stores[RW_LEVEL_DISK] : 0;
  costs[3] = c->restores[RW_LEVEL_DISK] ? c->seconds_restore[RW_LEVEL_DISK] / c->restores[RW_LEVEL_DISK] : 0;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, costs, 4, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)adj)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAdjointView - the schedule, the stores and what the last solve did

  Collective

  Level: beginner

.seealso: RwAdjointGetCounts()
@*/
PetscErrorCode RwAdjointView(RwAdjoint adj, PetscViewer viewer)
{
  RwAdjointCounts *c   = &adj->counts;
  PetscInt64       ran = c->steps ? c->steps : adj->n; /* a stop test may have ended the run early */
  PetscBool        ascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)adj), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "RwAdjoint: %" PetscInt64_FMT " steps\n", adj->n));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (adj->sched) PetscCall(RwScheduleView(adj->sched, viewer));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (adj->store[l]) PetscCall(RwStoreView(adj->store[l], viewer));
  PetscCall(RwAdjointErrestView_Private(adj, viewer));
  if (adj->defaultbudget) PetscCall(PetscViewerASCIIPrintf(viewer, "RAM budget: %.3g MB per rank by default, %g of the node's available memory over its ranks (-rw_checkpoint_ram_fraction)\n", adj->defaultbudget / 1e6, (double)adj->ramfraction));
  PetscCall(RwAdjointViewTimeChoice_Private(adj, viewer));
  PetscCall(RwAdjointPoolView_Private(adj, viewer));
  PetscCall(RwAdjointDiskPoolView_Private(adj, viewer));
  PetscCall(RwAdjointCodecAutoView_Private(adj, viewer));
  if (c->steps && c->steps < adj->n) PetscCall(PetscViewerASCIIPrintf(viewer, "last solve stopped at step %" PetscInt64_FMT " of at most %" PetscInt64_FMT " (stop test)\n", c->steps, adj->n));
  PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: %" PetscInt64_FMT " forward steps (%" PetscInt64_FMT " recomputed, %.3g forward sweeps), %" PetscInt64_FMT " reverse steps, %" PetscInt64_FMT " tangent steps\n", c->forward_steps, c->forward_steps > ran ? c->forward_steps - ran : 0, ran ? (double)c->forward_steps / (double)ran : 0.0, c->reverse_steps, c->tangent_steps));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (adj->store[l]) PetscCall(PetscViewerASCIIPrintf(viewer, "  level %" PetscInt_FMT " (%s store): %" PetscInt64_FMT " stores (%.3g MB, %.3g s), %" PetscInt64_FMT " restores (%.3g MB, %.3g s) on rank 0\n", l, ((PetscObject)adj->store[l])->type_name, c->stores[l], c->bytes_stored[l] / 1e6, (double)c->seconds_store[l], c->restores[l], c->bytes_restored[l] / 1e6, (double)c->seconds_restore[l]));
  if (c->resumed_from >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  resumed at step %" PetscInt64_FMT " from kept checkpoints (-rw_restart)\n", c->resumed_from));
  if (c->resumed_reverse_at >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  resumed the reverse sweep after step %" PetscInt64_FMT " from its keep (-rw_restart), %" PetscInt64_FMT " steps recomputed to refill checkpoints\n", c->resumed_reverse_at, c->regenerated_steps));
  if (adj->keep[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "  reverse-sweep keeps: %" PetscInt64_FMT " (%.3g MB, %.3g s) on rank 0\n", c->keeps, c->bytes_kept / 1e6, (double)c->seconds_keep));
  if (adj->horizonon) PetscCall(RwAdjointHorizonView_Private(adj, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "seconds: total %.4g, forward %.4g, reverse %.4g\n", c->seconds_total, c->seconds_forward, c->seconds_reverse));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
