// Rig: one frame (docs/rig/rig.md, update order). Check the inputs; copy in → out;
// keep the animated model transforms that still hold (Reuse);
// for each constraint: gather its joints' model transforms (lazily), solve,
// turn the solved model rotations into locals, weigh and smooth them, write
// them and mark the subtrees below stale.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "ikpd/rig/rig.h"
#include "kinds/registry.h"
#include "rig_math.h"

namespace ikpd::rig {

namespace {
// fresh_[j]: 0 stale, 1 computed this frame, kKeptFresh kept from the last frame (Reuse).
constexpr std::uint8_t kKeptFresh = 2;
bool Finite(const LocalTransform& t) {
  // Every component times 0 is 0 unless one is infinite or NaN: one test for
  // the ten (the pose check runs per joint every frame).
  const float zero = (t.translation.x + t.translation.y + t.translation.z + t.scale.x + t.scale.y + t.scale.z +
                      t.rotation.x + t.rotation.y + t.rotation.z + t.rotation.w) * 0.0f;
  if (zero == 0.0f) return glm::dot(t.rotation, t.rotation) > 1e-12f;
  return IsFinite(t.translation) && IsFinite(t.scale) && IsUsableRotation(t.rotation);
}
// Bit for bit (−0 and +0 differ), as five 64-bit words: no memcmp call (in
// WebAssembly a byte loop).
bool SameBits(const LocalTransform& a, const LocalTransform& b) {
  static_assert(sizeof(LocalTransform) == 5 * sizeof(std::uint64_t));
  std::uint64_t x[5], y[5];
  std::memcpy(x, &a, sizeof(x));
  std::memcpy(y, &b, sizeof(y));
  return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3]) | (x[4] ^ y[4])) == 0;
}
bool SameBits(const glm::quat& a, const glm::quat& b) {
  std::uint64_t x[2], y[2];
  std::memcpy(x, &a, sizeof(x));
  std::memcpy(y, &b, sizeof(y));
  return ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0;
}
const char* Bad(const LocalTransform& t) {
  if (!IsFinite(t.translation)) return "translation: must be finite";
  if (!IsUsableRotation(t.rotation)) return "rotation: must be finite and non-zero";
  return "scale: must be finite";
}
}  // namespace

void Rig::SetRoot(const LocalTransform& root) {
  root_.transform = root;
  root_.transform.rotation = Unit(root.rotation);
  root_.inverse = glm::conjugate(root_.transform.rotation);
  root_.scale = (std::abs(root.scale.x) + std::abs(root.scale.y) + std::abs(root.scale.z)) / 3.0f;
}

Status Rig::CheckFrame(float dt, std::span<const LocalTransform> in, const LocalTransform& root,
                       std::span<LocalTransform> out, std::span<std::uint8_t> changed) {
  const std::size_t n = skeleton_.size();
  if (n == 0) return Error("rig: not initialized (Init first)");
  if (!IsFinite(dt) || dt < 0.0f) return Error("dt: must be finite and >= 0");
  if (in.size() != n) return Error("in: needs one transform per joint");
  if (out.size() != n) return Error("out: needs one transform per joint");
  if (!changed.empty() && changed.size() != n) return Error("changed: needs one flag per joint (or none)");
  if (in.data() == out.data()) return Error("out: must not alias in");
  if (Status s = CheckPose(in, root); !s) return s;
  for (std::size_t i = 0; i < frames_.size(); ++i) {
    const ConstraintFrame& f = frames_[i];
    const char* bad = !IsFinite(f.target) ? "target" : !IsFinite(f.pole) ? "pole"
                      : !IsFinite(f.effectorOffset) ? "effectorOffset" : !IsFinite(f.poleSet) ? "poleSet" : nullptr;
    if (bad != nullptr) {
      std::snprintf(message_, sizeof(message_), "frames[%zu].%s: must be finite", i, bad);
      return Error(message_);
    }
  }
  for (std::size_t i = 0; i < grounds_.size(); ++i) {
    const GroundHit& g = grounds_[i];
    const bool hit = g.hit != 0.0f;
    const char* bad = !IsFinite(g.hit) ? "hit" : !IsFinite(g.plant) ? "plant" : hit && !IsFinite(g.point) ? "point"
                      : hit && !IsFinite(g.normal) ? "normal" : nullptr;
    if (bad != nullptr) {
      std::snprintf(message_, sizeof(message_), "grounds[%zu].%s: must be finite", i, bad);
      return Error(message_);
    }
    if (!(std::isfinite(g.edge) && g.edge <= 1.0f)) {
      std::snprintf(message_, sizeof(message_), "grounds[%zu].edge: must be finite and <= 1", i);
      return Error(message_);
    }
  }
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    const TargetPose& t = targets_[i];
    const char* bad = !IsFinite(t.position) ? "position: must be finite"
                      : !IsUsableRotation(t.rotation) ? "rotation: must be finite and non-zero"
                      : !(t.weight >= 0.0f && t.weight <= 1.0f) ? "weight: must be in [0, 1]" : nullptr;
    if (bad != nullptr) {
      std::snprintf(message_, sizeof(message_), "targets[%zu].%s", i, bad);
      return Error(message_);
    }
  }
  return Ok();
}

