// The avatar's turns of the working pose (avatar_solve.cc; docs/rig/avatar.md,
// "Stages"): a slot turned about its position with every slot below it
// carried (Turn), the chest's turn and the spine's bend each in one pass
// (TurnSpine, BendSpine), the pelvis moved. Included by avatar_solve.cc alone.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>

#include "../../ik/chain/rotation.h"
#include "../../ik/ik_math.h"
#include "avatar.h"

namespace ikpd::rig::detail::avatar_turns {

using ikpd::detail::AxisAngle;
using ikpd::chain_detail::Arc;

// Slot k turned by q about its position, every slot below it carried (the
// lazy limbs later, by CarryLimbs); the slots in `moveOnly` (bits) only
// moved, their rotations left for the caller to overwrite.
inline void Turn(const AvatarState& a, Transform* pose, int k, const glm::quat& q, std::uint32_t moveOnly = 0) {
  const glm::vec3 pivot = pose[k].position;
  pose[k].rotation = Unit(q * pose[k].rotation);
  const std::uint32_t carried = a.below[static_cast<std::size_t>(k)] & ~a.lazy;
  for (std::uint32_t bits = carried; bits != 0; bits &= bits - 1) {
    Transform& m = pose[std::countr_zero(bits)];
    m.position = pivot + q * (m.position - pivot);
  }
  for (std::uint32_t bits = carried & ~moveOnly; bits != 0; bits &= bits - 1) {
    Transform& m = pose[std::countr_zero(bits)];
    m.rotation = q * m.rotation;  // unit to rounding: every reader normalizes (Back, the two-bone kernel, Unit)
  }
}

// The head takes its goal's rotation: Turn for the slots below it (none
// but a limb's, which ride lazily), then the rotation itself.
inline void TurnHead(const AvatarState& a, Transform* pose, const glm::quat& rotation) {
  if ((a.below[static_cast<std::size_t>(a.head)] & ~a.lazy) != 0) Turn(a, pose, a.head, Unit(rotation * glm::conjugate(pose[a.head].rotation)));
  pose[a.head].rotation = rotation;
}

// The spine slots [1, spine] each turned by yaw / spine about `up` through
// its position, one after another from the bottom, every slot below them
// carried: made in one pass. The turn slots are a chain, so a slot m is
// turned by all of them up to the last above it (or m itself), J, and keeps
// its offset from J turned by their product: m' = J' + q^J·(m − J), J' by
// the same rule from the slot above it (docs/rig/avatar.md, "Chest").
inline void TurnSpine(const AvatarState& a, Transform* pose, int spine, const glm::vec3& up, float yaw) {
  glm::quat turns[kMaxAvatarJoints];
  glm::vec3 was[kMaxAvatarJoints];
  for (int j = 1; j <= spine; ++j) turns[j] = AxisAngle(up, yaw * static_cast<float>(j) / static_cast<float>(spine)), was[j] = pose[j].position;
  pose[1].rotation = Unit(turns[1] * pose[1].rotation);
  for (std::uint32_t bits = a.below[1] & ~a.lazy; bits != 0; bits &= bits - 1) {
    const int m = std::countr_zero(bits);
    int last = std::min(m, spine + 1) - 1;  // J: the last turn slot above m (a spine slot's own turn moves no position)
    while (last > 1 && ((a.below[static_cast<std::size_t>(last)] >> m) & 1u) == 0) --last;
    Transform& t = pose[m];
    t.position = pose[last].position + turns[last] * (t.position - was[last]);
    const int own = m <= spine ? m : last;
    t.rotation = own == m ? Unit(turns[own] * t.rotation) : turns[own] * t.rotation;  // carried: unit to rounding, as in Turn
  }
}

// `share` (in (0, 1]) of the way of unit `swing` (w ≥ 0) from the identity:
// the slerp from it, (cos(share·h), sin(share·h)·axis) for its half angle h
// (the arc sine of its axis part below 45°, where the arc cosine of w loses
// digits), one sine and cosine for the slerp's three sines.
inline glm::quat Part(const glm::quat& swing, float share) {
  const glm::vec3 v(swing.x, swing.y, swing.z);
  const float s = std::sqrt(glm::dot(v, v));
  if (share == 1.0f || !(s > 0.0f)) return swing;
  const float half = swing.w > 0.7f ? std::asin(std::min(s, 1.0f)) : std::acos(std::clamp(swing.w, -1.0f, 1.0f));
  const float h = share * half, k = std::sin(h) / s;
  return glm::quat(std::cos(h), v.x * k, v.y * k, v.z * k);
}

// The spine slots [1, head) each turned about its position by share[k] of
// the swing taking the head toward `goal` from there, one after another from
// the bottom, every slot below carried but the head's rotation (TurnHead's):
// made in one pass. After the turns of slots 1..k a slot below k (the chain
// first) is at M_k(p) = at_k + Q_k·(p − was_k), Q_k their product and at_k
// slot k's position then: the swings need only at_k and Q_(k−1) on the head's
// offset (docs/rig/avatar.md, "Stages").
inline void BendSpine(const AvatarState& a, Transform* pose, const glm::vec3& goal, const float* share) {
  glm::quat total[kMaxAvatarJoints];
  glm::vec3 was[kMaxAvatarJoints], at[kMaxAvatarJoints];
  const glm::vec3 head = pose[a.head].position;
  glm::quat q = kIdentityRotation;  // Q_(k−1)
  for (int k = 1; k < a.head; ++k) {
    was[k] = pose[k].position;
    at[k] = k == 1 ? was[1] : at[k - 1] + q * (was[k] - was[k - 1]);
    if (share[k] != 0.0f) q = Part(Arc(q * (head - was[k]), goal - at[k]), share[k]) * q;
    total[k] = q;
  }
  pose[1].rotation = Unit(total[1] * pose[1].rotation);
  for (std::uint32_t bits = a.below[1] & ~a.lazy; bits != 0; bits &= bits - 1) {
    const int m = std::countr_zero(bits);
    int last = std::min(m, a.head) - 1;  // J: the last bend slot above m (a bend slot's own turn moves no position)
    while (last > 1 && ((a.below[static_cast<std::size_t>(last)] >> m) & 1u) == 0) --last;
    Transform& t = pose[m];
    t.position = at[last] + total[last] * (t.position - was[last]);
    if (m == a.head) continue;  // its rotation is the goal's (TurnHead)
    t.rotation = m < a.head ? Unit(total[m] * t.rotation) : total[last] * t.rotation;  // carried: unit to rounding, as in Turn
  }
}

// The pelvis (slot 0) and everything below it moved by v.
inline void Move(const AvatarState& a, Transform* pose, const glm::vec3& v) {
  pose[0].position += v;
  for (std::uint32_t bits = a.below[0] & ~a.lazy; bits != 0; bits &= bits - 1) pose[std::countr_zero(bits)].position += v;
}

}  // namespace ikpd::rig::detail::avatar_turns
