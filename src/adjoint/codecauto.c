/*
  -rw_store_compress auto (issue 36): each level's codec chosen by the driver
  from a cost model of measured costs.

  A codec pays only where it buys slots: in a RAM budget planned at the
  compressed size (pool.c; revolve, multilevel's RAM level or online in
  -rw_checkpoint_ram or the default budget).  There, for each candidate C
  (none, lossless, and zfp only when the user allowed a lossy gradient by
  giving -rw_store_compress_tolerance), the budget buys the slots x_0's size
  under C allows (the pool's own plan), the schedule predicts F_C forward
  steps, S_C stores and R_C restores on the RAM level (and S, R on the disk
  level of a multilevel schedule), and

      t_C = F_C t_step + n t_reverse + S_C t_encode,C + R_C t_decode,C
            + S_disk t_write + R_disk t_read

  is the predicted gradient.  The smallest wins, and a codec wins over none
  only when its t_C is below 0.9 t_none (RW_CODEC_AUTO_MARGIN): timings of a
  few states are noisy, and where nothing pays auto must be none.  none's
  stores and restores count as free (a copy), so the margin leans to none.

  The costs.  At the first solve nothing has been measured: the driver times
  a pilot step from x_0 into a scratch vector (RwModelTimeStep_Private(), as
  the default schedule's choice by time does: the second of two, neither
  counted), takes a reverse step to cost what a forward step does, and times
  each candidate's encode and decode of x_0 (the second of two).  The disk
  level's I/O is unknown then and counts as 0.  After each solve the step,
  reverse and disk costs are the measured ones (RwAdjointGetMeasuredCosts()),
  the chosen codec's encode and decode its store's measured means, and the
  choice is made again; a different choice makes the RAM store again at the
  next solve, planned afresh.  Every figure is the largest over the ranks, so
  every rank chooses alike.

  Where no codec can buy slots (store-all, fixed slots, an hdf5 RAM level,
  -rw_restart or reverse keeps, and the disk level, whose slots are fixed),
  auto is none.  A lossless choice keeps the gradient's bits; a zfp choice
  is printed by -rw_adjoint_view with its tolerance, never silent.
*/
#include "rwconfig.h"
#include <rewind/private/adjointimpl.h>
#include <rewind/private/scheduleimpl.h>
#include <rewind/private/storeimpl.h>

#define RW_CODEC_AUTO_MARGIN 0.9

/* Seconds to keep x_0 with the store's codec and to read it back (the
   second of two each), and the bytes kept; the store's counts untouched */
static PetscErrorCode RwCodecAutoTime(RwAdjoint adj, RwStore store, Vec u0, PetscReal *enc, PetscReal *dec, PetscInt64 *bytes)
{
  RwStoreCounts  keep = store->counts;
  RwCodecRecord  rec;
  char          *buf;
  PetscLogDouble t0, t1, t2;

  PetscFunctionBegin;
  if (!store->setupcalled) PetscCall(RwCodecSetUp(store));
  PetscCall(PetscMalloc1(store->codec.cap, &buf)); /* once per choice, outside the time loop */
  PetscCall(RwCodecEncode(store, u0, buf, &rec));
  PetscCall(RwCodecDecode(store, buf, &rec, "x_0 (timed for -rw_store_compress auto)", adj->T));
  PetscCall(PetscTime(&t0));
  PetscCall(RwCodecEncode(store, u0, buf, &rec));
  PetscCall(PetscTime(&t1));
  PetscCall(RwCodecDecode(store, buf, &rec, "x_0 (timed for -rw_store_compress auto)", adj->T));
  PetscCall(PetscTime(&t2));
  PetscCall(PetscFree(buf));
  store->counts = keep;
  *enc          = (PetscReal)(t1 - t0);
  *dec          = (PetscReal)(t2 - t1);
  *bytes        = (PetscInt64)rec.len;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each candidate's sizes and codec times on x_0, the largest over the ranks; the store's codec left as it was */
static PetscErrorCode RwCodecAutoMeasure(RwAdjoint adj, RwStore store, Vec u0)
{
  RwAdjointCodecChoice *ch = &adj->codecchoice[RW_LEVEL_RAM];
  PetscReal             t[6] = {0, 0, 0, 0, 0, 0}, tol;
  PetscInt64            b[3];
  RwStoreCompressType   type;

  PetscFunctionBegin;
  PetscCall(RwStoreGetCompress(store, &type, NULL));
  PetscCall(RwAdjointErrestTolerance_Private(adj, RW_LEVEL_RAM, store, &tol));
  b[0] = store->bytes;
  for (PetscInt c = 1; c < 3; c++) {
    b[c] = 0;
    if (c == RW_STORE_COMPRESS_ZFP && !ch->lossy) continue;
    PetscCall(RwStoreSetCompress(store, (RwStoreCompressType)c, tol));
    PetscCall(RwCodecAutoTime(adj, store, u0, &t[c], &t[3 + c], &b[c]));
  }
  PetscCall(RwStoreSetCompress(store, type, tol));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t, 6, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)adj)));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, b, 3, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)adj)));
  for (PetscInt c = 0; c < 3; c++) {
    ch->encode[c] = t[c];
    ch->decode[c] = t[3 + c];
    ch->bytes[c]  = b[c];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule candidate c's size buys (the pool's plan: slots 0 where the
   budget holds no state of that size), then the schedule planned as it was */
