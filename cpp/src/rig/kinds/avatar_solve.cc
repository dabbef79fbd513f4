// The avatar kind's stages (avatar.h; docs/rig/avatar.md, "Stages"), each on
// the working pose: model space, the joints' canonical frames (identity but
// for the limbs' upper and lower joints). A stage turns a joint and carries
// every joint below it; only the pelvis moves (the rig writes its translation),
// and a stretched arm's forearm and hand (avatar_limbs.cc, avatar_stretch.cc).
#include <algorithm>
#include <bit>
#include <cmath>

#include "../../ik/chain/rotation.h"
#include "../../ik/ik_math.h"
#include "avatar.h"
#include "avatar_angles.h"
#include "avatar_turns.h"
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

using ikpd::detail::AxisAngle;
using ikpd::chain_detail::Arc;
using namespace avatar_turns;  // NOLINT: the stages' own turns, one translation unit

// Radians: within this of a half turn of the head the pelvis comes round to it (PelvisStage).
constexpr float kHalfTurnBand = 0.25f * kPi;

// The share s in [0, 1] of the pelvis move v that keeps every hip within its
// leg's reach of its foot in `feet` (model; the animated feet when null; none: all of it).
float LegRoom(const Stage& stage, const AvatarState& a, const Transform* pose, const glm::vec3& v, const Transform* feet = nullptr) {
  float room = 1.0f;
  const float vv = glm::dot(v, v);
  if (!(vv > 0.0f)) return room;
  for (int side = 0; side < a.legCount; ++side) {
    const AvatarLimb& leg = a.legs[side];
    const glm::vec3 d = pose[leg.upper].position - (feet != nullptr ? feet[side].position : stage.jobIn[leg.end].position);
    const float reach = 0.9999f * leg.reach;
    if (glm::dot(d + v, d + v) <= reach * reach) continue;
    // |d + s·v| = reach: the larger root (0 when the hip is already out of reach).
    const float dv = glm::dot(d, v), disc = dv * dv - vv * (glm::dot(d, d) - reach * reach);
    const float s = disc >= 0.0f ? (-dv + std::sqrt(disc)) / vv : 0.0f;
    room = std::min(room, std::clamp(s, 0.0f, 1.0f));
  }
  return room;
}

// The pelvis lowered by `share` of as far as a hip out of its leg's reach of the animated foot needs.
void FitLegs(const Stage& stage, const AvatarState& a, Transform* pose, float share) {
  Transform feet[2];
  for (int side = 0; side < a.legCount; ++side) feet[side] = stage.jobIn[a.legs[side].end];
  FitFeet(stage, a, feet, pose, share);
}

// The head's distance from the spine's first joint (slot 1) with the spine
// joints [1, head) bent evenly about `axis` by `angle` in all (joint k its
// share own[k]), from the chain's positions p (model).
float BentReach(const AvatarState& a, const glm::vec3* p, const float* own, const glm::vec3& axis, float angle) {
  glm::vec3 q[kMaxAvatarJoints];
  for (int k = 1; k <= a.head; ++k) q[k] = p[k];
  for (int k = 1; k < a.head; ++k) {
    if (own[k] == 0.0f) continue;
    const glm::quat turn = AxisAngle(axis, angle * own[k]);
    for (int m = k + 1; m <= a.head; ++m) q[m] = q[k] + turn * (q[m] - q[k]);
  }
  return glm::length(q[a.head] - q[1]);
}