// The animated pose and root (Update and Probe).
Status Rig::CheckPose(std::span<const LocalTransform> in, const LocalTransform& root) {
  const std::size_t n = skeleton_.size();
  if (n == 0) return Error("rig: not initialized (Init first)");
  if (in.size() != n) return Error("in: needs one transform per joint");
  if (!Finite(root)) {
    std::snprintf(message_, sizeof(message_), "root.%s", Bad(root));
    return Error(message_);
  }
  if (!(std::abs(root.scale.x) > 0.0f && std::abs(root.scale.y) > 0.0f && std::abs(root.scale.z) > 0.0f)) {
    return Error("root.scale: must not be zero");
  }
  // The whole pose in one pass first (the common case, Finite's test summed
  // over every joint: a sum that overflows only sends it to the per-joint pass).
  float sum = 0.0f, smallest = std::numeric_limits<float>::infinity();
  for (const LocalTransform& t : in) {
    sum += t.translation.x + t.translation.y + t.translation.z + t.scale.x + t.scale.y + t.scale.z + t.rotation.x +
           t.rotation.y + t.rotation.z + t.rotation.w;
    smallest = std::min(smallest, glm::dot(t.rotation, t.rotation));
  }
  if (sum * 0.0f == 0.0f && smallest > 1e-12f) return Ok();
  for (std::size_t i = 0; i < n; ++i) {
    if (!Finite(in[i])) {
      std::snprintf(message_, sizeof(message_), "in[%zu].%s", i, Bad(in[i]));
      return Error(message_);
    }
  }
  return Ok();
}

Status Rig::Update(float dt, std::span<const LocalTransform> in, const LocalTransform& root,
                   std::span<LocalTransform> out, std::span<std::uint8_t> changed) {
  if (Status s = CheckFrame(dt, in, root, out, changed); !s) return s;
  SetRoot(root);
  std::copy(in.begin(), in.end(), out.begin());
  Reuse(in);
  for (std::size_t i = 0; i < constraints_.size(); ++i) Solve(i, dt, out);
  if (!changed.empty()) {
    // Bit for bit (a −0 written over a +0 counts: the caller copies it back).
    for (std::size_t j = 0; j < in.size(); ++j) changed[j] = SameBits(in[j], out[j]) ? 0 : 1;
  }
  return Ok();
}

