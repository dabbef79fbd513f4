// ikpd — one-bone IK (aim) with the up-vector (roll) constraint (docs/ik/aim.md).
#pragma once

#include <optional>

#include "ikpd/common.h"

namespace ikpd {

// How AimJob turns the forward axis toward the target (docs/ik/aim.md).
enum class AimMethod : int {
  kYawPitch = 0,      // yaw about the yaw axis, then pitch about the pitch axis (docs/ik/aim.md, method 1)
  kCrossProduct = 1,  // builds the new axes with cross products; same rotation as kYawPitch
  kShortestArc = 2,   // shortest-arc quaternion: same forward axis, no roll correction
};

// Rotates one joint so that its joint-local `forward` axis points at `target`
// (docs/ik/aim.md), then, when `pole` is set, rolls it about the forward axis so that
// the joint-local `up` axis points toward the pole (docs/ik/aim.md, up-vector constraint).
//
// Yaw/pitch frame: the pitch axis is the coordinate axis after the one that
// dominates `forward` (X→Y, Y→Z, Z→X), made perpendicular to forward; the yaw
// axis is forward × pitch. For forward = +X this is the classic frame: yaw about
// Z, pitch about Y, so kYawPitch and kCrossProduct give
//   cosθz = x/√(x²+y²), sinθz = y/√(x²+y²), cosθy = √(x²+y²)/r, sinθy = z/r.
// 2D use: set `hingeAxis` (joint-local) and the rotation is restricted to that
// axis (forward turns within the plane normal to it; `method` is then unused).
//
// Offset (docs/ik/aim.md): with a non-zero joint-local `offset` (the eyes in
// front of a head joint, a fingertip) the point at `offset` aims instead of
// the joint: at weight 1 the ray from the solved offset point along the
// solved forward axis passes through the target. The rotation turns the
// point I of the ray offset + s·forward (beyond the offset's foot on the
// forward line) with |I| = |target − position| onto the target direction:
// kShortestArc directly, kYawPitch and kCrossProduct as their turn of forward
// toward the target after the shortest arc that brings I onto forward. The
// pole roll then turns about the joint → target axis (not the forward axis),
// so the ray keeps passing through the target. Target inside the offset
// sphere (|target − position| <= the distance of the forward line through
// the offset from the joint, the target at the joint included) → no aim
// rotation, and the roll, if any, turns about forward as without an offset.
// offset = (0, 0, 0) gives exactly the results without it. Not with hingeAxis.
//
// Degenerate cases (never NaN for finite input): target at the joint → no aim
// rotation (the roll constraint still applies); target exactly behind with
// kShortestArc → 180° about the yaw axis (the same turn kYawPitch makes); pole
// on the forward axis line → no roll; target on the hinge axis → unchanged.
// An AimJob is its frame (what changes per frame) and its settings (what
// stays fixed), below. Its Run is the all-in-one call (it validates and
// derives its settings on every Run). To solve many frames with the same
// settings, Prepare an AimSetup once and call SolveAim per frame
// (docs/ik/aim.md, prepared settings): the same results bit for bit.

// The options that stay fixed from frame to frame; `pole` says whether the
// frames carry a pole point (JS: `pole` given).
struct AimSettings {
  glm::vec3 forward{1.0f, 0.0f, 0.0f};         // joint-local axis to aim (normalized by the job)
  AimMethod method = AimMethod::kYawPitch;
  glm::vec3 up{0.0f, 1.0f, 0.0f};              // joint-local up axis for the roll; checked and used only with `pole`
  bool pole = false;                           // frames carry AimFrame::pole (the roll constraint); no roll without
  std::optional<glm::vec3> hingeAxis;          // joint-local axis; when set, the only rotation axis (2D)
  glm::vec3 offset{0.0f};                      // joint-local point that aims at the target (finite; not with hingeAxis)

  // Checks every setting (the errors of AimJob::Validate for these fields,
  // same text). Pure: the result depends on the settings only.
  Status Validate() const;
};

// What changes per frame (per item in a batch); `pole` is read only when the
// settings have one.
struct AimFrame {
  glm::vec3 position{0.0f};                    // joint world position
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // joint world rotation (normalized by the job)
  glm::vec3 target{1.0f, 0.0f, 0.0f};          // world point to aim at
  glm::vec3 pole{0.0f};                        // world up target (docs/ik/aim.md), with settings.pole
  float weight = 1.0f;                         // 0 → input rotation, 1 → full solve (slerp between)
};

struct AimJob {
  AimFrame frame;
  AimSettings settings;
  glm::quat* result = nullptr;  // output: the new world rotation (unit)

  // Checks every input; errors name the parameter as the JS API spells it.
  // Pure: depends on this job only (no hidden state).
  Status Validate() const;
  // Validates, then writes *result. On error *result is left untouched.
  // Same as Prepare(settings) → SolveAim(frame).
  Status Run() const;
};

// Validated settings and what is derived from them alone (the unit forward,
// the yaw/pitch frame, the hinge and roll axes, the halved offset), computed
// once by Prepare. Plain data: copyable, no allocation. A default-constructed
// setup is not prepared (SolveAim rejects it).
class AimSetup {
 public:
  bool prepared() const { return prepared_; }
  const AimSettings& settings() const { return settings_; }

 private:
  template <class, class>
  friend struct SetupAccess;  // fills and reads derived_ (cpp/src/ik/setup_access.h)
  alignas(16) unsigned char derived_[192] = {};  // detail::AimShared (cpp/src/ik/aim_kernel.h)
  AimSettings settings_;
  bool prepared_ = false;
};

// Validates `settings` (AimSettings::Validate) and derives *setup from them.
// On error *setup is left untouched. setup must not be null.
Status Prepare(const AimSettings& settings, AimSetup* setup);

// Solves one frame with prepared settings: checks the frame only ("setup: not
// prepared", then position, rotation, target, pole, weight, result, in
// AimJob's words and order), then runs the kernel. Bit for bit AimJob::Run
// with the same options and inputs. On error *result is left untouched.
// Never allocates; no hidden state.
Status SolveAim(const AimSetup& setup, const AimFrame& frame, glm::quat* result);

}  // namespace ikpd
