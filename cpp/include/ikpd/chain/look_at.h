// Forwarding header: look-at is declared in ikpd/rigs/look_at.h.
#pragma once

#include "ikpd/rigs/look_at.h"