// The frame starts with no model transform fresh but those of the animated
// pose kept from the last frame: a joint whose local and every ancestor's are
// bit for bit the last frame's has the same model transform (Model computes it
// from the locals alone), so a character whose animated pose holds still (no
// clip, or bones the clip leaves alone) gathers it once. Parents come before children.
void Rig::Reuse(std::span<const LocalTransform> in) {
  const std::size_t n = in.size();
  std::size_t first = 0;  // the first joint whose local changed (n: the pose holds still)
  while (first < n && SameBits(in[first], lastIn_[first])) ++first;
  std::fill(moved_.begin(), moved_.end(), std::uint8_t{0});
  for (std::size_t j = 0; j < n; ++j) {
    if (j >= first) {
      // moved_ here: where the chain from the top changed since the last frame.
      const int p = skeleton_.parent(j);
      if ((p >= 0 && moved_[static_cast<std::size_t>(p)] != 0) || !SameBits(in[j], lastIn_[j])) {
        moved_[j] = 1, kept_[j] = 0, lastIn_[j] = in[j];
      }
    }
    fresh_[j] = static_cast<std::uint8_t>(kept_[j] * kKeptFresh);  // kept_: 0 or 1
    if (kept_[j] != 0) model_[j] = animatedModel_[j];
  }
  if (first < n) std::fill(moved_.begin(), moved_.end(), std::uint8_t{0});
}

// The model transform of `joint` in the pose `out`: computed from the nearest
// fresh ancestor down (parents come before children).
IKPD_RIG_FLATTEN const Rig::ModelTransform& Rig::Model(std::size_t joint, std::span<const LocalTransform> out) {
  if (fresh_[joint]) return model_[joint];
  // The common step along a chain: the parent is fresh (a gather walks parents
  // first), so the joint's transform is the one product below, without the walk.
  const int parentOf = skeleton_.parent(joint);
  if (parentOf < 0 || fresh_[static_cast<std::size_t>(parentOf)]) {
    Compose(joint, parentOf, out);
    return model_[joint];
  }
  std::size_t count = 0;
  for (int j = static_cast<int>(joint); j >= 0 && !fresh_[static_cast<std::size_t>(j)]; j = skeleton_.parent(static_cast<std::size_t>(j))) {
    walk_[count++] = j;
  }
  while (count > 0) {
    const std::size_t m = static_cast<std::size_t>(walk_[--count]);
    Compose(m, skeleton_.parent(m), out);
  }
  return model_[joint];
}

// Joint m's model transform from its parent's (fresh; p < 0: the model origin) and its local.
IKPD_RIG_FLATTEN void Rig::Compose(std::size_t m, int p, std::span<const LocalTransform> out) {
  static const ModelTransform kOrigin{};
  const ModelTransform& parent = p >= 0 ? model_[static_cast<std::size_t>(p)] : kOrigin;
  const LocalTransform& l = out[m];
  model_[m] = {parent.position + parent.rotation * (parent.scale * l.translation),
               Unit(parent.rotation * Unit(l.rotation)), parent.scale * l.scale};
  fresh_[m] = 1;
  if (moved_[m] == 0) animatedModel_[m] = model_[m], kept_[m] = 1;  // the animated pose's: kept (Reuse)
}

// `joint`'s local changed: its subtree is stale (a range in depth-first
// skeletons; otherwise every joint whose parent is stale, in one forward pass).
void Rig::Written(std::size_t joint) {
  // Already stale and moved (a written ancestor, or an earlier write of the
  // joint): so is its subtree, since a fresh joint's parent is fresh and a moved
  // joint's children are moved. A chain written root first marks it once.
  if (fresh_[joint] == 0 && moved_[joint] != 0) return;
  if (skeleton_.depthFirst()) {
    const auto first = static_cast<std::ptrdiff_t>(joint), end = static_cast<std::ptrdiff_t>(skeleton_.subtreeEnd(joint));
    std::fill(fresh_.begin() + first, fresh_.begin() + end, std::uint8_t{0});
    std::fill(moved_.begin() + first, moved_.begin() + end, std::uint8_t{1});
    return;
  }
  fresh_[joint] = 0;
  moved_[joint] = 1;
  for (std::size_t k = joint + 1; k < fresh_.size(); ++k) {
    const int p = skeleton_.parent(k);
    if (p >= 0 && !fresh_[static_cast<std::size_t>(p)]) fresh_[k] = 0;
    if (p >= 0 && moved_[static_cast<std::size_t>(p)]) moved_[k] = 1;
  }
}

