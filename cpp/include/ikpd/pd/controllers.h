// ikpd::pd — stateful PD controllers for a scalar, an angle, a unit 3D vector
// and a quaternion (docs/pd/pd.md). Plain classes, no virtual calls, no allocation.
// State is kept in double precision so the exact integrator's identities
// (N steps == 1 step) hold to ~1e-12; the float glm API converts at the edges.
//
// Each is PdController (pd_controller.h) on its chart (charts.h): the update,
// blend-out and query contracts are stated there once; these wrappers add the
// per-type construction, Reset and conveniences.
#pragma once

#include <cstdint>
#include <span>

#include "ikpd/buffer.h"

#include "ikpd/pd/chart_step.h"
#include "ikpd/pd/charts.h"
#include "ikpd/pd/pd_controller.h"
#include "ikpd/pd/settings.h"

namespace ikpd::pd {

// ------------------------------------------------------------ scalar / angle

// A scalar (or, with `angle`, an angle that always turns the short way across ±π;
// its value is kept in (−π, π]). Velocity is dvalue/dt.
class ScalarPD : private PdController<ScalarChart> {
  using Base = PdController<ScalarChart>;

 public:
  ScalarPD() = default;
  explicit ScalarPD(const PdSettings& settings, bool angle = false) : Base(settings, ScalarChart{{}, angle}) {}

  using Base::Configure;
  using Base::settings;
  bool isAngle() const { return chart().angle; }

  // Errors: "dt: ...", "target: must be a finite number", "targetVelocity: ...".
  Status Update(double dt, double target) { return Base::Update(dt, target); }
  Status Update(double dt, double target, double targetVelocity) { return Base::Update(dt, target, targetVelocity); }

  // Sets the state; clears integral, blend-out and the remembered target (target = value).
  // A non-finite value or velocity becomes 0.
  void Reset(double value, double velocity = 0.0);

  double value() const { return Base::value(); }
  double velocity() const { return Base::velocity(); }
  double target() const { return Base::target(); }
  double targetVelocity() const { return Base::targetVelocity(); }

  using Base::AtRest;
  using Base::Energy;
  Status StateAt(double t, double* value, double* velocity) const { return Base::StateAt(t, value, velocity); }
  using Base::TimeToSettle;

  // Error "rest: must be a finite number".
  Status UpdateBlendOut(double dt, double rest = 0.0) { return Base::UpdateBlendOut(dt, rest); }
  using Base::blendPhase;

  // offset = desired − animation (wrapped for angles); out = animation + smoothed offset.
  Status TrackOffset(double dt, double animation, double desired, double* out) {
    return Base::TrackOffset(dt, animation, desired, out);
  }
  Status ReleaseOffset(double dt, double animation, double* out) { return Base::ReleaseOffset(dt, animation, out); }
};

class AnglePD : public ScalarPD {
 public:
  AnglePD() : ScalarPD(PdSettings{}, true) {}
  explicit AnglePD(const PdSettings& settings) : ScalarPD(settings, true) {}
};

// ------------------------------------------------------------ unit vector

// A unit 3D vector (e.g. a look direction). Exactly opposite value and target are
// handled (a deterministic perpendicular is chosen). Velocity is dvalue/dt.
class Vec3PD : private PdController<Vec3Chart> {
  using Base = PdController<Vec3Chart>;

 public:
  Vec3PD() = default;
  explicit Vec3PD(const PdSettings& settings) : Base(settings) {}

  using Base::Configure;
  using Base::settings;

  // `target` need not be unit (normalized) but must not be zero: "target: must not be zero".
  // targetVelocity is the target's dtarget/dt (its tangential part is used).
  using Base::Update;
  // value is normalized ("value: must not be zero"; "velocity: must be finite").
  Status Reset(const glm::dvec3& value, const glm::dvec3& velocity = glm::dvec3(0.0));

  using Base::value;
  using Base::velocity;
  using Base::target;

  using Base::AtRest;        // angle to target <= restTolerance and |velocity| <= restVelocity
  using Base::Energy;        // in chart (angle) units
  using Base::StateAt;
  using Base::TimeToSettle;  // tolerance in radians
  using Base::UpdateBlendOut;  // rest: finite, non-zero ("rest: ..."), normalized
  using Base::blendPhase;
};

// ------------------------------------------------------------ quaternion

// A rotation. Kept in the target's hemisphere (q and −q are the same rotation);
// velocity is the world-frame angular velocity (rad/s). With maxAngle < π the value's
// own rotation angle is clamped to maxAngle (|w| >= cos(maxAngle/2)), as for IK offsets.
class QuatPD : private PdController<QuatChart> {
  using Base = PdController<QuatChart>;

 public:
  QuatPD() = default;
  explicit QuatPD(const PdSettings& settings) : Base(settings) {}

  using Base::Configure;
  using Base::settings;

  // Non-unit targets are normalized; zero/non-finite ones are errors ("target: ...").
  // targetVelocity: the target's world angular velocity (rad/s).
  using Base::Update;
  // "value: must be a finite, non-zero quaternion"; "velocity: must be finite".
  Status Reset(const glm::dquat& value, const glm::dvec3& angularVelocity = glm::dvec3(0.0));

