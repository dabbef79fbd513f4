// ikpd::pd — stateful PD controllers for a scalar, an angle, a unit 3D vector
// and a quaternion (docs/pd.md). Plain classes, no virtual calls, no allocation.
// State is kept in double precision so the exact integrator's identities
// (N steps == 1 step) hold to ~1e-12; the float glm API converts at the edges.
//
// Every controller works on a "chart": the state's error relative to the
// target at the end of the step, in linear coordinates (x − g for scalars,
// the wrapped difference for angles, the log map at the target for vectors
// and quaternions). The spring step (spring.h) runs on the chart components.
#pragma once

#include <cstdint>
#include <limits>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

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

// Up to 4 chart components of one spring (plain data; batches may use their own layout).
struct ChartState {
  double u[4] = {0, 0, 0, 0};         // error: state − target (at the end of the step)
  double w[4] = {0, 0, 0, 0};         // error velocity
  double integral[4] = {0, 0, 0, 0};  // ∫(target − state) dt (used when ki > 0)
};

// Advances n chart components over dt with the settings' integrator. The target
// moves at chart velocity q[] during the step and sits at the origin at its end.
// A discrete step longer than StepLimit is an error ("dt: ... stability region ...")
// or clamped (onUnstable) before anything changes. Leaves `state` untouched and
// returns an error when the result is not finite: "dt: the integrator diverged (...)".
Status ChartStep(const PdSettings& s, int n, double dt, const double* q, ChartState* state);

// Behaviour shared by all controllers' blend-out (IK turning off).
enum class BlendPhase : std::uint8_t { kNone = 0, kSpring = 1, kLinear = 2, kDone = 3 };

// ------------------------------------------------------------ scalar / angle

// A scalar (or, with `angle`, an angle that always turns the short way across ±π;
// its value is kept in (−π, π]).
class ScalarPD {
 public:
  ScalarPD() = default;
  explicit ScalarPD(const PdSettings& settings, bool angle = false);

  // Validates and applies new settings; keeps the state. On error nothing changes.
  Status Configure(const PdSettings& settings);
  const PdSettings& settings() const { return settings_; }
  bool isAngle() const { return angle_; }

  // Advances by dt >= 0 toward `target` (at the end of the step). dt = 0 is a no-op.
  // With targetVelocity the target moves linearly during the step (exact integrates it;
  // feedForward uses it). Errors: "dt: ...", "target: must be finite", "targetVelocity: ...".
  Status Update(double dt, double target);
  Status Update(double dt, double target, double targetVelocity);

  // Sets the state; clears integral, blend-out and the remembered target (target = value).
  void Reset(double value, double velocity = 0.0);

  double value() const { return x_; }
  double velocity() const { return v_; }
  double target() const { return target_; }
  double targetVelocity() const { return targetVelocity_; }

  // |error| <= restTolerance and |velocity| <= restVelocity.
  bool AtRest() const;
  // Spring energy kp·e²/2 + v²/2 relative to the current target.
  double Energy() const;

  // State at time t from now (t < 0: in the past) on the current segment: the
  // exact solution with the last target (and its velocity) continued, no integral.
  Status StateAt(double t, double* value, double* velocity) const;
  // Seconds until |error| stays <= tolerance on the current segment (exact; +inf if
  // never, 0 if already). The error is measured from the equilibrium path (the target,
  // or the lagging point when it moves without feed-forward).
  Status TimeToSettle(double tolerance, double* seconds) const;

  // Blend-out: spring toward `rest` until Energy() <= blendOutEnergy, then a linear
  // blend reaching exactly `rest` (velocity 0) after blendOutTime. Update() cancels it.
  Status UpdateBlendOut(double dt, double rest = 0.0);
  BlendPhase blendPhase() const { return phase_; }

