// The springs kind's tick and shown tails in SIMD lanes (springs.h;
// docs/rig/springs.md, "Measured"): the same joint index of kSpringLanes
// chains at once. Every operation is the scalar step's (springs_step.cc),
// glm's in glm's order (rig_batch_lanes.h), so a lane gives the scalar result
// bit for bit; a lane a collider holds, or any degenerate case (a zero-length
// bone, an arc near a half turn, a rotation far off unit, a non-finite tail),
// is done again by the scalar step for that bone alone.
#include <algorithm>
#include <numeric>

#include "../../ik/chain/rotation.h"
#include "springs_lanes.h"

namespace ikpd::rig::detail {

namespace {

using namespace spring_lanes;

IKPD_INLINE V Div(const V& v, F s) { return {v.x / s, v.y / s, v.z / s}; }

// Whether a collider may hold x (springs_step.cc's Ball::Holds, the same floats).
IKPD_INLINE M Holds(const SpringBall& b, const V& x, const F& hitRadius) {
  const V a = simd::Splat3<F>(b.a);
  if (b.shape == SpringColliderShape::kPlane) return simd::Dot(x - a, simd::Splat3<F>(b.n)) < hitRadius - 1e-6f;
  V nearest = a;
  if (b.ab2 > 0.0f) {
    const V ab = simd::Splat3<F>(b.ab);
    F t = simd::Dot(x - a, ab) / F(b.ab2);
    t = simd::Select(t < 0.0f, F(0.0f), simd::Select(F(1.0f) < t, F(1.0f), t));  // std::clamp(t, 0, 1)
    nearest = a + ab * t;
  }
  const V d = x - nearest;
  const F dd = simd::Dot(d, d);
  if (b.shape == SpringColliderShape::kInsideSphere || b.shape == SpringColliderShape::kInsideCapsule) {
    const F shrunk = F(b.radius) - hitRadius;
    const F r = simd::Select(F(0.0f) < shrunk, shrunk, F(0.0f));  // std::max(0, radius − hitRadius)
    return dd > r * r * (1.0f + 1e-6f) + 1e-12f;
  }
  const F r = F(b.radius) + hitRadius;
  return dd < r * r * (1.0f - 1e-6f);
}

// Depth k of lane group g: each active lane's bone ticked (show = false) or
// shown, placed, solved; lanes the fast path cannot take done by the scalar step.
template <bool kShow>
void Depth(SpringsState& s, std::size_t g, std::size_t k, float tipLength, float frac, const glm::vec3& wind, const glm::quat& worldToCenter) {
  const SpringPose* pose = SpringPoses(s);
  const std::int16_t* row = &s.laneBones[s.laneFirst[g] + k * L];
  std::size_t bone[L];
  bool active[L];
  bool anyVirtual = false;
  GatherV pos, tail, head, tails, other, gravity, tip;
  GatherQ rot, parentRot, parentSolved;
  GatherF stiffness, power, drag, hit;
  for (std::size_t j = 0; j < L; ++j) {
    active[j] = row[j] >= 0;
    const std::size_t b = bone[j] = static_cast<std::size_t>(active[j] ? row[j] : row[0]);
    const SpringBone& sb = s.bones[b];
    const SpringPose& p = pose[sb.slot];
    pos.Set(j, p.position), rot.Set(j, p.rotation);
    anyVirtual |= sb.tailSlot < 0;
    tail.Set(j, sb.tailSlot >= 0 ? pose[static_cast<std::size_t>(sb.tailSlot)].position : p.position);
    tip.Set(j, sb.tipAxis);
    if (k > 0) {
      const std::size_t parent = static_cast<std::size_t>(sb.parent);
      head.Set(j, s.shown[parent]);
      parentRot.Set(j, pose[s.bones[parent].slot].rotation), parentSolved.Set(j, s.solved[parent]);
    }
    tails.Set(j, s.tails[b]);
    other.Set(j, kShow ? s.shown[b] : s.previous[b]);
    gravity.Set(j, sb.gravityDir);
    stiffness.v[j] = sb.stiffness, power.v[j] = sb.gravityPower, drag.v[j] = sb.drag, hit.v[j] = sb.hitRadius;
  }
  // The bone's frame (springs_step.cc's FrameOf).
  const V position = pos.Get();
  const Q rotation = rot.Get();
  V from = position;
  Q q = rotation;
  M ok = F(0.0f) == F(0.0f);
  if (k > 0) from = head.Get(), q = UnitLanes(lanes::Mul(parentSolved.Get(), lanes::Mul(simd::Conjugate(parentRot.Get()), rotation)), &ok);
  V rest = tail.Get() - position;
  if (anyVirtual) {
    GatherF virt;
    for (std::size_t j = 0; j < L; ++j) virt.v[j] = s.bones[bone[j]].tailSlot < 0 ? 1.0f : 0.0f;
    rest = simd::Select(virt.Get() == 1.0f, lanes::Rotate(rotation, tip.Get() * F(tipLength)), rest);
  }
  const F length = simd::Sqrt(simd::Dot(rest, rest));
  ok = simd::And(ok, simd::And(length > 1e-9f, simd::IsFiniteLane(length)));
  const V axis = lanes::Rotate(q, lanes::Rotate(simd::Conjugate(rotation), Div(rest, length)));
  // The tail before placing: VRM's step (Tick) or on the way to the next tick (Show).
  const V last = tails.Get();
  V x = last;
  if constexpr (kShow) {
    if (frac > 0.0f) x = last + (other.Get() - last) * F(frac);
  } else {
    constexpr float kTick = static_cast<float>(kSpringTick);
    const V pull = (axis * stiffness.Get() + lanes::Rotate(lanes::Splat<F>(worldToCenter), gravity.Get()) * power.Get()) + simd::Splat3<F>(wind);
    x = (last + (last - other.Get()) * (F(1.0f) - drag.Get())) + pull * F(kTick);
  }
  // Placed on the bone's length (Place), outside every collider (else the scalar step).
  const V d = x - from;
  const F dl = simd::Sqrt(simd::Dot(d, d));
  const M along = simd::And(dl > length * 1e-9f, simd::IsFiniteLane(dl));
  x = from + simd::Select(along, d * (length / dl), axis * length);
  const F hitRadius = hit.Get();
  for (const SpringBall& b : s.balls) ok = simd::And(ok, simd::Not(Holds(b, x, hitRadius)));
  ok = simd::And(ok, simd::IsFinite3(x));
  // The solved rotation: chain_detail::Arc(axis, dir) · q.
  const V dir = Div(x - from, length);
  const F aa = simd::Dot(axis, axis), bb = simd::Dot(dir, dir);
  const F ab = simd::Sqrt(aa * bb);
  const F w = ab + simd::Dot(axis, dir);
  ok = simd::And(ok, simd::And(simd::And(ab > 1e-30f, simd::IsFiniteLane(ab)), simd::Not(w < ab * chain_detail::kNearOpposite)));
  const V c = simd::Cross(axis, dir);
  const Q arc{c.x, c.y, c.z, w};
  const F inverse = F(1.0f) / simd::Sqrt(lanes::Dot(arc, arc));
  M unit = F(0.0f) == F(0.0f);
  const Q solved = UnitLanes(lanes::Mul(Q{arc.x * inverse, arc.y * inverse, arc.z * inverse, arc.w * inverse}, q), &unit);
  ok = simd::And(ok, unit);
  bool fast[L];
  simd::Scatter(ok, fast);
  Stored shown, turned;
  shown.Put(x.x, x.y, x.z);
  turned.Put(solved);
  for (std::size_t j = 0; j < L; ++j) {
    if (!active[j]) continue;
    if (!fast[j]) {
      if constexpr (kShow) {
        ShowBone(s, bone[j], frac, tipLength);
      } else {
        TickBone(s, bone[j], tipLength, wind, worldToCenter);
      }
      continue;
    }
    s.shown[bone[j]] = shown.Vec(j);
    s.solved[bone[j]] = turned.Quat(j);
  }
}

}  // namespace

void GroupSpringLanes(SpringsState& s) {
  // The chains (runs of bones from a root), longest first, kSpringLanes to a group.
  std::vector<std::pair<std::size_t, std::size_t>> chains;  // first bone, count
  for (std::size_t b = 0; b < s.bones.size(); ++b) {
    if (s.bones[b].parent < 0) chains.push_back({b, 0});
    ++chains.back().second;
  }
  // Longest first, ties in bone order (std::sort: no temporary buffer, unlike stable_sort).
  std::sort(chains.begin(), chains.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  s.laneBones.clear(), s.laneFirst.clear(), s.laneDepth.clear();
  for (std::size_t c = 0; c < chains.size(); c += L) {
    const std::size_t depth = chains[c].second;
    s.laneFirst.push_back(s.laneBones.size());
    s.laneDepth.push_back(depth);
    for (std::size_t k = 0; k < depth; ++k) {
      for (std::size_t j = 0; j < L; ++j) {
        const bool has = c + j < chains.size() && k < chains[c + j].second;
        s.laneBones.push_back(static_cast<std::int16_t>(has ? static_cast<int>(chains[c + j].first + k) : -1));
      }
    }
  }
}

void TickLanes(SpringsState& s, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter) {
  for (std::size_t g = 0; g < s.laneFirst.size(); ++g) {
    for (std::size_t k = 0; k < s.laneDepth[g]; ++k) Depth<false>(s, g, k, tipLength, 0.0f, wind, worldToCenter);
  }
}

void ShowLanes(SpringsState& s, float frac, float tipLength) {
  const glm::quat none(1.0f, 0.0f, 0.0f, 0.0f);
  for (std::size_t g = 0; g < s.laneFirst.size(); ++g) {
    for (std::size_t k = 0; k < s.laneDepth[g]; ++k) Depth<true>(s, g, k, tipLength, frac, glm::vec3(0.0f), none);
  }
}

}  // namespace ikpd::rig::detail
