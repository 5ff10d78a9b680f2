/*
  Which instruction sets the kernels of this build can run with on this CPU
  (include/rewind/private/kernelisaimpl.h), and the best of them.
*/
#include <rewind/private/kernelisaimpl.h>

const char *const RwKernelISANames[] = {"portable", "avx2", "avx512", "RwKernelISA", "RW_KERNEL_ISA_", NULL};

/*@C
  RwKernelISAAvailable - whether kernels can run with an instruction set here: built with it, and the CPU has it

  Not Collective

  Input Parameter:
. isa - the instruction set

  Level: developer

.seealso: RwKernelISABest()
@*/
PetscBool RwKernelISAAvailable(RwKernelISA isa)
{
  switch (isa) {
  case RW_KERNEL_ISA_PORTABLE: return PETSC_TRUE;
#if defined(RW_KERNEL_ISA_DISPATCH)
  case RW_KERNEL_ISA_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? PETSC_TRUE : PETSC_FALSE; /* the variant is built for both */
  case RW_KERNEL_ISA_AVX512:
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") ? PETSC_TRUE : PETSC_FALSE;
#endif
  default: return PETSC_FALSE;
  }
}

/*@C
  RwKernelISABest - the widest instruction set the kernels can run with here (the default of -rw_kernel_isa)

  Not Collective

  Level: developer

.seealso: RwKernelISAAvailable()
@*/
RwKernelISA RwKernelISABest(void)
{
  RwKernelISA best = RW_KERNEL_ISA_PORTABLE;

  for (int i = 0; i < RW_KERNEL_ISA_N; i++)
    if (RwKernelISAAvailable((RwKernelISA)i)) best = (RwKernelISA)i;
  return best;
}

/* "portable, avx2, avx512": the instruction sets available here */
PetscErrorCode RwKernelISAList(char buf[], size_t len)
{
  PetscFunctionBegin;
  buf[0] = 0;
  for (int i = 0; i < RW_KERNEL_ISA_N; i++)
    if (RwKernelISAAvailable((RwKernelISA)i)) {
      if (buf[0]) PetscCall(PetscStrlcat(buf, ", ", len));
      PetscCall(PetscStrlcat(buf, RwKernelISANames[i], len));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An instruction set asked for by option opt must run on every rank's CPU */
PetscErrorCode RwKernelISACheck(MPI_Comm comm, const char opt[], RwKernelISA isa)
{
  PetscMPIInt mine = RwKernelISAAvailable(isa) ? 1 : 0, all;
  char        list[64];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm));
  PetscCall(RwKernelISAList(list, sizeof(list)));
  PetscCheck(all, comm, PETSC_ERR_SUP_SYS, "%s %s: not available on %s (this build and CPU have: %s)", opt, RwKernelISANames[isa], mine ? "another rank's CPU" : "this CPU", list);
  PetscFunctionReturn(PETSC_SUCCESS);
}
