# Spack recipe for rewind: `spack repo add spack` from a clone, then
# `spack install rewind`.  See doc/install.md.
from spack.package import *


class Rewind(AutotoolsPackage):
    """Differentiable simulation at cluster scale on PETSc: domain-decomposed
    time stepping with a discrete adjoint that recomputes states from
    optimal checkpoint schedules (RAM or parallel HDF5)."""

    homepage = "https://github.com/rewind-sim/rewind"
    git = "https://github.com/rewind-sim/rewind.git"

    maintainers("rewind-sim")

    version("main", branch="main")

    variant("tests", default=False, description="Build the Check unit tests (make check)")
    variant("plots", default=False, description="Plot scripts and their tests (Python with h5py, matplotlib)")

    depends_on("autoconf", type="build")
    depends_on("automake", type="build")
    depends_on("libtool", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("mpi")
    # real double-precision PetscScalar with HDF5: configure refuses the rest
    depends_on("petsc@3.18: +mpi +hdf5 ~complex precision=double")
    depends_on("hdf5@1.10: +mpi")
    depends_on("check@0.10:", when="+tests")
    depends_on("py-h5py", type="run", when="+plots")
    depends_on("py-matplotlib", type="run", when="+plots")

    def autoreconf(self, spec, prefix):
        autoreconf_ = which("autoreconf")
        autoreconf_("-fi")

    def configure_args(self):
        spec = self.spec
        args = ["CC=" + spec["mpi"].mpicc, "PETSC_DIR=" + spec["petsc"].prefix, "HDF5_DIR=" + spec["hdf5"].prefix]
        args.append("--with-check" if "+tests" in spec else "--without-check")
        args.append("--enable-plots" if "+plots" in spec else "--disable-plots")
        return args
