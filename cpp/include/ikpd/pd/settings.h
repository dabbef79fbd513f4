// ikpd::pd — controller settings (docs/pd/pd.md): gains, integrator, limits and
// rest/blend-out thresholds. One Validate() for every controller; the gain rules
// that derive kp/kd from a settle time live beside it (gain_options.h).
#pragma once

#include <cstdint>
#include <limits>

#include "ikpd/common.h"
#include "ikpd/pd/spring.h"

namespace ikpd::pd {

// How the target moves during a step when no target velocity is passed to Update.
enum class TargetMotion : std::uint8_t {
  kHold = 0,    // 'hold': the target jumps to its new value at the start of the step (classic)
  kLinear = 1,  // 'linear': it moves linearly from the previous target to the new one
};

// How vectors and quaternions are updated.
enum class RotationUpdate : std::uint8_t {
  kLogMap = 0,         // 'log': spring on the rotation vector from the target (exact on the sphere)
  kComponentwise = 1,  // 'componentwise': the simple form: spring per component, then normalize
};

// What a discrete step ('explicit', 'stable', 'substep') does when its length is
// outside the integrator's stability region (StepLimit: the update would grow).
// The check runs before the step, so the state is never touched by a diverging step.
enum class OnUnstable : std::uint8_t {
  kThrow = 0,  // 'throw': error "dt: ..." and the state unchanged
  kClamp = 1,  // 'clamp': 'explicit'/'stable' advance only half the limit (the rest of dt is
               // dropped, the target is still where it is at the end of the step);
               // 'substep' shortens its sub-steps to half the limit and covers all of dt
};

// How 'substep' (and 'exact' with a finite maxVelocity) splits dt.
enum class SubstepSplit : std::uint8_t {
  kEqual = 0,    // 'equal': ceil(dt / dtMax) equal sub-steps: the result changes smoothly with dt
  kClassic = 1,  // 'classic': floor(dt / dtMax) sub-steps of dtMax, then one remainder step
};

// Controller settings; the names are the JS option names.
struct PdSettings {
  double kp = 39.478417604357434;  // (2π)²: settleTime 1 s
  double kd = 12.566370614359172;  // 2√kp: critical damping
  Integrator integrator = Integrator::kExact;
  double dtMax = 1.0 / 120.0;  // sub-step length for 'substep' and for 'exact' with a finite maxVelocity
  SubstepSplit substepSplit = SubstepSplit::kEqual;  // at most 10000 sub-steps (beyond that: equal)
  OnUnstable onUnstable = OnUnstable::kThrow;
  // Velocity limit in value units/s (rad/s for rotations), on the velocity's norm. 'explicit'
  // and 'stable' stay one update (v += dt·F; v = clamp(v); x += dt·v); 'substep' clamps
  // after each sub-step's velocity update; 'exact' sub-steps (dtMax) and limits each move.
  double maxVelocity = std::numeric_limits<double>::infinity();
  double feedForward = 0.0;    // [0, 1]: fraction of kd·targetVelocity added as force (1 removes the lag)
  double ki = 0.0;             // integral gain (PID), >= 0
  double maxIntegral = std::numeric_limits<double>::infinity();  // anti-windup: |ki·∫e dt| / kp <= this (value units)
  TargetMotion targetMotion = TargetMotion::kHold;
  double restTolerance = 1e-3;  // atRest: |error| <= this (value units; radians for angles/rotations)
  double restVelocity = 1e-3;   // atRest: |velocity| <= this (value units/s)
  double blendOutEnergy = 1e-4;  // blend-out switches to linear once kp·e²/2 + v²/2 <= this
  double blendOutTime = 0.1;     // seconds of the final linear blend to exactly zero / identity
  RotationUpdate method = RotationUpdate::kLogMap;  // Vec3PD, QuatPD
  double maxAngle = kPi;  // QuatPD: maximum rotation angle of the value, (0, π]; enforced as |w| >= cos(maxAngle/2)

  // Errors name the JS option: "kp: must be > 0", "kd: must be >= 0", "dtMax: ...".
  Status Validate() const;
};

// Settings from artist parameters: kp = (2π/settleTime)², kd = 2ζ√kp.
Status SettingsFromSettleTime(double settleTime, double dampingRatio, PdSettings* out);

}  // namespace ikpd::pd
