/*
  The schedule validator: replays any action stream and checks every rule
  the driver relies on, so that a schedule is proven on its whole stream
  rather than trusted.  Hash maps keep it O(1) per action whatever the slots.
*/
#include "../engine.h"
#include <petsc/private/hashmap.h>

PETSC_HASH_MAP(HMapRwV, PetscInt64, PetscInt64, PetscHash_UInt64, PetscHashEqual, -1)

/* Checks cond; only a failure formats the action (as `what`, for the message) */
#define VCHECK(cond, ...) \
  do { \
    if (PetscUnlikely(!(cond))) { \
      char what[192]; \
      PetscCall(What(v, act, what, sizeof(what))); \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, __VA_ARGS__); \
    } \
  } while (0)

struct _n_RwScheduleValidator {
  PetscInt64       n, slots[RW_NUM_LEVELS];
  PetscReal        uf, ub, wd, rd;
  PetscInt64       next;  /* the next step to reverse */
  PetscInt64       work;  /* the working state x_work; -1: undefined */
  PetscInt64       adv;   /* steps advanced */
  PetscBool        ended;
  PetscBool        online; /* an online stream: its first sweep may give checkpoints up and end at x_n */
  PetscBool        atn;    /* online: the first sweep just reached x_n (the driver keeps x_(n-1) too) */
  PetscBool        wentn;  /* online: it did, so the driver took no step of its own to x_n */
  RwAction         last;  /* the previous action (type END before the first) */
  PetscHMapRwV     held[RW_NUM_LEVELS]; /* slot -> 2*step + (restored at least once) */
  PetscHMapRwV     steps;               /* step -> checkpoints holding it */
  RwScheduleCounts counts;
};

