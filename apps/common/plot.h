/* What the apps share beyond the library: drawing their results' pictures */
#ifndef REWIND_APPS_COMMON_PLOT_H
#define REWIND_APPS_COMMON_PLOT_H

#include <rewind.h>

PetscErrorCode RwAppPlot(const char[], const char[], const char[], const char[]);
PetscErrorCode RwAppPlotOutput(const char[], const char[]);

#endif
