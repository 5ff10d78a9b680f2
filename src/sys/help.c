/*
  -help that answers without running the job: a program sets every object up
  from the options (so PETSc's -help lists each option it reads with the value
  that will be used) and then asks RwHelpStop() whether to stop before the
  first solve; and a required option that is missing is one line naming it,
  not a PETSc error dump with the configure line.
*/
#include <rewind/private/rwimpl.h>
#include <string.h>

/* The program's name without its directory, for one-line messages */
static PetscErrorCode RwProgramName(char name[], size_t len)
{
  char *slash;

  PetscFunctionBegin;
  PetscCall(PetscGetProgramName(name, len));
  slash = strrchr(name, '/');
  if (slash) PetscCall(PetscStrncpy(name, slash + 1, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwHelpStop - whether -help was given, so that the program stops before its
  first solve; call it once every object the run makes has been set from the
  options (their options are then listed, each with the value it would use)

  Collective

  Input Parameter:
. comm - the program's communicator (rank 0 prints)

  Output Parameter:
. stop - PETSC_TRUE with -help (or -help intro): destroy the objects and finalize

  Notes:
  With -help it prints one closing line saying that nothing was solved; the
  answer is the same on every rank, as the options are.

  Level: intermediate

.seealso: RwOptionsRequired(), PetscOptionsHasHelp()
@*/
PetscErrorCode RwHelpStop(MPI_Comm comm, PetscBool *stop)
{
  char name[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasHelp(NULL, stop));
  if (!*stop) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwProgramName(name, sizeof(name)));
  PetscCall(PetscPrintf(comm, "\n%s -help: the options above are every option this run reads, each <with the value it would use>; nothing was solved\n", name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOptionsRequired - checks that a required option was given; if not, says
  so in one line on stderr (the option, what it is, and an example) instead
  of a PETSc error dump

  Collective

  Input Parameters:
+ comm  - the program's communicator (rank 0 prints)
. opt   - the option, "-rw_steps"
. what  - what it gives and an example, "the number of time steps, e.g. -rw_steps 1000"
- given - whether it was given

  Output Parameter:
. missing - PETSC_TRUE when it was not given (and -help was not asked for):
            the program finalizes and exits with status 1

  Level: intermediate

.seealso: RwHelpStop()
@*/
PetscErrorCode RwOptionsRequired(MPI_Comm comm, const char opt[], const char what[], PetscBool given, PetscBool *missing)
{
  char      name[PETSC_MAX_PATH_LEN];
  PetscBool help;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  *missing = (PetscBool)(!given && !help);
  if (!*missing) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwProgramName(name, sizeof(name)));
  PetscCall(PetscFPrintf(comm, PETSC_STDERR, "%s: missing %s: %s (%s -help lists every option)\n", name, opt, what, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}
