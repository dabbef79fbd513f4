// RigBatch: constraints whose kind keeps per-character state (springs;
// docs/rig/rig-batch.md, "Kinds with state"), solved one character at a time
// by the kind's own solve on that character's state, with the Rig's formulas
// for the gather and the write (rig_update.cc: Rig::Gather, Rig::WriteRotations),
// so each character moves as its own Rig bit for bit. Also ClearSmoothing.
#include <algorithm>

#include "ikpd/batch/common.h"
#include "ikpd/rig/rig_batch.h"
#include "kinds/registry.h"
#include "rig_batch_lanes.h"
#include "rig_math.h"

namespace ikpd::rig {

namespace {
glm::quat QuatAt(const float* q) { return glm::quat(q[3], q[0], q[1], q[2]); }
void StoreAt(float* q, const glm::quat& v) { q[0] = v.x, q[1] = v.y, q[2] = v.z, q[3] = v.w; }
}  // namespace

// Kinematics left the model transforms of the constraint's joints and their
// parents fresh (as Rig::Gather's Model calls); per character: its joints in
// their canonical frames, its root (Rig::SetRoot), the kind's solve on its
// state, then the writes (Rig::WriteRotations) into output_.
void RigBatch::SolveCharacters(std::size_t index, float dt, std::size_t c0, std::size_t c1) {
  const detail::Constraint& con = template_.constraints_[index];
  const detail::KindOps& kind = detail::Kind(con);
  const std::size_t n = count_, blocked = lanes::Blocked(n), slots = con.joints.size();
  const auto modelRotation = [&](std::size_t joint, std::size_t c) {
    float v[4];
    lanes::LoadBlock<4>(&modelRotations_[joint * blocked * 4], c, v);
    return glm::quat(v[3], v[0], v[1], v[2]);
  };
  for (std::size_t c = c0; c < c1; ++c) {
    Transform* in = &characterIn_[c * stateJoints_];
    glm::quat* desired = &characterDesired_[c * stateJoints_];
    for (std::size_t k = 0; k < slots; ++k) {
      const std::size_t j = static_cast<std::size_t>(con.joints[k]);
      in[k] = {batch::LoadVec3(modelPositions_.data(), j * n + c), Unit(modelRotation(j, c) * con.frames[k])};
    }
    detail::RootFrame root;
    const float scale = rootScales_[c];
    root.transform = {batch::LoadVec3(rootPositions_.data(), c), Unit(QuatAt(&rootRotations_[c * 4])), glm::vec3(scale)};
    root.inverse = glm::conjugate(root.transform.rotation);
    root.scale = (scale + scale + scale) / 3.0f;
    CommonSettings common = con.settings.common;
    common.weight = common.weight * weights_[index * n + c];
    const detail::Stage stage{&template_.skeleton_, nullptr, in, nullptr, desired, nullptr, nullptr, root, template_.facing_, template_.up_};
    ConstraintResult r;
    const detail::Outcome outcome = kind.solveCharacter(stage, con, common, states_[plans_[index].states + c], dt, r);
    reached_[index * n + c] = r.reached;
    distance_[index * n + c] = r.distance;
    // The writes (Rig::WriteRotations): from the model transforms of the unchanged pose.
    for (std::size_t w = 0; w < con.writes.size(); ++w) {
      const std::size_t k = con.writes[w];
      const std::size_t j = static_cast<std::size_t>(con.joints[k]);
      const float* raw = &Pose(index, static_cast<std::uint32_t>(j))[(j * n + c) * 4];
      float* out = &output_[(j * n + c) * 4];
      if (!outcome.write) {
        std::copy(raw, raw + 4, out);  // out = in at a first write
        continue;
      }
      const int p = template_.skeleton_.parent(j);
      glm::quat parent = p >= 0 ? modelRotation(static_cast<std::size_t>(p), c) : kIdentityRotation;
      if (const int x = con.writeAncestors[w]; x >= 0) {  // under its nearest written ancestor's solved rotation
        const std::size_t s = con.writes[static_cast<std::size_t>(x)];
        parent = desired[s] * glm::conjugate(modelRotation(static_cast<std::size_t>(con.joints[s]), c)) * parent;
      }
      const glm::quat current = Unit(QuatAt(raw));
      const glm::quat solved = Unit(glm::conjugate(Unit(parent)) * desired[k]);
      const glm::quat final = outcome.weight < 1.0f ? Weighted(outcome.weight, current, solved) : solved;
      if (final == current) std::copy(raw, raw + 4, out);
      else StoreAt(out, final);
    }
  }
}

Status RigBatch::ClearSmoothing() { return ClearSmoothing(0, count_); }

Status RigBatch::ClearSmoothing(std::size_t first, std::size_t count) {
  if (count_ == 0) return Error("rig: not initialized (Init first)");
  if (first > count_ || count > count_ - first) return Error("range: [first, first + count) must lie in [0, count())");
  const std::size_t n = count_;
  for (std::size_t i = 0; i < constraintCount(); ++i) {
    const detail::KindOps& kind = detail::Kind(template_.constraints_[i]);
    if (plans_[i].states != kNoStates) {
      for (std::size_t c = first; c < first + count; ++c) kind.clearCharacter(states_[plans_[i].states + c]);
      continue;
    }
    // The lanes' smoothing as ResetSmoothing, for the range (Rig: weight 0, nothing held).
    std::fill_n(&weightValues_[i * n + first], count, 0.0f);
    std::fill_n(&weightVelocities_[i * n + first], count, 0.0f);
    std::fill_n(&phase_[i * n + first], count, static_cast<std::uint8_t>(pd::BlendPhase::kNone));
    std::fill_n(&held_[i * n + first], count, std::uint8_t{0});
  }
  return Ok();
}

}  // namespace ikpd::rig