  // IK-offset workflow: the controller smooths offset = desired − animation (wrapped for
  // angles) and `out` = animation + smoothed offset. ReleaseOffset blends the offset out.
  Status TrackOffset(double dt, double animation, double desired, double* out);
  Status ReleaseOffset(double dt, double animation, double* out);

 private:
  Status Advance(double dt, double target, const double* targetVelocity);
  double Chart(double x, double target) const;  // x − target (wrapped for angles)
  double Wrap(double x) const;

  PdSettings settings_{};
  bool angle_ = false;
  double x_ = 0.0, v_ = 0.0;
  double target_ = 0.0, targetVelocity_ = 0.0;
  double integral_ = 0.0;
  bool hasTarget_ = false;
  BlendPhase phase_ = BlendPhase::kNone;
  double blendFrom_ = 0.0, blendElapsed_ = 0.0;
};

class AnglePD : public ScalarPD {
 public:
  AnglePD() : ScalarPD(PdSettings{}, true) {}
  explicit AnglePD(const PdSettings& settings) : ScalarPD(settings, true) {}
};

// ------------------------------------------------------------ unit vector

// A unit 3D vector (e.g. a look direction). Exactly opposite value and target are
// handled (a deterministic perpendicular is chosen). Velocity is dvalue/dt.
class Vec3PD {
 public:
  Vec3PD();
  explicit Vec3PD(const PdSettings& settings);

  Status Configure(const PdSettings& settings);
  const PdSettings& settings() const { return settings_; }

  // `target` need not be unit (normalized) but must not be zero: "target: must not be zero".
  // targetVelocity is the target's dtarget/dt (its tangential part is used).
  Status Update(double dt, const glm::dvec3& target);
  Status Update(double dt, const glm::dvec3& target, const glm::dvec3& targetVelocity);
  // value is normalized ("value: must not be zero").
  Status Reset(const glm::dvec3& value, const glm::dvec3& velocity = glm::dvec3(0.0));

  const glm::dvec3& value() const { return p_; }
  const glm::dvec3& velocity() const { return v_; }
  const glm::dvec3& target() const { return target_; }

  bool AtRest() const;   // angle to target <= restTolerance and |velocity| <= restVelocity
  double Energy() const;  // in chart (angle) units
  Status StateAt(double t, glm::dvec3* value, glm::dvec3* velocity) const;
  Status TimeToSettle(double tolerance, double* seconds) const;  // tolerance in radians
  Status UpdateBlendOut(double dt, const glm::dvec3& rest);
  BlendPhase blendPhase() const { return phase_; }

 private:
  Status Advance(double dt, const glm::dvec3& target, const glm::dvec3* targetVelocity);
  void ToChart(const glm::dvec3& g, ChartState* c) const;
  void FromChart(const glm::dvec3& g, const ChartState& c, glm::dvec3* p, glm::dvec3* v) const;

  PdSettings settings_{};
  glm::dvec3 p_{1.0, 0.0, 0.0}, v_{0.0};
  glm::dvec3 target_{1.0, 0.0, 0.0}, targetVelocity_{0.0};
  double integral_[3] = {0, 0, 0};
  bool hasTarget_ = false;
  BlendPhase phase_ = BlendPhase::kNone;
  glm::dvec3 blendFrom_{1.0, 0.0, 0.0};
  double blendElapsed_ = 0.0;
};

// ------------------------------------------------------------ quaternion

// A rotation. Kept in the target's hemisphere (q and −q are the same rotation);
// velocity is the world-frame angular velocity (rad/s). With maxAngle < π the value's
// own rotation angle is clamped to maxAngle (|w| >= cos(maxAngle/2)), as for IK offsets.
class QuatPD {
 public:
  QuatPD();
  explicit QuatPD(const PdSettings& settings);

  Status Configure(const PdSettings& settings);
  const PdSettings& settings() const { return settings_; }

