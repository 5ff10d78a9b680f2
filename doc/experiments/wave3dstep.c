/*
  An experiment, not part of the library: the 3D wave forward step's time
  with the large arrays in ordinary 4 KiB pages and in transparent huge
  pages, measured in one process (doc/notes/wave-3d-profile.md).

  Two models of the same grid and order are built, the first with
  RwHugePagesSet(PETSC_FALSE), the second with PETSC_TRUE (each its own
  states, fields and work vectors); then rounds alternate: a copy of a
  state in each set of pages (VecCopy, counted 16 B a double as STREAM's
  copy), then `-steps` forward steps of each model.  Prints the best
  CPU ms a step of each, its fraction of the best copy (56 B a point, as
  rewind-bench counts the forward) and the ratio; checks that both models'
  states are the same bits.

    make -j2   # the library, then:
    mpicc -O3 -g -I include -I /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real/include \
      -I/usr/include/hdf5/openmpi -o /tmp/wave3dstep doc/experiments/wave3dstep.c \
      -Wl,-rpath,$PWD/src/.libs src/.libs/librewind.so \
      -L/usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real/lib -lpetsc_real -lm
    /tmp/wave3dstep -rw_wave_dim 3 -rw_wave_space_order 8 -da_grid_x 256 -da_grid_y 256 -da_grid_z 256 -steps 5 -rounds 3
*/
#include <rewind.h>
#include <rewind/private/rwimpl.h>
#include <time.h>

/* CPU seconds of this process: on a shared machine steadier than wall time (the
   rounds alternate, so a busy spell hits both sets of pages alike) */
static PetscLogDouble Cpu(void)
{
  struct timespec t;

  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef struct {
  RwModel model;
  Vec     m, u, w;
} Case;

static PetscErrorCode CaseCreate(PetscBool huge, Case *c)
{
  PetscRandom rnd;

  PetscFunctionBegin;
  PetscCall(RwHugePagesSet(huge));
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, &c->model));
  PetscCall(RwModelSetType(c->model, RWMODELWAVE));
  PetscCall(RwModelSetFromOptions(c->model));
  PetscCall(RwHugePagesSet(huge)); /* over -rw_hugepages */
  PetscCall(RwModelSetUp(c->model));
  PetscCall(RwModelCreateParameters(c->model, &c->m));
  PetscCall(RwModelGetDefaults(c->model, c->m, NULL, NULL));
  PetscCall(RwModelSetParameters(c->model, c->m));
  PetscCall(RwModelCreateState(c->model, &c->u));
  PetscCall(RwModelCreateState(c->model, &c->w));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(c->u, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CaseDestroy(Case *c)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&c->u));
  PetscCall(VecDestroy(&c->w));
  PetscCall(VecDestroy(&c->m));
  PetscCall(RwModelDestroy(&c->model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The best CPU seconds of one call over `steps` calls, per call */
static PetscErrorCode TimeSteps(Case *c, PetscInt steps, PetscReal *best)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < steps; k++) {
    PetscLogDouble t0, t1;

    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    t0 = Cpu();
    PetscCall(RwModelStep(c->model, k, c->u, c->w));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    t1 = Cpu();
    *best = PetscMin(*best, (PetscReal)(t1 - t0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TimeCopy(Case *c, PetscReal *best)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t0 = Cpu();
  PetscCall(VecCopy(c->u, c->w));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t1 = Cpu();
  *best = PetscMin(*best, (PetscReal)(t1 - t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Case      c[2];
  PetscInt  steps = 5, rounds = 3, N;
  PetscReal step[2] = {PETSC_MAX_REAL, PETSC_MAX_REAL}, copy[2] = {PETSC_MAX_REAL, PETSC_MAX_REAL}, bestcopy;
  PetscBool eq;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rounds", &rounds, NULL));
  for (PetscInt h = 0; h < 2; h++) PetscCall(CaseCreate((PetscBool)h, &c[h]));
  PetscCall(RwHugePagesView(PETSC_VIEWER_STDOUT_WORLD));
  for (PetscInt r = 0; r < rounds; r++)
    for (PetscInt h = 0; h < 2; h++) {
      PetscCall(TimeCopy(&c[h], &copy[h]));
      PetscCall(TimeSteps(&c[h], steps, &step[h]));
    }
  PetscCall(VecEqual(c[0].w, c[1].w, &eq));
  PetscCall(VecGetSize(c[0].m, &N));
  bestcopy = PetscMax(16.0 * 2 * N / copy[0], 16.0 * 2 * N / copy[1]) / 1e9;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "copy GB/s: 4 KiB pages %.2f, huge pages %.2f\n", 16.0 * 2 * N / copy[0] / 1e9, 16.0 * 2 * N / copy[1] / 1e9));
  for (PetscInt h = 0; h < 2; h++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: forward %.2f ms a step, %.3f of the best copy\n", h ? "huge pages" : "4 KiB pages", 1e3 * step[h], 56.0 * N / step[h] / 1e9 / bestcopy));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "huge / 4 KiB time %.3f; states %s bits\n", step[1] / step[0], eq ? "the same" : "NOT the same"));
  for (PetscInt h = 0; h < 2; h++) PetscCall(CaseDestroy(&c[h]));
  PetscCall(PetscFinalize());
  return 0;
}
