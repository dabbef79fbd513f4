// The avatar kind's arms (avatar.h; docs/rig/avatar.md, "Stages", Arms): each
// a two-bone solve to its hand goal, the elbow toward a pole carried by the
// hand, optionally stretched (avatar_stretch.cc).
#include <algorithm>
#include <cmath>

#include "avatar.h"
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

// The hand's share of the elbow's pole (ArmPole) rises from 0 with the hand
// kFoldNear of its arm's reach from the shoulder to 1 at kFoldFar.
constexpr float kFoldNear = 0.1f, kFoldFar = 0.9f;

// The elbow's pole (docs/rig/avatar.md, "Stages", Arms): the hand goal's rest bend,
// blended toward the folded elbow's body-fixed direction (out, down and back,
// turned with the arm's parent slot) as the hand comes near its shoulder,
// where the shoulder–hand line swings fastest: smoothstep from all the hand's
// at kFoldFar of the arm's reach to all the body's at kFoldNear.
[[gnu::always_inline]] inline glm::vec3 ArmPole(const AvatarLimb& arm, const Transform& goal, const Transform* pose) {
  const glm::vec3 hand = goal.rotation * arm.bend;
  const float d = arm.reach > 0.0f ? glm::length(goal.position - pose[arm.upper].position) / arm.reach : 1.0f;
  const float x = std::clamp((d - kFoldNear) / (kFoldFar - kFoldNear), 0.0f, 1.0f), w = x * x * (3.0f - 2.0f * x);
  if (w == 1.0f) return hand;
  return w * hand + (1.0f - w) * (pose[arm.parent].rotation * arm.fold);
}

// The arm's two-bone frame: its goal blended by the hand's weight `w` from
// where the stages before carried the hand (written back to `goal`), the
// elbow toward ArmPole, the hand its rotation (inlined: the plain arms cost
// what they did before the stretch).
[[gnu::always_inline]] inline TwoBoneFrame ArmFrame(const AvatarLimb& arm, float w, Transform& goal, const Transform* pose) {
  goal = {glm::mix(pose[arm.end].position, goal.position, w), Toward(pose[arm.end].rotation, goal.rotation, w)};
  TwoBoneFrame frame;
  frame.root = pose[arm.upper], frame.mid = pose[arm.lower];
  frame.end = {pose[arm.end].position, goal.rotation};
  frame.target = goal.position;
  frame.pole = ArmPole(arm, goal, pose);
  return frame;
}

}  // namespace

// (d) Each arm a two-bone solve to its hand goal, the elbow toward ArmPole
// (the hand goal's rest bend: it follows the hand's roll; the folded elbow's
// direction near the shoulder), the hand its rotation.
// The goal is blended by the hand's weight from where the stages before
// carried the hand (so a weight fading to 0 ends where weight 0 leaves it:
// no jump), and written back to goals->hands. Returns the slots whose
// translations the arm stretch changed (none while it is off).
std::uint32_t ArmStage(const Constraint& c, AvatarGoals* goals, Transform* pose) {
  const AvatarState& a = std::get<AvatarState>(c.state);
  const bool stretching = Stretching(a);
  std::uint32_t stretched = 0;
  TwoBoneSetup stretch;  // with the stretch in force, each arm's setup stretched by its hand's weight
  for (int side = 0; side < a.armCount; ++side) {
    const AvatarLimb& arm = a.arms[side];
    const float w = goals->handWeights[side];
    if (w == 0.0f) continue;
    const TwoBoneFrame frame = ArmFrame(arm, w, goals->hands[side], pose);
    const TwoBoneSetup* setup = &a.limb;
    if (stretching) [[unlikely]] {
      if (!StretchSetup(a, w, &stretch)) continue;
      setup = &stretch;
    }
    TwoBoneResult out;
    if (!SolveTwoBone(*setup, frame, &out)) continue;
    pose[arm.upper] = out.root, pose[arm.lower] = out.mid, pose[arm.end] = out.end;
    if (stretching) stretched |= (1u << arm.lower) | (1u << arm.end);
  }
  return stretched;
}

}  // namespace ikpd::rig::detail