  // Non-unit targets are normalized; zero/non-finite ones are errors ("target: ...").
  // targetVelocity: the target's world angular velocity (rad/s).
  Status Update(double dt, const glm::dquat& target);
  Status Update(double dt, const glm::dquat& target, const glm::dvec3& targetVelocity);
  Status Reset(const glm::dquat& value, const glm::dvec3& angularVelocity = glm::dvec3(0.0));

  // float conveniences (glm::quat order w, x, y, z in the constructor)
  Status Update(double dt, const glm::quat& target) { return Update(dt, glm::dquat(target)); }
  glm::quat valuef() const { return glm::quat(q_); }

  const glm::dquat& value() const { return q_; }
  const glm::dvec3& velocity() const { return omega_; }
  const glm::dquat& target() const { return target_; }

  bool AtRest() const;   // angle to target <= restTolerance and |ω| <= restVelocity
  double Energy() const;  // in rotation-vector (radian) units
  Status StateAt(double t, glm::dquat* value, glm::dvec3* angularVelocity) const;
  Status TimeToSettle(double tolerance, double* seconds) const;  // tolerance in radians
  Status UpdateBlendOut(double dt);  // toward identity
  BlendPhase blendPhase() const { return phase_; }

  // IK-offset workflow on rotations: offset = desired · animation⁻¹ (world-frame delta),
  // out = smoothed offset · animation.
  Status TrackOffset(double dt, const glm::dquat& animation, const glm::dquat& desired, glm::dquat* out);
  Status ReleaseOffset(double dt, const glm::dquat& animation, glm::dquat* out);

 private:
  Status Advance(double dt, const glm::dquat& target, const glm::dvec3* targetVelocity);
  void ToChart(const glm::dquat& g, ChartState* c) const;
  void FromChart(const glm::dquat& g, const ChartState& c, glm::dquat* q, glm::dvec3* omega,
                 glm::dvec4* rawVelocity) const;
  void ClampAngle();

  PdSettings settings_{};
  glm::dquat q_{1.0, 0.0, 0.0, 0.0};
  glm::dvec3 omega_{0.0};
  glm::dvec4 qdot_{0.0};  // componentwise mode: raw component velocity (x, y, z, w)
  glm::dquat target_{1.0, 0.0, 0.0, 0.0};
  glm::dvec3 targetVelocity_{0.0};
  double integral_[4] = {0, 0, 0, 0};
  bool hasTarget_ = false;
  BlendPhase phase_ = BlendPhase::kNone;
  glm::dquat blendFrom_{1.0, 0.0, 0.0, 0.0};
  double blendElapsed_ = 0.0;
  StepCoeffsCache steps_;  // the fused exact step's coefficients
};

// ------------------------------------------------------------ rotation charts
// Plain functions (double precision) so batches and look-at IK can reuse them.

// Rotation vector u with q = exp(u)·g (world-frame), q taken in g's hemisphere: |u| <= π.
glm::dvec3 QuatLogChart(const glm::dquat& q, const glm::dquat& g);
// q = exp(u)·g.
glm::dquat QuatExpChart(const glm::dvec3& u, const glm::dquat& g);
// World angular velocity ω of q(t) = exp(u(t))·g is ω = J(u)·u̇ (SO(3) left Jacobian); and its inverse.
glm::dvec3 LeftJacobianTimes(const glm::dvec3& u, const glm::dvec3& udot);
glm::dvec3 LeftJacobianInverseTimes(const glm::dvec3& u, const glm::dvec3& omega);
// Sphere log/exp at g (unit): u ⊥ g, |u| = angle from g to p; p = cos|u|·g + sin|u|·û.
glm::dvec3 SphereLog(const glm::dvec3& p, const glm::dvec3& g, const glm::dvec3& hint);
glm::dvec3 SphereExp(const glm::dvec3& u, const glm::dvec3& g);
// A unit vector perpendicular to unit v (deterministic).
glm::dvec3 AnyPerpendicular(const glm::dvec3& v);

}  // namespace ikpd::pd
