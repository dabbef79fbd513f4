// ikpd — umbrella header: every solver, controller and transform.
#pragma once

#include "ikpd/common.h"
#include "ikpd/version.h"
// Modules add their headers below, one line each.
#include "ikpd/ik/aim.h"
#include "ikpd/ik/two_bone.h"
#include "ikpd/ik/local_rotations.h"
#include "ikpd/pd/spring.h"
#include "ikpd/pd/controllers.h"
#include "ikpd/ik/chain.h"
#include "ikpd/ik/tentacle2d.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/rig/look_at.h"
#include "ikpd/rig/body_look_at.h"
#include "ikpd/hdr/curves.h"
#include "ikpd/hdr/output.h"
#include "ikpd/hdr/calibration.h"
#include "ikpd/batch/soa.h"
#include "ikpd/batch/two_bone_batch.h"
#include "ikpd/batch/aim_batch.h"
#include "ikpd/batch/pd_batch.h"
#include "ikpd/batch/pseudo_three_bone_batch.h"
