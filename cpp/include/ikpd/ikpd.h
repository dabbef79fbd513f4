// ikpd — umbrella header: every solver, controller and transform.
#pragma once

#include "ikpd/common.h"
#include "ikpd/version.h"
// Modules add their headers below, one line each.
#include "ikpd/chain/chain.h"
#include "ikpd/chain/tentacle2d.h"
