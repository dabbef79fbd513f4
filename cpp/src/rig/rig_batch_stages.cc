// RigBatch: the stages of a frame over characters [c0, c1) (docs/rig/rig-batch.md):
// forward kinematics, gather, the batch solves (each kind's LaneOps,
// kinds/lanes.h; locals: rig_batch_locals.cc). Every formula is the Rig's
// (rig_update.cc), so each character gets its own Rig's result.
#include <algorithm>
#include <cstring>

#include "ikpd/rig/rig_batch.h"
#include "kinds/lanes.h"
#include "kinds/registry.h"
#include "rig_batch_lanes.h"
#include "rig_math.h"

namespace ikpd::rig {

using simd::Q4;
using simd::V3;

// What the stages need from the template, the same for every character. The
// model transforms each constraint reads are computed just before it, where
// stale: as lazily as Rig::Model, decided once for all characters (a write
// that changes nothing leaves a transform the same when computed again).
void RigBatch::Derive(const Rig& rig, std::size_t count, std::vector<Plan>* plans) const {
  const Skeleton& skeleton = rig.skeleton_;
  const std::size_t joints = skeleton.size(), constraints = rig.constraints_.size();
  plans->assign(constraints, Plan{});
  std::vector<std::uint8_t> fresh(joints, 0), reads(joints, 0);
  std::size_t states = 0;
  for (std::size_t i = 0; i < constraints; ++i) {
    const detail::Constraint& c = rig.constraints_[i];
    Plan& plan = (*plans)[i];
    // A kind with per-character state gathers its own joints (SolveCharacters).
    const bool own = detail::Kind(c).solveCharacter != nullptr;
    if (own) plan.states = states, states += count;
    plan.lanes = detail::FindLanes(c.settings.kind);  // else solved per character (or refused by Init)
    // Its joints and their parents (Gather, Locals), with every stale ancestor.
    std::fill(reads.begin(), reads.end(), std::uint8_t{0});
    for (int j : c.joints) {
      for (int a = j; a >= 0 && !fresh[static_cast<std::size_t>(a)]; a = skeleton.parent(static_cast<std::size_t>(a))) {
        reads[static_cast<std::size_t>(a)] = 1;
      }
      const int p = skeleton.parent(static_cast<std::size_t>(j));
      for (int a = p; a >= 0 && !fresh[static_cast<std::size_t>(a)]; a = skeleton.parent(static_cast<std::size_t>(a))) {
        reads[static_cast<std::size_t>(a)] = 1;
      }
    }
    // Kinematics frames the constraint's stale joints, Gather the others: one relation, both lists.
    for (std::size_t j = 0; j < joints; ++j) {
      if (!reads[j]) continue;
      const auto found = std::find(c.joints.begin(), c.joints.end(), static_cast<int>(j));
      const bool framed = found != c.joints.end() && !own;
      plan.kinematics.push_back({static_cast<std::uint32_t>(j),
                                 framed ? static_cast<std::uint32_t>(found - c.joints.begin()) : Stale::kNoSlot});
      fresh[j] = 1;
    }
    for (std::size_t k = 0; k < c.joints.size() && !own; ++k) {
      if (!reads[static_cast<std::size_t>(c.joints[k])]) plan.gather.push_back(static_cast<std::uint32_t>(k));
    }
    for (std::size_t w = 0; w < c.writes.size(); ++w) {
      Write wr;
      wr.slot = c.writes[w];
      wr.joint = static_cast<std::uint32_t>(c.joints[wr.slot]);
      wr.parent = skeleton.parent(wr.joint);
      wr.ancestorWrite = c.writeAncestors[w];
      if (wr.ancestorWrite >= 0) wr.ancestor = c.joints[c.writes[static_cast<std::size_t>(wr.ancestorWrite)]];
      plan.writes.push_back(wr);
    }
    // Its writes' subtrees are stale (one forward pass: parents come first).
    for (const Write& w : plan.writes) fresh[w.joint] = 0;
    for (std::size_t j = 0; j < joints; ++j) {
      const int p = skeleton.parent(j);
      if (p >= 0 && !fresh[static_cast<std::size_t>(p)]) fresh[j] = 0;
    }
    const CommonSettings& common = c.settings.common;
    (void)pd::SettingsFromSettleTime(common.settleTime > 0.0f ? common.settleTime : 1.0, common.damping, &plan.smoothing);
    plan.smoothing.blendOutTime = common.blendOutTime;  // checked by the template's Configure
  }
}

const float* RigBatch::Pose(std::size_t index, std::uint32_t joint) const {
  return firstWriter_[joint] < index ? output_.data() : rotations_.data();
}

void RigBatch::Chunk(float dt, std::size_t c0, std::size_t c1) {
  const std::size_t n = count_;
  for (std::size_t j = 0; j < jointCount(); ++j) {  // out = in where no constraint writes (the others: at their first write)
    if (firstWriter_[j] < constraintCount()) continue;
    std::memcpy(&output_[(j * n + c0) * 4], &rotations_[(j * n + c0) * 4], (c1 - c0) * 4 * sizeof(float));
  }
  lanes::ForCharacters(c0, c1, [&](auto lane, std::size_t c) {  // Rig::ToModel's unit root, once per frame
    using F = decltype(lane);
    Q4<F> root = simd::LoadQ4<F>(rootRotations_.data(), c);
    if (!lanes::Unit(&root)) return false;
    lanes::StoreBlockQ4(rootUnits_.data(), c, root);
    return true;
  });
  for (std::size_t i = 0; i < constraintCount(); ++i) {
    Kinematics(i, c0, c1);
    if (plans_[i].states != kNoStates) {
      SolveCharacters(i, dt, c0, c1);
      continue;
    }
    Inputs(i, dt, c0, c1);
    Gather(i, c0, c1);
    Solve(i, c0, c1);
    Locals(i, c0, c1);
  }
}

// Stage 1: model transforms of the joints constraint `index` reads that are
// stale (plans_[index].kinematics, ascending: parents first) from the current
// locals, the Rig's formulas (rig.h, "Spaces"), kLanes characters at a time;
// the constraint's own joints among them also get their canonical-frame
// rotations here (Gather's first part) while hot.
void RigBatch::Kinematics(std::size_t index, std::size_t c0, std::size_t c1) {
  const detail::Constraint& constraint = template_.constraints_[index];
  const std::size_t n = count_, blocked = lanes::Blocked(n);
  float* position = modelPositions_.data();
  for (const Stale& stale : plans_[index].kinematics) {
    const std::uint32_t j = stale.joint, slot = stale.slot;
    const int p = template_.skeleton_.parent(j);
    const float* locals = Pose(index, j);
    const std::size_t at = j * n, from = p >= 0 ? static_cast<std::size_t>(p) * n : 0;
    float* rotation = &modelRotations_[j * blocked * 4];
    float* scale = &modelScales_[j * blocked * 3];
    const float* parentRotation = p >= 0 ? &modelRotations_[static_cast<std::size_t>(p) * blocked * 4] : nullptr;
    const float* parentScale = p >= 0 ? &modelScales_[static_cast<std::size_t>(p) * blocked * 3] : nullptr;
    lanes::ForCharacters(c0, c1, [&](auto lane, std::size_t c) {
      using F = decltype(lane);
      Q4<F> local = simd::LoadQ4<F>(locals, at + c);
      if (!lanes::Unit(&local)) return false;
      const V3<F> pp = p >= 0 ? simd::LoadV3<F>(position, from + c) : V3<F>{F(0.0f), F(0.0f), F(0.0f)};
      const V3<F> ps = p >= 0 ? lanes::LoadBlockV3<F>(parentScale, c) : V3<F>{F(1.0f), F(1.0f), F(1.0f)};
      const Q4<F> pq = p >= 0 ? lanes::LoadBlockQ4<F>(parentRotation, c) : lanes::Splat<F>(kIdentityRotation);
      Q4<F> q = lanes::Mul(pq, local);
      if (!lanes::Unit(&q)) return false;
      simd::StoreV3(position, at + c, pp + lanes::Rotate(pq, lanes::Mul(ps, simd::LoadV3<F>(translations_.data(), at + c))));
      lanes::StoreBlockQ4(rotation, c, q);
      lanes::StoreBlockV3(scale, c, lanes::Mul(ps, simd::LoadV3<F>(scales_.data(), at + c)));
      if (slot != Stale::kNoSlot) {
        Q4<F> framed = lanes::Mul(q, lanes::Splat<F>(constraint.frames[slot]));
        if (!lanes::Unit(&framed)) return false;  // (the group runs again item by item: the same values stored again)
        simd::StoreQ4(jobRotations_.data(), slot * n + c, framed);
      }
      return true;
    });
  }
}

// Stage 2a: the constraint's joints Kinematics did not compute in their canonical frames, and its target
// and pole (smoothed by Inputs) mapped into each character's model space (Rig::Gather, Rig::ToModel).
void RigBatch::Gather(std::size_t index, std::size_t c0, std::size_t c1) {
  const detail::Constraint& c = template_.constraints_[index];
  const std::size_t n = count_, blocked = lanes::Blocked(n);
  for (const std::uint32_t k : plans_[index].gather) {
    const float* model = &modelRotations_[static_cast<std::size_t>(c.joints[k]) * blocked * 4];
    lanes::ForCharacters(c0, c1, [&](auto lane, std::size_t ch) {
      using F = decltype(lane);
      Q4<F> q = lanes::Mul(lanes::LoadBlockQ4<F>(model, ch), lanes::Splat<F>(c.frames[k]));
      if (!lanes::Unit(&q)) return false;
      simd::StoreQ4(jobRotations_.data(), k * n + ch, q);
      return true;
    });
  }
  const bool pole = poleSet_[index] != 0;
  // The kind's pole direction (LaneOps::poleDirection). A plain flag and
  // vector, not a copied optional: GCC 12 (IKPD_NO_SIMD) took the optional's
  // payload as maybe uninitialized inside the lane loop.
  const auto poleDirection = plans_[index].lanes->poleDirection;
  glm::vec3 found(0.0f);
  const bool hasDirection = poleDirection != nullptr && poleDirection(c.settings, &found);
  const glm::vec3 direction = found;
  const std::size_t first = index * n;
  const float* targets = Targets(index);
  const float* poles = Poles(index);
  lanes::ForCharacters(c0, c1, [&](auto lane, std::size_t ch) {
    using F = decltype(lane);
    const Q4<F> inverse = simd::Conjugate(lanes::LoadBlockQ4<F>(rootUnits_.data(), ch));
    const V3<F> origin = simd::LoadV3<F>(rootPositions_.data(), ch);
    const F scale = simd::Load1<F>(rootScales_.data(), ch);
    const auto toModel = [&](const V3<F>& v) {
      const V3<F> r = lanes::Rotate(inverse, v);
      return V3<F>{r.x / scale, r.y / scale, r.z / scale};
    };
    simd::StoreV3(modelTargets_.data(), ch, toModel(simd::LoadV3<F>(targets, first + ch) - origin));
    if (pole) simd::StoreV3(modelPoles_.data(), ch, toModel(simd::LoadV3<F>(poles, first + ch) - origin));
    else if (hasDirection) simd::StoreV3(modelPoles_.data(), ch, toModel(simd::Splat3<F>(direction)));
    return true;
  });
}

// Stage 2b: the kind's batch job (its LaneOps: the aim, the limbs)
// with the template's prepared options, weight 1.
void RigBatch::Solve(std::size_t index, std::size_t c0, std::size_t c1) {
  const detail::Constraint& c = template_.constraints_[index];
  const std::size_t n = count_;
  const detail::LaneStage stage{n, c0, c1, poleSet_[index] != 0, modelPositions_.data(), jobRotations_.data(),
                                modelTargets_.data(), modelPoles_.data(), rootScales_.data(), solvedRotations_.data(),
                                solvedPositions_.data(), &reached_[index * n], &distance_[index * n]};
  plans_[index].lanes->solve(stage, c);
}

}  // namespace ikpd::rig
