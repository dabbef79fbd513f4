// Forwarding header: the rotation helpers live in ik/chain/rotation.h.
#pragma once

#include "../ik/chain/rotation.h"
