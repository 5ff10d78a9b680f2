static char help[] = "rewind-schedule: prints, checks and draws a checkpointing schedule.\n"
                     "  rewind-schedule -rw_steps 10000 -rw_schedule_type revolve -rw_schedule_ram_slots 10\n"
                     "prints a summary (forward_steps, reverse_steps, stores_ram, ..., recompute_ratio) as `key value` lines.\n"
                     "Moderate n (up to 2e5) is replayed and validated; larger n is summarised from the type's prediction.\n\n";

#include <rewind.h>
#include <string.h>

/* The fewest forward steps possible with all the slots this schedule may hold */
static PetscErrorCode OptimalForward(RwSchedule s, const RwScheduleCounts *c, PetscInt64 *opt)
{
  PetscInt   nlevels;
  PetscInt64 n, slots = 0, sl;

  PetscFunctionBegin;
  PetscCall(RwScheduleGetSteps(s, &n));
  PetscCall(RwScheduleGetNumLevels(s, &nlevels));
  for (PetscInt lv = 0; lv < nlevels; lv++) {
    PetscCall(RwScheduleGetSlots(s, lv, &sl));
    slots += sl == RW_SLOTS_UNLIMITED ? c->max_slots_used[lv] : PetscMin(sl, n);
  }
  PetscCall(RwOptimalForwardSteps(n, slots, opt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrintSummary(RwSchedule s, const RwScheduleCounts *c)
{
  PetscInt64 n, opt;

  PetscFunctionBegin;
  PetscCall(RwScheduleGetSteps(s, &n));
  PetscCall(OptimalForward(s, c, &opt));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "forward_steps %" PetscInt64_FMT "\nreverse_steps %" PetscInt64_FMT "\n", c->forward_steps, c->reverse_steps));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "stores_ram %" PetscInt64_FMT "\nrestores_ram %" PetscInt64_FMT "\n", c->stores[RW_LEVEL_RAM], c->restores[RW_LEVEL_RAM]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "stores_disk %" PetscInt64_FMT "\nrestores_disk %" PetscInt64_FMT "\n", c->stores[RW_LEVEL_DISK], c->restores[RW_LEVEL_DISK]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "predicted_cost %.10g\noptimal_forward_steps %" PetscInt64_FMT "\nrecompute_ratio %.6f\n", (double)c->cost, opt, (double)c->forward_steps / (double)n));
  {
    PetscBool  online;
    PetscInt64 slots, bound;

    PetscCall(RwScheduleIsOnline(s, &online));
    PetscCall(RwScheduleGetSlots(s, RW_LEVEL_RAM, &slots));
    if (online) PetscCall(RwScheduleOnlineBound(n, slots, &bound));
    if (online) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "online_bound %" PetscInt64_FMT "\n", bound)); /* a run that stops at n: the forward steps are at most this */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The replayed counts must be the predicted ones */
