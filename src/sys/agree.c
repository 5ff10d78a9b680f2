/*
  Agreeing on an error before it is raised.  A problem found by one rank
  alone (rank 0 reading a small file, one rank's part of a collective HDF5
  call) must not be raised by that rank alone: the others would wait for it
  in their next collective call, and each rank would report something else.
  So the message is shared first, and every rank raises the same error.
*/
#include <rewind/private/rwimpl.h>

/* The lowest rank whose message is not empty, or -1 when none has one: one reduction */
static PetscErrorCode RwErrorAgreeFirst(MPI_Comm comm, const char msg[], PetscMPIInt *first)
{
  PetscMPIInt rank, size, mine;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  mine = msg[0] ? rank : size;
  PetscCallMPI(MPI_Allreduce(&mine, first, 1, MPI_INT, MPI_MIN, comm));
  if (*first == size) *first = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwErrorAgreeTest - shares one rank's error message with every rank, without raising it

  Collective

  Input Parameters:
+ comm - the ranks that must agree
. root - the rank whose message counts, or RW_AGREE_ANY for the lowest rank that has one
- len  - the size of msg in bytes, the same on every rank

  Input/Output Parameter:
. msg - this rank's message, or "" for none; on return, the message agreed on ("" for none)

  Output Parameter:
. failed - whether the message agreed on is not empty: the same on every rank

  Notes:
  For a caller that must free what it allocated before it raises the error;
  RwErrorAgree() raises it at once.  With RW_AGREE_ANY, a run without a
  failure costs one reduction of an integer and no broadcast.

  Level: developer

.seealso: RwErrorAgree()
@*/
PetscErrorCode RwErrorAgreeTest(MPI_Comm comm, PetscMPIInt root, char msg[], size_t len, PetscBool *failed)
{
  PetscMPIInt from = root;

  PetscFunctionBegin;
  PetscCheck(len > 0 && len <= (size_t)PETSC_MPI_INT_MAX, comm, PETSC_ERR_ARG_OUTOFRANGE, "An error message buffer of %zu bytes cannot be shared: expected 1 to %d bytes", len, PETSC_MPI_INT_MAX);
  PetscCheck(root >= RW_AGREE_ANY, comm, PETSC_ERR_ARG_OUTOFRANGE, "Root rank %d: expected a rank of the communicator or RW_AGREE_ANY", root);
  if (root == RW_AGREE_ANY) PetscCall(RwErrorAgreeFirst(comm, msg, &from));
  if (from >= 0) PetscCallMPI(MPI_Bcast(msg, (PetscMPIInt)len, MPI_CHAR, from, comm));
  msg[len - 1] = 0; /* a message that filled its buffer still ends inside it */
  *failed      = (PetscBool)(msg[0] != 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwErrorAgree - raises one rank's error on every rank: the step "rank 0 (or
  some rank) decides, tells the others, and all stop with the same error"

  Collective

  Input Parameters:
+ comm - the ranks that must agree
. root - the rank whose message counts, or RW_AGREE_ANY for the lowest rank that has one
. code - the PETSc error code to raise
. msg  - this rank's message, or "" for none; on return, the message agreed on
- len  - the size of msg in bytes, the same on every rank

  Notes:
  When the message agreed on is not empty, every rank of comm raises code
  with it; otherwise this returns on every rank.  No rank is left waiting in
  a later collective call, and every rank reports the same cause.

  Example:
.vb
  char msg[512] = "";

  if (!rank) ... snprintf(msg, sizeof(msg), "Dataset %s not found in %s", dataset, file);
  PetscCall(RwErrorAgree(comm, 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
.ve

  Level: developer

.seealso: RwErrorAgreeTest()
@*/
PetscErrorCode RwErrorAgree(MPI_Comm comm, PetscMPIInt root, PetscErrorCode code, char msg[], size_t len)
{
  PetscBool failed;

  PetscFunctionBegin;
  PetscCall(RwErrorAgreeTest(comm, root, msg, len, &failed));
  PetscCheck(!failed, comm, code, "%s", msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}