// With the pelvis on its target the spine alone takes the head to its goal
// (docs/rig/avatar.md, "Full-body trackers"): the spine joints bend evenly
// forward or back (about the pelvis's left; the neck by 1 − neckStiffness of
// a joint) until the head is as far from the first spine joint as its goal,
// the least bend that does (forward first), else the nearest (refined about
// the nearest sample); then the spine
// turns at its first joint onto the goal and the head takes its rotation.
void SpineReach(const Stage& stage, const Constraint& c, const AvatarGoals& goals, Transform* pose) {
  const AvatarState& a = std::get<AvatarState>(c.state);
  if (a.head < 2) return;
  const float neckShare = 1.0f - c.settings.avatar.neckStiffness;
  float own[kMaxAvatarJoints] = {}, total = 0.0f;
  glm::vec3 p[kMaxAvatarJoints];
  for (int k = 1; k < a.head; ++k) total += own[k] = k == a.neck ? neckShare : 1.0f;
  if (!(total > 0.0f)) return;
  for (int k = 1; k < a.head; ++k) own[k] /= total;
  for (int k = 1; k <= a.head; ++k) p[k] = pose[k].position;
  const glm::vec3 left = pose[0].rotation * (glm::conjugate(a.pelvisRest) * glm::cross(stage.up, stage.facing));
  const glm::vec3 axis = NormalizeOr(left, glm::vec3(1.0f, 0.0f, 0.0f));
  const float want = glm::length(goals.head.position - p[1]);
  const auto miss = [&](float angle) { return BentReach(a, p, own, axis, angle) - want; };
  // Brackets outward from no bend (steps of π/16), forward before back, to kMaxBend.
  constexpr int kBendSteps = 16;
  constexpr float kMaxBend = kPi;  // a half turn over the whole spine at most
  float angle = 0.0f, best = std::abs(miss(0.0f));
  float last[2] = {miss(0.0f), miss(0.0f)};
  bool found = best <= 1e-7f;
  for (int step = 1; step <= kBendSteps && !found; ++step) {
    for (int dir = 0; dir < 2 && !found; ++dir) {
      const float sign = dir == 0 ? 1.0f : -1.0f;
      const float hi = sign * kMaxBend * static_cast<float>(step) / kBendSteps, lo = sign * kMaxBend * static_cast<float>(step - 1) / kBendSteps;
      const float m = miss(hi);
      if (std::abs(m) < best) best = std::abs(m), angle = hi;
      if ((m > 0.0f) != (last[dir] > 0.0f)) {
        float a0 = lo, a1 = hi;
        const bool lowPositive = last[dir] > 0.0f;
        for (int k = 0; k < 32; ++k) {
          const float mid = 0.5f * (a0 + a1);
          ((miss(mid) > 0.0f) == lowPositive ? a0 : a1) = mid;
        }
        angle = 0.5f * (a0 + a1), found = true;
      }
      last[dir] = m;
    }
  }
  if (!found) {  // no crossing on the samples: the nearest bend about the nearest sample (golden section)
    constexpr float kGolden = 0.618034f;
    float lo = angle - kMaxBend / kBendSteps, hi = angle + kMaxBend / kBendSteps;
    for (int k = 0; k < 32; ++k) {
      const float x1 = hi - kGolden * (hi - lo), x2 = lo + kGolden * (hi - lo);
      (std::abs(miss(x1)) < std::abs(miss(x2)) ? hi : lo) = (std::abs(miss(x1)) < std::abs(miss(x2)) ? x2 : x1);
    }
    const float mid = 0.5f * (lo + hi);
    if (std::abs(miss(mid)) < best) angle = mid;
  }
  const std::uint32_t head = 1u << a.head;  // its rotation is the goal's (TurnHead)
  for (int k = 1; k < a.head && angle != 0.0f; ++k) {
    if (own[k] != 0.0f) Turn(a, pose, k, AxisAngle(axis, angle * own[k]), head);
  }
  Turn(a, pose, 1, Arc(pose[a.head].position - pose[1].position, goals.head.position - pose[1].position), head);
  TurnHead(a, pose, goals.head.rotation);
}

}  // namespace

// Each limb rides rigidly on its parent slot while the pelvis and spine
// stages turn and move the body: rather than carrying its slots at every
// turn, they wait (lazy) and move once by the parent's motion since.
void LeaveLimbs(AvatarState& a, const Transform* pose) {
  a.lazy = 0;
  for (int side = 0; side < a.armCount; ++side) a.lazy |= a.arms[side].carried, a.anchors[side] = pose[a.arms[side].parent];
  for (int side = 0; side < a.legCount; ++side) a.lazy |= a.legs[side].carried, a.anchors[2 + side] = pose[a.legs[side].parent];
}