// Stage 1: the constraint's joints in model space, in their canonical frames.
// A joint's canonical frame is a function of its model rotation alone (F_j is
// fixed once configured): a model transform kept from the last frame (Reuse)
// whose rotation is bit for bit the one this slot last took its frame from
// takes that frame again. Transforms composed this frame (a moving pose, below
// a write) take it as before, without the bookkeeping.
IKPD_RIG_FLATTEN void Rig::Gather(Constraint& c, std::span<const LocalTransform> out) {
  for (std::size_t k = 0; k < c.joints.size(); ++k) {
    const std::size_t j = static_cast<std::size_t>(c.joints[k]);
    const int p = skeleton_.parent(j);
    if (p >= 0) Model(static_cast<std::size_t>(p), out);  // WriteRotations reads the parents too
    if (fresh_[j] == kKeptFresh) [[unlikely]] {
      const ModelTransform& m = model_[j];
      if (c.canonicalSet[k] == 0 || !SameBits(m.rotation, c.canonicalFrom[k])) {
        c.canonicalFrom[k] = m.rotation, c.canonical[k] = Unit(m.rotation * c.frames[k]), c.canonicalSet[k] = 1;
      }
      jobIn_[k] = {m.position, c.canonical[k]};
      continue;
    }
    const ModelTransform& m = Model(j, out);
    jobIn_[k] = {m.position, Unit(m.rotation * c.frames[k])};
  }
}

// Stage 2: the kind's solve (kinds/kind.h) on the gathered joints; then the write.
void Rig::Solve(std::size_t index, float dt, std::span<LocalTransform> out) {
  Constraint& c = constraints_[index];
  ConstraintResult& r = results_[index];
  r = {};
  const detail::KindOps& kind = detail::Kind(c);
  const detail::Stage stage{&skeleton_, model_.data(), jobIn_.data(), jobOut_.data(), desired_.data(), grounds_.data(),
                            targets_.data() + c.targetFirst, root_, facing_, up_};
  if (kind.solvePose != nullptr) {  // the kind gathers and writes its joints itself (kinds/kind.h)
    const detail::PoseAccess pose{
        out, this,
        [](void* rig, std::size_t j, std::span<const LocalTransform> o) -> const detail::ModelTransform& {
          return static_cast<Rig*>(rig)->Model(j, o);
        },
        [](void* rig, std::size_t j) { static_cast<Rig*>(rig)->Written(j); }};
    r.active = kind.solvePose(stage, pose, c, dt, frames_[index], r) ? 1.0f : 0.0f;
    return;
  }
  Gather(c, out);
  const detail::Outcome outcome = kind.solve(stage, c, dt, frames_[index], r);
  if (outcome.write) {
    const std::uint32_t translations = outcome.translations | (kind.movesPelvis ? 1u : 0u);
    r.active = WriteRotations(c, outcome.weight, translations, out) ? 1.0f : 0.0f;
  }
}

