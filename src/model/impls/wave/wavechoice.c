/*
  Which instruction set each form of the wave step runs (issue 37, item 3).

  Every set gives the same bits (t108), so the choice is about time only.
  -rw_kernel_isa portable|avx2|avx512 runs every form in that set.  Under
  -rw_kernel_isa auto (the default) each form runs, per dimension and
  space order, the set chosen for it on a CPU whose widest set is the
  model's (-rw_wave_kernel_choice):

    table  the measured table below (default: costs nothing);
    time   a timing at set-up: one step of each form in each set the CPU
           has, best of WAVE_TIME_REPEAT, the largest over the ranks (every
           rank chooses alike); a wider set where 3% faster.

  -rw_model_view prints each form's set and where it came from; -log_view
  counts each form's steps under its set's event (RwWaveForward_avx2 ...).
*/
#include "waveimpl.h"
#include <string.h>

const char *const RwWaveChoices[] = {"table", "time", "RwWaveChoice", "RW_WAVE_CHOICE_", NULL};

static const char *const WaveFormNames[RW_WAVE_NFORMS] = {"forward", "tangent", "adjoint"};

static PetscLogEvent WaveEvents[RW_WAVE_NFORMS][RW_KERNEL_ISA_N]; /* -log_view: a form's steps in a set (RwWaveRegisterEvents()) */
static PetscBool     WaveEventsRegistered;

#define P RW_KERNEL_ISA_PORTABLE
#define A2 RW_KERNEL_ISA_AVX2
#define A5 RW_KERNEL_ISA_AVX512
/*
  WaveKernelTable[widest][form][dim - 2][order 2, 4, 8]: the set a form
  runs on a CPU whose widest set is `widest'.  A wider set runs only where
  it measured at least 3% faster than the narrower one (the runs below
  move 3-15% between repetitions of the same code, and up to 2x on a
  loaded machine); where no measurement decides, the narrower set runs.

  AVX2 CPUs: measured on a 2-core AMD EPYC VM without AVX-512 (2026-12-06,
  load 7 from five other sessions), one rank, ms a step, the best of five
  runs of best of 5 (a wider set where its best is 3% below the narrower's):
    for r in 1 2 3 4 5; do mpiexec -n 1 apps/rewind-bench \
      -rw_bench_sections stream,wave -rw_bench_size tiny \
      -rw_bench_wave_grid 1024 -rw_bench_wave_grid3 128 -rw_bench_repeat 5 \
      -rw_bench_output sets$r.csv; done
  (each form's rows "<form> portable", "<form> avx2"), avx2 / portable:
    2D 1024^2 order 2 forward 2.63 / 2.79, tangent 4.32 / 4.31 (a tie:
      portable), adjoint 4.86 / 5.76; order 4 3.12 / 3.94, 5.40 / 5.60,
      4.92 / 6.74; order 8 4.65 / 8.62, 6.37 / 9.29, 5.96 / 8.76;
    3D 128^3 order 2 7.87 / 12.83, 12.19 / 14.71, 11.23 / 15.10; order 4
      11.10 / 16.00, 14.01 / 18.60, 14.19 / 18.85; order 8 18.27 / 24.08,
      21.62 / 26.82, 23.30 / 30.22.

  AVX-512 CPUs: not measurable on that VM.  The AVX2 row, and AVX-512
  where every recorded measurement of it was 3% faster than each narrower
  set measured beside it (a 2-core AMD EPYC with AVX-512, 2026-12-01/02,
  CPU ns a point of one rank, best of 5 x 2-3 steps, libraries alternated;
  doc/notes/benchmarks-log.md "Which rows each ISA runs" and issue 12's
  verdict).  Those runs found AVX2 and portable within 3-10% of each other,
  either way, where the VM above finds AVX2 faster by up to 2x: AVX2 is
  kept beneath AVX-512.  avx512 / avx2 / portable:
    forward 2D order 2 5.51 / 5.56 / 5.36 and 4.78 / 4.76 / 4.65 (2048^2,
      4096^2); order 4 6.00 / 5.81 / 5.92 and 5.23 / 5.61 / 5.29; order 8
      5.84 / 6.77 / 7.01, 5.12 / 5.44 / 5.38, and in an earlier batch
      avx512 5.79, 5.92 against portable 5.61, 5.64 (the wall-clock rows of
      that batch: 0.675 against 0.81 of copy): no set wins in every run;
    forward 3D 256^3 order 2 7.30 / 7.97 / 7.93; order 4 9.21 / 9.17 / 8.98
      and avx512 7.70 against portable 8.82: no winner; order 8 13.08 /
      13.87 / 14.81 and avx512 10.17 against portable 13.03: AVX-512;
    tangent (avx512 / portable) 2D order 8 8.82 / 8.50 and 8.58 / 8.50, 3D
      order 4 11.66 / 11.93, order 8 14.60 / 16.18; orders 2 and 2D order 4
      unmeasured;
    adjoint through the ring (avx512 / avx2, two runs): 3D order 8
      8.03-8.52 / 9.35-9.60; order 4 6.34-6.71 / 6.34-6.45; order 2
      4.48-4.62 / 4.76-4.82; 2D order 8 5.97-5.98 / 6.02-6.29; order 4
      5.33-5.37 / 5.06-5.16; avx2 / portable 2D order 2 8.06 / 8.01 and
      8.24 / 7.98, order 4 9.36 / 9.75 and 8.58 / 8.61, order 8 9.70 /
      10.79 and 8.86 / 9.71, 3D order 2 14.14 / 12.59, order 4 12.84 /
      12.41 (rerun).
*/
static const RwKernelISA WaveKernelTable[RW_KERNEL_ISA_N][RW_WAVE_NFORMS][2][3] = {
  /* portable CPUs: nothing to choose */
  {{{P, P, P}, {P, P, P}}, {{P, P, P}, {P, P, P}}, {{P, P, P}, {P, P, P}}},
  /* AVX2 CPUs: forward, tangent, adjoint; 2D then 3D; orders 2, 4, 8 */
  {{{A2, A2, A2}, {A2, A2, A2}}, {{P, A2, A2}, {A2, A2, A2}}, {{A2, A2, A2}, {A2, A2, A2}}},
  /* AVX-512 CPUs: the AVX2 row, AVX-512 where it won */
  {{{A2, A2, A2}, {A5, A2, A5}}, {{P, A2, A2}, {A2, A2, A5}}, {{A2, A2, A2}, {A2, A2, A5}}},
};
#undef P
#undef A2
#undef A5

