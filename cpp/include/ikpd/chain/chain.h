// Forwarding header: N-bone chains are declared in ikpd/ik/chain.h.
#pragma once

#include "ikpd/ik/chain.h"
