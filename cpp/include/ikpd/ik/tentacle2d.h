// ikpd — the 2D "tentacle" (docs/ik/tentacle.md): incremental CCD in which every joint
// turns at most `step` radians per update, so the chain creeps toward its
// target like a tentacle instead of snapping to a solution.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include "ikpd/buffer.h"

#include <glm/vec2.hpp>

#include "ikpd/common.h"

namespace ikpd {

struct Tentacle2DSettings {
  // Bone lengths, root to tip (one per joint; >= 1 bone, each >= 0, finite).
  std::span<const float> lengths;
  // Largest turn of one joint per update, radians, in [0, pi].
  float step = 0.05f;
  // Joint limit |angle_i| <= limit, radians, >= 0 (used when `limits` is empty).
  float limit = kPi;
  // Optional per-joint limits (same size as `lengths`), each >= 0.
  std::span<const float> limits;
  // Root position and the direction (radians from +X) of the straight pose.
  glm::vec2 root{0.0f};
  float baseAngle = 0.0f;
  // Opt-in escape from the greedy rule's dead ends (see docs/ik/tentacle.md). 0 (default) keeps
  // the plain rule, which can curl into a knot it never leaves: every single-joint turn moves
  // the tip away, so no joint turns. N > 0: when the tip has not come closer to the target
  // for N updates in a row while it is still farther than `step * totalLength` beyond the
  // best gap any pose could have (max(0, |target - root| - totalLength)), the tentacle
  // unwinds: each following update turns every joint one step toward 0 until it is straight,
  // then the plain rule resumes. It unwinds at most once per target: the target must move by
  // more than `step * totalLength` before it can unwind again (so a target that the limits
  // make unreachable does not make it unwind over and over). Ignored when step is 0.
  std::uint32_t escapeAfter = 0;
};

// Joint i has a relative angle angle_i (bone i's direction minus bone i-1's;
// bone 0 is relative to `baseAngle`). One Update(target) runs the two
// passes: from the tip to the root each joint turns by +step, -step or not at
// all, whichever brings the tip closest to the target (largest dot product;
// a turn that would leave [-limit_i, limit_i] is not a candidate; ties keep
// the joint still), moving only the tip; then the joint positions are rebuilt
// from the root. Guarantees: |angle_i| <= limit_i always, bone lengths exact
// up to float rounding, no allocation in Update(). With `escapeAfter` > 0 some updates unwind
// instead (every joint one step toward 0, see Tentacle2DSettings::escapeAfter); each joint
// still turns at most `step` per update and stays within its limit.
// Every method validates before it changes anything: on error the state is
// unchanged. Degenerate inputs: step 0 never turns a joint; a zero-length bone
// turns without moving the points after it; a target at the root is a valid target.
class Tentacle2D {
 public:
  // Validates the settings and starts straight (all angles 0). Allocates: memory
  // that cannot be had is an error ("lengths: out of memory"), state unchanged.
  Status Reset(const Tentacle2DSettings& settings);
  // Validates the angles (size = bones, each within its limit) and rebuilds positions.
  Status SetAngles(std::span<const float> angles);
  // One incremental update toward `target` (must be finite).
  Status Update(glm::vec2 target);

  std::size_t bones() const { return lengths_.size(); }
  // bones() + 1 points: the root, every joint, the tip.
  std::span<const glm::vec2> positions() const { return positions_; }
  // bones() relative angles, radians.
  std::span<const float> angles() const { return angles_; }
  std::span<const float> lengths() const { return lengths_; }
  std::span<const float> limits() const { return limits_; }
  float step() const { return step_; }
  // True while the tentacle is unwinding out of a dead end (only with escapeAfter > 0).
  bool unwinding() const { return unwinding_; }

 private:
  void Rebuild();
  void GreedyPass(glm::vec2 target);
  // Turns every joint one step toward 0; returns true when all are 0.
  bool UnwindPass();
  // Counts updates without progress and starts unwinding when stuck (escapeAfter > 0).
  void TrackProgress(glm::vec2 target);

  Buffer<float> lengths_;
  Buffer<float> limits_;
  Buffer<float> angles_;
  Buffer<glm::vec2> positions_;
  float step_ = 0.0f;
  float cos_ = 1.0f;
  float sin_ = 0.0f;
  glm::vec2 root_{0.0f};
  float baseAngle_ = 0.0f;
  // Escape state (escapeAfter > 0 only).
  std::uint32_t escapeAfter_ = 0;
  float totalLength_ = 0.0f;
  std::uint32_t stalled_ = 0;
  float bestGap_ = 0.0f;
  glm::vec2 bestTarget_{0.0f};
  bool tracking_ = false;
  bool unwinding_ = false;
  bool armed_ = true;
  glm::vec2 escapedTarget_{0.0f};
};

}  // namespace ikpd
