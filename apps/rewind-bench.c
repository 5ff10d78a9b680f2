static char help[] = "rewind-bench: what rewind costs on this machine, against the machine's limits and PETSc TSAdjoint.\n"
                     "All figures are measured in one process, so their ratios hold on a noisy machine.\n"
                     "Sections (-rw_bench_sections, default all):\n"
                     "  stream    copy and triad bandwidth with 1, 2, 4, ... and all ranks active\n"
                     "  kernels   forward, tangent and adjoint heat steps: points/s, GB/s, fraction of copy bandwidth\n"
                     "  gradient  gradient time / forward time by schedule and store; steps taken against predicted\n"
                     "  io        hdf5 checkpoint write and read against plain write()+fdatasync() and read()\n"
                     "  peer      the same gradient by PETSc TSAdjoint: time ratio and relative differences\n"
                     "  sum       reproducible sums against plain ones\n"
                     "  wave      wave steps (orders 2, 4, 8; 2D, 3D) against copy bandwidth, gradient / forward, FWI shots per second\n"
                     "  hybrid    heat + a learned network term: gradient/forward, kernel GFLOP/s, against PyTorch\n"
                     "  targets   the performance targets against the figures measured\n"
                     "Sizes: -rw_bench_size tiny|small|large, each overridable (-rw_bench_kernel_grid, ...).\n"
                     "The options case of the gradient section (-rw_bench_gradient_cases options) times the problem\n"
                     "rewind-gradient solves, from the usual options (-da_grid_x, -rw_steps, -rw_schedule_type, -rw_obs, ...);\n"
                     "-rw_bench_weak_grid nx,ny[,nz] makes its grid a block of that size per rank (weak scaling).\n"
                     "Output: a table on rank 0; -rw_bench_output file.csv,file.json writes it. doc/benchmarks.md explains every figure.\n\n";

#include "bench/bench.h"
#include <stdlib.h>
#include <unistd.h>

static const char *const BenchSizes[]    = {"tiny", "small", "large"};
static const char *const BenchSections[] = {"stream", "kernels", "gradient", "io", "peer", "sum", "wave", "hybrid", "compression", "targets"};
#define BENCH_NSECTIONS 10

/* The presets: tiny for tests (seconds), small by default, large for make bench (minutes) */
typedef struct {
  PetscInt  stream, kgrid[3], kimplicit; /* kgrid: up to 3 sides, 0 for none */
  PetscReal seconds;
  PetscInt  repeat, ggrid, gsteps, slots[2], iogrid, ioslots, pgrid, psteps, terms, sreps, rreps;
  PetscInt  wgrid2[2], wgrid3, wggrid, wgsteps;
  PetscReal wrecord;
  PetscInt  wggrid3, fgrid3, fsteps3; /* wave, issue 37: 3D store-all gradient side; 3D FWI physical side, steps */
} BenchPresetSizes;
static const BenchPresetSizes BenchPresets[3] = {
  /*         stream   kernel grids  impl.  seconds  rep  gradient  slots   io       peer     sum */
  /*         stream   kernel grids  impl.  seconds  rep  gradient  slots   io       peer     sum                wave: 2D 3D, gradient, record (ms) */
  /* tiny  */ {1 << 20, {32, 128},   128,   0.002,   2,   48, 20,   {3, 6},  64, 3,   24, 10,  100000, 2, 100,    {64}, 24, 48, 20, 50, 24, 8, 6},
  /* small */ {1 << 23, {256, 1024}, 512,   0.1,     3,   512, 100, {5, 20}, 1024, 4, 256, 50, 1000000, 20, 2000, {1024}, 128, 512, 50, 1000, 48, 32, 100},
  /* large */ {1 << 24, {512, 2048, 4096}, 1024,  0.3,     3,   2048, 20, {3, 6},  2048, 4, 2048, 20, 1000000, 20, 2000, {2048, 4096}, 256, 1024, 40, 1000, 160, 128, 800}
};

