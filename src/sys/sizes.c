/*
  Sizes checked before they are allocated: a count from the options (a record
  length over dt, receivers times samples) can exceed what a PetscInt indexes
  or what the machine holds; refused with what it was for and how much, rather
  than a failed allocation that names neither.
*/
#include <rewind/private/rwimpl.h>
#include <unistd.h>

/* The memory of this machine in bytes, 0 when the system does not say */
static PetscReal RwPhysicalMemory(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

  return pages > 0 && page > 0 ? (PetscReal)pages * (PetscReal)page : 0;
}

/*@C
  RwCheckArraySize - refuses an array too large to index or to hold, before it is allocated

  Collective

  Input Parameters:
+ comm   - the communicator that agrees on the size (every rank computes the same count)
. what   - what the array holds, for the message ("the traces of 8 shots")
. count  - its number of entries, computed in floating point so that it cannot wrap
. size   - the bytes of one entry
- cause  - the options that set the count, for the message ("-rw_fwi_record, -rw_dt")

  Notes:
  Refused when count is not finite, exceeds PETSC_MAX_INT (the largest PetscInt
  index), or its bytes exceed this machine's memory.

  Level: developer

.seealso: PetscMalloc1()
@*/
PetscErrorCode RwCheckArraySize(MPI_Comm comm, const char what[], PetscReal count, size_t size, const char cause[])
{
  const PetscReal bytes = count * (PetscReal)size, mem = RwPhysicalMemory();

  PetscFunctionBegin;
  PetscCheck(!PetscIsInfOrNanReal(count) && count >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: %g entries: not a size (%s)", what, (double)count, cause);
  PetscCheck(count <= PETSC_MAX_INT, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: %.6g entries (%.3g GiB), more than a PetscInt indexes (%d): lower %s", what, (double)count, (double)(bytes / 1073741824.0), PETSC_MAX_INT, cause);
  PetscCheck(mem <= 0 || bytes <= mem, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: %.3g GiB, more than this machine's memory (%.3g GiB): lower %s", what, (double)(bytes / 1073741824.0), (double)(mem / 1073741824.0), cause);
  PetscFunctionReturn(PETSC_SUCCESS);
}