static PetscErrorCode RwCodecAutoPredictOne(RwAdjoint adj, PetscInt c)
{
  RwAdjointCodecChoice *ch  = &adj->codecchoice[RW_LEVEL_RAM];
  PetscInt64            was = adj->sched->state_bytes[RW_LEVEL_RAM];
  RwScheduleCounts      pred;

  PetscFunctionBegin;
  ch->slots[c] = ch->forward_steps[c] = 0;
  if ((c == RW_STORE_COMPRESS_ZFP && !ch->lossy) || adj->sched->budget[RW_LEVEL_RAM] < ch->bytes[c]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAdjointPoolPredict_Private(adj, ch->bytes[c], &pred));
  ch->slots[c]         = adj->sched->avail[RW_LEVEL_RAM];
  ch->forward_steps[c] = pred.forward_steps;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    adj->codecpred[c][l][0] = pred.stores[l];
    adj->codecpred[c][l][1] = pred.restores[l];
  }
  PetscCall(RwAdjointPoolPredict_Private(adj, was, &pred));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Predicted seconds of each candidate from the costs in ch and the disk's (io: write, read), and the choice */
static void RwCodecAutoChoose(RwAdjoint adj, const PetscReal io[2])
{
  RwAdjointCodecChoice *ch = &adj->codecchoice[RW_LEVEL_RAM];

  ch->type = RW_STORE_COMPRESS_NONE;
  for (PetscInt c = 0; c < 3; c++) {
    const PetscInt64(*p)[2] = adj->codecpred[c];

    ch->seconds[c] = -1;
    if (!ch->slots[c]) continue; /* not a candidate, or no state of its size fits */
    ch->seconds[c] = ch->forward_steps[c] * ch->step + adj->n * ch->reverse + p[RW_LEVEL_DISK][0] * io[0] + p[RW_LEVEL_DISK][1] * io[1];
    if (c != RW_STORE_COMPRESS_NONE) ch->seconds[c] += p[RW_LEVEL_RAM][0] * ch->encode[c] + p[RW_LEVEL_RAM][1] * ch->decode[c];
    if (c != RW_STORE_COMPRESS_NONE && ch->seconds[c] < RW_CODEC_AUTO_MARGIN * ch->seconds[0] && (ch->type == RW_STORE_COMPRESS_NONE || ch->seconds[c] < ch->seconds[ch->type])) ch->type = (RwStoreCompressType)c;
  }
}

/* The first solve's step costs: a pilot forward step from x_0 (not counted), a reverse step taken to cost as much */
static PetscErrorCode RwCodecAutoPilot(RwAdjoint adj, Vec u0)
{
  RwAdjointCodecChoice *ch = &adj->codecchoice[RW_LEVEL_RAM];
  PetscReal             first;

  PetscFunctionBegin;
  PetscCall(RwModelTimeStep_Private(adj->model, 0, u0, adj->N, &first));
  PetscCall(RwModelTimeStep_Private(adj->model, 0, u0, adj->N, &ch->step));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &ch->step, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)adj)));
  if (adj->codecstep > 0) ch->step = adj->codecstep;
  ch->reverse = ch->step;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointCodecAuto_Private - at the making of level l's store (its options
  read, not set up): where its codec is auto, the codec chosen (at the first
  making, from x_0 = u0 and a pilot step; at later makings, the choice made
  before) and given to the store.  Collective.