// Limbs [first, first + count) (arms 0–1, legs 2–3) carried by their parents' motion since LeaveLimbs.
void CarryLimbs(AvatarState& a, Transform* pose, int first, int count) {
  int motionOf = -1;  // limbs on one parent (the legs on the pelvis) share its motion: one anchor, one pose
  glm::quat q = kIdentityRotation;
  for (int limb = first; limb < first + count; ++limb) {
    if (limb % 2 >= (limb < 2 ? a.armCount : a.legCount)) continue;
    const AvatarLimb& l = limb < 2 ? a.arms[limb] : a.legs[limb - 2];
    if ((a.lazy & l.carried) == 0) continue;
    a.lazy &= ~l.carried;
    const Transform& was = a.anchors[limb];
    const Transform& now = pose[l.parent];
    if (now.position == was.position && now.rotation == was.rotation) continue;  // not moved: as it was
    if (motionOf != l.parent) q = Unit(now.rotation * glm::conjugate(was.rotation)), motionOf = l.parent;
    for (std::uint32_t bits = l.carried; bits != 0; bits &= bits - 1) {
      Transform& m = pose[std::countr_zero(bits)];
      m.position = now.position + q * (m.position - was.position);
      m.rotation = q * m.rotation;  // unit to rounding, as in Turn
    }
  }
}

// The pelvis lowered by `share` (1 − the pelvis tracker's weight) of as far
// as a hip out of its leg's reach of `feet` (model space) needs (the knees
// bend); FitLegs for the animated feet.
void FitFeet(const Stage& stage, const AvatarState& a, const Transform* feet, Transform* pose, float share) {
  float drop = 0.0f;
  for (int side = 0; side < a.legCount; ++side) {
    const AvatarLimb& leg = a.legs[side];
    const glm::vec3 d = pose[leg.upper].position - feet[side].position;
    const float reach = 0.9999f * leg.reach, h = glm::dot(d, stage.up), dd = glm::dot(d, d);
    if (dd <= reach * reach) continue;
    const float disc = h * h - (dd - reach * reach);  // |d − δ·up| = reach, the smaller δ
    if (disc >= 0.0f) drop = std::max(drop, h - std::sqrt(disc));
  }
  if (drop > 0.0f && share > 0.0f) Move(a, pose, -drop * share * stage.up);
}

// The pelvis moved by `move` (SpineStage's AvatarGoals::pelvisMove) and then
// lowered as far as a hip out of its leg's reach of its foot's place (StepFeet)
// needs: the head gives way downward only.
void ReachFeet(const Stage& stage, const AvatarState& a, const Transform* feet, Transform* pose, const glm::vec3& move) {
  Move(a, pose, move);
  FitFeet(stage, a, feet, pose, 1.0f);
}

namespace {

// The chest's turn toward the hands' mean heading (docs/rig/avatar.md,
// "Chest"): each weighted hand's horizontal direction from the chest (faded
// in over half its arm's reach), their mean against the chest's facing, times
// `chestTurn` and the mean's length, faded out as it comes behind, within the limit.
float ChestYaw(const Stage& stage, const AvatarState& a, const AvatarSettings& s, const AvatarGoals& goals, const Transform* pose) {
  const glm::vec3 up = stage.up;
  glm::vec3 facing = pose[a.chest].rotation * a.chestFacing;
  facing -= glm::dot(facing, up) * up;
  glm::vec3 mean(0.0f);
  for (int side = 0; side < a.armCount; ++side) {
    glm::vec3 d = goals.hands[side].position - pose[a.chest].position;
    d -= glm::dot(d, up) * up;
    const float length = glm::length(d);
    if (!(length > 0.0f) || !(a.arms[side].reach > 0.0f)) continue;
    mean += d * (goals.handWeights[side] * std::min(1.0f, 2.0f * length / a.arms[side].reach) / (2.0f * length));
  }
  const float strength = glm::length(mean);
  if (!(strength > 1e-6f) || !(glm::dot(facing, facing) > 1e-12f)) return 0.0f;
  const float angle = SignedAngle(facing, mean, up);
  const float behind = std::clamp((kPi - std::abs(angle)) / (0.5f * kPi), 0.0f, 1.0f);
  return std::clamp(s.chestTurn * angle * strength * behind, -s.chestTurnLimit, s.chestTurnLimit);
}

}  // namespace

