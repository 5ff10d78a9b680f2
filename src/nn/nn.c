/*
  RwNN: the pointwise network's life cycle, options, weights (Xavier-uniform
  from a seed, or HDF5) and checks.  The kernels are in nnkernels.c.
*/
#include <rewind/private/nnimpl.h>
#include <rewind/sys.h>
#include <rewind/io.h>
#include <hdf5.h>

const char *const RwNNActivations[] = {"tanh", "softplus", "identity", "RwNNActivation", "RW_NN_", NULL};

PETSC_INTERN void RwNNSetOps_MLP(RwNN);

/*@C
  RwNNCreate - a pointwise multilayer perceptron, by default 1 -> 16 -> 16 -> 1
  with tanh hidden layers and an identity output

  Collective

  Level: intermediate

.seealso: RwNNSetLayers(), RwNNSetFromOptions(), RwNNSetUp(), RwNNDestroy()
@*/
PetscErrorCode RwNNCreate(MPI_Comm comm, RwNN *nn)
{
  RwNN n;

  PetscFunctionBegin;
  PetscCall(PetscNew(&n));
  n->comm     = comm;
  n->nsizes   = 4;
  n->sizes[0] = 1, n->sizes[1] = 16, n->sizes[2] = 16, n->sizes[3] = 1;
  n->hidden   = RW_NN_TANH;
  n->output   = RW_NN_IDENTITY;
  n->seed     = 1;
  n->isa      = RwKernelISABest(); /* a model that embeds it gives its own (-rw_kernel_isa) */
  RwNNSetOps_MLP(n);
  *nn = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwNNCheckLayers(MPI_Comm comm, PetscInt n, const PetscInt sizes[], const char *what)
{
  PetscFunctionBegin;
  PetscCheck(n >= 2 && n <= RW_NN_MAX_LAYERS + 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: %" PetscInt_FMT " layer sizes given; expected 2 to %d (inputs, hidden layers..., outputs), e.g. 1,16,16,1", what, n, RW_NN_MAX_LAYERS + 1);
  for (PetscInt l = 0; l < n; l++) PetscCheck(sizes[l] >= 1 && sizes[l] <= 4096, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: layer size %" PetscInt_FMT " (entry %" PetscInt_FMT ") must be in [1, 4096]", what, sizes[l], l);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNSetLayers - the layer sizes s_0 (inputs), s_1, ..., s_L (outputs)

  Logically collective; before RwNNSetUp()

  Options Database Key:
. -rw_nn_layers <1,16,16,1> - the same

  Level: intermediate
@*/
PetscErrorCode RwNNSetLayers(RwNN nn, PetscInt n, const PetscInt sizes[])
{
  PetscFunctionBegin;
  PetscCheck(!nn->setupcalled, nn->comm, PETSC_ERR_ORDER, "Set the network's layers before RwNNSetUp()");
  PetscCall(RwNNCheckLayers(nn->comm, n, sizes, "RwNNSetLayers()"));
  nn->nsizes = n;
  for (PetscInt l = 0; l < n; l++) nn->sizes[l] = sizes[l];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNSetActivations - the activation of the hidden layers and of the output layer

  Logically collective; before RwNNSetUp()

  Options Database Keys:
+ -rw_nn_activation <tanh,softplus,identity>        - hidden layers (default tanh)
- -rw_nn_output_activation <tanh,softplus,identity> - the last layer (default identity)

  Level: intermediate
@*/
PetscErrorCode RwNNSetActivations(RwNN nn, RwNNActivation hidden, RwNNActivation output)
{
  PetscFunctionBegin;
  PetscCheck(!nn->setupcalled, nn->comm, PETSC_ERR_ORDER, "Set the network's activations before RwNNSetUp()");
  nn->hidden = hidden;
  nn->output = output;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNSetOptionsPrefix - the prefix of the network's options (a model's, when it embeds one)

  Logically collective

  Level: intermediate
@*/
PetscErrorCode RwNNSetOptionsPrefix(RwNN nn, const char prefix[])
{
  PetscFunctionBegin;
  PetscCall(PetscFree(nn->prefix));
  PetscCall(PetscStrallocpy(prefix, &nn->prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An activation by name; an unknown one stops with the names that exist */
static PetscErrorCode ReadActivation(RwNN nn, PetscOptionItems *PetscOptionsObject, const char *opt, const char *text, RwNNActivation *act)
{
  char      name[64];
  PetscBool set, found;
  PetscInt  which;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(name, RwNNActivations[*act], sizeof(name)));
  PetscCall(PetscOptionsString(opt, text, "RwNNSetActivations", name, name, sizeof(name), &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscEListFind(3, RwNNActivations, name, &which, &found));
  PetscCheck(found, nn->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown activation \"%s\" in %s%s: use tanh, softplus or identity", name, opt, "");
  *act = (RwNNActivation)which;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNSetFromOptions - the network's options

  Collective

  Options Database Keys:
+ -rw_nn_layers <1,16,16,1>                 - layer sizes: inputs, hidden layers, outputs
. -rw_nn_activation <tanh>                  - hidden layers: tanh, softplus, identity
. -rw_nn_output_activation <identity>       - the last layer
. -rw_nn_seed <1>                           - Xavier-uniform initial weights from this seed
- -rw_nn_weights <file.h5>                  - initial weights from dataset "theta" of an HDF5 file instead

  Level: intermediate
@*/
PetscErrorCode RwNNSetFromOptions(RwNN nn)
{
  PetscInt  sizes[RW_NN_MAX_LAYERS + 2], n = RW_NN_MAX_LAYERS + 2;
  PetscBool set;

  PetscFunctionBegin;
  PetscOptionsBegin(nn->comm, nn->prefix, "Pointwise neural network (RwNN) options", "RwNN");
  for (PetscInt l = 0; l < nn->nsizes; l++) sizes[l] = nn->sizes[l];
  PetscCall(RwOptionsIntArray("-rw_nn_layers", "Layer sizes: inputs, hidden layers..., outputs (e.g. 1,16,16,1)", "RwNNSetLayers", sizes, &n, &set, 1, PETSC_MAX_INT));
  if (set) {
    PetscCall(RwNNCheckLayers(nn->comm, n, sizes, "-rw_nn_layers"));
    PetscCall(RwNNSetLayers(nn, n, sizes));
  }
  PetscCall(ReadActivation(nn, PetscOptionsObject, "-rw_nn_activation", "Activation of the hidden layers: tanh, softplus or identity", &nn->hidden));
  PetscCall(ReadActivation(nn, PetscOptionsObject, "-rw_nn_output_activation", "Activation of the output layer: tanh, softplus or identity", &nn->output));
  PetscCall(RwOptionsInt64("-rw_nn_seed", "Seed of the Xavier-uniform initial weights", "RwNNInitializeXavier", nn->seed, &nn->seed, NULL, 0, RW_INT64_MAX));
  PetscCall(PetscOptionsString("-rw_nn_weights", "Initial weights: an HDF5 file with dataset theta (and the layer sizes as its attribute layers)", "RwNNReadWeights", nn->weightsfile, nn->weightsfile, sizeof(nn->weightsfile), NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNSetUp - the weight layout and one block's work; idempotent

  Collective

  Level: intermediate
@*/
PetscErrorCode RwNNSetUp(RwNN nn)
{
  PetscInt off = 0, tot = 0;

  PetscFunctionBegin;
  if (nn->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  nn->maxwidth = 0;
  for (PetscInt l = 0; l < nn->nsizes; l++) nn->maxwidth = PetscMax(nn->maxwidth, nn->sizes[l]);
  for (PetscInt l = 1; l < nn->nsizes; l++) {
    nn->offW[l] = off;
    off += nn->sizes[l] * nn->sizes[l - 1];
    nn->offb[l] = off;
    off += nn->sizes[l];
  }
  nn->nweights = off;
  /* a_l and da_l for every layer, z_l for l >= 1, dz and two adjoint rows of the widest */
  for (PetscInt l = 0; l < nn->nsizes; l++) tot += 3 * nn->sizes[l];
  tot += 3 * nn->maxwidth;
  PetscCall(PetscCalloc1(tot * RW_NN_BLOCK + nn->nweights * RW_NN_LANES, &nn->work));
  off = 0;
  for (PetscInt l = 0; l < nn->nsizes; l++) {
    nn->a[l] = nn->work + off, off += nn->sizes[l] * RW_NN_BLOCK;
    nn->z[l] = nn->work + off, off += nn->sizes[l] * RW_NN_BLOCK;
    nn->da[l] = nn->work + off, off += nn->sizes[l] * RW_NN_BLOCK;
  }
  nn->dz     = nn->work + off, off += nn->maxwidth * RW_NN_BLOCK;
  nn->bar[0] = nn->work + off, off += nn->maxwidth * RW_NN_BLOCK;
  nn->bar[1] = nn->work + off, off += nn->maxwidth * RW_NN_BLOCK;
  nn->glanes = nn->work + off;
  nn->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNGetLayers - the layer sizes (s_0 .. s_L: nsizes = L + 1)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwNNGetLayers(RwNN nn, PetscInt *nsizes, const PetscInt **sizes)
{
  PetscFunctionBegin;
  if (nsizes) *nsizes = nn->nsizes;
  if (sizes) *sizes = nn->sizes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNGetActivations - the hidden layers' and the output layer's activation

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwNNGetActivations(RwNN nn, RwNNActivation *hidden, RwNNActivation *output)
{
  PetscFunctionBegin;
  if (hidden) *hidden = nn->hidden;
  if (output) *output = nn->output;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNGetNumWeights - the length of theta

  Not collective; after RwNNSetUp()

  Level: intermediate
@*/
PetscErrorCode RwNNGetNumWeights(RwNN nn, PetscInt *n)
{
  PetscFunctionBegin;
  PetscCheck(nn->setupcalled, nn->comm, PETSC_ERR_ORDER, "Call RwNNSetUp() first");
  *n = nn->nweights;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNGetWeightLayout - where layer l's (1 <= l <= L) matrix W_l and bias b_l start in theta

  Not collective; after RwNNSetUp()

  Level: intermediate
@*/
PetscErrorCode RwNNGetWeightLayout(RwNN nn, PetscInt l, PetscInt *offW, PetscInt *offb)
{
  PetscFunctionBegin;
  PetscCheck(nn->setupcalled, nn->comm, PETSC_ERR_ORDER, "Call RwNNSetUp() first");
  PetscCheck(l >= 1 && l < nn->nsizes, nn->comm, PETSC_ERR_ARG_OUTOFRANGE, "Layer %" PetscInt_FMT " is not in [1, %" PetscInt_FMT "]", l, nn->nsizes - 1);
  if (offW) *offW = nn->offW[l];
  if (offb) *offb = nn->offb[l];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNInitializeXavier - Xavier-uniform (Glorot) weights from a seed: W_l
  uniform in +-sqrt(6 / (s_{l-1} + s_l)), biases 0; the same on every rank

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwNNInitializeXavier(RwNN nn, PetscInt64 seed, PetscReal theta[])
{
  PetscFunctionBegin;
  PetscCheck(nn->setupcalled, nn->comm, PETSC_ERR_ORDER, "Call RwNNSetUp() first");
  for (PetscInt l = 1; l < nn->nsizes; l++) {
    const PetscReal lim = PetscSqrtReal(6.0 / (nn->sizes[l - 1] + nn->sizes[l]));

    for (PetscInt i = nn->offW[l]; i < nn->offb[l]; i++) theta[i] = lim * (2 * RwHashUniform01(seed, i) - 1);
    for (PetscInt i = 0; i < nn->sizes[l]; i++) theta[nn->offb[l] + i] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNGetInitialWeights - the weights -rw_nn_weights names, or Xavier-uniform from -rw_nn_seed

  Collective

  Level: intermediate
@*/
PetscErrorCode RwNNGetInitialWeights(RwNN nn, PetscReal theta[])
{
  PetscFunctionBegin;
  if (nn->weightsfile[0]) PetscCall(RwNNReadWeights(nn, nn->weightsfile, theta));
  else PetscCall(RwNNInitializeXavier(nn, nn->seed, theta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNCheckWeights - stops with an error naming the first weight that is not finite

  Collective (every rank holds the same weights, so every rank stops alike)

  Level: intermediate
@*/
PetscErrorCode RwNNCheckWeights(RwNN nn, const PetscReal theta[], const char what[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < nn->nweights; i++) {
    PetscInt l = 1;

    if (!PetscIsInfOrNanReal(theta[i])) continue;
    while (l + 1 < nn->nsizes && i >= nn->offW[l + 1]) l++;
    SETERRQ(nn->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: network weight theta[%" PetscInt_FMT "] is %s (the %s of layer %" PetscInt_FMT "): every weight must be finite", what, i, PetscIsNanReal(theta[i]) ? "NaN" : "Inf", i < nn->offb[l] ? "matrix W" : "bias b", l);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A string attribute of d (fixed or variable length, as h5py writes it) into val; "" when absent, -1 when unreadable */
static int ReadStringAttribute(hid_t d, const char *name, char *val, size_t len)
{
  hid_t a, t, m;
  int   bad = 0;

  val[0] = 0;
  if (H5Aexists(d, name) <= 0) return 0;
  a = H5Aopen(d, name, H5P_DEFAULT);
  t = a >= 0 ? H5Aget_type(a) : -1;
  if (t < 0 || H5Tget_class(t) != H5T_STRING) bad = -1;
  else if (H5Tis_variable_str(t) > 0) {
    char *v = NULL;

    m   = H5Tcopy(H5T_C_S1);
    bad = H5Tset_size(m, H5T_VARIABLE) < 0 || H5Tset_cset(m, H5Tget_cset(t)) < 0 || H5Aread(a, m, &v) < 0 || !v ? -1 : 0; /* h5py writes UTF-8 */
    if (!bad) snprintf(val, len, "%s", v);
    if (v) H5free_memory(v);
    H5Tclose(m);
  } else {
    size_t n = H5Tget_size(t);
    char   buf[64] = "";

    m   = H5Tcopy(H5T_C_S1);
    bad = n == 0 || n >= sizeof(buf) || H5Tset_size(m, n) < 0 || H5Tset_cset(m, H5Tget_cset(t)) < 0 || H5Aread(a, m, buf) < 0 ? -1 : 0;
    if (!bad) snprintf(val, len, "%.*s", (int)n, buf);
    H5Tclose(m);
  }
  if (t >= 0) H5Tclose(t);
  if (a >= 0) H5Aclose(a);
  return bad;
}

/* The activations the weights were written with (attributes activation and
   output_activation of theta; "" when absent), read on rank 0 */
static void ReadActivations0(const char *file, char act[2][32], char *msg, size_t len)
{
  const char *names[2] = {"activation", "output_activation"};
  hid_t       f, d = -1;

  act[0][0] = act[1][0] = 0;
  if ((f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT)) >= 0 && (d = H5Dopen2(f, "theta", H5P_DEFAULT)) >= 0)
    for (int w = 0; w < 2 && !msg[0]; w++)
      if (ReadStringAttribute(d, names[w], act[w], 32) < 0) snprintf(msg, len, "Attribute %s of theta in %s: expected a string (tanh, softplus or identity)", names[w], file);
  if (d >= 0) H5Dclose(d);
  if (f >= 0) H5Fclose(f);
  H5Eclear2(H5E_DEFAULT);
}

/* The weights' activations, where the file names them, must be those this network runs */
static PetscErrorCode CheckActivations(RwNN nn, const char file[])
{
  const char *opts[2] = {"-rw_nn_activation", "-rw_nn_output_activation"};
  char        act[2][32], msg[512] = "";
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(nn->comm, &rank));
  if (!rank) ReadActivations0(file, act, msg, sizeof(msg));
  PetscCall(RwErrorAgree(nn->comm, 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
  PetscCallMPI(MPI_Bcast(act, sizeof(act), MPI_CHAR, 0, nn->comm));
  for (int w = 0; w < 2; w++) {
    const char *runs = RwNNActivations[w ? nn->output : nn->hidden];
    PetscBool   same;

    if (!act[w][0]) continue; /* files written before the attribute: the options say */
    PetscCall(PetscStrcmp(act[w], runs, &same));
    PetscCheck(same, nn->comm, PETSC_ERR_FILE_UNEXPECTED, "Network weights %s: theta was written for %s \"%s\" (attribute %s), this network runs %s %s: give %s %s", file, w ? "output activation" : "activation", act[w], w ? "output_activation" : "activation", opts[w], runs, opts[w], act[w]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The "layers" attribute of dataset theta, read on rank 0 */
static void ReadLayers0(const char *file, PetscInt64 *n, PetscInt64 sizes[], char *msg, size_t len)
{
  hid_t f = -1, d = -1, a = -1, s = -1;

  *n = 0;
  if ((f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) snprintf(msg, len, "Cannot open the network weights file %s (-rw_nn_weights)", file);
  else if ((d = H5Dopen2(f, "theta", H5P_DEFAULT)) < 0) snprintf(msg, len, "The network weights file %s has no dataset theta", file);
  else if (H5Aexists(d, "layers") <= 0) snprintf(msg, len, "Dataset theta in %s has no attribute layers (the layer sizes, e.g. 1,16,16,1)", file);
  else {
    hssize_t np;
    long long v[RW_NN_MAX_LAYERS + 1];

    a  = H5Aopen(d, "layers", H5P_DEFAULT);
    s  = a >= 0 ? H5Aget_space(a) : -1;
    np = s >= 0 ? H5Sget_simple_extent_npoints(s) : -1;
    if (np < 2 || np > RW_NN_MAX_LAYERS + 1) snprintf(msg, len, "Attribute layers of theta in %s has %lld entries; expected 2 to %d", file, (long long)np, RW_NN_MAX_LAYERS + 1);
    else if (H5Aread(a, H5T_NATIVE_LLONG, v) < 0) snprintf(msg, len, "Cannot read attribute layers of theta in %s as integers", file);
    else {
      *n = np;
      for (hssize_t i = 0; i < np; i++) sizes[i] = v[i];
    }
  }
  if (s >= 0) H5Sclose(s);
  if (a >= 0) H5Aclose(a);
  if (d >= 0) H5Dclose(d);
  if (f >= 0) H5Fclose(f);
  H5Eclear2(H5E_DEFAULT);
}

/*@C
  RwNNReadWeights - reads theta from dataset "theta" of an HDF5 file; its
  attribute "layers" must be this network's layer sizes, its length the
  number of weights, and every value finite

  Collective

  Level: intermediate

.seealso: RwNNWriteWeights()
@*/
PetscErrorCode RwNNReadWeights(RwNN nn, const char file[], PetscReal theta[])
{
  PetscMPIInt rank;
  PetscInt64  n = 0, sizes[RW_NN_MAX_LAYERS + 1] = {0}, expect = nn->nweights, dims[1];
  char        msg[512] = "", have[128] = "", want[128] = "";
  PetscReal  *data;

  PetscFunctionBegin;
  PetscCheck(nn->setupcalled, nn->comm, PETSC_ERR_ORDER, "Call RwNNSetUp() first");
  PetscCallMPI(MPI_Comm_rank(nn->comm, &rank));
  if (!rank) ReadLayers0(file, &n, sizes, msg, sizeof(msg));
  PetscCall(RwErrorAgree(nn->comm, 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
  PetscCallMPI(MPI_Bcast(&n, 1, MPIU_INT64, 0, nn->comm));
  PetscCallMPI(MPI_Bcast(sizes, RW_NN_MAX_LAYERS + 1, MPIU_INT64, 0, nn->comm));
  {
    PetscBool same = n == nn->nsizes ? PETSC_TRUE : PETSC_FALSE;
    size_t    u;

    for (PetscInt64 l = 0; l < n; l++) {
      PetscCall(PetscStrlen(have, &u));
      PetscCall(PetscSNPrintf(have + u, sizeof(have) - u, "%s%lld", l ? "," : "", (long long)sizes[l]));
      if (l < nn->nsizes && sizes[l] != nn->sizes[l]) same = PETSC_FALSE;
    }
    for (PetscInt l = 0; l < nn->nsizes; l++) {
      PetscCall(PetscStrlen(want, &u));
      PetscCall(PetscSNPrintf(want + u, sizeof(want) - u, "%s%" PetscInt_FMT, l ? "," : "", nn->sizes[l]));
    }
    PetscCheck(same, nn->comm, PETSC_ERR_FILE_UNEXPECTED, "Network weights %s: theta has layers %s, this network has -rw_nn_layers %s", file, have, want);
  }
  PetscCall(CheckActivations(nn, file));
  PetscCall(RwIOCheckDataset(nn->comm, file, "theta", 1, (PetscInt64[]){-1}, dims));
  PetscCheck(dims[0] == expect, nn->comm, PETSC_ERR_FILE_UNEXPECTED, "Network weights %s: dataset theta has %lld values; layers %s need %lld", file, (long long)dims[0], want, (long long)expect);
  PetscCall(RwIOReadArray(nn->comm, file, "theta", 1, &expect, NULL, &data));
  PetscCall(PetscArraycpy(theta, data, nn->nweights));
  PetscCall(PetscFree(data));
  PetscCall(RwNNCheckWeights(nn, theta, file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNWriteWeights - writes theta as dataset "theta" of a new HDF5 file, with
  the layer sizes (attribute "layers") and activations (attributes
  "activation", "output_activation"); rank 0 writes

  Collective

  Level: intermediate

.seealso: RwNNReadWeights()
@*/
PetscErrorCode RwNNWriteWeights(RwNN nn, const char file[], const PetscReal theta[])
{
  PetscMPIInt rank;
  char        msg[512] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(nn->comm, &rank));
  if (!rank) {
    hid_t     f, s = -1, d = -1, a = -1, as = -1, t = -1;
    hsize_t   dim = (hsize_t)nn->nweights, nl = (hsize_t)nn->nsizes;
    long long v[RW_NN_MAX_LAYERS + 1];
    herr_t    e = 0;

    for (PetscInt l = 0; l < nn->nsizes; l++) v[l] = nn->sizes[l];
    if ((f = H5Fcreate(file, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) < 0) snprintf(msg, sizeof(msg), "Cannot create the network weights file %s", file);
    else {
      s = H5Screate_simple(1, &dim, NULL);
      d = H5Dcreate2(f, "theta", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      e |= d < 0 ? -1 : H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, theta);
      as = H5Screate_simple(1, &nl, NULL);
      a  = d >= 0 ? H5Acreate2(d, "layers", H5T_NATIVE_LLONG, as, H5P_DEFAULT, H5P_DEFAULT) : -1;
      e |= a < 0 ? -1 : H5Awrite(a, H5T_NATIVE_LLONG, v);
      if (a >= 0) H5Aclose(a);
      H5Sclose(as);
      as = H5Screate(H5S_SCALAR);
      t  = H5Tcopy(H5T_C_S1);
      for (int w = 0; w < 2 && !e; w++) {
        const char *val = RwNNActivations[w ? nn->output : nn->hidden];
        H5Tset_size(t, strlen(val) + 1);
        a = H5Acreate2(d, w ? "output_activation" : "activation", t, as, H5P_DEFAULT, H5P_DEFAULT);
        e |= a < 0 ? -1 : H5Awrite(a, t, val);
        if (a >= 0) H5Aclose(a);
      }
      H5Tclose(t);
      H5Sclose(as);
      if (d >= 0) H5Dclose(d);
      if (s >= 0) H5Sclose(s);
      if (H5Fclose(f) < 0 || e < 0) snprintf(msg, sizeof(msg), "Cannot write dataset theta to %s", file);
    }
    H5Eclear2(H5E_DEFAULT);
  }
  PetscCall(RwErrorAgree(nn->comm, 0, PETSC_ERR_FILE_WRITE, msg, sizeof(msg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNIdentity - the network's shape as text (for a model's restart identity)

  Not collective

  Level: developer
@*/
PetscErrorCode RwNNIdentity(RwNN nn, char id[], size_t len)
{
  size_t u;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(id, len, "mlp "));
  for (PetscInt l = 0; l < nn->nsizes; l++) {
    PetscCall(PetscStrlen(id, &u));
    PetscCall(PetscSNPrintf(id + u, len - u, "%s%" PetscInt_FMT, l ? "," : "", nn->sizes[l]));
  }
  PetscCall(PetscStrlen(id, &u));
  PetscCall(PetscSNPrintf(id + u, len - u, " %s/%s", RwNNActivations[nn->hidden], RwNNActivations[nn->output]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNView - the network's layers, activations and number of weights

  Collective

  Level: intermediate
@*/
PetscErrorCode RwNNView(RwNN nn, PetscViewer viewer)
{
  char id[256];

  PetscFunctionBegin;
  PetscCall(RwNNIdentity(nn, id, sizeof(id)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "pointwise network %s (hidden/output activations), %" PetscInt_FMT " weights\n", id, nn->nweights));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwNNDestroy - frees a network; NULL-safe

  Collective

  Level: intermediate
@*/
PetscErrorCode RwNNDestroy(RwNN *nn)
{
  PetscFunctionBegin;
  if (!nn || !*nn) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*nn)->work));
  PetscCall(PetscFree((*nn)->prefix));
  PetscCall(PetscFree(*nn));
  PetscFunctionReturn(PETSC_SUCCESS);
}
