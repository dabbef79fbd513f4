// Forwarding header: look-at is declared in ikpd/rig/look_at.h.
#pragma once

#include "ikpd/rig/look_at.h"