/*@
  RwScheduleValidatorCreate - a validator for the action stream of a schedule of n steps

  Not collective

  Input Parameters:
+ n     - the number of steps
- slots - the slots of each level (RW_SLOTS_UNLIMITED allowed), indexed by RW_LEVEL_RAM and RW_LEVEL_DISK

  Output Parameter:
. v - the validator; feed it every action with RwScheduleValidatorCheck()

  Level: developer

  Notes:
  The rules, each an error naming the action's index and what was expected:
+ ADVANCE a b - the working state is x_a, a < b <= the next step to reverse
. STORE level k - the working state is x_k, k >= 1, a free slot within the level's slots
. RESTORE level k - the slot holds x_k (or slot -1, "restore ram 0": x_0)
. FREE level k - immediately after a RESTORE of that checkpoint; never x_0
. REVERSE k - k is the next step to reverse (n-1, ..., 0) and the working state is x_k;
              no checkpoint of x_k may still be held (it would never be needed again:
              a checkpoint is freed right after its last restore, and one never restored
              should not have been stored)
- END - every step reversed, nothing held, and nothing after it

.seealso: RwScheduleValidate(), RwScheduleValidatorCheck(), RwScheduleValidatorGetCounts()
@*/
PetscErrorCode RwScheduleValidatorCreate(PetscInt64 n, const PetscInt64 slots[], RwScheduleValidator *v)
{
  RwScheduleValidator w;

  PetscFunctionBegin;
  PetscValidPointer(v, 3);
  PetscCheck(n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of steps n = %" PetscInt64_FMT "; expected n >= 1", n);
  PetscCall(PetscNew(&w));
  w->n    = n;
  w->next = n - 1;
  w->uf = w->ub = w->wd = w->rd = 1.0;
  w->last.type                  = RW_ACTION_END;
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) {
    PetscCheck(slots[lv] >= 0 || slots[lv] == RW_SLOTS_UNLIMITED, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Slots of level %" PetscInt_FMT ": %" PetscInt64_FMT "; expected >= 0 or RW_SLOTS_UNLIMITED", lv, slots[lv]);
    w->slots[lv] = slots[lv];
    PetscCall(PetscHMapRwVCreate(&w->held[lv]));
  }
  PetscCall(PetscHMapRwVCreate(&w->steps));
  w->counts.reverse_steps = 0;
  *v                      = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleValidatorSetCosts - the costs for the cost in the counts (default 1 each)

  Not collective

  Level: developer

.seealso: RwScheduleSetCosts()
@*/
PetscErrorCode RwScheduleValidatorSetCosts(RwScheduleValidator v, PetscReal uf, PetscReal ub, PetscReal wd, PetscReal rd)
{
  PetscFunctionBegin;
  v->uf = uf;
  v->ub = ub;
  v->wd = wd;
  v->rd = rd;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleValidatorSetOnline - checks an online stream (RWSCHEDULEONLINE): before
  its first REVERSE it may FREE a checkpoint never restored (given up as the run
  grew), and its first sweep may end with ADVANCE (n-1) n, the step on which the
  run stopped, after which the driver holds x_(n-1) and x_n: only such FREEs and
  REVERSE n-1 may follow, and no step of the driver's own is counted

  Not collective

  Level: developer

.seealso: RwScheduleValidatorCreate(), RwScheduleStopAt()
@*/
PetscErrorCode RwScheduleValidatorSetOnline(RwScheduleValidator v, PetscBool online)
{
  PetscFunctionBegin;
  PetscCheck(!v->counts.actions, PETSC_COMM_SELF, PETSC_ERR_ORDER, "RwScheduleValidatorSetOnline() before the first action");
  v->online = online;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "Schedule action 17 \"restore disk 12\"": where the stream broke a rule */
static PetscErrorCode What(RwScheduleValidator v, const RwAction *act, char what[], size_t len)
{
  char line[128];

  PetscFunctionBegin;
  PetscCall(RwActionFormat(act, line, sizeof(line)));
  PetscCall(PetscSNPrintf(what, len, "Schedule action %" PetscInt64_FMT " \"%s\"", v->counts.actions, line));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Online: once the first sweep reached x_n, only the checkpoints given up and REVERSE n-1 may follow */
static PetscErrorCode CheckNotAtN(RwScheduleValidator v, const RwAction *act)
{
  PetscFunctionBegin;
  VCHECK(!v->atn, "%s: the online sweep reached x_%" PetscInt64_FMT ", the last step; only FREEs of checkpoints given up and REVERSE %" PetscInt64_FMT " may follow", what, v->n, v->n - 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckAdvance(RwScheduleValidator v, const RwAction *act)
{
  PetscBool last = (PetscBool)(v->online && act->b == v->n && v->next == v->n - 1);

  PetscFunctionBegin;
  PetscCall(CheckNotAtN(v, act));
  VCHECK(v->work >= 0, "%s: the working state is undefined; after a REVERSE the next action must be RESTORE, FREE or END", what);
  VCHECK(act->a == v->work, "%s: the working state is x_%" PetscInt64_FMT ", not x_%" PetscInt64_FMT, what, v->work, act->a);
  VCHECK(act->b > act->a, "%s: expected an advance to a later step", what);
  VCHECK(act->b <= v->next || last, "%s: goes past step %" PetscInt64_FMT ", the next step to reverse", what, v->next);
  v->adv += act->b - act->a;
  v->work = last ? v->n - 1 : act->b; /* at x_n the driver keeps x_(n-1) for REVERSE n-1 */
  v->atn = last;
  if (last) v->wentn = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckLevelSlot(RwScheduleValidator v, const RwAction *act)
{
  PetscFunctionBegin;
  VCHECK(act->level >= 0 && act->level < RW_NUM_LEVELS, "%s: level %" PetscInt_FMT "; expected RW_LEVEL_RAM (0) or RW_LEVEL_DISK (1)", what, act->level);
  if (act->type == RW_ACTION_RESTORE && act->slot == -1) PetscFunctionReturn(PETSC_SUCCESS);
  VCHECK(v->slots[act->level] != 0, "%s: this level has no slots", what);
  VCHECK(act->slot >= 0 && (v->slots[act->level] == RW_SLOTS_UNLIMITED || act->slot < v->slots[act->level]), "%s: slot %" PetscInt64_FMT "; expected 0 <= slot < %" PetscInt64_FMT " (the level's slots)", what, act->slot, v->slots[act->level]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckStore(RwScheduleValidator v, const RwAction *act)
{
  PetscInt64 had, cnt;
  PetscInt   size;

  PetscFunctionBegin;
  PetscCall(CheckNotAtN(v, act));
  PetscCall(CheckLevelSlot(v, act));
  VCHECK(v->work >= 0 && act->a == v->work, "%s: the working state is %s%" PetscInt64_FMT ", not x_%" PetscInt64_FMT, what, v->work >= 0 ? "x_" : "undefined ", v->work, act->a);
  VCHECK(act->a >= 1, "%s: step 0 is never stored: x_0 is the driver's input, restorable without a slot", what);
  PetscCall(PetscHMapRwVGet(v->held[act->level], act->slot, &had));
  VCHECK(had < 0, "%s: slot %" PetscInt64_FMT " already holds x_%" PetscInt64_FMT, what, act->slot, had / 2);
  PetscCall(PetscHMapRwVSet(v->held[act->level], act->slot, 2 * act->a));
  PetscCall(PetscHMapRwVGet(v->steps, act->a, &cnt));
  PetscCall(PetscHMapRwVSet(v->steps, act->a, cnt < 0 ? 1 : cnt + 1));
  PetscCall(PetscHMapRwVGetSize(v->held[act->level], &size));
  v->counts.stores[act->level]++;
  v->counts.max_slots_used[act->level] = PetscMax(v->counts.max_slots_used[act->level], size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckRestore(RwScheduleValidator v, const RwAction *act)
{
  PetscInt64 had;

  PetscFunctionBegin;
  PetscCall(CheckNotAtN(v, act));
  PetscCall(CheckLevelSlot(v, act));
  if (act->slot == -1) {
    VCHECK(act->level == RW_LEVEL_RAM && act->a == 0, "%s: slot -1 is x_0 only, restored as level RAM step 0", what);
  } else {
    PetscCall(PetscHMapRwVGet(v->held[act->level], act->slot, &had));
    VCHECK(had >= 0, "%s: slot %" PetscInt64_FMT " holds nothing; only stored checkpoints can be restored", what, act->slot);
    VCHECK(had / 2 == act->a, "%s: slot %" PetscInt64_FMT " holds x_%" PetscInt64_FMT ", not x_%" PetscInt64_FMT, what, act->slot, had / 2, act->a);
    PetscCall(PetscHMapRwVSet(v->held[act->level], act->slot, 2 * act->a + 1));
  }
  v->work = act->a;
  v->counts.restores[act->level]++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckFree(RwScheduleValidator v, const RwAction *act)
{
  PetscInt64 cnt, had = -1;

  PetscFunctionBegin;
  VCHECK(act->slot != -1, "%s: x_0 (slot -1) is the driver's input and is never freed", what);
  PetscCall(CheckLevelSlot(v, act));
  if (v->online) PetscCall(PetscHMapRwVGet(v->held[act->level], act->slot, &had));
  if (v->online && !v->counts.reverse_steps && had >= 0 && had / 2 == act->a && had % 2 == 0) {
    /* an online first sweep gives up a checkpoint it will not need: allowed */
  } else if (!(v->last.type == RW_ACTION_RESTORE && v->last.level == act->level && v->last.slot == act->slot && v->last.a == act->a)) {
    char last[128];

    PetscCall(RwActionFormat(&v->last, last, sizeof(last)));
    VCHECK(PETSC_FALSE, "%s: a checkpoint is freed right after its last restore, but the previous action was \"%s\" (slot %" PetscInt64_FMT ")", what, last, v->last.slot);
  }
  PetscCall(PetscHMapRwVDel(v->held[act->level], act->slot));
  PetscCall(PetscHMapRwVGet(v->steps, act->a, &cnt));
  if (cnt > 1) PetscCall(PetscHMapRwVSet(v->steps, act->a, cnt - 1));
  else PetscCall(PetscHMapRwVDel(v->steps, act->a));
  v->counts.frees[act->level]++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The checkpoint of x_k still held at the reverse of k, for the error message */
static PetscErrorCode FindHeld(RwScheduleValidator v, PetscInt64 k, PetscInt *level, PetscInt64 *slot, PetscBool *restored)
{
  PetscFunctionBegin;
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) {
    PetscInt    size, off = 0;
    PetscInt64 *keys, *vals;

    PetscCall(PetscHMapRwVGetSize(v->held[lv], &size));
    PetscCall(PetscMalloc2(size, &keys, size, &vals));
    PetscCall(PetscHMapRwVGetPairs(v->held[lv], &off, keys, vals));
    for (PetscInt i = 0; i < size; i++)
      if (vals[i] / 2 == k) {
        *level    = lv;
        *slot     = keys[i];
        *restored = (PetscBool)(vals[i] % 2);
      }
    PetscCall(PetscFree2(keys, vals));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckReverse(RwScheduleValidator v, const RwAction *act)
{
  PetscInt64 cnt, slot = -1;
  PetscInt   level     = 0;
  PetscBool  restored  = PETSC_FALSE;

  PetscFunctionBegin;
  VCHECK(act->a == v->next, "%s: expected reverse %" PetscInt64_FMT "; steps are reversed once each in the order n-1, ..., 0", what, v->next);
  VCHECK(v->work == act->a, "%s: the working state must be x_%" PetscInt64_FMT "; it is %s%" PetscInt64_FMT, what, act->a, v->work >= 0 ? "x_" : "undefined ", v->work);
  PetscCall(PetscHMapRwVGet(v->steps, act->a, &cnt));
  if (cnt > 0) PetscCall(FindHeld(v, act->a, &level, &slot, &restored));
  VCHECK(cnt <= 0, "%s: slot %" PetscInt64_FMT " of %s still holds x_%" PetscInt64_FMT ", which is never needed again: %s", what, slot, level == RW_LEVEL_RAM ? "RAM" : "disk", act->a,
             restored ? "a checkpoint is freed right after its last restore" : "it was stored and never restored");
  v->next--;
  v->work = -1;
  v->atn  = PETSC_FALSE;
  v->counts.reverse_steps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckEnd(RwScheduleValidator v, const RwAction *act)
{
  PetscInt size[RW_NUM_LEVELS];

  PetscFunctionBegin;
  VCHECK(v->next == -1, "%s: steps %" PetscInt64_FMT ", ..., 0 are not reversed yet", what, v->next);
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) PetscCall(PetscHMapRwVGetSize(v->held[lv], &size[lv]));
  VCHECK(!size[0] && !size[1], "%s: %" PetscInt_FMT " RAM and %" PetscInt_FMT " disk checkpoints still held; every checkpoint is freed", what, size[0], size[1]);
  v->ended = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleValidatorCheck - checks the next action of the stream against every rule

  Not collective

  Input Parameters:
+ v   - the validator
- act - the action

  Level: developer

  Notes:
  The first broken rule is an error (PETSC_ERR_ARG_WRONG) whose message gives
  the action's index in the stream (from 0), the action, and what was expected.

.seealso: RwScheduleValidatorCreate()
@*/
PetscErrorCode RwScheduleValidatorCheck(RwScheduleValidator v, const RwAction *act)
{
  PetscFunctionBegin;
  PetscValidPointer(act, 2);
  VCHECK(!v->ended, "%s: comes after END", what);
  switch (act->type) {
  case RW_ACTION_ADVANCE:
    PetscCall(CheckAdvance(v, act));
    break;
  case RW_ACTION_STORE:
    PetscCall(CheckStore(v, act));
    break;
  case RW_ACTION_RESTORE:
    PetscCall(CheckRestore(v, act));
    break;
  case RW_ACTION_FREE:
    PetscCall(CheckFree(v, act));
    break;
  case RW_ACTION_REVERSE:
    PetscCall(CheckReverse(v, act));
    break;
  case RW_ACTION_END:
    PetscCall(CheckEnd(v, act));
    break;
  default:
    VCHECK(PETSC_FALSE, "%s: unknown action type", what);
  }
  v->last = *act;
  v->counts.actions++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleValidatorGetCounts - what the stream checked so far did

  Not collective

  Output Parameter:
. counts - forward steps (advanced + 1), reverse steps, stores, restores, frees and most slots held per level, actions, cost

  Level: developer

.seealso: RwScheduleValidatorCheck(), RwScheduleGetPrediction()
@*/
PetscErrorCode RwScheduleValidatorGetCounts(RwScheduleValidator v, RwScheduleCounts *counts)
{
  PetscFunctionBegin;
  PetscValidPointer(counts, 2);
  *counts               = v->counts;
  counts->forward_steps = v->adv + (v->wentn ? 0 : 1); /* the driver's step to x_n, unless an online sweep advanced to it */
  counts->cost          = v->uf * (PetscReal)counts->forward_steps + v->ub * (PetscReal)counts->reverse_steps + v->wd * (PetscReal)counts->stores[RW_LEVEL_DISK] + v->rd * (PetscReal)counts->restores[RW_LEVEL_DISK];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleValidatorDestroy - frees a validator; safe on NULL

  Not collective

  Level: developer

.seealso: RwScheduleValidatorCreate()
@*/
PetscErrorCode RwScheduleValidatorDestroy(RwScheduleValidator *v)
{
  PetscFunctionBegin;
  if (!v || !*v) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt lv = 0; lv < RW_NUM_LEVELS; lv++) PetscCall(PetscHMapRwVDestroy(&(*v)->held[lv]));
  PetscCall(PetscHMapRwVDestroy(&(*v)->steps));
  PetscCall(PetscFree(*v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwScheduleValidate - replays the whole stream of a schedule through a validator and returns what it did

  Not collective

  Input Parameter:
. sched - the schedule, set up

  Output Parameter:
. counts - the replayed counts (NULL if not wanted)

  Level: intermediate

  Notes:
  The stream is checked with the schedule's own steps, slots and costs; the
  first broken rule is an error naming the action. The schedule is reset
  before and after, so the driver starts from the first action.

.seealso: RwScheduleValidatorCreate(), RwScheduleGetPrediction()
@*/
PetscErrorCode RwScheduleValidate(RwSchedule sched, RwScheduleCounts *counts)
{
  RwScheduleValidator v;
  RwAction            act;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCheck(sched->setupcalled, PetscObjectComm((PetscObject)sched), PETSC_ERR_ARG_WRONGSTATE, "Call RwScheduleSetUp() before RwScheduleValidate()");
  PetscCall(RwScheduleValidatorCreate(sched->n, sched->avail, &v));
  PetscCall(RwScheduleValidatorSetCosts(v, sched->uf, sched->ub, sched->wd, sched->rd));
  PetscCall(RwScheduleValidatorSetOnline(v, sched->online));
  PetscCall(RwScheduleReset(sched));
  do {
    PetscCall(RwScheduleNext(sched, &act));
    PetscCall(RwScheduleValidatorCheck(v, &act));
  } while (act.type != RW_ACTION_END);
  if (counts) PetscCall(RwScheduleValidatorGetCounts(v, counts));
  PetscCall(RwScheduleValidatorDestroy(&v));
  PetscCall(RwScheduleReset(sched));
  PetscFunctionReturn(PETSC_SUCCESS);
}
