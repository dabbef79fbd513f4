// ikpd — umbrella header: every solver, controller and transform.
#pragma once

#include "ikpd/common.h"
#include "ikpd/version.h"
// Modules add their headers below, one line each.
#include "ikpd/pd/spring.h"
#include "ikpd/pd/controllers.h"
