// ikpd — umbrella header: every solver, controller and transform.
#pragma once

#include "ikpd/common.h"
#include "ikpd/version.h"
// Modules add their headers below, one line each.
#include "ikpd/hdr/curves.h"
#include "ikpd/hdr/output.h"
#include "ikpd/hdr/calibration.h"