static PetscInt WaveOrderIndex(PetscInt r)
{
  return r == 1 ? 0 : r == 2 ? 1 : 2;
}

/* The set form f runs: -rw_kernel_isa's when it names one, else the timing's or the table's for the widest set the CPU has */
RwKernelISA RwWaveFormISA(RwModel model, RwWaveForm f)
{
  const RwModel_Wave *w = (RwModel_Wave *)model->data;
  RwKernelISA         isa;

  if (!model->isaauto) return model->isa;
  isa = w->timed ? w->timedisa[f] : WaveKernelTable[model->isa][f][w->dim - 2][WaveOrderIndex(w->r)];
  return isa < model->isa ? isa : model->isa;
}

/* ---- the timing (-rw_wave_kernel_choice time) ------------------------------------ */

#define WAVE_TIME_REPEAT 3

/* Seconds of one step of form f in set isa, best of WAVE_TIME_REPEAT, the largest over the ranks */
static PetscErrorCode WaveTimeForm(RwModel model, RwWaveForm f, RwKernelISA isa, Vec x[4], PetscReal *sec)
{
  PetscFunctionBegin;
  *sec = PETSC_MAX_REAL;
  for (PetscInt t = 0; t <= WAVE_TIME_REPEAT; t++) { /* the first warms the caches and is not counted */
    PetscLogDouble t0, t1;

    PetscCall(PetscTime(&t0));
    PetscCall(RwWaveRunForm(model, f, isa, 0, x[0], x[1], x[2], x[3]));
    PetscCall(PetscTime(&t1));
    if (t) *sec = PetscMin(*sec, (PetscReal)(t1 - t0));
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, sec, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)model)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Times every form in every set up to the model's, once at set-up: on zero
  states and the coefficients as set-up leaves them (zero: a step's time
  does not depend on values that are neither denormal nor NaN), touching
  nothing the run keeps (the adjoint accumulates into a scratch dJ/dm, the
  NaN flags are put back, the events are off).  A narrower set is kept
  unless a wider one is 3% faster
