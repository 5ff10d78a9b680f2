/*
  -rw_output_png for every app: its result's pictures drawn by a jobs/ plot
  script, run by rank 0 with the Python configure found (one that imports
  h5py and matplotlib), so a run ends with a picture without the user
  finding a Python that has them.  RW_PYTHON, RW_JOBS_DIR and RW_JOBS_SRCDIR
  come from apps/Makefile.am.
*/
#include "plot.h"

/*
  RwAppPlot - runs `python jobs/<script> <in> <out>`, the installed script
  when there is one, else the source tree's; the script's own lines (the
  files written, or why not) are printed, and a script that fails stops the
  app with an error naming it
*/
PetscErrorCode RwAppPlot(const char option[], const char script[], const char in[], const char out[])
{
  const char *python = RW_PYTHON, *dirs[2] = {RW_JOBS_DIR, RW_JOBS_SRCDIR};
  char        path[PETSC_MAX_PATH_LEN] = "", cmd[4 * PETSC_MAX_PATH_LEN], line[PETSC_MAX_PATH_LEN];
  FILE       *fp;
  PetscBool   found = PETSC_FALSE, failed = PETSC_FALSE;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCheck(python[0], PETSC_COMM_WORLD, PETSC_ERR_SUP, "%s: rewind was configured without a Python that imports h5py and matplotlib; install python3-h5py python3-matplotlib and run ./configure again, or draw it later with jobs/%s %s", option, script, in);
  for (int i = 0; i < 2 && !found; i++) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", dirs[i], script));
    PetscCall(PetscTestFile(path, 'r', &found));
  }
  PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_FILE_OPEN, "%s: cannot find %s in %s nor %s", option, script, dirs[0], dirs[1]);
  /* the exit status travels as the last line, since popen's is not passed on by PetscPClose */
  PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "'%s' '%s' '%s' '%s' 2>&1; echo \"rw-plot-status $?\"", python, path, in, out));
  PetscCall(PetscPOpen(PETSC_COMM_WORLD, NULL, cmd, "r", &fp));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  while (!rank && fgets(line, sizeof(line), fp)) {
    if (!strncmp(line, "rw-plot-status ", 15)) failed = (PetscBool)(atoi(line + 15) != 0);
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %s", script, line));
  }
  PetscCall(PetscPClose(PETSC_COMM_WORLD, fp));
  PetscCallMPI(MPI_Bcast(&failed, 1, MPIU_BOOL, 0, PETSC_COMM_WORLD));
  PetscCheck(!failed, PETSC_COMM_WORLD, PETSC_ERR_LIB, "%s: %s %s failed (its output is above)", option, script, in);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_output_png of an app whose script draws <prefix>.h5 into <prefix>.png */
PetscErrorCode RwAppPlotOutput(const char script[], const char prefix[])
{
  char h5[PETSC_MAX_PATH_LEN], png[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(h5, sizeof(h5), "%s.h5", prefix));
  PetscCall(PetscSNPrintf(png, sizeof(png), "%s.png", prefix));
  PetscCall(RwAppPlot("-rw_output_png", script, h5, png));
  PetscFunctionReturn(PETSC_SUCCESS);
}