*/
PetscErrorCode RwAdjointCodecAuto_Private(RwAdjoint adj, PetscInt l, RwStore store, Vec u0)
{
  RwAdjointCodecChoice *ch = &adj->codecchoice[l];
  const PetscReal       io[2] = {0, 0}; /* no disk I/O measured before the first solve */
  PetscBool             isauto, lossy;
  PetscReal             tol;

  PetscFunctionBegin;
  PetscCall(RwStoreGetCompressAuto(store, &isauto, &lossy));
  if (!isauto) PetscFunctionReturn(PETSC_SUCCESS);
  if (!ch->chosen) {
    ch->isauto = ch->chosen = PETSC_TRUE;
    ch->lossy               = lossy;
#if !defined(RW_HAVE_ZFP)
    ch->lossy = PETSC_FALSE; /* no zfp in this build: lossless or none */
#endif
    ch->type                = RW_STORE_COMPRESS_NONE;
    for (PetscInt c = 0; c < 3; c++) ch->seconds[c] = -1;
    if (l == RW_LEVEL_RAM && u0) PetscCall(RwAdjointPoolWouldApply_Private(adj, store, &ch->budget));
    if (ch->budget) {
      PetscCall(RwCodecAutoMeasure(adj, store, u0));
      for (PetscInt c = 0; c < 3; c++) PetscCall(RwCodecAutoPredictOne(adj, c));
      PetscCall(RwCodecAutoPilot(adj, u0));
      RwCodecAutoChoose(adj, io);
    }
  }
  PetscCall(RwAdjointErrestTolerance_Private(adj, l, store, &tol));
  PetscCall(RwStoreSetCompress(store, ch->type, tol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointCodecAutoEnd_Private - after a solve: the RAM level's choice made
  again from the costs it measured; a different one makes the RAM store, and
  the pool's plan, again at the next solve's start.  Collective.
*/
PetscErrorCode RwAdjointCodecAutoEnd_Private(RwAdjoint adj)
{
  RwAdjointCodecChoice *ch = &adj->codecchoice[RW_LEVEL_RAM];
  RwStore               store = adj->store[RW_LEVEL_RAM];
  RwStoreCompressType   was   = ch->type;
  RwStoreCounts         k;
  PetscReal             c[4], t[2] = {0, 0};

  PetscFunctionBegin;
  ch->used = was;
  if (!ch->budget || !store || !adj->counts.forward_steps) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAdjointGetMeasuredCosts(adj, c));
  PetscCall(RwStoreGetCounts(store, &k));
  if (k.writes) t[0] = k.seconds_compress / k.writes;
  if (k.reads) t[1] = k.seconds_decompress / k.reads;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)adj)));
  ch->step     = adj->codecstep > 0 ? adj->codecstep : c[0];
  ch->reverse  = c[1];
  ch->measured = PETSC_TRUE;
  if (was != RW_STORE_COMPRESS_NONE && k.writes) ch->encode[was] = t[0];
  if (was != RW_STORE_COMPRESS_NONE && k.reads) ch->decode[was] = t[1];
  if (was != RW_STORE_COMPRESS_NONE && adj->pool.pooled) { /* the slots the largest state kept buys: x_0 may have compressed better */
    PetscInt64 per = PetscMax(k.kept_max, adj->poolnext[0] ? adj->poolnext[1] : adj->pool.planned_bytes);

    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)adj)));

    if (per > ch->bytes[was]) {
      ch->bytes[was] = per;
      PetscCall(RwCodecAutoPredictOne(adj, was));
    }
  }
  RwCodecAutoChoose(adj, &c[2]);
  adj->codecremake = (PetscBool)(ch->type != was); /* the store stays till then: its counts describe the solve just ended */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAdjointCodecAutoBegin_Private - before a solve makes its stores: after a
  different choice, the RAM store goes, to be made again with the new codec
  and the pool planned afresh at its size.  Collective.