static PetscErrorCode Validate(RwSchedule s, const RwScheduleCounts *p)
{
  RwScheduleCounts r;

  PetscFunctionBegin;
  PetscCall(RwScheduleValidate(s, &r));
  PetscCheck(r.forward_steps == p->forward_steps && r.stores[0] == p->stores[0] && r.stores[1] == p->stores[1] && r.restores[0] == p->restores[0] && r.restores[1] == p->restores[1] && r.actions == p->actions, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
             "The replayed stream (%" PetscInt64_FMT " forward steps, %" PetscInt64_FMT " actions) differs from the prediction (%" PetscInt64_FMT ", %" PetscInt64_FMT ")", r.forward_steps, r.actions, p->forward_steps, p->actions);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# validated: %" PetscInt64_FMT " actions replayed, every rule holds, counts as predicted\n", r.actions));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ViewActions(RwSchedule s)
{
  RwAction a;

  PetscFunctionBegin;
  PetscCall(RwScheduleReset(s));
  do {
    PetscCall(RwScheduleNext(s, &a));
    PetscCall(RwActionView(&a, PETSC_VIEWER_STDOUT_WORLD));
  } while (a.type != RW_ACTION_END);
  PetscCall(RwScheduleReset(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the program does once the schedule is set up: everything -help does not do */
static PetscErrorCode Run(RwSchedule s, PetscBool actions, PetscBool validate, PetscBool vset, PetscBool dset, const char draw[])
{
  RwScheduleCounts c;
  PetscInt64       n;

  PetscFunctionBegin;
  PetscCall(RwScheduleGetSteps(s, &n));
  if (actions) PetscCall(ViewActions(s));
  PetscCall(RwScheduleGetPrediction(s, &c));
  if (vset ? validate : n <= 200000) PetscCall(Validate(s, &c));
  PetscCall(PrintSummary(s, &c));
  if (dset) {
    size_t len;

    PetscCall(PetscStrlen(draw, &len));
    PetscCheck(len > 4 && !strcmp(draw + len - 4, ".svg"), PETSC_COMM_WORLD, PETSC_ERR_SUP, "-rw_schedule_view_draw %s: rewind-schedule draws SVG; name the file *.svg (any browser shows it; rsvg-convert makes a PNG)", draw);
    PetscCall(RwScheduleViewSVG(s, draw));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule set up; when the options do not make one (revolve without
   slots, a budget that holds no state, ...), the reason in one line on stderr
   instead of a PETSc error dump: every set-up error here is the user's
   options, and the schedule's messages name them */
static PetscErrorCode SetUpOrSay(RwSchedule s, PetscBool *failed)
{
  PetscErrorCode ierr;
  const char    *text;
  char          *specific = NULL;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = RwScheduleSetUp(s);
  PetscCall(PetscPopErrorHandler());
  *failed = (PetscBool)(ierr != PETSC_SUCCESS);
  if (!*failed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscErrorMessage(ierr, &text, &specific));
  PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "rewind-schedule: %s (rewind-schedule -help lists every option)\n", specific && specific[0] ? specific : text));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  RwSchedule s;
  PetscReal  steps = 0;
  PetscInt64 n, bytes = 0;
  char       draw[PETSC_MAX_PATH_LEN] = "", state[64] = "";
  PetscBool  actions = PETSC_FALSE, validate = PETSC_FALSE, vset, dset, nset, stop, missing;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-schedule options", "RwSchedule");
  PetscCall(RwOptionsReal("-rw_steps", "Number of time steps n (required; 1e9 is fine)", NULL, steps, &steps, &nset, 1, 9e18, RW_RANGE_OPEN_HI));
  PetscCall(PetscOptionsBool("-rw_schedule_view_actions", "Print the actions, one a line", NULL, actions, &actions, NULL));
  PetscCall(PetscOptionsString("-rw_schedule_view_draw", "Draw the schedule into this SVG file", "RwScheduleViewSVG", draw, draw, sizeof(draw), &dset));
  PetscCall(PetscOptionsBool("-rw_schedule_validate", "Replay and validate the stream (default: when n <= 2e5)", "RwScheduleValidate", validate, &validate, &vset));
  PetscCall(PetscOptionsName("-rw_schedule_view", "View the schedule once set up", "RwScheduleView", NULL)); /* read by PetscObjectViewFromOptions(), after -help stops */
  PetscCall(PetscOptionsString("-rw_state_bytes", "Bytes of one state, for -rw_checkpoint_ram and -rw_checkpoint_disk", "RwScheduleSetStateBytes", state, state, sizeof(state), NULL));
  PetscOptionsEnd();
  PetscCall(RwOptionsRequired(PETSC_COMM_WORLD, "-rw_steps", "the number of time steps n, e.g. -rw_steps 10000", nset, &missing));
  if (missing) {
    PetscCall(PetscFinalize());
    return 1;
  }
  if (!nset) steps = 1; /* -help alone: the schedule's options as a run of one step reads them */
  n = (PetscInt64)steps;
  PetscCheck(steps >= 1 && (PetscReal)n == steps && steps < 9e18, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_steps %.17g: expected a whole number of steps >= 1", (double)steps);
  if (state[0]) PetscCall(RwParseBytes(state, &bytes));
  PetscCall(RwScheduleCreate(PETSC_COMM_WORLD, &s));
  PetscCall(RwScheduleSetSteps(s, n));
  PetscCall(RwScheduleSetStateBytes(s, bytes, bytes));
  PetscCall(RwScheduleSetFromOptions(s));
  PetscCall(RwHelpStop(PETSC_COMM_WORLD, &stop)); /* every option is read by now; set-up may need more (slots) */
  if (!stop) {
    PetscCall(RwOptionsCheckUnknown(PETSC_COMM_WORLD)); /* a misspelled option, before the set-up it may explain fails */
    PetscCall(SetUpOrSay(s, &missing)); /* options that do not make a schedule: one line, not a dump */
    if (missing) {
      PetscCall(RwScheduleDestroy(&s));
      PetscCall(PetscFinalize());
      return 1;
    }
    PetscCall(PetscObjectViewFromOptions((PetscObject)s, NULL, "-rw_schedule_view"));
    PetscCall(Run(s, actions, validate, vset, dset, draw));
  }
  PetscCall(RwScheduleDestroy(&s));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD)); /* a misspelled option would otherwise pass in silence */
  PetscCall(PetscFinalize());
  return 0;
}
