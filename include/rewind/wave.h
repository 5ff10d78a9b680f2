/*
  The acoustic wave model "wave" (doc/wave.md): m u_tt - Laplace(u) + eta u_t = q
  in 2D and 3D, Devito's acoustic operator, with point sources (a Ricker or a
  given wavelet) and receivers, for full-waveform inversion.
*/
#ifndef REWIND_WAVE_H
#define REWIND_WAVE_H

#include <rewind/objective.h>

#define RWMODELWAVE "wave"

PETSC_EXTERN PetscErrorCode RwModelWaveSetDimension(RwModel, PetscInt);
PETSC_EXTERN PetscErrorCode RwModelWaveSetAbsorbingLayer(RwModel, PetscInt);
PETSC_EXTERN PetscErrorCode RwModelWaveSetSpacing(RwModel, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelWaveSetOrigin(RwModel, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelWaveSetSources(RwModel, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelWaveSetWavelet(RwModel, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelWaveGetWavelet(RwModel, PetscInt, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelWaveGetGeometry(RwModel, PetscInt *, PetscInt[3], PetscInt *, PetscReal[3], PetscReal[3]);
PETSC_EXTERN PetscErrorCode RwModelWaveFillFromPhysical(RwModel, const PetscInt[3], const PetscReal[], PetscBool, Vec);
PETSC_EXTERN PetscErrorCode RwModelWaveStableTimeStep(RwModel, PetscReal, PetscReal *);
PETSC_EXTERN PetscErrorCode RwModelWaveCheckPoints(RwModel, const char[], PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwModelWaveRecord(RwModel, Vec, PetscInt, const PetscReal[], PetscReal[]);
PETSC_EXTERN PetscErrorCode RwWaveRicker(PetscReal, PetscReal, PetscReal, PetscInt, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwWaveLowPass(PetscReal, PetscReal, PetscInt, PetscInt, PetscReal[]);

PETSC_EXTERN PetscErrorCode RwWaveObsWrite(MPI_Comm, const char[], PetscInt, PetscInt, PetscReal, const PetscReal[], const PetscInt[], const PetscReal[], PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwWaveObsWriteModel(MPI_Comm, const char[], const char[], PetscInt, const PetscInt[], PetscReal, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwWaveObsRead(MPI_Comm, const char[], PetscInt, PetscInt, PetscInt, PetscInt, PetscInt, PetscReal, PetscReal **, PetscInt *, PetscReal **, PetscReal **);
/* SEG-Y positions, whole centimetres or millimetres apart: closer than
   RW_WAVE_SEGY_SAME m they are one place; a model's column may lie
   RW_WAVE_SEGY_EVEN m from its place on an evenly spaced grid (two
   centimetre roundings) */
#define RW_WAVE_SEGY_SAME 1e-4
#define RW_WAVE_SEGY_EVEN 0.0101

PETSC_EXTERN PetscErrorCode RwWaveSegyWrite(MPI_Comm, const char[], PetscInt, PetscReal, const PetscReal[], PetscInt, const PetscReal[], PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwWaveSegyWriteModel(MPI_Comm, const char[], PetscInt, PetscReal, const PetscReal[], const PetscInt[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwWaveSegyReadModel(MPI_Comm, const char[], PetscInt, PetscInt *, PetscInt *, PetscInt *, PetscReal *, PetscReal[], PetscBool *, PetscReal **);
PETSC_EXTERN PetscErrorCode RwWaveSegyReadSpanY(MPI_Comm, const char[], PetscReal[]);
PETSC_EXTERN PetscErrorCode RwWaveSegyReadBinaryHeader(MPI_Comm, const char[], PetscReal *, PetscInt *);
PETSC_EXTERN PetscErrorCode RwWaveSegyRead(MPI_Comm, const char[], PetscInt, PetscReal, PetscInt, PetscReal **, PetscInt *, PetscReal **, PetscReal **);

PETSC_EXTERN PetscErrorCode RwObjectiveAddWaveReceivers(RwObjective, PetscInt, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwObjectiveSetWaveReceiverData(RwObjective, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwObjectiveSetWaveReceivers(RwObjective, PetscInt, const PetscReal[], const PetscReal[]);

#endif
