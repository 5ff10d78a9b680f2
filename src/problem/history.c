/*
  RwProblem's history: one row per TAO iteration of every RwProblemSolve(),
  the same columns for every program, so that every plot script reads one
  layout:

    solve, iteration, J, misfit, regularizer (one per regulariser),
    gradient_norm, seconds, and the program's own (RwProblemAddHistoryColumn())

  -rw_history_view ascii prints a row as it comes; hdf5:file.h5 writes the
  group /history (one dataset a column, attribute "columns" naming them in
  order; each dataset's units and long_name, J's and the unknown's units from
  RwProblemSetUnits()) when a solve ends; a program writes it into its own
  output with RwProblemHistoryView().  A resumed run rebuilds it while it replays.
*/
#include <rewind/private/problemimpl.h>
#include <petscviewerhdf5.h>

/*@C
  RwProblemAddHistoryColumn - a column of the program's own in the history:
  fn(prob, x, &value, ctx) at each iteration, x the iterate

  Logically collective; before RwProblemSetUp()

  Level: intermediate

.seealso: RwProblemGetHistory(), RwProblemHistoryView()
@*/
PetscErrorCode RwProblemAddHistoryColumn(RwProblem prob, const char name[], PetscErrorCode (*fn)(RwProblem, Vec, PetscReal *, void *), void *ctx)
{
  RwHistoryColumn *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(!prob->setupcalled, PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "Add history columns before RwProblemSetUp()");
  PetscCheck(prob->ncolumns < RW_PROBLEM_MAX_COLUMNS, PetscObjectComm((PetscObject)prob), PETSC_ERR_SUP, "At most %d history columns of a program's own", RW_PROBLEM_MAX_COLUMNS);
  c = &prob->columns[prob->ncolumns++];
  PetscCall(PetscStrncpy(c->name, name, sizeof(c->name)));
  c->fn  = fn;
  c->ctx = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetUnits - the units of J and of the unknown, which the history's
  datasets carry (J, its terms and the gradient's norm); "1" (a pure number,
  the default) for a nondimensional model

  Logically collective

  Input Parameters:
+ prob - the problem
. J    - J's units, e.g. "(source units)^2"
- x    - the unknown's units, e.g. "s^2/km^2"

  Level: intermediate

.seealso: RwProblemHistoryView()
@*/
PetscErrorCode RwProblemSetUnits(RwProblem prob, const char J[], const char x[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(PetscStrncpy(prob->junits, J, sizeof(prob->junits)));
  PetscCall(PetscStrncpy(prob->xunits, x, sizeof(prob->xunits)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemSetHistoryColumnInfo - the units and long name of a column of the
  program's own, which its dataset carries (by default "1" and its name)

  Logically collective; after RwProblemAddHistoryColumn()

  Level: intermediate

.seealso: RwProblemAddHistoryColumn(), RwProblemSetUnits()
@*/
PetscErrorCode RwProblemSetHistoryColumnInfo(RwProblem prob, const char name[], const char units[], const char long_name[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  for (PetscInt i = 0; i < prob->ncolumns; i++)
    if (!strcmp(prob->columns[i].name, name)) {
      PetscCall(PetscStrncpy(prob->columns[i].units, units, sizeof(prob->columns[i].units)));
      PetscCall(PetscStrncpy(prob->columns[i].long_name, long_name, sizeof(prob->columns[i].long_name)));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  SETERRQ(PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_WRONG, "The history has no column %s of the program's own: add it with RwProblemAddHistoryColumn() first", name);
}

/* A history column's units and long name: the fixed ones are known, a term is in J's units, a program's own column a pure number */
static PetscErrorCode ColumnInfo(RwProblem prob, PetscInt c, char units[], char lname[], size_t len)
{
  const char *name = prob->colnames[c];
  const char *J    = prob->junits[0] ? prob->junits : "1", *x = prob->xunits[0] ? prob->xunits : "1";
  PetscInt    nt;

  PetscFunctionBegin;
  PetscCall(RwProblemGetTerms(prob, &nt, NULL, NULL));
  PetscCall(PetscStrncpy(units, "1", len));
  if (!strcmp(name, "solve")) PetscCall(PetscStrncpy(lname, "solve (a band or stage of the program) the row belongs to, from 0", len));
  else if (!strcmp(name, "iteration")) PetscCall(PetscStrncpy(lname, "TAO iteration within the solve, from 0", len));
  else if (!strcmp(name, "J")) {
    PetscCall(PetscStrncpy(units, J, len));
    PetscCall(PetscStrncpy(lname, "objective J: the sum of the terms (misfit and regularisers)", len));
  } else if (c >= 3 && c < 3 + nt) {
    PetscCall(PetscStrncpy(units, J, len));
    PetscCall(PetscSNPrintf(lname, len, "term %s of J", name));
  } else if (!strcmp(name, "gradient_norm")) {
    if (strcmp(J, "1") || strcmp(x, "1")) PetscCall(PetscSNPrintf(units, len, "(%s)/(%s)", J, x));
    PetscCall(PetscStrncpy(lname, "2-norm of dJ/dx, x the unknown", len));
  } else if (!strcmp(name, "seconds")) {
    PetscCall(PetscStrncpy(units, "s", len));
    PetscCall(PetscStrncpy(lname, "wall-clock time since the problem was set up", len));
  } else {
    const RwHistoryColumn *own = &prob->columns[c - (prob->hcols - prob->ncolumns)];

    if (own->units[0]) PetscCall(PetscStrncpy(units, own->units, len));
    PetscCall(PetscStrncpy(lname, own->long_name[0] ? own->long_name : name, len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The columns' names, in order */
PetscErrorCode RwProblemHistorySetUp_Private(RwProblem prob)
{
  const char *const fixed[] = {"solve", "iteration", "J"};
  const char *const *terms;
  PetscInt           nt, c = 0;
  PetscBool          set;

  PetscFunctionBegin;
  PetscCall(RwProblemGetTerms(prob, &nt, &terms, NULL));
  for (PetscInt i = 0; i < 3; i++) PetscCall(PetscStrallocpy(fixed[i], &prob->colnames[c++]));
  for (PetscInt i = 0; i < nt; i++) PetscCall(PetscStrallocpy(terms[i], &prob->colnames[c++]));
  PetscCall(PetscStrallocpy("gradient_norm", &prob->colnames[c++]));
  PetscCall(PetscStrallocpy("seconds", &prob->colnames[c++]));
  for (PetscInt i = 0; i < prob->ncolumns; i++) PetscCall(PetscStrallocpy(prob->columns[i].name, &prob->colnames[c++]));
  prob->hcols = c;
  PetscCall(PetscOptionsGetViewer(PetscObjectComm((PetscObject)prob), ((PetscObject)prob)->options, ((PetscObject)prob)->prefix, "-rw_history_view", &prob->hviewer, &prob->hformat, &set));
  if (set) {
    PetscBool ascii;

    PetscCall(PetscObjectTypeCompare((PetscObject)prob->hviewer, PETSCVIEWERASCII, &ascii));
    if (!ascii) PetscCall(PetscViewerDestroy(&prob->hviewer)); /* a file is written whole, when a solve ends */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One row of the history, printed with -rw_history_view ascii */
static PetscErrorCode PrintRow(RwProblem prob, const PetscReal *row)
{
  PetscFunctionBegin;
  if (!prob->hviewer) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt c = 0; c < prob->hcols; c++) {
    if (c < 2) PetscCall(PetscViewerASCIIPrintf(prob->hviewer, "%s%s %" PetscInt_FMT, c ? " " : "", prob->colnames[c], (PetscInt)row[c]));
    else if (!strcmp(prob->colnames[c], "seconds")) PetscCall(PetscViewerASCIIPrintf(prob->hviewer, " seconds %.2f", (double)row[c]));
    else PetscCall(PetscViewerASCIIPrintf(prob->hviewer, " %s %.17g", prob->colnames[c], (double)row[c])); /* every bit: rows compare as text */
  }
  PetscCall(PetscViewerASCIIPrintf(prob->hviewer, "\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemHistoryMonitor_Private - the TAO monitor of RwProblemSolve(): a row an iteration, grown once an iteration, outside any time loop */
PetscErrorCode RwProblemHistoryMonitor_Private(Tao tao, void *ctx)
{
  RwProblem        prob = (RwProblem)ctx;
  PetscInt         it, nt, c = 0;
  PetscReal        f, gnorm, *row;
  const PetscReal *terms;
  Vec              x;

  PetscFunctionBegin;
  PetscCall(TaoGetSolutionStatus(tao, &it, &f, &gnorm, NULL, NULL, NULL));
  if (prob->nhist == prob->hmax) {
    prob->hmax = 2 * prob->hmax + 16;
    PetscCall(PetscRealloc(sizeof(PetscReal) * prob->hmax * prob->hcols, &prob->hist));
  }
  row      = prob->hist + prob->nhist * prob->hcols;
  row[c++] = (PetscReal)prob->hsolve;
  row[c++] = (PetscReal)it;
  row[c++] = f;
  PetscCall(RwProblemGetTerms(prob, &nt, NULL, &terms));
  for (PetscInt i = 0; i < nt; i++) row[c++] = terms[i];
  row[c++] = gnorm;
  PetscCall(RwProblemGetTime(prob, &row[c++]));
  PetscCall(TaoGetSolution(tao, &x));
  for (PetscInt i = 0; i < prob->ncolumns; i++) PetscCall((*prob->columns[i].fn)(prob, x, &row[c++], prob->columns[i].ctx));
  prob->nhist++;
  PetscCall(PrintRow(prob, row));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemGetHistory - the history so far: rows of columns, row-major

  Not collective

  Output Parameters:
+ nrows  - iterations recorded
. ncols  - columns
. names  - their names
- values - values[r * ncols + c], owned by the problem

  Level: intermediate

.seealso: RwProblemAddHistoryColumn(), RwProblemHistoryView()
@*/
PetscErrorCode RwProblemGetHistory(RwProblem prob, PetscInt *nrows, PetscInt *ncols, const char *const *names[], const PetscReal *values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  if (nrows) *nrows = prob->nhist;
  if (ncols) *ncols = prob->hcols;
  if (names) *names = (const char *const *)prob->colnames;
  if (values) *values = prob->hist;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemGetHistoryValues - the values of named columns in one row of the history

  Not collective

  Input Parameters:
+ prob  - the problem
. row   - the row, from 0; -1: the last
. n     - how many columns
- names - their names

  Output Parameter:
. values - values[i] is column names[i]'s value in the row

  Notes:
  A program's progress line reads its figures this way after each row, so
  the line and the history cannot disagree.  A name the history does not
  have, or a row it does not hold, is an error naming it.

  Level: intermediate

.seealso: RwProblemGetHistory(), RwProblemAddHistoryColumn()
@*/
PetscErrorCode RwProblemGetHistoryValues(RwProblem prob, PetscInt row, PetscInt n, const char *const names[], PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  if (row < 0) row = prob->nhist - 1;
  PetscCheck(row >= 0 && row < prob->nhist, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The history has %" PetscInt_FMT " rows: no row %" PetscInt_FMT, prob->nhist, row);
  for (PetscInt i = 0; i < n; i++) {
    PetscInt c = 0;

    while (c < prob->hcols && strcmp(prob->colnames[c], names[i])) c++;
    PetscCheck(c < prob->hcols, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The history has no column %s", names[i]);
    values[i] = prob->hist[row * prob->hcols + c];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A column as a dataset of the open HDF5 viewer: rank 0 holds it, every rank takes part */
static PetscErrorCode WriteColumn(RwProblem prob, PetscViewer v, PetscInt c)
{
  Vec          x;
  PetscMPIInt  rank;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)prob), &rank));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)prob), rank ? 0 : prob->nhist, prob->nhist, &x));
  PetscCall(VecGetArray(x, &a));
  for (PetscInt r = 0; !rank && r < prob->nhist; r++) a[r] = prob->hist[r * prob->hcols + c];
  PetscCall(VecRestoreArray(x, &a));
  PetscCall(PetscObjectSetName((PetscObject)x, prob->colnames[c]));
  PetscCall(VecView(x, v));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemHistoryView - writes the history: to an HDF5 viewer the group
  /history, a dataset a column and the attribute "columns" (their names, in
  order, separated by spaces); to an ASCII viewer a line a row

  Collective

  Level: intermediate

.seealso: RwProblemGetHistory()
@*/
PetscErrorCode RwProblemHistoryView(RwProblem prob, PetscViewer v)
{
  PetscBool h5, ascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)v, PETSCVIEWERHDF5, &h5));
  PetscCall(PetscObjectTypeCompare((PetscObject)v, PETSCVIEWERASCII, &ascii));
  if (ascii) {
    PetscViewer keep = prob->hviewer;

    prob->hviewer = v;
    for (PetscInt r = 0; r < prob->nhist; r++) PetscCall(PrintRow(prob, prob->hist + r * prob->hcols));
    prob->hviewer = keep;
  }
  if (!h5 || !prob->nhist) PetscFunctionReturn(PETSC_SUCCESS);
  {
    char   names[1024] = "";
    size_t n;

    PetscCall(PetscViewerHDF5PushGroup(v, "/history"));
    for (PetscInt c = 0; c < prob->hcols; c++) PetscCall(WriteColumn(prob, v, c));
    for (PetscInt c = 0; c < prob->hcols; c++) {
      PetscCall(PetscStrlen(names, &n));
      PetscCall(PetscSNPrintf(names + n, sizeof(names) - n, "%s%s", c ? " " : "", prob->colnames[c]));
    }
    PetscCall(PetscViewerHDF5WriteAttribute(v, "/history", "columns", PETSC_STRING, names));
    for (PetscInt c = 0; c < prob->hcols; c++) {
      char path[128], units[160], lname[160];

      PetscCall(ColumnInfo(prob, c, units, lname, sizeof(units)));
      PetscCall(PetscSNPrintf(path, sizeof(path), "/history/%s", prob->colnames[c]));
      PetscCall(PetscViewerHDF5WriteAttribute(v, path, "units", PETSC_STRING, units));
      PetscCall(PetscViewerHDF5WriteAttribute(v, path, "long_name", PETSC_STRING, lname));
    }
    PetscCall(PetscViewerHDF5PopGroup(v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemHistoryDestroy_Private - the rows, the names and the viewer */
PetscErrorCode RwProblemHistoryDestroy_Private(RwProblem prob)
{
  PetscFunctionBegin;
  for (PetscInt c = 0; c < prob->hcols; c++) PetscCall(PetscFree(prob->colnames[c]));
  PetscCall(PetscFree(prob->hist));
  PetscCall(PetscViewerDestroy(&prob->hviewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