static void BenchPreset(PetscInt size, BenchConfig *c)
{
  const BenchPresetSizes *p = &BenchPresets[size];

  c->size                = size;
  c->stream_n            = p->stream;
  c->nkernel_grid        = 0;
  for (PetscInt g = 0; g < 3 && p->kgrid[g]; g++) c->kernel_grid[c->nkernel_grid++] = p->kgrid[g];
  c->kernel_implicit_max = p->kimplicit;
  c->nkernel_dims        = 3;
  for (PetscInt d = 0; d < 3; d++) c->kernel_dims[d] = d + 1;
  c->seconds        = p->seconds;
  c->repeat         = p->repeat;
  c->gradient_grid  = p->ggrid;
  c->gradient_steps = p->gsteps;
  c->nrevolve_slots = 2;
  for (PetscInt s = 0; s < 2; s++) c->revolve_slots[s] = p->slots[s];
  c->io_grid           = p->iogrid;
  c->io_slots          = p->ioslots;
  c->peer_grid         = p->pgrid;
  c->peer_steps        = p->psteps;
  c->sum_terms         = p->terms;
  c->sum_repeat        = p->sreps;
  c->sum_reduce_repeat = p->rreps;
  c->nwave_grid2         = 0;
  for (PetscInt g = 0; g < 2 && p->wgrid2[g]; g++) c->wave_grid2[c->nwave_grid2++] = p->wgrid2[g];
  c->wave_grid3          = p->wgrid3;
  c->nwave_orders        = 3;
  for (PetscInt o = 0; o < 3; o++) c->wave_orders[o] = 2 << o;
  c->wave_gradient_grid  = p->wggrid;
  c->wave_gradient_steps = p->wgsteps;
  c->wave_record         = p->wrecord;
  c->wave_gradient_grid3 = p->wggrid3;
  c->wave_fwi3d_grid     = p->fgrid3;
  c->wave_fwi3d_steps    = p->fsteps3;
}

