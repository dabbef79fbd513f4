// The avatar's arm stretch (avatar.h; docs/rig/avatar.md, "Arm stretch"): an
// arm lengthens up to `armStretch` to reach a hand target beyond its reach,
// starting softly in `armSoften` of its reach below full extension (the
// two-bone kernel's maxStretch and soften, docs/ik/two-bone.md, "Reach").
// The settings in force are smoothed by the constraint's PDs, so turning the
// stretch on or off, or changing it, blends; at 1 (off) and once the blend
// is done the arm takes the plain solve, bit for bit.
#include <algorithm>

#include "avatar.h"

namespace ikpd::rig::detail {

namespace {

// One smoothed setting toward `given` (SmoothToward, as the targets' weights), at least 0.
float Smoothed(pd::ScalarPD& p, const CommonSettings& common, float dt, bool first, float given) {
  return std::max(static_cast<float>(SmoothToward(p, common, dt, first, given)), 0.0f);
}

}  // namespace

void StretchBlend(AvatarState& a, const AvatarSettings& s, const CommonSettings& common, float dt, bool first) {
  const bool on = s.armStretch > 1.0f;
  a.stretchNow[0] = Smoothed(a.stretchPds[0], common, dt, first, on ? s.armStretch - 1.0f : 0.0f);
  a.stretchNow[1] = std::min(Smoothed(a.stretchPds[1], common, dt, first, on ? s.armSoften : 0.0f), 1.0f);
  const auto still = [&](const pd::ScalarPD& p) { return common.settleTime <= 0.0f || (p.value() == 0.0 && p.velocity() == 0.0); };
  a.stretchRest = !on && still(a.stretchPds[0]) && still(a.stretchPds[1]);
}

Status StretchSetup(const AvatarState& a, float handWeight, TwoBoneSetup* setup) {
  TwoBoneSettings settings = a.limb.settings();  // a direction pole, the hand's world rotation
  settings.maxStretch = 1.0f + a.stretchNow[0] * handWeight;
  settings.soften = a.stretchNow[1] * handWeight;
  return Prepare(settings, setup);
}

}  // namespace ikpd::rig::detail
