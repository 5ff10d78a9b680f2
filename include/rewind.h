/*
  rewind: differentiable, distributed time stepping on PETSc.

  One public header.  A program that uses rewind includes this file, calls
  PetscInitialize(), and creates rewind objects; the package registers itself
  on first use (RwInitializePackage) and is finalised by PetscFinalize().
*/
#ifndef REWIND_H
#define REWIND_H

#include <petscsys.h>
#include <rewind/version.h>
#include <rewind/sys.h>
#include <rewind/model.h>
#include <rewind/wave.h>
#include <rewind/schedule.h>
#include <rewind/store.h>
#include <rewind/objective.h>
#include <rewind/adjoint.h>
#include <rewind/ensemble.h>
#include <rewind/observations.h>
#include <rewind/problem.h>
#include <rewind/verify.h>
#include <rewind/io.h>
#include <rewind/nn.h>
#include <rewind/design.h>
#include <rewind/horizon.h>

#endif
