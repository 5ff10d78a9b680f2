/* A schedule as a picture: time along x, the step along y (SVG, written natively). */
#include "../engine.h"

#define RW_SVG_MAX_ACTIONS 200000

typedef struct {
  PetscReal left, top, width, height, T; /* plot box and total time */
  PetscInt64 n;
} Frame;

static PetscReal X(const Frame *f, PetscReal t)
{
  return f->left + f->width * t / f->T;
}

static PetscReal Y(const Frame *f, PetscReal k)
{
  return f->top + f->height * (1.0 - k / (PetscReal)f->n);
}

/* RAM checkpoints are blue circles, disk ones orange squares; filled when stored, open when restored */
static PetscErrorCode Marker(MPI_Comm comm, FILE *fp, PetscInt level, PetscBool filled, PetscReal x, PetscReal y)
{
  const char *fill = filled ? (level == RW_LEVEL_RAM ? "#1f77b4" : "#ff7f0e") : "none", *stroke = level == RW_LEVEL_RAM ? "#1f77b4" : "#ff7f0e";

  PetscFunctionBegin;
  if (level == RW_LEVEL_RAM) PetscCall(PetscFPrintf(comm, fp, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"%s\" stroke=\"%s\"/>\n", (double)x, (double)y, fill, stroke));
  else PetscCall(PetscFPrintf(comm, fp, "<rect x=\"%.2f\" y=\"%.2f\" width=\"7\" height=\"7\" fill=\"%s\" stroke=\"%s\"/>\n", (double)(x - 3.5), (double)(y - 3.5), fill, stroke));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Legend(MPI_Comm comm, FILE *fp, const Frame *f)
{
  PetscReal   x = f->left + f->width + 20, y = f->top + 10;
  const char *text[] = {"advance (forward steps)", "reverse (adjoint step)", "store in RAM", "restore from RAM", "store on disk", "restore from disk", "back to a checkpoint"};

  PetscFunctionBegin;
  for (int i = 0; i < 7; i++, y += 22) {
    if (i == 0) PetscCall(PetscFPrintf(comm, fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"1.5\"/>\n", (double)x, (double)(y + 5), (double)(x + 18), (double)(y - 5)));
    if (i == 1) PetscCall(PetscFPrintf(comm, fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" stroke-width=\"2.5\"/>\n", (double)x, (double)(y - 5), (double)(x + 18), (double)(y + 5)));
    if (i >= 2 && i <= 5) PetscCall(Marker(comm, fp, i >= 4 ? RW_LEVEL_DISK : RW_LEVEL_RAM, (PetscBool)(i % 2 == 0), x + 9, y));
    if (i == 6) PetscCall(PetscFPrintf(comm, fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"3,3\"/>\n", (double)(x + 9), (double)(y - 8), (double)(x + 9), (double)(y + 8)));
    PetscCall(PetscFPrintf(comm, fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" dominant-baseline=\"middle\">%s</text>\n", (double)(x + 26), (double)y, text[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Axes(MPI_Comm comm, FILE *fp, const Frame *f, const char *title)
{
  PetscFunctionBegin;
  PetscCall(PetscFPrintf(comm, fp, "<text x=\"%.1f\" y=\"20\" font-size=\"15\">%s</text>\n", (double)f->left, title));
  PetscCall(PetscFPrintf(comm, fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#ccc\"/>\n", (double)f->left, (double)f->top, (double)f->width, (double)f->height));
  for (int i = 0; i <= 4; i++) {
    PetscReal k = (PetscReal)f->n * i / 4, t = f->T * i / 4;

    PetscCall(PetscFPrintf(comm, fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\" dominant-baseline=\"middle\">%.0f</text>\n", (double)(f->left - 6), (double)Y(f, k), (double)k));
    PetscCall(PetscFPrintf(comm, fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">%.0f</text>\n", (double)X(f, t), (double)(f->top + f->height + 18), (double)t));
  }
  PetscCall(PetscFPrintf(comm, fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">time (forward steps and reverse steps, in order)</text>\n", (double)(f->left + f->width / 2), (double)(f->top + f->height + 40)));
  PetscCall(PetscFPrintf(comm, fp, "<text x=\"18\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">step k (state x_k)</text>\n", (double)(f->top + f->height / 2), (double)(f->top + f->height / 2)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One action; t is the time so far, at the position where the working state last was */
static PetscErrorCode Draw(MPI_Comm comm, FILE *fp, const Frame *f, const RwAction *a, PetscReal *t, PetscInt64 *at)
{
  PetscFunctionBegin;
  switch (a->type) {
  case RW_ACTION_ADVANCE:
    PetscCall(PetscFPrintf(comm, fp, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"black\" stroke-width=\"1.5\"/>\n", (double)X(f, *t), (double)Y(f, a->a), (double)X(f, *t + a->b - a->a), (double)Y(f, a->b)));
    *t += a->b - a->a;
    *at = a->b;
    break;
  case RW_ACTION_REVERSE:
    PetscCall(PetscFPrintf(comm, fp, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#d62728\" stroke-width=\"2.5\"/>\n", (double)X(f, *t), (double)Y(f, a->a + 1), (double)X(f, *t + 1), (double)Y(f, a->a)));
    *t += 1;
    *at = a->a;
    break;
  case RW_ACTION_RESTORE:
    if (*at != a->a) PetscCall(PetscFPrintf(comm, fp, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#999\" stroke-dasharray=\"3,3\"/>\n", (double)X(f, *t), (double)Y(f, *at), (double)X(f, *t), (double)Y(f, a->a)));
    PetscCall(Marker(comm, fp, a->level, PETSC_FALSE, X(f, *t), Y(f, a->a)));
    *at = a->a;
    break;
  case RW_ACTION_STORE:
    PetscCall(Marker(comm, fp, a->level, PETSC_TRUE, X(f, *t), Y(f, a->a)));
    break;
  default:
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwScheduleViewSVG - draws the schedule into an SVG file: time along x (each
  forward and each reverse step one unit), the step k along y; advances are
  black lines, reverses red, RAM checkpoints blue circles and disk checkpoints
  orange squares (filled: store, open: restore), with a legend

  Collective

  Input Parameters:
+ sched - the schedule, set up
- file  - the file name (written by rank 0 of the schedule's communicator)

  Options Database Key:
. -rw_schedule_view_draw <file.svg> - in rewind-schedule

  Level: intermediate

  Notes:
  Replays the stream once and resets it; at most 200000 actions.

.seealso: RwScheduleView(), RwScheduleNext()
@*/
PetscErrorCode RwScheduleViewSVG(RwSchedule sched, const char file[])
{
  MPI_Comm         comm = PetscObjectComm((PetscObject)sched);
  FILE            *fp;
  RwScheduleCounts c;
  RwAction         a;
  Frame            f   = {70, 40, 900, 480, 0, sched->n};
  PetscReal        t   = 0;
  PetscInt64       at  = 0;
  char             title[256];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(sched, RW_SCHEDULE_CLASSID, 1);
  PetscCall(RwScheduleGetPrediction(sched, &c));
  PetscCheck(c.actions <= RW_SVG_MAX_ACTIONS, comm, PETSC_ERR_SUP, "-rw_schedule_view_draw: the schedule has %" PetscInt64_FMT " actions; a drawing takes at most %d (use fewer steps)", c.actions, RW_SVG_MAX_ACTIONS);
  f.T = (PetscReal)(c.forward_steps - 1 + c.reverse_steps);
  PetscCall(PetscSNPrintf(title, sizeof(title), "rewind %s schedule: %" PetscInt64_FMT " steps, %" PetscInt64_FMT " forward steps, %" PetscInt64_FMT " RAM and %" PetscInt64_FMT " disk checkpoints", ((PetscObject)sched)->type_name, sched->n, c.forward_steps, c.stores[RW_LEVEL_RAM], c.stores[RW_LEVEL_DISK]));
  PetscCall(PetscFOpen(comm, file, "w", &fp));
  PetscCall(PetscFPrintf(comm, fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"580\" font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"));
  PetscCall(Axes(comm, fp, &f, title));
  PetscCall(RwScheduleReset(sched));
  do {
    PetscCall(RwScheduleNext(sched, &a));
    PetscCall(Draw(comm, fp, &f, &a, &t, &at));
  } while (a.type != RW_ACTION_END);
  PetscCall(Legend(comm, fp, &f));
  PetscCall(PetscFPrintf(comm, fp, "</svg>\n"));
  PetscCall(PetscFClose(comm, fp));
  PetscCall(RwScheduleReset(sched));
  PetscFunctionReturn(PETSC_SUCCESS);
}
