// ikpd::pd — inertialized transitions over a skeleton's locals (docs/pd/inertializer.md).
// At a switch from one pose stream (an old clip, or what was shown so far) to
// another, Transition() records each joint's offset from the new pose (rotation
// as a scaled angle-axis vector, translation as a vector) and the offset's
// velocity, so the output at the switch equals the old pose and its first
// derivative is continuous. Update() then plays the new pose with the offset
// decayed by the exact critically damped spring of the PD area (spring.h):
//   x(t) = (x0 + (v0 + λ·x0)·t)·e^{−λt},  λ from GainsFromHalfLife(halfLife).
// The offset is evaluated in closed form from the switch (not stepped), so it
// is the same at any frame rate. A transition during one starts from the pose
// passed as `from` (the current output): nothing jumps, the old offset is kept
// in it. halfLife = 0 is a cut. Storage is sized by Configure; Transition and
// Update never allocate. Errors name the field and change nothing.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ikpd/common.h"
#include "ikpd/pd/spring.h"

namespace ikpd::pd {

// One switch. `from` is the pose shown now (the previous output, offsets included),
// `to` the new pose at the same instant. The velocities come from the same poses
// `dt` seconds earlier: `fromPrevious` (the output one frame ago) and `toPrevious`
// (the new stream one frame ago); either empty means at rest. Rotations are local
// unit quaternions (normalized here), positions local translations.
struct InertializerTransition {
  std::span<const Transform> from;
  std::span<const Transform> to;
  std::span<const Transform> fromPrevious;  // empty: `from` at rest
  std::span<const Transform> toPrevious;    // empty: `to` at rest
  double dt = 0.0;        // seconds between the previous poses and now; > 0 when one is given
  double halfLife = 0.1;  // seconds for the offset (at rest) to halve; 0: a cut
};

class Inertializer {
 public:
  Inertializer() = default;

  // Sizes the storage for `jointCount` joints (1 ... 65536) and clears every
  // offset (the only call that allocates). Error "jointCount: ...".
  Status Configure(std::size_t jointCount);
  std::size_t jointCount() const { return jointCount_; }

  // Checks a transition without changing anything: sizes ("from", "to",
  // "fromPrevious", "toPrevious": must hold jointCount transforms), finite values
  // and usable rotations, "dt" (finite, >= 0; > 0 with a previous pose),
  // "halfLife" (finite, >= 0).
  Status Validate(const InertializerTransition& transition) const;
  // Validates, then replaces the offsets with from ⊖ to and their velocities.
  Status Transition(const InertializerTransition& transition);

  // Advances the time since the switch by dt (finite, >= 0) and writes `pose`
  // with the decayed offsets into `out` (jointCount transforms each; `out` may
  // alias `pose`). Errors "dt: ...", "pose: ...", "out: ..." change nothing.
  Status Update(double dt, std::span<const Transform> pose, std::span<Transform> out);

  // Drops every offset (the output is the input from now on).
  void Reset();

  double halfLife() const { return halfLife_; }
  // Seconds since the last transition.
  double elapsed() const { return elapsed_; }
  // Offsets now (closed form at elapsed()), per joint: the rotation offset's scaled
  // angle-axis vector (radians; the output rotation is exp(offset)·pose) and the
  // translation offset. Errors "joint: ..." when out of range.
  Status OffsetAt(std::size_t joint, glm::dvec3* rotation, glm::dvec3* translation) const;

 private:
  template <class F>
  void ApplyOffsets(const StepCoeffs& c, bool none, std::size_t j, std::span<const Transform> pose,
                    std::span<Transform> out) const;
  Transform OffsetInDouble(const StepCoeffs& c, const Transform& in, std::size_t j) const;
  // Per joint, 12 doubles: rotation offset, translation offset, then their velocities.
  static constexpr std::size_t kStride = 12;
  std::vector<double> state_;
  std::vector<float> lanes_;  // the same in float, component-major (kStride × jointCount), for Update's lanes
  std::size_t jointCount_ = 0;
  double halfLife_ = 0.0;
  double elapsed_ = 0.0;
  double kp_ = 0.0, kd_ = 0.0;  // 0: no offset (a cut or nothing recorded)
};

}  // namespace ikpd::pd