// (a) The pelvis turns with a share of the head's heading, follows a share of
// its horizontal offset, and drops with it and moves back when it is lower.
void PelvisStage(const Stage& stage, const Constraint& c, const AvatarGoals& goals, Transform* pose) {
  const AvatarState& a = std::get<AvatarState>(c.state);
  const AvatarSettings& s = c.settings.avatar;
  if (goals.headWeight == 0.0f) return;
  const glm::vec3 up = stage.up;
  const Transform& animated = stage.jobIn[a.head];
  const glm::quat turn = Unit(goals.head.rotation * glm::conjugate(animated.rotation));
  const float headYaw = Twist(turn, up), yaw = headYaw * s.pelvisTurn;
  // The animated head's heading from the animated pelvis's (both from rest).
  const float animatedApart = Twist(animated.rotation * a.headToPelvis * glm::conjugate(pose[0].rotation), up);
  if (yaw != 0.0f) Turn(a, pose, 0, AxisAngle(up, yaw));
  // The head goal's heading from the pelvis's (both from rest) kept within
  // maxRootAngle, the excess by the head's weight (weight 0: as animated).
  // Unwrapped to the head's turn (its wrap at ±π would flip the pelvis to the
  // other side), and the kept part fading to 0 as the head's turn nears ±π,
  // so the pelvis comes round to the head there: continuous on the circle
  // (docs/rig/avatar.md, "Pelvis").
  float apart = Twist(goals.head.rotation * a.headToPelvis * glm::conjugate(pose[0].rotation), up);
  apart += 2.0f * kPi * std::round((animatedApart + headYaw - yaw - apart) / (2.0f * kPi));
  const float fade = std::clamp((kPi - std::abs(headYaw)) / kHalfTurnBand, 0.0f, 1.0f);
  const float excess = apart - std::clamp(apart, -s.maxRootAngle, s.maxRootAngle) * fade;
  if (excess != 0.0f) Turn(a, pose, 0, AxisAngle(up, excess * goals.headWeight));
  const glm::vec3 offset = goals.head.position - animated.position;
  const float drop = -std::min(glm::dot(offset, up), 0.0f);
  glm::vec3 facing = pose[0].rotation * a.pelvisFacing;
  facing = NormalizeOr(facing - glm::dot(facing, up) * up, glm::vec3(0.0f));
  const glm::vec3 move = (offset - glm::dot(offset, up) * up) * s.pelvisFollow - up * drop - facing * (s.crouchBack * drop);
  Move(a, pose, move * LegRoom(stage, a, pose, move));
}

