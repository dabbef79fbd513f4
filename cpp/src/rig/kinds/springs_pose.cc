// The springs kind's gather and write-back on a Rig (springs.h, KindOps::solvePose;
// docs/rig/springs.md, "Measured"): instead of the rig's model transform of
// every joint, taken again into the center's space, the chains walked down
// from their locals kSpringLanes chains at a time (each chain's parent from
// the rig once, then each lane's joint carried in registers to the next
// depth) straight into the center's space; the bones' solved rotations turned
// into model space and written as locals the same way. Every operation is the
// rig's (rig_update.cc: Model, Gather, WriteRotations; springs.cc: the center's
// space), glm's in glm's order, so the floats are the rig's bit for bit; a lane
// whose rotation is far off unit takes the scalar formulas (rig::Unit's
// overflow-safe path).
#include <algorithm>

#include "registry.h"
#include "springs_lanes.h"

namespace ikpd::rig::detail {

namespace {

using namespace spring_lanes;

const glm::quat kNone(1.0f, 0.0f, 0.0f, 0.0f);
static_assert(offsetof(SpringPose, position) == 0 && offsetof(SpringPose, rotation) == 3 * sizeof(float));

// A row's lane block of quaternions (springs.h, walkModel): loaded, stored, one lane read or set.
Q LoadBlock(const float* b) { return {Load(b), Load(b + L), Load(b + 2 * L), Load(b + 3 * L)}; }
void StoreBlock(float* b, const Q& q) {
  simd::Store1(b, 0, q.x), simd::Store1(b + L, 0, q.y), simd::Store1(b + 2 * L, 0, q.z), simd::Store1(b + 3 * L, 0, q.w);
}
glm::quat BlockQuat(const std::vector<float>& a, std::size_t e) {
  const std::size_t b = (e - e % L) * 4, j = e % L;
  return glm::quat(a[b + 3 * L + j], a[b + j], a[b + L + j], a[b + 2 * L + j]);
}
void SetBlockQuat(std::vector<float>& a, std::size_t e, const glm::quat& q) {
  const std::size_t b = (e - e % L) * 4, j = e % L;
  a[b + j] = q.x, a[b + L + j] = q.y, a[b + 2 * L + j] = q.z, a[b + 3 * L + j] = q.w;
}

// One chain joint from its parent's model transform and its local (Rig::Model),
// then into the center's space (Rig::Gather: its canonical frame, identity for
// springs; then the center's space, as springs.cc's SolveOn). Returns its model transform.
ModelTransform WalkOne(SpringsState& s, std::size_t slot, const ModelTransform& parent, const LocalTransform& l,
                       const glm::quat& toCenter, const glm::vec3& centerPosition) {
  const ModelTransform m{parent.position + parent.rotation * (parent.scale * l.translation),
                         Unit(parent.rotation * Unit(l.rotation)), parent.scale * l.scale};
  const glm::quat framed = Unit(m.rotation * kNone);
  s.now[slot] = {toCenter * (m.position - centerPosition), Unit(toCenter * framed)};
  return m;
}

// One written bone's local (Rig::WriteRotations): under its parent's model
// rotation turned by its nearest written ancestor's solved one, weighted.
glm::quat WriteOne(const SpringsState& s, std::size_t slot, int ancestor, const glm::quat& local, float weight,
                   const glm::quat* desired, glm::quat* current) {
  glm::quat parent = BlockQuat(s.walkParentModel, static_cast<std::size_t>(s.slotWalk[slot]));
  if (ancestor >= 0) {
    const std::size_t a = static_cast<std::size_t>(ancestor);
    parent = desired[a] * glm::conjugate(BlockQuat(s.walkModel, static_cast<std::size_t>(s.slotWalk[a]))) * parent;
  }
  *current = Unit(local);
  const glm::quat d = Unit(glm::conjugate(Unit(parent)) * desired[slot]);
  return weight < 1.0f ? Weighted(weight, *current, d) : d;
}

}  // namespace

void GroupSpringWalk(SpringsState& s, const Constraint& c, const Skeleton& skeleton) {
  const ConstraintSettings& set = c.settings;
  std::vector<std::pair<std::size_t, std::size_t>> chains;  // first slot, count
  std::size_t at = set.joints.size();
  for (const int n : set.springChains) {
    chains.push_back({at, static_cast<std::size_t>(n)});
    at += static_cast<std::size_t>(n);
  }
  // Longest first (lane 0 holds a joint at every depth of its group), ties in chain order.
  std::sort(chains.begin(), chains.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<int> boneOf(c.joints.size(), -1);
  for (std::size_t b = 0; b < s.bones.size(); ++b) boneOf[s.bones[b].slot] = static_cast<int>(b);
  // Bone b writes c.writes[b] (Writes: the bones' joints in order).
  s.ancestorSlot.assign(s.bones.size(), -1);
  for (std::size_t b = 0; b < s.bones.size() && b < c.writes.size(); ++b) {
    const int x = c.writeAncestors[b];
    if (x >= 0) s.ancestorSlot[b] = static_cast<std::int16_t>(c.writes[static_cast<std::size_t>(x)]);
  }
  s.walkSlots.clear(), s.walkParents.clear(), s.walkFirst.clear(), s.walkDepth.clear(), s.walkBones.clear(), s.walkRows.clear();
  s.slotWalk.assign(c.joints.size(), -1);
  s.ancestorsInLane = true;
  for (std::size_t g = 0; g < chains.size(); g += L) {
    const std::size_t depth = chains[g].second;
    s.walkFirst.push_back(s.walkSlots.size());
    s.walkDepth.push_back(depth);
    for (std::size_t k = 0; k < depth; ++k) {
      std::uint8_t row = static_cast<std::uint8_t>((k > 0 ? kWalkRowChained | kWalkRowAncestorUp : 0) | kWalkRowNoAncestor);
      for (std::size_t j = 0; j < L; ++j) {
        const bool has = g + j < chains.size() && k < chains[g + j].second;
        const std::size_t slot = has ? chains[g + j].first + k : 0, e = s.walkSlots.size();
        int parent = kWalkOrigin, bone = -1;
        if (has) {
          const int joint = c.joints[slot], p = skeleton.parent(static_cast<std::size_t>(joint));
          parent = k > 0 && p == c.joints[slot - 1] ? kWalkChained : p >= 0 ? p : kWalkOrigin;
          bone = boneOf[slot];
          s.slotWalk[slot] = static_cast<int>(e);
          if (parent != kWalkChained) row = static_cast<std::uint8_t>(row & ~kWalkRowChained);
          if (bone >= 0) {
            const int a = s.ancestorSlot[static_cast<std::size_t>(bone)];
            const bool up = k > 0 && a == static_cast<int>(slot - 1) && s.walkSlots[e - L] == static_cast<std::int16_t>(slot - 1);
            if (a >= 0) row = static_cast<std::uint8_t>(row & ~kWalkRowNoAncestor);
            if (!up) row = static_cast<std::uint8_t>(row & ~kWalkRowAncestorUp);
            if (a >= 0 && !up) s.ancestorsInLane = false;
          }
        }
        s.walkSlots.push_back(static_cast<std::int16_t>(has ? static_cast<int>(slot) : -1));
        s.walkParents.push_back(parent);
        s.walkBones.push_back(static_cast<std::int16_t>(bone));
      }
      s.walkRows.push_back(row);
    }
  }
  s.walkModel.assign(s.walkSlots.size() * 4, 0.0f);
  s.walkParentModel.assign(s.walkSlots.size() * 4, 0.0f);
}

void WalkSprings(SpringsState& s, const Constraint& c, const PoseAccess& pose, const glm::quat& toCenter,
                 const glm::vec3& centerPosition) {
  static const ModelTransform kOrigin{};
  const Q toCenterLanes = lanes::Splat<F>(toCenter), none = lanes::Splat<F>(kNone);
  const V centerLanes = simd::Splat3<F>(centerPosition);
  for (std::size_t g = 0; g < s.walkFirst.size(); ++g) {
    V upPosition = centerLanes, upScale = centerLanes;  // each lane's joint one depth up (set at depth 0)
    Q upRotation = none;
    for (std::size_t k = 0; k < s.walkDepth[g]; ++k) {
      const std::size_t first = s.walkFirst[g] + k * L;
      const std::int16_t* row = &s.walkSlots[first];
      const bool chained = (s.walkRows[first / L] & kWalkRowChained) != 0;
      V pp = upPosition, ps = upScale;
      Q pq = upRotation;
      if (!chained) {  // a chain's first joint, or a joint below a gap: its parent from the rig
        Stored up[3];
        up[0].Put(upPosition.x, upPosition.y, upPosition.z), up[1].Put(upRotation), up[2].Put(upScale.x, upScale.y, upScale.z);
        GatherV gp, gs;
        GatherQ gq;
        for (std::size_t j = 0; j < L; ++j) {
          const int p = row[j] >= 0 ? s.walkParents[first + j] : kWalkOrigin;
          const ModelTransform parent = p == kWalkChained ? ModelTransform{up[0].Vec(j), up[1].Quat(j), up[2].Vec(j)}
                                        : p == kWalkOrigin ? kOrigin : pose.Model(static_cast<std::size_t>(p));
          gp.Set(j, parent.position), gq.Set(j, parent.rotation), gs.Set(j, parent.scale);
        }
        pp = gp.Get(), pq = gq.Get(), ps = gs.Get();
      }
      // The locals (translation, rotation, scale: 10 floats each) as three rows of 4 a lane.
      const float* at[L];
      for (std::size_t j = 0; j < L; ++j) {
        const std::size_t slot = static_cast<std::size_t>(row[j] >= 0 ? row[j] : row[0]);  // (an idle lane: lane 0's local)
        at[j] = &pose.out[static_cast<std::size_t>(c.joints[slot])].translation.x;
      }
      const Q lt = LoadRows(at);  // translation and the rotation's x
      for (const float*& a : at) a += 3;
      const Q lq = LoadRows(at);
      for (const float*& a : at) a += 3;
      const Q ls = LoadRows(at);  // the rotation's w and the scale
      M ok = F(0.0f) == F(0.0f);
      const Q local = UnitLanes(lq, &ok);
      const Q rotation = UnitLanes(lanes::Mul(pq, local), &ok);
      const V position = pp + lanes::Rotate(pq, lanes::Mul(ps, V{lt.x, lt.y, lt.z}));
      const V scale = lanes::Mul(ps, V{ls.y, ls.z, ls.w});
      const Q framed = UnitLanes(lanes::Mul(rotation, none), &ok);
      const V centered = lanes::Rotate(toCenterLanes, position - centerLanes);
      const Q centeredRotation = UnitLanes(lanes::Mul(toCenterLanes, framed), &ok);
      StoreBlock(&s.walkModel[first * 4], rotation);
      StoreBlock(&s.walkParentModel[first * 4], pq);
      upPosition = position, upRotation = rotation, upScale = scale;
      bool fast[L];
      simd::Scatter(ok, fast);
      Rows cp, cq;  // the pose's position (and its rotation's x), its rotation: a store each
      cp.Put({centered.x, centered.y, centered.z, centeredRotation.x}), cq.Put(centeredRotation);
      bool all = true;
      for (std::size_t j = 0; j < L; ++j) {
        if (row[j] < 0) continue;
        all &= fast[j];
        SpringPose& now = s.now[static_cast<std::size_t>(row[j])];
        cp.To(j, &now.position.x), cq.To(j, Floats(now.rotation));
      }
      if (all) continue;
      // Lanes off the usual path: the scalar formulas, and the lanes carried on patched.
      Stored in[3], out[3];
      in[0].Put(pp.x, pp.y, pp.z), in[1].Put(pq), in[2].Put(ps.x, ps.y, ps.z);
      out[0].Put(position.x, position.y, position.z), out[1].Put(rotation), out[2].Put(scale.x, scale.y, scale.z);
      GatherV np, ns;
      GatherQ nq;
      for (std::size_t j = 0; j < L; ++j) {
        ModelTransform m{out[0].Vec(j), out[1].Quat(j), out[2].Vec(j)};
        if (row[j] >= 0 && !fast[j]) {
          const std::size_t slot = static_cast<std::size_t>(row[j]);
          m = WalkOne(s, slot, {in[0].Vec(j), in[1].Quat(j), in[2].Vec(j)}, pose.out[static_cast<std::size_t>(c.joints[slot])],
                      toCenter, centerPosition);
          SetBlockQuat(s.walkModel, first + j, m.rotation);
        }
        np.Set(j, m.position), nq.Set(j, m.rotation), ns.Set(j, m.scale);
      }
      upPosition = np.Get(), upRotation = nq.Get(), upScale = ns.Get();
    }
  }
}

bool WriteSprings(const SpringsState& s, const Constraint& c, const PoseAccess& pose, float weight,
                  const glm::quat& centerRotation, glm::quat* desired) {
  bool active = false;
  const F weightLanes(weight);
  const Q center = lanes::Splat<F>(centerRotation);
  const bool turn = s.ancestorsInLane;  // desired turned here (else Advance filled it)
  for (std::size_t g = 0; g < s.walkFirst.size(); ++g) {
    Q up = lanes::Splat<F>(kNone);  // each lane's desired one depth up
    for (std::size_t k = 0; k < s.walkDepth[g]; ++k) {
      const std::size_t first = s.walkFirst[g] + k * L;
      const std::int16_t* bones = &s.walkBones[first];
      const std::uint8_t flags = s.walkRows[first / L];
      GatherQ ancestorDesired{}, ancestorModel{};  // (the ancestors: read only where !turn)
      GatherF hasAncestor;
      const float *local[L], *solved[L];  // each lane's local rotation and solved one, loaded a row each
      bool any = false;
      for (std::size_t j = 0; j < L; ++j) {
        const std::size_t b = static_cast<std::size_t>(bones[j] >= 0 ? bones[j] : 0);
        any |= bones[j] >= 0;
        const std::size_t slot = s.bones[b].slot;
        local[j] = Floats(pose.out[static_cast<std::size_t>(c.joints[slot])].rotation);
        solved[j] = Floats(turn ? s.solved[b] : desired[slot]);
        const int a = bones[j] >= 0 ? s.ancestorSlot[b] : -1;
        hasAncestor.v[j] = a >= 0 ? 1.0f : 0.0f;
        if (!turn) {
          ancestorDesired.Set(j, a >= 0 ? desired[a] : kNone);
          ancestorModel.Set(j, a >= 0 ? BlockQuat(s.walkModel, static_cast<std::size_t>(s.slotWalk[static_cast<std::size_t>(a)])) : kNone);
        }
      }
      if (!any) continue;  // (a row of tails only)
      M ok = F(0.0f) == F(0.0f);
      const Q d = turn ? UnitLanes(lanes::Mul(center, LoadRows(solved)), &ok) : LoadRows(solved);  // desired (springs.cc, Advance)
      Q p = LoadBlock(&s.walkParentModel[first * 4]);
      if ((flags & kWalkRowNoAncestor) == 0) {
        const Q ad = turn ? up : ancestorDesired.Get(), am = turn ? LoadBlock(&s.walkModel[(first - L) * 4]) : ancestorModel.Get();
        const Q turned = lanes::Mul(lanes::Mul(ad, simd::Conjugate(am)), p);
        p = (flags & kWalkRowAncestorUp) != 0 ? turned : simd::Select(hasAncestor.Get() == 1.0f, turned, p);
      }
      const Q current = UnitLanes(LoadRows(local), &ok);
      const Q solvedLocal = UnitLanes(lanes::Mul(simd::Conjugate(UnitLanes(p, &ok)), d), &ok);
      const Q final = weight < 1.0f ? Weighted(weightLanes, current, solvedLocal) : solvedLocal;
      const M same = simd::And(simd::And(final.x == current.x, final.y == current.y), simd::And(final.z == current.z, final.w == current.w));
      bool fast[L], unchanged[L];
      simd::Scatter(ok, fast);
      simd::Scatter(same, unchanged);
      Rows out, turned;
      out.Put(final);
      if (turn) turned.Put(d);
      bool patched = false;
      for (std::size_t j = 0; j < L; ++j) {
        if (bones[j] < 0) continue;
        const std::size_t b = static_cast<std::size_t>(bones[j]), slot = s.bones[b].slot;
        const std::size_t joint = static_cast<std::size_t>(c.joints[slot]);
        if (turn) turned.To(j, Floats(desired[slot]));
        if (!fast[j]) {
          if (turn) desired[slot] = Unit(centerRotation * s.solved[b]), patched = true;
          glm::quat now;
          const glm::quat q = WriteOne(s, slot, s.ancestorSlot[b], pose.out[joint].rotation, weight, desired, &now);
          if (q == now) continue;
          pose.out[joint].rotation = q;
        } else if (unchanged[j]) {
          continue;
        } else {
          out.To(j, Floats(pose.out[joint].rotation));
        }
        pose.Written(joint);
        active = true;
      }
      up = d;
      if (patched) {
        GatherQ again;
        for (std::size_t j = 0; j < L; ++j) again.Set(j, bones[j] >= 0 ? desired[s.bones[static_cast<std::size_t>(bones[j])].slot] : kNone);
        up = again.Get();
      }
    }
  }
  return active;
}

}  // namespace ikpd::rig::detail