// Stages 3–4: desired model rotations → full-weight locals, then weighted (the
// limbs' effective weight) into `out`; the slots in `translations` (bits,
// kinds/kind.h Outcome) take jobOut's positions as their translations too
// (body look-at and grounding: the pelvis; the avatar: the pelvis and a
// stretched arm). Returns whether any local changed. Each joint's local is
// taken under its parent's rotation as solved: the nearest written ancestor's
// desired rotation where that is the parent, else the parent's model rotation
// turned by that ancestor's change, none normalized (the local's own
// normalization absorbs their norms; desired_ may be unnormalized,
// KindOps::directWrites). At full weight the pose's local is not normalized:
// a local equal to it is not written again (RigBatch::Locals alike;
// docs/performance.md, "three.js path", the write-back).
IKPD_RIG_FLATTEN bool Rig::WriteRotations(Constraint& c, float weight, std::uint32_t translations, std::span<LocalTransform> out) {
  bool active = false;
  glm::quat* const desired = desired_.data();
  const ModelTransform* const model = model_.data();
  // The slots the kind keeps (KindOps::keptRotations) take their gathered model rotation as solved.
  for (std::uint32_t bits = c.keptRotations; bits != 0; bits &= bits - 1) {
    const std::size_t k = static_cast<std::size_t>(std::countr_zero(bits));
    desired[k] = model[static_cast<std::size_t>(c.joints[k])].rotation;
  }
  // Each local from the model transforms of the unchanged pose (model_ is read
  // directly: a write only marks joints stale, their model transforms stay
  // until a gather recomputes them), written at once, its subtree marked stale.
  const Constraint::WriteStep* const steps = c.writeSteps.data();
  const std::size_t count = c.writeSteps.size();
  for (std::size_t w = 0; w < count; ++w) {
    const Constraint::WriteStep step = steps[w];
    glm::quat parent = step.parent >= 0 ? model[step.parent].rotation : kIdentityRotation;
    if (step.ancestorSlot >= 0) {  // under its nearest written ancestor's solved rotation
      const glm::quat& solved = desired[step.ancestorSlot];
      parent = step.ancestorJoint == step.parent ? solved : solved * glm::conjugate(model[step.ancestorJoint].rotation) * parent;
    }
    const glm::quat local = Unit(glm::conjugate(parent) * desired[step.slot]);
    glm::quat& pose = out[static_cast<std::size_t>(step.joint)].rotation;
    if (weight >= 1.0f) {
      if (local == pose) continue;
      pose = local;
    } else {
      // Limbs: slerp by this frame's effective weight (exactly current at 0).
      const glm::quat current = Unit(pose);
      const glm::quat final = Weighted(weight, current, local);
      if (final == current) continue;
      pose = final;
    }
    Written(static_cast<std::size_t>(step.joint));
    active = true;
  }
  // The translations, in slot order (a slot's parent first): each solved model
  // position in its parent's frame as written so far (Model recomposes a parent
  // the rotations above changed).
  for (std::uint32_t bits = translations; bits != 0; bits &= bits - 1) {
    const std::size_t k = static_cast<std::size_t>(std::countr_zero(bits));
    const std::size_t j = static_cast<std::size_t>(c.joints[k]);
    const int p = skeleton_.parent(j);
    const glm::vec3 moved = jobOut_[k].position;  // e.g. the animated pelvis plus the weight shift (or ground offset)
    glm::vec3 local = moved;
    if (p >= 0) {
      const ModelTransform& parent = Model(static_cast<std::size_t>(p), out);
      local = (glm::conjugate(parent.rotation) * (moved - parent.position)) / parent.scale;
    }
    // A pose whose model transforms overflow float (locals near 1e38 composed) gives no
    // usable position: the translation stays as animated, as a failed job's joints do.
    if (IsFinite(local) && local != out[j].translation) {
      out[j].translation = local;
      Written(j);
      active = true;
    }
  }
  return active;
}

// Where each grounding leg's ground query goes, on the animated pose (kinds/kind.h, probe).
Status Rig::Probe(std::span<const LocalTransform> in, const LocalTransform& root) {
  if (Status s = CheckPose(in, root); !s) return s;
  SetRoot(root);
  std::fill(fresh_.begin(), fresh_.end(), std::uint8_t{0});
  std::fill(moved_.begin(), moved_.end(), std::uint8_t{1});  // not the last Update's pose: nothing kept
  const detail::Stage stage{&skeleton_, model_.data(), jobIn_.data(), jobOut_.data(), desired_.data(), grounds_.data(),
                            targets_.data(), root_, facing_, up_};
  // Checked first (a pose whose transforms overflow float has no usable probe), then written.
  for (int write = 0; write < 2; ++write) {
    for (const Constraint& c : constraints_) {
      const detail::KindOps& kind = detail::Kind(c);
      const std::size_t legs = kind.groundLegs(c);
      if (legs == 0) continue;
      for (int j : c.joints) Model(static_cast<std::size_t>(j), in);  // stage.model: what the probes read
      for (std::size_t i = 0; i < legs; ++i) {
        const GroundProbe p = kind.probe(stage, c, i);
        if (write != 0) {
          probes_[c.groundFirst + i] = p;
        } else if (!IsFinite(p.sole) || !IsFinite(p.hip)) {
          return Error("in: the pose is out of range (a probe is not finite)");
        }
      }
    }
  }
  std::fill(fresh_.begin(), fresh_.end(), std::uint8_t{0});
  return Ok();
}

}  // namespace ikpd::rig
