// What the limb kinds (aim, two-bone, pseudo three-bone, chain) share: the
// smoothing of their weight, target and pole (docs/rig/rig.md, "Weight,
// enabled and smoothing") and the bone frames detected from the rest pose.
#pragma once

#include <cmath>

#include "kind.h"
#include "ikpd/pd/controllers.h"

namespace ikpd::rig::detail {

// The effective weight (toward enabled ? weight : 0, blended out to exactly 0)
// and the world target and pole per axis ([0, 3) target, [3, 6) pole). Without
// smoothing weightPd holds the weight applied last (where smoothing starts
// when it is turned on).
struct LimbSmoothing {
  pd::ScalarPD weightPd;
  pd::ScalarPD pointPds[6];
  bool targetHeld = false;  // pointPds[0, 3) follow a target (else the next one is taken as is)
  bool poleHeld = false;    // pointPds[3, 6) follow a pole
  float weightNow = 0.0f;   // this frame's effective weight, in [0, 1]
  // Without smoothing: weightPd is exactly Reset(weightNow) under its current
  // settings (false after Configure, a smoothed frame or ClearSmoothing), so
  // the next unsmoothed frame with the same goal skips the Reset.
  bool weightReset = false;
  ConstraintFrame smoothed{};  // SmoothInputs' result with smoothing on
};

// Whether scalar PD p rests on `target` (its step can be skipped). One within
// double rounding of it (|offset| <= 1e-12, |velocity| <= 1e-9 a second) is
// put there exactly: the exact step has fixed points that near its goal (a
// weight held at 1 - 1.1e-16, velocity 1.5e-15), where it would step every
// frame for ever; the jump is far below a float's resolution. Only for a PD
// not blending out (Reset ends a blend-out).
inline bool Rested(pd::ScalarPD& p, double target) {
  if (p.value() == target && p.velocity() == 0.0) return true;
  if (!(std::abs(p.value() - target) <= 1e-12 && std::abs(p.velocity()) <= 1e-9)) return false;
  p.Reset(target);
  return true;
}

// SmoothInputs with smoothing on (common.settleTime != 0).
const ConstraintFrame& SmoothedInputs(LimbSmoothing& smooth, const CommonSettings& common, float dt, const ConstraintFrame& f);

// The frame's inputs as the solve and the blend see them (the weight in
// smooth.weightNow): `f` itself without smoothing, else smooth.smoothed.
// Without smoothing: w = enabled ? weight : 0 (kept in weightPd, where
// smoothing starts when it is turned on); the same goal as the last
// unsmoothed frame: weightPd already holds exactly what Reset(goal) leaves
// (the same state, bit for bit).
inline const ConstraintFrame& SmoothInputs(LimbSmoothing& smooth, const CommonSettings& common, float dt,
                                           const ConstraintFrame& f) {
  if (common.settleTime != 0.0f) return SmoothedInputs(smooth, common, dt, f);
  const double goal = common.enabled ? static_cast<double>(common.weight) : 0.0;
  if (!smooth.weightReset || static_cast<double>(smooth.weightNow) != goal) smooth.weightPd.Reset(goal);
  smooth.targetHeld = smooth.poleHeld = false;
  smooth.weightNow = static_cast<float>(goal);
  smooth.weightReset = true;
  return f;
}

// One smoothed setting or weight toward `given`: as given without smoothing
// (settleTime 0), else through its PD (`first`: reset to it), toward 0 as a
// blend-out, so 0 is reached exactly and in finite time. Not clamped.
inline double SmoothToward(pd::ScalarPD& p, const CommonSettings& common, float dt, bool first, float given) {
  if (common.settleTime <= 0.0f) return given;
  if (first) p.Reset(given);
  else if (given == 0.0f) {
    if (p.value() != 0.0 || p.velocity() != 0.0) (void)p.UpdateBlendOut(dt, 0.0);
  } else if (!Rested(p, given)) {
    (void)p.Update(dt, given);
  }
  return p.value();
}

// The PDs' gains from the common settings; !keepState: blend in from the animated pose.
Status ConfigureSmoothing(LimbSmoothing& smooth, const CommonSettings& common, bool keepState);
// The first frame again: the weight blends in from 0, target and pole restart.
void ClearSmoothing(LimbSmoothing& smooth);
// A limb's two prepared setups: [0] for frames without a pole point, [1] with
// one; settingsFor(withPole) gives each one's settings. Settings the setup
// cannot take leave it unprepared (checked by Check; the solve keeps the pose).
template <class PreparedSetup, class SettingsFor>
void PrepareBoth(PreparedSetup (&setups)[2], SettingsFor&& settingsFor) {
  for (int withPole = 0; withPole < 2; ++withPole) {
    setups[withPole] = PreparedSetup{};
    (void)Prepare(settingsFor(withPole != 0), &setups[withPole]);
  }
}
// Rotation whose +X is `x` (unit) and +Z is `zHint` made normal to it (or,
// when `zHint` is parallel to x, a fixed perpendicular).
glm::quat BoneFrame(const glm::vec3& x, const glm::vec3& zHint);
// The canonical frames of a limb or chain (rig.h, "Axes"): +X along each bone
// at rest, +Z the rest bend axis; returns the root's rest local rotation · F_0
// (the chain's root limit frame).
glm::quat DetectBoneFrames(const Setup& setup, Constraint& c);

}  // namespace ikpd::rig::detail
