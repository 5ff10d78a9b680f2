static char help[] = "rewind-gradient: J and its exact gradient for a problem configured by options.\n"
                     "Prints `key value` lines (%.17g): J, then norm2_dJd<name> and sum_dJd<name> for\n"
                     "every parameter (fields, global scalars) and for the initial state u0.\n\n"
                     "  -rw_model_type heat|wave     the model (heat: see -rw_heat_* options; wave: -rw_wave_*, doc/wave.md)\n"
                     "  -rw_obs file                 your data: every member (experiment, shot, trajectory) of an observation\n"
                     "                               file (doc/observations.md), J and the gradient summed over them; a file's\n"
                     "                               grid, steps and dt are the defaults; or a SEG-Y shot gather\n"
                     "  -rw_obs_member i             solve member i of -rw_obs alone\n"
                     "  -rw_parameter p=spec,...     known parameters: spec is file.h5:dataset or a number, p any field,\n"
                     "                               block or u0 (kappa=k.h5:kappa,theta=w.h5:theta,r=0)\n"
                     "  -rw_ensemble_groups g        solve the members g at a time on g groups of ranks (the same bits, explicit schemes)\n"
                     "  -rw_reg_type l2|h1|tv -rw_reg_parameter p -rw_reg_alpha a   add a regulariser of parameter p to J\n"
                     "Without -rw_obs, J is the misfit the options give; by default the terminal misfit at the last\n"
                     "  step n, J = (w/2) h^d sum_i (u_n,i - d_i)^2 over the grid points i (h^d the cell volume,\n"
                     "  w = -rw_objective_terminal_weight, 1), with d a target field (-rw_objective_terminal file.h5:dataset):\n"
                     "    heat: u the temperature, d by default 0.5 exp(-|x - (0.3,0.6,0.5)|^2 / (2 0.15^2)) on the unit box\n"
                     "    wave: u the pressure, d by default 0 (J measures the wavefield left at step n);\n"
                     "  -rw_wave_receivers x,z,... J = 1/2 sum_k sum_r r_k^2 at receivers (data zero)\n"
                     "  -rw_model_plugin <lib.so>    load model types from a shared library first (e.g. examples/oscillator's libosc.so)\n"
                     "  -rw_steps <n>                number of time steps\n"
                     "  -rw_gradient_view hdf5:file  write dJd<name> datasets (natural grid order) and scalars as attributes\n"
                     "  -rw_verify taylor,dot,fd     verify the gradient of one solve; prints figures and PASS/FAIL\n"
                     "  -rw_adjoint_view             show the schedule, stores, step counts and times after each solve\n"
                     "Checkpointing: -rw_schedule_type, -rw_schedule_ram_slots, -rw_checkpoint_ram, -rw_store_type, ...\n"
                     "Stopping: -rw_adjoint_stop_steady tol ends the run at steady state (max |u_k - u_k-1| <= tol),\n"
                     "  -rw_steps is then an upper bound; needs -rw_schedule_type online\n\n";

#include <rewind.h>
#include <petscviewerhdf5.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  char      view[PETSC_MAX_PATH_LEN];
  PetscBool taylor, dot, fd;
  PetscReal dottol;
} AppOptions;

/* Whether the -rw_gradient_view file can be written, tried by rank 0 before
   the run rather than found out after it; every rank gets the verdict */
