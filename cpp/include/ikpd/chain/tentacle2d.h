// Forwarding header: the 2D tentacle is declared in ikpd/ik/tentacle2d.h.
#pragma once

#include "ikpd/ik/tentacle2d.h"
