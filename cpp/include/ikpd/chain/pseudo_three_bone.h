// Forwarding header: the pseudo three-bone limb solver is declared in ikpd/ik/pseudo_three_bone.h.
#pragma once

#include "ikpd/ik/pseudo_three_bone.h"