*/
PetscErrorCode RwWaveChooseKernels(RwModel model)
{
  RwModel_Wave    *w = (RwModel_Wave *)model->data;
  const PetscInt64 bad[2] = {model->firstbad[0], model->firstbad[1]};
  Vec              x[4], gm = w->gm;
  PetscInt         widest = model->isa;

  PetscFunctionBegin;
  if (w->choice != RW_WAVE_CHOICE_TIME || w->timed || !model->isaauto) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &widest, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)model))); /* the passes are collective: every rank times the same sets */
  for (PetscInt i = 0; i < 4; i++) PetscCall(DMCreateGlobalVector(model->da, &x[i])); /* the set-up is not over: no RwModelCreateState() yet */
  PetscCall(VecDuplicate(gm, &w->gm));
  for (PetscInt f = 0; f < RW_WAVE_NFORMS; f++) /* -log_view counts the run's steps only */
    for (PetscInt i = 0; i < RW_KERNEL_ISA_N; i++) PetscCall(PetscLogEventDeactivatePush(WaveEvents[f][i]));
  for (PetscInt f = 0; f < RW_WAVE_NFORMS; f++) {
    w->timedisa[f] = RW_KERNEL_ISA_PORTABLE;
    for (PetscInt i = 0; i <= widest; i++) {
      PetscCall(WaveTimeForm(model, (RwWaveForm)f, (RwKernelISA)i, x, &w->timedsec[f][i]));
      if (w->timedsec[f][i] < 0.97 * w->timedsec[f][w->timedisa[f]]) w->timedisa[f] = (RwKernelISA)i;
    }
  }
  for (PetscInt f = 0; f < RW_WAVE_NFORMS; f++)
    for (PetscInt i = 0; i < RW_KERNEL_ISA_N; i++) PetscCall(PetscLogEventDeactivatePop(WaveEvents[f][i]));
  PetscCall(VecDestroy(&w->gm));
  w->gm = gm;
  for (PetscInt i = 0; i < 4; i++) PetscCall(VecDestroy(&x[i]));
  model->firstbad[0] = bad[0];
  model->firstbad[1] = bad[1];
  w->timed           = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each form's set and where it came from (-rw_model_view) */
PetscErrorCode RwWaveViewKernels(RwModel model, PetscViewer viewer)
{
  const RwModel_Wave *w = (RwModel_Wave *)model->data;
  char                line[512] = "";

  PetscFunctionBegin;
  for (PetscInt f = 0; f < RW_WAVE_NFORMS; f++) {
    const RwKernelISA isa = RwWaveFormISA(model, (RwWaveForm)f);

    PetscCall(PetscSNPrintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s %s", f ? ", " : "", WaveFormNames[f], RwKernelISANames[isa]));
    if (w->timed && model->isaauto) {
      PetscCall(PetscSNPrintf(line + strlen(line), sizeof(line) - strlen(line), " ("));
      for (PetscInt i = 0; i <= (PetscInt)model->isa; i++)
        if (w->timedsec[f][i] > 0) PetscCall(PetscSNPrintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s %.3g ms", i ? ", " : "", RwKernelISANames[i], 1e3 * (double)w->timedsec[f][i]));
      PetscCall(PetscSNPrintf(line + strlen(line), sizeof(line) - strlen(line), ")"));
    }
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernel sets: %s; %s\n", line,
                                   !model->isaauto ? "every form in -rw_kernel_isa's set" :
                                   w->timed        ? "timed at set-up (-rw_wave_kernel_choice time: a step each, best of 3, slowest rank; a wider set where 3% faster)" :
                                                     "from the measured table for this CPU's widest set (-rw_wave_kernel_choice table; wavechoice.c)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- -log_view: an event per form and set ------------------------------------------ */


static PetscErrorCode WaveEventsFinalize(void)
{
  PetscFunctionBegin;
  WaveEventsRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Registers the events once (PETSc forgets them at PetscFinalize(), and so does the flag) */
PetscErrorCode RwWaveRegisterEvents(void)
{
  static const char *const names[RW_WAVE_NFORMS] = {"RwWaveForward", "RwWaveTangent", "RwWaveAdjoint"};
  char                     name[64];

  PetscFunctionBegin;
  if (WaveEventsRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt f = 0; f < RW_WAVE_NFORMS; f++)
    for (PetscInt i = 0; i < RW_KERNEL_ISA_N; i++) {
      PetscCall(PetscSNPrintf(name, sizeof(name), "%s_%s", names[f], RwKernelISANames[i]));
      PetscCall(PetscLogEventRegister(name, RW_MODEL_CLASSID, &WaveEvents[f][i]));
    }
  PetscCall(PetscRegisterFinalize(WaveEventsFinalize));
  WaveEventsRegistered = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscLogEvent RwWaveEvent(RwWaveForm f, RwKernelISA isa)
{
  return WaveEvents[f][isa];
}