/* Every file of -rw_bench_output ends in .csv or .json */
static PetscErrorCode BenchCheckOutput(const char list[])
{
  char **files;
  int    n;

  PetscFunctionBegin;
  PetscCall(PetscStrToArray(list, ',', &n, &files));
  for (int i = 0; i < n; i++) {
    PetscBool csv, json;
    PetscCall(PetscStrendswith(files[i], ".csv", &csv));
    PetscCall(PetscStrendswith(files[i], ".json", &json));
    PetscCheck(csv || json, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-rw_bench_output: \"%s\" must end in .csv or .json", files[i]);
  }
  PetscCall(PetscStrToArrayDestroy(n, files));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A list option of at most max positive integers; unchanged when not given.
   Read as strings: PetscOptionsIntArray would wrap 4294967306 to 10 */
static PetscErrorCode BenchIntList(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], PetscInt max, PetscInt v[], PetscInt *n)
{
  char     *s[8];
  PetscInt  k = PetscMin(max, 8);
  PetscBool set, ok;

  PetscFunctionBegin;
  PetscCall(PetscOptionsStringArray(opt, text, "rewind-bench", s, &k, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(k >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "%s needs at least one value", opt);
  for (PetscInt i = 0; i < k; i++) {
    PetscInt64 x = 0;
    char       why[128];

    PetscCall(RwParseInt64(s[i], 1, PETSC_MAX_INT, &x, &ok, why, sizeof(why)));
    PetscCheck(ok, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "%s: value %s: %s", opt, s[i], why);
    v[i] = (PetscInt)x;
    PetscCall(PetscFree(s[i]));
  }
  *n = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BenchReadOptions(BenchConfig *c, PetscBool run[], char output[], size_t len)
{
  const char *const schemenames[2] = {"explicit", "implicit"};
  char              sections[256] = "stream,kernels,gradient,io,peer,sum,wave,hybrid,compression,targets", schemes[64] = "explicit,implicit", cases[256] = "storeall,revolve,revolve-hdf5,multilevel,keep,default,weak", cparts[64] = "codecs,error,budget";
  const char *const cpartnames[3] = {"codecs", "error", "budget"};
  PetscBool         scheme[2];
  PetscInt          size = 1;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(PetscStrncpy(c->dir, ".", sizeof(c->dir)));
  output[0] = 0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-bench options", "rewind");
  PetscCall(PetscOptionsString("-rw_bench_sections", "Sections to run: stream, kernels, gradient, io, peer, sum, wave, hybrid, compression, targets (comma separated)", "rewind-bench", sections, sections, sizeof(sections), NULL));
  PetscCall(PetscOptionsEList("-rw_bench_size", "Preset sizes: tiny (tests, seconds), small, large (make bench, minutes)", "rewind-bench", BenchSizes, 3, BenchSizes[size], &size, NULL));
  BenchPreset(size, c);
  PetscCall(PetscOptionsString("-rw_bench_output", "Write the results: file.csv and/or file.json (comma separated)", "rewind-bench", output, output, len, NULL));
  PetscCall(PetscOptionsString("-rw_bench_dir", "Directory of checkpoint and plain-write files", "rewind-bench", c->dir, c->dir, sizeof(c->dir), NULL));
  PetscCall(RwOptionsReal("-rw_bench_seconds", "Least seconds of one timed repetition", "rewind-bench", c->seconds, &c->seconds, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsInt("-rw_bench_repeat", "Timed repetitions of each measurement; the best is kept", "rewind-bench", c->repeat, &c->repeat, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_stream_size", "Doubles per array per rank of the stream section", "rewind-bench", c->stream_n, &c->stream_n, NULL, 1, PETSC_MAX_INT));
  PetscCall(BenchIntList(PetscOptionsObject, "-rw_bench_kernel_grid", "Kernel grids: 2D sides; 1D and 3D grids get as many points", 4, c->kernel_grid, &c->nkernel_grid));
  PetscCall(BenchIntList(PetscOptionsObject, "-rw_bench_kernel_dims", "Kernel dimensions: 1, 2 and/or 3", 3, c->kernel_dims, &c->nkernel_dims));
  PetscCall(RwOptionsInt("-rw_bench_kernel_implicit_grid_max", "Largest 2D side of the implicit kernel cases (their steps take many CG iterations)", "rewind-bench", c->kernel_implicit_max, &c->kernel_implicit_max, NULL, 0, PETSC_MAX_INT));
  PetscCall(PetscOptionsString("-rw_bench_kernel_schemes", "Kernel schemes: explicit and/or implicit", "rewind-bench", schemes, schemes, sizeof(schemes), NULL));
  PetscCall(RwOptionsInt("-rw_bench_gradient_grid", "Gradient section: side of the 2D grid of the built-in cases", "rewind-bench", c->gradient_grid, &c->gradient_grid, NULL, 2, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_gradient_steps", "Gradient section: time steps of the built-in cases", "rewind-bench", c->gradient_steps, &c->gradient_steps, NULL, 1, PETSC_MAX_INT));
  PetscCall(PetscOptionsString("-rw_bench_gradient_cases", "Gradient cases: storeall, revolve, revolve-hdf5, multilevel, keep (revolve-hdf5 keeping its reverse sweep), default (no schedule named: the driver chooses), weak (1, 2, ... ranks, a block each), options (the problem and schedule of the options database)", "rewind-bench", cases, cases, sizeof(cases), NULL));
  PetscCall(BenchIntList(PetscOptionsObject, "-rw_bench_revolve_slots", "RAM slots of the revolve cases (the first also for revolve-hdf5 and multilevel)", 4, c->revolve_slots, &c->nrevolve_slots));
  PetscCall(PetscOptionsBool("-rw_bench_weak", "Options case: weak scaling, a block of -rw_bench_weak_grid per rank", "rewind-bench", c->weak, &c->weak, NULL));
  PetscCall(BenchIntList(PetscOptionsObject, "-rw_bench_weak_grid", "Options case, weak scaling: one rank's block, points per direction (nx,ny[,nz]); the grid has a block per rank", 3, c->weak_grid, &c->nweak_grid));
  PetscCall(RwOptionsInt("-rw_bench_io_grid", "IO section: side of the 2D grid of a checkpoint", "rewind-bench", c->io_grid, &c->io_grid, NULL, 2, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_io_slots", "IO section: checkpoint slots written in turn", "rewind-bench", c->io_slots, &c->io_slots, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_peer_grid", "Peer section: side of the 2D grid", "rewind-bench", c->peer_grid, &c->peer_grid, NULL, 2, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_peer_steps", "Peer section: time steps", "rewind-bench", c->peer_steps, &c->peer_steps, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_sum_terms", "Sum section: terms of the local accumulation", "rewind-bench", c->sum_terms, &c->sum_terms, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_sum_repeat", "Sum section: repetitions of the local accumulation", "rewind-bench", c->sum_repeat, &c->sum_repeat, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_sum_reduce_repeat", "Sum section: repetitions of each reduction", "rewind-bench", c->sum_reduce_repeat, &c->sum_reduce_repeat, NULL, 1, PETSC_MAX_INT));
  PetscCall(BenchIntList(PetscOptionsObject, "-rw_bench_wave_grid", "Wave section: sides of the 2D step cases (absorbing layers included)", 4, c->wave_grid2, &c->nwave_grid2));
  PetscCall(RwOptionsInt("-rw_bench_wave_grid3", "Wave section: side of the 3D step cases", "rewind-bench", c->wave_grid3, &c->wave_grid3, NULL, 16, PETSC_MAX_INT));
  PetscCall(BenchIntList(PetscOptionsObject, "-rw_bench_wave_orders", "Wave section: space orders of the step cases (2, 4, 8)", 3, c->wave_orders, &c->nwave_orders));
  PetscCall(RwOptionsInt("-rw_bench_wave_gradient_grid", "Wave section: side of the 2D gradient problem", "rewind-bench", c->wave_gradient_grid, &c->wave_gradient_grid, NULL, 16, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_wave_gradient_steps", "Wave section: time steps of the gradient problem", "rewind-bench", c->wave_gradient_steps, &c->wave_gradient_steps, NULL, 3, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_wave_gradient_grid3", "Wave section: side of the 3D store-all gradient problem (0: none)", "rewind-bench", c->wave_gradient_grid3, &c->wave_gradient_grid3, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_wave_fwi3d_grid", "Wave section: physical points a side of the 3D FWI gradient (0: none)", "rewind-bench", c->wave_fwi3d_grid, &c->wave_fwi3d_grid, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_wave_fwi3d_steps", "Wave section: time steps of the 3D FWI gradient", "rewind-bench", c->wave_fwi3d_steps, &c->wave_fwi3d_steps, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsReal("-rw_bench_wave_record", "Wave section: record length in ms of the FWI shots (rewind-fwi: 1000)", "rewind-bench", c->wave_record, &c->wave_record, NULL, 0, 1e7, RW_RANGE_OPEN_LO));
  PetscCall(PetscOptionsString("-rw_bench_compression_parts", "Compression section's parts: codecs (the same slots), error (zfp's error against its tolerance), budget (the same RAM budget) (comma separated)", "rewind-bench", cparts, cparts, sizeof(cparts), NULL));
  PetscOptionsEnd();
  c->weak = (PetscBool)(c->weak || c->nweak_grid > 0);
  PetscCall(BenchParseNames("-rw_bench_compression_parts", cparts, 3, cpartnames, c->compression));
  PetscCall(BenchParseNames("-rw_bench_sections", sections, BENCH_NSECTIONS, BenchSections, run));
  PetscCall(BenchParseNames("-rw_bench_gradient_cases", cases, BENCH_NGRADIENT, BenchGradientCases, c->gradient));
  PetscCall(BenchParseNames("-rw_bench_kernel_schemes", schemes, 2, schemenames, scheme));
  c->kernel_explicit = scheme[0];
  c->kernel_implicit = scheme[1];
  PetscCall(BenchCheckOutput(output));
  for (PetscInt d = 0; d < c->nkernel_dims; d++) PetscCheck(c->kernel_dims[d] <= 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_kernel_dims: %" PetscInt_FMT " is not 1, 2 or 3", c->kernel_dims[d]);
  PetscCheck(c->seconds >= 0 && c->repeat >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_seconds must be >= 0 and -rw_bench_repeat >= 1");
  PetscCheck(c->stream_n >= 1 && c->gradient_grid >= 2 && c->gradient_steps >= 1 && c->io_grid >= 2 && c->io_slots >= 1 && c->peer_steps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_stream_size, -rw_bench_gradient_steps, -rw_bench_io_slots and -rw_bench_peer_steps must be >= 1, grids >= 2");
  for (PetscInt o = 0; o < c->nwave_orders; o++) PetscCheck(c->wave_orders[o] == 2 || c->wave_orders[o] == 4 || c->wave_orders[o] == 8, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_wave_orders: %" PetscInt_FMT " is not 2, 4 or 8", c->wave_orders[o]);
  for (PetscInt g = 0; g < c->nwave_grid2; g++) PetscCheck(c->wave_grid2[g] >= 16, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_wave_grid: %" PetscInt_FMT " is below 16 points a side", c->wave_grid2[g]);
  PetscCheck(c->wave_gradient_grid3 == 0 || c->wave_gradient_grid3 >= 8, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_wave_gradient_grid3 %" PetscInt_FMT ": expected 0 (none) or at least 8 points a side", c->wave_gradient_grid3);
  PetscCheck(c->wave_fwi3d_grid == 0 || c->wave_fwi3d_grid >= 8, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_wave_fwi3d_grid %" PetscInt_FMT ": expected 0 (none) or at least 8 physical points a side", c->wave_fwi3d_grid);
  PetscCheck(c->wave_record > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_wave_record %g: expected a positive record length in ms", (double)c->wave_record);
  PetscCheck(c->sum_terms >= 1 && c->sum_repeat >= 1 && c->sum_reduce_repeat >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_sum_terms, -rw_bench_sum_repeat and -rw_bench_sum_reduce_repeat must be >= 1");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run itself: ranks, nodes, cores, whether ranks outnumber the cores of a node */
static PetscErrorCode BenchRunInfo(const BenchConfig *cfg, BenchResults res)
{
  MPI_Comm    node;
  PetscMPIInt ranks, onnode, leader, nodes, most, cores, maxcores;
  PetscInt    v[3];
  double      load[1];
  char        version[128];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &ranks));
  PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_size(node, &onnode));
  PetscCallMPI(MPI_Comm_rank(node, &leader));
  leader = leader == 0;
  PetscCallMPI(MPI_Comm_free(&node));
  PetscCallMPI(MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(&onnode, &most, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
  cores = (PetscMPIInt)sysconf(_SC_NPROCESSORS_ONLN);
  PetscCallMPI(MPI_Allreduce(&cores, &maxcores, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCall(BenchSectionBegin(res, "run", "this run"));
  PetscCall(BenchRow(res, "run"));
  PetscCall(BenchInt(res, "ranks", ranks));
  PetscCall(BenchInt(res, "nodes", nodes));
  PetscCall(BenchInt(res, "ranks_per_node", most));
  PetscCall(BenchInt(res, "cores_per_node", maxcores));
  PetscCall(BenchText(res, "oversubscribed", most > maxcores ? "yes" : "no"));
  if (getloadavg(load, 1) != 1) load[0] = -1;
  PetscCallMPI(MPI_Bcast(load, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
  PetscCall(BenchReal(res, "load_before", "", load[0])); /* runnable processes, 1-minute average: others sharing the cores */
  PetscCall(BenchText(res, "size", BenchSizes[cfg->size]));
  PetscCall(RwGetVersion(version, sizeof(version)));
  PetscCall(BenchText(res, "rewind", version));
  PetscCall(PetscGetVersionNumber(&v[0], &v[1], &v[2], NULL));
  PetscCall(PetscSNPrintf(version, sizeof(version), "%" PetscInt_FMT ".%" PetscInt_FMT ".%" PetscInt_FMT, v[0], v[1], v[2]));
  PetscCall(BenchText(res, "petsc", version));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -help: the options of every object the options case creates (the
   problem's model, objective, driver and ensemble) and of the hdf5 store,
   without measuring */
static PetscErrorCode BenchHelp(const BenchConfig *cfg)
{
  RwProblem prob;
  RwStore   store;

  PetscFunctionBegin;
  /* the hdf5 store first: PETSc lists a block of options once, and the problem lists its own store's */
  PetscCall(RwStoreCreate(PETSC_COMM_WORLD, &store));
  PetscCall(RwStoreSetType(store, RWSTOREHDF5));
  PetscCall(RwStoreSetFromOptions(store));
  PetscCall(RwStoreDestroy(&store));
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &prob));
  PetscCall(RwProblemSetFromOptions(prob));
  PetscCall(RwProblemSetUp(prob));
  PetscCall(RwProblemDestroy(&prob));
  PetscCall(BenchHybridHelp(cfg)); /* the one section that reads options of its own */
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef PetscErrorCode (*BenchSectionFn)(const BenchConfig *, BenchResults);

int main(int argc, char **argv)
{
  const BenchSectionFn fn[BENCH_NSECTIONS] = {BenchStream, BenchKernels, BenchGradient, BenchIO, BenchPeer, BenchSum, BenchWave, BenchHybrid, BenchCompression, BenchTargets};
  BenchConfig          cfg;
  BenchResults         res;
  PetscBool            run[BENCH_NSECTIONS], askhelp;
  char                 output[PETSC_MAX_PATH_LEN], **files;
  int                  nfiles;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(BenchReadOptions(&cfg, run, output, sizeof(output)));
  PetscCall(PetscOptionsHasHelp(NULL, &askhelp));
  if (askhelp) {
    PetscCall(BenchHelp(&cfg));
    PetscCall(RwHelpStop(PETSC_COMM_WORLD, &askhelp));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(RwOptionsCheckUnknown(PETSC_COMM_WORLD)); /* a misspelled option, before the sections run */
  run[0] = (PetscBool)(run[0] || run[1] || run[6]); /* the kernels' and wave's fractions of bandwidth need the stream section */
  PetscCall(BenchResultsCreate(PETSC_COMM_WORLD, &res));
  PetscCall(BenchRunInfo(&cfg, res));
  for (PetscInt s = 0; s < BENCH_NSECTIONS; s++)
    if (run[s]) PetscCall(fn[s](&cfg, res));
  PetscCall(PetscStrToArray(output, ',', &nfiles, &files));
  for (int i = 0; i < nfiles; i++) PetscCall(BenchResultsWrite(res, files[i]));
  PetscCall(PetscStrToArrayDestroy(nfiles, files));
  PetscCall(BenchResultsDestroy(&res));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD)); /* a misspelled option would otherwise pass in silence */
  PetscCall(PetscFinalize());
  return 0;
}