  // float conveniences (glm::quat order w, x, y, z in the constructor)
  Status Update(double dt, const glm::quat& target) { return Base::Update(dt, glm::dquat(target)); }
  glm::quat valuef() const { return glm::quat(value()); }

  using Base::value;
  using Base::velocity;
  using Base::target;

  using Base::AtRest;   // angle to target <= restTolerance and |ω| <= restVelocity
  using Base::Energy;   // in rotation-vector (radian) units
  using Base::StateAt;
  using Base::TimeToSettle;  // tolerance in radians
  Status UpdateBlendOut(double dt) { return Base::UpdateBlendOut(dt, QuatChart::Origin()); }  // toward identity
  using Base::blendPhase;

  // IK-offset workflow on rotations: offset = desired · animation⁻¹ (world-frame delta),
  // out = smoothed offset · animation. Errors: "animation: ...", "desired: ...".
  using Base::TrackOffset;
  using Base::ReleaseOffset;

 private:
  friend struct QuatPdLanes;
};

// Many quaternion PDs stepped at once (docs/pd/pd.md, "Many quaternion PDs in
// lanes"): pds[i].Update(dt, targets[i]) for every i (float targets, as
// QuatPD's float Update), with the log-map exact
// step (maxVelocity's sub-steps included) run in float SIMD lanes, 8 (4, or 1
// without SIMD) controllers at a time. A lane's value and velocity agree with
// Update to float rounding (the state is rounded to float for the step; Update
// keeps double), and do not depend on the lane width or on the other
// controllers. Controllers the lanes do not take ('componentwise', another
// integrator, ki > 0, targetMotion 'linear' after the first update, a 'classic'
// split ending in a remainder) and a lane whose float result is not finite run
// Update itself. Errors, before anything changes: "targets: needs one target
// per controller", "dt: ...", "target: ..."; an Update that fails returns its
// error with the controllers before it stepped.
Status UpdateQuatPDs(double dt, std::span<QuatPD> pds, std::span<const glm::quat> targets);

// UpdateQuatPDs' lanes kept between updates for one set of controllers
// (docs/pd/pd.md, "Lanes kept between updates"): a controller the lanes step
// keeps its state there, in float, instead of being written back to its double
// state and gathered again next update. Its double state is stale until
// Commit, which writes what UpdateQuatPDs alone would have left, bit for bit
// (the lanes' doubles are stored from floats). Kept: a lane that stepped and
// whose controller has maxAngle π (no clamp in double) and targetMotion
// 'hold'. Sized once (Allocate); nothing after allocates.
class QuatPdLaneSet {
 public:
  static constexpr std::size_t kBlock = 8;  // controllers a block holds (at most the SIMD width)
  // Room for n controllers, none kept; false (unchanged) when the memory cannot be had.
  [[nodiscard]] bool Allocate(std::size_t n);
  std::size_t size() const { return n_; }
  bool kept(std::size_t i) const { return (blocks_[i >> shift_].kept >> (i & lane_) & 1u) != 0; }
  // pds[i]'s value in float: its kept lane's, else glm::quat(pds[i].value()).
  glm::quat valuef(std::span<const QuatPD> pds, std::size_t i) const {
    const Block& b = blocks_[i >> shift_];
    const std::size_t l = i & lane_;
    if ((b.kept >> l & 1u) == 0) return pds[i].valuef();
    return glm::quat(b.now.q[3][l], b.now.q[0][l], b.now.q[1][l], b.now.q[2][l]);
  }
  // Writes every kept lane into its controller; keeps none.
  void Commit(std::span<QuatPD> pds);
  // Keeps none and writes nothing (the controllers were reset).
  void Drop();
  // Save remembers the lanes and returns how many controllers are not kept
  // (the caller's to save); Restore puts the lanes back as they were at the
  // last Save, undoing an UpdateQuatPDs since (the controllers not kept at the
  // Save are the caller's to put back).
  std::size_t Save();
  void Restore();

  // The lanes of kBlock controllers (internal: quat_pd_lanes.cc).
  struct State {
    alignas(32) float q[4][kBlock], omega[3][kBlock], g[4][kBlock], raw[4][kBlock];
  };
  struct Block {
    State now, before;  // before: the state ahead of the last update (the fallback's and Restore's)
    alignas(32) float k[4][kBlock], maxSpeed[kBlock], maxMove[kBlock], steps[kBlock];
    std::uint32_t kept = 0, savedKept = 0;  // lane masks
  };

 private:
  friend struct QuatPdLanes;
  Buffer<Block> blocks_;
  std::size_t n_ = 0;
  std::size_t shift_ = 0, lane_ = 0;  // controller i: block i >> shift_, lane i & lane_ (the SIMD width)
  double dt_ = -1.0;      // the step the kept lanes' coefficients are for
  bool stepped_ = false;  // an UpdateQuatPDs since Save
};

// UpdateQuatPDs with the lanes kept in `lanes` (sized pds.size()): the same
// results once committed. Errors before anything changes as UpdateQuatPDs; an
// Update that fails returns its error with the set and controllers partly
// stepped (the caller restores them: LookAt undoes its update).
Status UpdateQuatPDs(double dt, std::span<QuatPD> pds, std::span<const glm::quat> targets, QuatPdLaneSet* lanes);

}  // namespace ikpd::pd