// (b) The spine turns with the hands; its joints (and the neck by 1 − neckStiffness) bend the head
// toward its goal, shared from the bottom; the head takes its rotation; the
// pelvis moves by what is left, as far as the legs reach, and lower where a
// hip is out of reach (turning the pelvis can take it there).
void SpineStage(const Stage& stage, const Constraint& c, AvatarGoals& goals, Transform* pose) {
  const AvatarState& a = std::get<AvatarState>(c.state);
  const AvatarSettings& s = c.settings.avatar;
  // The chest turns with the hands, shared evenly over the spine joints (not the neck).
  if (a.chest >= 1 && s.chestTurn > 0.0f) {
    const float yaw = ChestYaw(stage, a, s, goals, pose);
    const int spine = a.head - 1 - (a.neck >= 0 ? 1 : 0);
    if (yaw != 0.0f && spine >= 1) TurnSpine(a, pose, spine, stage.up, yaw);
  }
  if (goals.headWeight == 0.0f) return;
  const float neckShare = 1.0f - s.neckStiffness;
  float remaining = 0.0f, shares[kMaxAvatarJoints];
  for (int k = 1; k < a.head; ++k) remaining += k == a.neck ? neckShare : 1.0f;
  for (int k = 1; k < a.head; ++k) {
    const float own = k == a.neck ? neckShare : 1.0f;
    shares[k] = remaining > 0.0f ? std::min(own / remaining, 1.0f) : 0.0f;
    remaining -= own;
  }
  BendSpine(a, pose, goals.head.position, shares);
  TurnHead(a, pose, goals.head.rotation);
  const glm::vec3 left = goals.head.position - pose[a.head].position;
  if (goals.pelvisWeight == 0.0f) {
    if (a.legCount > 0 && s.steps) {  // StepFeet moves it, within reach of the feet's places
      goals.pelvisMove = left;
      return;
    }
    Move(a, pose, left * LegRoom(stage, a, pose, left));
    FitLegs(stage, a, pose, 1.0f);
    return;
  }
  // A tracked pelvis moves by its untracked share of what is left; the spine takes the rest.
  const glm::vec3 move = left * (1.0f - goals.pelvisWeight);
  Move(a, pose, move * LegRoom(stage, a, pose, move));
  SpineReach(stage, c, goals, pose);
  FitLegs(stage, a, pose, 1.0f - goals.pelvisWeight);
}

// The pelvis blended by the pelvis tracker's weight from where the head put
// it to its target, position and rotation (docs/rig/avatar.md, "Full-body trackers").
void PelvisTargetStage(const Constraint& c, const AvatarGoals& goals, Transform* pose) {
  const float w = goals.pelvisWeight;
  if (w == 0.0f) return;
  const AvatarState& a = std::get<AvatarState>(c.state);
  const glm::quat to = Toward(pose[0].rotation, goals.pelvis.rotation, w);
  Turn(a, pose, 0, Unit(to * glm::conjugate(pose[0].rotation)));
  pose[0].rotation = to;
  Move(a, pose, (goals.pelvis.position - pose[0].position) * w);
}

