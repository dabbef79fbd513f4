// The springs kind's gather and write-back on a Rig (springs.h, KindOps::solvePose;
// docs/rig/springs.md, "Measured"): instead of the rig's model transform of
// every joint, taken again into the center's space, the chains walked down
// from their locals kSpringLanes chains at a time (each chain's parent from
// the rig once), straight into the center's space; the bones' solved rotations
// written as locals the same way. Every operation is the rig's (rig_update.cc:
// Model, Gather, WriteRotations), glm's in glm's order, so the floats are the
// rig's bit for bit; a lane whose rotation is far off unit takes the scalar
// formulas (rig::Unit's overflow-safe path).
#include <algorithm>

#include "registry.h"
#include "springs_lanes.h"

namespace ikpd::rig::detail {

namespace {

using namespace spring_lanes;

const M kAll = F(0.0f) == F(0.0f);

// One chain joint from its parent's model transform and its local (Rig::Model),
// then into the center's space (Rig::Gather: its canonical frame, identity for
// springs; SolveOn's conversion). Returns its model transform.
ModelTransform WalkOne(SpringsState& s, std::size_t slot, const ModelTransform& parent, const LocalTransform& l,
                       const glm::quat& frame, const glm::quat& toCenter, const glm::vec3& centerPosition) {
  const ModelTransform m{parent.position + parent.rotation * (parent.scale * l.translation),
                         Unit(parent.rotation * Unit(l.rotation)), parent.scale * l.scale};
  const glm::quat framed = Unit(m.rotation * frame);
  s.now[slot] = {toCenter * (m.position - centerPosition), Unit(toCenter * framed)};
  s.model[slot] = m.rotation;
  s.parentModel[slot] = parent.rotation;
  return m;
}

// One written bone's local (Rig::WriteRotations): under its parent's model
// rotation turned by its nearest written ancestor's solved one, weighted.
glm::quat WriteOne(const SpringsState& s, std::size_t slot, int ancestor, const glm::quat& local, float weight,
                   const glm::quat* desired, glm::quat* current) {
  glm::quat parent = s.parentModel[slot];
  if (ancestor >= 0) {
    const std::size_t a = static_cast<std::size_t>(ancestor);
    parent = desired[a] * glm::conjugate(s.model[a]) * parent;
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
  s.walkSlots.clear(), s.walkParents.clear(), s.walkFirst.clear(), s.walkDepth.clear();
  for (std::size_t g = 0; g < chains.size(); g += L) {
    const std::size_t depth = chains[g].second;
    s.walkFirst.push_back(s.walkSlots.size());
    s.walkDepth.push_back(depth);
    for (std::size_t k = 0; k < depth; ++k) {
      for (std::size_t j = 0; j < L; ++j) {
        const bool has = g + j < chains.size() && k < chains[g + j].second;
        const std::size_t slot = has ? chains[g + j].first + k : 0;
        s.walkSlots.push_back(static_cast<std::int16_t>(has ? static_cast<int>(slot) : -1));
        int parent = kWalkOrigin;
        if (has) {
          const int joint = c.joints[slot], p = skeleton.parent(static_cast<std::size_t>(joint));
          parent = k > 0 && p == c.joints[slot - 1] ? kWalkChained : p >= 0 ? p : kWalkOrigin;
        }
        s.walkParents.push_back(parent);
      }
    }
  }
  s.model.assign(c.joints.size(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  s.parentModel.assign(c.joints.size(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  // Bone b writes c.writes[b] (Writes: the bones' joints in order).
  s.ancestorSlot.assign(s.bones.size(), -1);
  for (std::size_t b = 0; b < s.bones.size() && b < c.writes.size(); ++b) {
    const int x = c.writeAncestors[b];
    if (x >= 0) s.ancestorSlot[b] = static_cast<std::int16_t>(c.writes[static_cast<std::size_t>(x)]);
  }
}

void WalkSprings(SpringsState& s, const Constraint& c, const PoseAccess& pose, const glm::quat& toCenter,
                 const glm::vec3& centerPosition) {
  static const ModelTransform kOrigin{};
  const glm::quat frame(1.0f, 0.0f, 0.0f, 0.0f);  // springs' canonical frames (DetectAxes)
  const Q toCenterLanes = lanes::Splat<F>(toCenter), frameLanes = lanes::Splat<F>(frame);
  const V centerLanes = simd::Splat3<F>(centerPosition);
  for (std::size_t g = 0; g < s.walkFirst.size(); ++g) {
    ModelTransform up[L];  // each lane's joint one depth up
    for (std::size_t k = 0; k < s.walkDepth[g]; ++k) {
      const std::int16_t* row = &s.walkSlots[s.walkFirst[g] + k * L];
      const int* parents = &s.walkParents[s.walkFirst[g] + k * L];
      GatherV pp, ps, lt, ls;
      GatherQ pq, lq;
      ModelTransform parent[L];
      for (std::size_t j = 0; j < L; ++j) {
        const std::size_t slot = static_cast<std::size_t>(row[j] >= 0 ? row[j] : row[0]);  // (an idle lane: lane 0's local)
        const int p = row[j] >= 0 ? parents[j] : kWalkOrigin;
        parent[j] = p == kWalkChained ? up[j] : p == kWalkOrigin ? kOrigin : pose.Model(static_cast<std::size_t>(p));
        const LocalTransform& l = pose.out[static_cast<std::size_t>(c.joints[slot])];
        pp.Set(j, parent[j].position), pq.Set(j, parent[j].rotation), ps.Set(j, parent[j].scale);
        lt.Set(j, l.translation), lq.Set(j, l.rotation), ls.Set(j, l.scale);
      }
      const Q parentRotation = pq.Get();
      const V parentScale = ps.Get();
      M ok = kAll;
      const Q local = UnitLanes(lq.Get(), &ok);
      const Q rotation = UnitLanes(lanes::Mul(parentRotation, local), &ok);
      const V position = pp.Get() + lanes::Rotate(parentRotation, lanes::Mul(parentScale, lt.Get()));
      const V scale = lanes::Mul(parentScale, ls.Get());
      const Q framed = UnitLanes(lanes::Mul(rotation, frameLanes), &ok);
      const V centered = lanes::Rotate(toCenterLanes, position - centerLanes);
      const Q centeredRotation = UnitLanes(lanes::Mul(toCenterLanes, framed), &ok);
      bool fast[L];
      simd::Scatter(ok, fast);
      Stored p, q, sc, cp, cq;
      p.Put(position.x, position.y, position.z), sc.Put(scale.x, scale.y, scale.z), q.Put(rotation);
      cp.Put(centered.x, centered.y, centered.z), cq.Put(centeredRotation);
      for (std::size_t j = 0; j < L; ++j) {
        if (row[j] < 0) continue;
        const std::size_t slot = static_cast<std::size_t>(row[j]);
        if (!fast[j]) {
          up[j] = WalkOne(s, slot, parent[j], pose.out[static_cast<std::size_t>(c.joints[slot])], frame, toCenter, centerPosition);
          continue;
        }
        up[j] = {p.Vec(j), q.Quat(j), sc.Vec(j)};
        s.now[slot] = {cp.Vec(j), cq.Quat(j)};
        s.model[slot] = up[j].rotation;
        s.parentModel[slot] = parent[j].rotation;
      }
    }
  }
}

bool WriteSprings(const SpringsState& s, const Constraint& c, const PoseAccess& pose, float weight, const glm::quat* desired) {
  bool active = false;
  const F weightLanes(weight);
  for (std::size_t g = 0; g < s.laneFirst.size(); ++g) {
    for (std::size_t k = 0; k < s.laneDepth[g]; ++k) {
      const std::int16_t* row = &s.laneBones[s.laneFirst[g] + k * L];
      GatherQ parent, ancestorDesired, ancestorModel, local, solved;
      bool anyAncestor = false;
      GatherF hasAncestor;
      for (std::size_t j = 0; j < L; ++j) {
        const std::size_t b = static_cast<std::size_t>(row[j] >= 0 ? row[j] : row[0]);
        const std::size_t slot = s.bones[b].slot;
        const int a = s.ancestorSlot[b];
        parent.Set(j, s.parentModel[slot]);
        hasAncestor.v[j] = a >= 0 ? 1.0f : 0.0f;
        anyAncestor |= a >= 0;
        ancestorDesired.Set(j, a >= 0 ? desired[a] : glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
        ancestorModel.Set(j, a >= 0 ? s.model[static_cast<std::size_t>(a)] : glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
        local.Set(j, pose.out[static_cast<std::size_t>(c.joints[slot])].rotation);
        solved.Set(j, desired[slot]);
      }
      Q p = parent.Get();
      if (anyAncestor) {
        p = simd::Select(hasAncestor.Get() == 1.0f, lanes::Mul(lanes::Mul(ancestorDesired.Get(), simd::Conjugate(ancestorModel.Get())), p), p);
      }
      M ok = kAll;
      const Q current = UnitLanes(local.Get(), &ok);
      const Q d = UnitLanes(lanes::Mul(simd::Conjugate(UnitLanes(p, &ok)), solved.Get()), &ok);
      const Q final = weight < 1.0f ? Weighted(weightLanes, current, d) : d;
      const M same = simd::And(simd::And(final.x == current.x, final.y == current.y), simd::And(final.z == current.z, final.w == current.w));
      bool fast[L], unchanged[L];
      simd::Scatter(ok, fast);
      simd::Scatter(same, unchanged);
      Stored out;
      out.Put(final);
      for (std::size_t j = 0; j < L; ++j) {
        if (row[j] < 0) continue;
        const std::size_t b = static_cast<std::size_t>(row[j]), slot = s.bones[b].slot;
        const std::size_t joint = static_cast<std::size_t>(c.joints[slot]);
        glm::quat q = out.Quat(j);
        if (!fast[j]) {
          glm::quat now;
          q = WriteOne(s, slot, s.ancestorSlot[b], pose.out[joint].rotation, weight, desired, &now);
          if (q == now) continue;
        } else if (unchanged[j]) {
          continue;
        }
        pose.out[joint].rotation = q;
        pose.Written(joint);
        active = true;
      }
    }
  }
  return active;
}

}  // namespace ikpd::rig::detail