static PetscErrorCode CheckWritable(const char view[])
{
  char        file[PETSC_MAX_PATH_LEN], msg[2 * PETSC_MAX_PATH_LEN + 256] = "";
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(file, view + 5, sizeof(file)));
  if (strchr(file, ':')) *strchr(file, ':') = 0; /* hdf5:file.h5::append */
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    FILE *fp;
    int   existed = access(file, F_OK) == 0;

    if (!(fp = fopen(file, "a"))) snprintf(msg, sizeof(msg), "-rw_gradient_view %s: cannot create %s: %s; expected a file in an existing, writable directory", view, file, strerror(errno));
    else {
      fclose(fp);
      if (!existed) remove(file); /* leave nothing behind if the run fails */
    }
  }
  PetscCall(RwErrorAgree(PETSC_COMM_WORLD, 0, PETSC_ERR_FILE_OPEN, msg, sizeof(msg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadOptions(AppOptions *o)
{
  char      list[256] = "";
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(o, sizeof(*o)));
  o->dottol = 100;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-gradient options", "rewind");
  PetscCall(PetscOptionsString("-rw_gradient_view", "Write the gradient: hdf5:file.h5, or hdf5:file.h5::append to add to a file", NULL, o->view, o->view, sizeof(o->view), NULL));
  PetscCall(PetscOptionsString("-rw_verify", "Verify the gradient: any of taylor, dot, fd (comma separated)", NULL, list, list, sizeof(list), &set));
  PetscCall(RwOptionsReal("-rw_verify_dot_tol", "Largest dot-product error accepted, in units of machine epsilon (implicit schemes: raise to what -ksp_rtol allows)", NULL, o->dottol, &o->dottol, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscOptionsEnd();
  if (set) {
    char **words;
    int    n;

    PetscCall(PetscStrToArray(list, ',', &n, &words));
    for (int i = 0; i < n; i++) {
      PetscBool t, d, f;
      PetscCall(PetscStrcmp(words[i], "taylor", &t));
      PetscCall(PetscStrcmp(words[i], "dot", &d));
      PetscCall(PetscStrcmp(words[i], "fd", &f));
      PetscCheck(t || d || f, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown check \"%s\" in -rw_verify %s: use taylor, dot and/or fd", words[i], list);
      o->taylor = (PetscBool)(o->taylor || t);
      o->dot    = (PetscBool)(o->dot || d);
      o->fd     = (PetscBool)(o->fd || f);
    }
    PetscCall(PetscStrToArrayDestroy(n, words));
  }
  if (o->view[0]) {
    PetscBool h5;
    PetscCall(PetscStrbeginswith(o->view, "hdf5:", &h5));
    PetscCheck(h5 && o->view[5], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-rw_gradient_view %s: expected hdf5:file.h5", o->view);
    PetscCall(CheckWritable(o->view));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrintVec(const char *name, Vec v)
{
  PetscReal norm, sum;

  PetscFunctionBegin;
  PetscCall(RwVecNormRepro(v, &norm));
  PetscCall(RwVecSumRepro(v, &sum));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "norm2_dJd%s %.17g\nsum_dJd%s %.17g\n", name, (double)norm, name, (double)sum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define RW_GRADIENT_MAX_FIELDS 16

/* The gradient, parameter by parameter: printed, and written when asked */
/* A block of global scalars as a dataset: rank 0 holds it, every rank passes the same values */
static PetscErrorCode WriteBlock(PetscViewer h5, const char name[], PetscInt size, const PetscReal v[])
{
  Vec          x;
  PetscMPIInt  rank;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, rank ? 0 : size, size, &x));
  PetscCall(VecGetArray(x, &a));
  for (PetscInt i = 0; !rank && i < size; i++) a[i] = v[i];
  PetscCall(VecRestoreArray(x, &a));
  PetscCall(PetscObjectSetName((PetscObject)x, name));
  PetscCall(VecView(x, h5));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A stop test (-rw_adjoint_stop_steady) may have ended the run before -rw_steps: say where */
static PetscErrorCode ReportStop(RwAdjoint adj)
{
  RwAdjointCounts c;
  PetscInt64      n;

  PetscFunctionBegin;
  PetscCall(RwAdjointGetCounts(adj, &c));
  PetscCall(RwAdjointGetSteps(adj, &n));
  if (c.steps < n) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "stopped_at_step %" PetscInt64_FMT "\n", c.steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The gradient fields (and dJdu0, for a one-component state) in ParaView: an XDMF file beside the HDF5 file */
static PetscErrorCode WriteXDMF(RwModel model, const char file[], PetscInt nf, const char *const fields[])
{
  char        xmf[PETSC_MAX_PATH_LEN], ref[PETSC_MAX_PATH_LEN], name[RW_GRADIENT_MAX_FIELDS + 1][64];
  const char *names[RW_GRADIENT_MAX_FIELDS + 1];
  PetscInt    dof, n = 0;

  PetscFunctionBegin;
  PetscCheck(nf <= RW_GRADIENT_MAX_FIELDS, PETSC_COMM_WORLD, PETSC_ERR_SUP, "The model has %" PetscInt_FMT " parameter fields: the XDMF file takes at most %d", nf, RW_GRADIENT_MAX_FIELDS);
  PetscCall(RwModelGetStateInfo(model, &dof, NULL, NULL));
  for (PetscInt i = 0; i < nf; i++) PetscCall(PetscSNPrintf(name[n++], sizeof(name[0]), "dJd%s", fields[i]));
  if (dof == 1) PetscCall(PetscStrncpy(name[n++], "dJdu0", sizeof(name[0])));
  for (PetscInt i = 0; i < n; i++) names[i] = name[i];
  PetscCall(RwIOXDMFNames(file, xmf, ref, sizeof(xmf)));
  PetscCall(RwIOWriteXDMF(model, xmf, ref, n, names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Report(RwModel model, PetscReal J, Vec g, Vec gu0, const char *file)
{
  PetscInt           nf, nb, ns;
  const char *const *fields;
  PetscReal         *v;
  PetscViewer        h5 = NULL;
  RwOutputFile       out;
  PetscBool          append;
  char               name[64], h5file[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterInfo(model, &nf, &fields, &nb));
  PetscCall(RwModelGetNumParameterScalars(model, &ns));
  PetscCall(PetscMalloc1(ns + 1, &v));
  PetscCall(RwModelGetParameterScalars(model, g, v));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "J %.17g\n", (double)J));
  /* PETSc's own viewer syntax: hdf5:file.h5 truncates, hdf5:file.h5::append adds to the file;
     written whole under a temporary name, so a failure leaves no partial file */
  if (file[0]) {
    const char *path;

    PetscCall(PetscStrncpy(h5file, file + 5, sizeof(h5file)));
    if (strchr(h5file, ':')) *strchr(h5file, ':') = 0;
    append = (PetscBool)(strstr(file + 5, "::append") != NULL);
    PetscCall(RwOutputFileBegin(PETSC_COMM_WORLD, h5file, append, "-rw_gradient_view file", &out, &path));
    PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, path, append ? FILE_MODE_APPEND : FILE_MODE_WRITE, &h5));
  }
  if (h5) PetscCall(RwIOWriteMetadata(model, h5));
  for (PetscInt i = 0; i < nf; i++) {
    Vec f;
    PetscCall(RwModelGetParameterField(model, g, i, &f));
    PetscCall(PrintVec(fields[i], f));
    PetscCall(PetscSNPrintf(name, sizeof(name), "dJd%s", fields[i]));
    PetscCall(PetscObjectSetName((PetscObject)f, name));
    if (h5) PetscCall(VecView(f, h5));
    PetscCall(RwModelRestoreParameterField(model, g, i, &f));
  }
  for (PetscInt b = 0; b < nb; b++) {
    const char *bname;
    PetscInt    size, off;
    PetscReal   n2 = 0, sum = 0;

    /* every rank holds the same values: sums in block order are the same everywhere */
    PetscCall(RwModelGetParameterBlockInfo(model, b, &bname, &size, NULL, &off));
    for (PetscInt i = 0; i < size; i++) {
      n2 += v[off + i] * v[off + i];
      sum += v[off + i];
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "norm2_dJd%s %.17g\nsum_dJd%s %.17g\n", bname, (double)PetscSqrtReal(n2), bname, (double)sum));
    PetscCall(PetscSNPrintf(name, sizeof(name), "dJd%s", bname));
    if (h5 && size == 1) PetscCall(PetscViewerHDF5WriteAttribute(h5, "/", name, PETSC_REAL, &v[off]));
    if (h5 && size > 1) PetscCall(WriteBlock(h5, name, size, v + off));
  }
  PetscCall(PetscFree(v));
  PetscCall(PrintVec("u0", gu0));
  if (h5) {
    PetscCall(RwIOWriteField(model, h5, "dJdu0", gu0)); /* a state: its components interleaved, whatever the model's layout */
    PetscCall(PetscViewerHDF5WriteAttribute(h5, "/", "J", PETSC_REAL, &J));
    PetscCall(PetscViewerDestroy(&h5));
    PetscCall(RwOutputFileEnd(&out));
    PetscCall(WriteXDMF(model, h5file, nf, fields)); /* once the file it describes is complete */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The gradient checks of one solve: the member's own parameters and data */
static PetscErrorCode Verify(RwProblem prob, const AppOptions *o, PetscBool *ok)
{
  RwModel   model;
  RwAdjoint adj;
  PetscInt  n;
  Vec       m, u0;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  if (!o->dot && !o->taylor && !o->fd) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwProblemGetNumMembers(prob, &n));
  PetscCheck(n == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_verify checks one solve; -rw_obs has %" PetscInt_FMT " members: give -rw_obs_member i", n);
  PetscCall(RwProblemGetMemberSolver(prob, &model, NULL, &adj));
  PetscCall(RwProblemGetMemberParameters(prob, 0, &m, &u0));
  if (o->dot) {
    RwDotTest s, w;
    PetscCall(RwVerifyStepDot(model, m, 0, 1, &s));
    PetscCall(RwVerifyDot(adj, m, u0, 2, &w));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verify_dot_step %.17g %.17g err_eps %.3g %s\n", (double)s.lhs, (double)s.rhs, (double)s.err, s.err <= o->dottol ? "PASS" : "FAIL"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verify_dot_run %.17g %.17g err_eps %.3g %s\n", (double)w.lhs, (double)w.rhs, (double)w.err, w.err <= o->dottol ? "PASS" : "FAIL"));
    *ok = (PetscBool)(*ok && s.err <= o->dottol && w.err <= o->dottol);
  }
  if (o->taylor) {
    RwTaylorTest t;
    PetscCall(RwVerifyTaylor(adj, m, u0, 3, &t));
    for (PetscInt i = 0; i < t.n; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verify_taylor eps %.3e r0 %.6e order0 %.3f r1 %.6e order1 %.3f\n", (double)t.eps[i], (double)t.r0[i], (double)t.order0[i], (double)t.r1[i], (double)t.order1[i]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verify_taylor_min_order1 %.3f %s\n", (double)t.min_order1, t.min_order1 >= 1.9 ? "PASS" : "FAIL"));
    *ok = (PetscBool)(*ok && t.min_order1 >= 1.9);
  }
  if (o->fd) {
    RwFDTest f;
    PetscCall(RwVerifyFiniteDifferences(adj, m, u0, 4, 3, &f));
    for (PetscInt i = 0; i < f.n; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verify_fd h %.1e fd %.17g adjoint %.17g relerr %.3e\n", (double)f.h, (double)f.fd[i], (double)f.ad[i], (double)f.relerr[i]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verify_fd_max_relerr %.3e %s\n", (double)f.max_relerr, f.max_relerr <= 1e-6 ? "PASS" : "FAIL"));
    *ok = (PetscBool)(*ok && f.max_relerr <= 1e-6);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  AppOptions o;
  RwProblem  prob;
  RwModel    model;
  RwAdjoint  adj;
  Vec        g, gu0;
  PetscReal  J;
  PetscBool  ok = PETSC_TRUE, stop;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(ReadOptions(&o));
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &prob));
  PetscCall(RwProblemSetFromOptions(prob));
  PetscCall(RwProblemSetUp(prob));
  PetscCall(RwHelpStop(PETSC_COMM_WORLD, &stop)); /* every option is read by now */
  if (stop) {
    PetscCall(RwProblemDestroy(&prob));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(RwProblemGetModel(prob, &model));
  PetscCall(RwModelCreateParameters(model, &g));
  PetscCall(RwModelCreateState(model, &gu0));
  PetscCall(RwProblemComputeGradient(prob, &J, g, gu0));
  PetscCall(RwProblemGetMemberSolver(prob, NULL, NULL, &adj));
  PetscCall(ReportStop(adj));
  PetscCall(Report(model, J, g, gu0, o.view));
  PetscCall(Verify(prob, &o, &ok));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&gu0));
  PetscCall(RwProblemDestroy(&prob));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD)); /* a misspelled option would otherwise pass in silence */
  PetscCall(PetscFinalize());
  return ok ? 0 : 2;
}