// (c) Each shoulder turns toward its hand goal: a share of the yaw (about the
// chest's up) and pitch from the animated hand to the goal, each within its
// limit. The arm is still lazy here (LeaveLimbs): its carry by the chest's
// motion (CarryLimbs) and the shoulder's turn are made as one motion of the
// slots below the shoulder (one rotated offset and one product a joint).
void ShoulderStage(const Stage&, Constraint& c, const AvatarGoals& goals, Transform* pose) {
  AvatarState& a = std::get<AvatarState>(c.state);
  const AvatarSettings& s = c.settings.avatar;
  // The chest's motion since LeaveLimbs and its up, for both arms when they share their parent slot.
  int motionOf = -1, upOf = -1;
  glm::quat motion = kIdentityRotation;
  glm::vec3 chestUp{0.0f, 1.0f, 0.0f};
  for (int side = 0; side < a.armCount; ++side) {
    const AvatarLimb& arm = a.arms[side];
    const float w = goals.handWeights[side] * s.shoulderWeight;
    if (arm.shoulder < 0 || w == 0.0f || (a.lazy & arm.carried) == 0) {
      CarryLimbs(a, pose, side, 1);
      if (arm.shoulder < 0 || w == 0.0f) continue;
    }
    // The carry (as CarryLimbs): each slot p to now + q·(p − was); none when the chest has not moved.
    glm::vec3 was = pose[arm.shoulder].position, now = was;
    glm::quat q = kIdentityRotation;
    if ((a.lazy & arm.carried) != 0) {
      a.lazy &= ~arm.carried;
      const Transform& anchor = a.anchors[side];
      const Transform& parent = pose[arm.parent];
      if (!(parent.position == anchor.position && parent.rotation == anchor.rotation)) {
        if (motionOf != arm.parent) motion = Unit(parent.rotation * glm::conjugate(anchor.rotation)), motionOf = arm.parent;
        q = motion, was = anchor.position, now = parent.position;
      }
    }
    const glm::vec3 root = now + q * (pose[arm.shoulder].position - was);
    const glm::vec3 from = now + q * (pose[arm.end].position - was) - root, to = goals.hands[side].position - root;
    if (upOf != arm.parent) chestUp = NormalizeOr(pose[arm.parent].rotation * arm.up, glm::vec3(0.0f, 1.0f, 0.0f)), upOf = arm.parent;
    const glm::vec3& up = chestUp;
    glm::quat turn = kIdentityRotation;
    if (glm::dot(from, from) > 1e-12f && glm::dot(to, to) > 1e-12f) {
      const glm::vec3 flatFrom = from - glm::dot(from, up) * up, flatTo = to - glm::dot(to, up) * up;
      // The elevations' difference, atan2(sin(a − b), cos(a − b)) of each one's sine and cosine
      // times its length (one arctangent for two arc sines and normalizations).
      const float fromUp = glm::dot(from, up), toUp = glm::dot(to, up);
      const float fromFlat = glm::length(flatFrom), toFlat = glm::length(flatTo);
      const float elevation = simd::Atan2(toUp * fromFlat - toFlat * fromUp, toFlat * fromFlat + toUp * fromUp);
      const float yawAngle = glm::dot(flatFrom, flatFrom) > 1e-12f && glm::dot(flatTo, flatTo) > 1e-12f
                                 ? SignedAngle(flatFrom, flatTo, up) : 0.0f;
      const float yaw = std::clamp(w * yawAngle, -s.shoulderYawLimit, s.shoulderYawLimit);
      const float pitch = std::clamp(w * elevation, -s.shoulderPitchLimit, s.shoulderPitchLimit);
      const glm::vec3 lift = glm::cross(from, up);
      const glm::quat raise = glm::dot(lift, lift) > 1e-12f ? AxisAngle(glm::normalize(lift), pitch) : kIdentityRotation;
      turn = Unit(AxisAngle(up, yaw) * raise);
    }
    // Below the shoulder: root + turn·(now + q·(p − was) − root) = base + (turn·q)·(p − was).
    const glm::quat both = turn * q;
    const glm::vec3 base = root + turn * (now - root);
    pose[arm.shoulder] = {root, Unit(both * pose[arm.shoulder].rotation)};
    for (std::uint32_t bits = arm.carried & ~(1u << arm.shoulder); bits != 0; bits &= bits - 1) {
      Transform& m = pose[std::countr_zero(bits)];
      m.position = base + both * (m.position - was);
      m.rotation = both * m.rotation;  // unit to rounding, as in Turn
    }
  }
}

// (f) Each leg a two-bone solve to its foot's place (StepFeet), the knee
// toward the foot's rest bend.
void LegStage(const Constraint& c, const AvatarGoals& goals, Transform* pose) {
  const AvatarState& a = std::get<AvatarState>(c.state);
  const Transform* feet = goals.feet;
  for (int side = 0; side < a.legCount; ++side) {
    const AvatarLimb& leg = a.legs[side];
    TwoBoneFrame frame;
    frame.root = pose[leg.upper], frame.mid = pose[leg.lower], frame.end = {pose[leg.end].position, feet[side].rotation};
    frame.target = feet[side].position;
    frame.pole = feet[side].rotation * leg.bend;
    TwoBoneResult out;
    if (!SolveTwoBone(a.limb, frame, &out)) continue;
    pose[leg.upper] = out.root, pose[leg.lower] = out.mid, pose[leg.end] = out.end;
  }
}

}  // namespace ikpd::rig::detail
