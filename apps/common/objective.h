/* What the apps share beyond the library: the objective a run's options describe */
#ifndef REWIND_APPS_COMMON_OBJECTIVE_H
#define REWIND_APPS_COMMON_OBJECTIVE_H

#include <rewind.h>

PetscErrorCode RwAppObjectiveFromOptions(RwModel, RwObjective);

#endif