*/
PetscErrorCode RwAdjointCodecAutoBegin_Private(RwAdjoint adj)
{
  RwAdjointCodecChoice *ch = &adj->codecchoice[RW_LEVEL_RAM];
  RwScheduleCounts      pred;

  PetscFunctionBegin;
  if (!adj->codecremake) PetscFunctionReturn(PETSC_SUCCESS);
  adj->codecremake = PETSC_FALSE;
  PetscCall(RwStoreDestroy(&adj->store[RW_LEVEL_RAM]));
  adj->pool.pooled = PETSC_FALSE;
  adj->poolnext[0] = adj->poolnext[1] = 0;
  PetscCall(RwAdjointPoolPredict_Private(adj, ch->bytes[RW_STORE_COMPRESS_NONE], &pred)); /* the pool's first plan reads the uncompressed size here */
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    PetscInt64 slots;

    if (!adj->store[l]) continue;
    PetscCall(RwStoreGetSlots(adj->store[l], &slots));
    if (slots < pred.max_slots_used[l]) PetscCall(RwStoreDestroy(&adj->store[l])); /* made again, larger */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The view's lines: each auto level's choice and the seconds predicted for each candidate */
PetscErrorCode RwAdjointCodecAutoView_Private(RwAdjoint adj, PetscViewer viewer)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    RwAdjointCodecChoice *ch   = &adj->codecchoice[l];
    const char           *name = l == RW_LEVEL_RAM ? "RAM" : "disk";
    char                  zfp[128];

    if (!ch->chosen) continue;
    if (!ch->budget) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "codec auto (%s level): none, since no codec buys slots here (auto compresses only in a RAM budget planned at the compressed size: revolve, multilevel or online with -rw_checkpoint_ram or the default budget, memory store)\n", name));
      continue;
    }
    if (ch->lossy) PetscCall(PetscSNPrintf(zfp, sizeof(zfp), "zfp %.4g s (lossy: allowed by -rw_store_compress_tolerance)", (double)ch->seconds[2]));
    else PetscCall(PetscStrncpy(zfp, "zfp not allowed (give -rw_store_compress_tolerance to allow a lossy gradient)", sizeof(zfp)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "codec auto (%s level): %s, predicted %.4g s against none %.4g s, lossless %.4g s, %s\n", name, RwStoreCompressTypes[ch->type], (double)ch->seconds[ch->type], (double)ch->seconds[0], (double)ch->seconds[1], zfp));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  from a %s step of %.3g ms and a reverse step of %.3g ms; slots none/lossless/zfp %" PetscInt64_FMT "/%" PetscInt64_FMT "/%" PetscInt64_FMT ", forward steps %" PetscInt64_FMT "/%" PetscInt64_FMT "/%" PetscInt64_FMT "; encode, decode ms lossless %.3g, %.3g, zfp %.3g, %.3g; a codec must predict 10%% less than none\n", ch->measured ? "measured" : "pilot", 1e3 * (double)ch->step, 1e3 * (double)ch->reverse, ch->slots[0], ch->slots[1], ch->slots[2], ch->forward_steps[0], ch->forward_steps[1], ch->forward_steps[2], 1e3 * (double)ch->encode[1], 1e3 * (double)ch->decode[1], 1e3 * (double)ch->encode[2], 1e3 * (double)ch->decode[2]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetCodecChoice - how -rw_store_compress auto chose a level's codec,
  and the predicted seconds of each candidate

  Not collective (the same on every rank)

  Input Parameters:
+ adj   - the driver
- level - RW_LEVEL_RAM or RW_LEVEL_DISK

  Output Parameter:
. choice - isauto is PETSC_FALSE where the level's codec is not auto; after a
           solve, type is the codec the next solve uses

  Level: intermediate

.seealso: RwAdjointView(), RwStoreSetCompressAuto(), RwAdjointGetPoolInfo()
@*/
PetscErrorCode RwAdjointGetCodecChoice(RwAdjoint adj, PetscInt level, RwAdjointCodecChoice *choice)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(level >= 0 && level < RW_NUM_LEVELS, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "Level %" PetscInt_FMT ": expected RW_LEVEL_RAM or RW_LEVEL_DISK", level);
  *choice = adj->codecchoice[level];
  PetscFunctionReturn(PETSC_SUCCESS);
}
