// Rig: construction and settings (docs/rig/rig.md). The settings' checks are
// in rig_check.cc, the per-frame stages in rig_update.cc; each kind's own part
// is in kinds/ (its entry in kinds/registry.cc).
#include "ikpd/rig/rig.h"

#include <algorithm>
#include <cstdio>

#include "allocating.h"
#include "kinds/registry.h"
#include "rig_check.h"

namespace ikpd::rig {

using detail::kNoItem;
using detail::Usable;

namespace {
// Heap bounds of the probes of builds without exceptions (allocating.h): per
// skeleton joint (rest, model, the kept animated model, scratch: about 200 bytes), per joint a
// constraint reads (its settings' lists, frames, smoothing, look-at and
// grounding state: a few hundred bytes), and per constraint besides.
constexpr std::size_t kBytesPerRigJoint = 512;
constexpr std::size_t kBytesPerConstraintJoint = 2048;
constexpr std::size_t kBytesPerConstraint = 16384;
}  // namespace

ConstraintSettings DefaultSettings(ConstraintKind kind) {
  ConstraintSettings s;
  s.kind = kind;
  if (const detail::KindOps* k = detail::FindKind(kind)) k->defaults(s);
  return s;
}

Rig::Rig() = default;
Rig::~Rig() = default;
Rig::Rig(const Rig&) = default;
Rig& Rig::operator=(const Rig&) = default;
Rig::Rig(Rig&&) noexcept = default;
Rig& Rig::operator=(Rig&&) noexcept = default;

const ConstraintSettings& Rig::settings(std::size_t index) const { return constraints_[index].settings; }
std::size_t Rig::groundIndex(std::size_t index) const { return constraints_[index].groundFirst; }
std::size_t Rig::targetIndex(std::size_t index) const { return constraints_[index].targetFirst; }
std::size_t Rig::groundLegs(std::size_t index) const {
  const Constraint& c = constraints_[index];
  return detail::Kind(c).groundLegs(c);
}
const GroundingSettings& Rig::groundingSettings(std::size_t index) const {
  static const GroundingSettings kDefaults{};
  const Constraint& c = constraints_[index];
  const auto inForce = detail::Kind(c).groundingSettings;
  return inForce != nullptr ? *inForce(c) : kDefaults;
}
std::span<const glm::quat> Rig::canonicalFrames(std::size_t index) const { return constraints_[index].frames; }
glm::vec3 Rig::lookAxis(std::size_t index) const { return detail::LookAxis(constraints_[index]); }
std::span<const glm::vec3> Rig::eyeAxes(std::size_t index) const { return detail::EyeAxes(constraints_[index]); }

void Rig::ClearSmoothing() {
  for (Constraint& c : constraints_) detail::Kind(c).clearSmoothing(c);
}

Status Rig::Fail(std::size_t index, const char* field, std::size_t item, const char* message) {
  if (field == nullptr) {
    std::snprintf(message_, sizeof(message_), "constraints[%zu].%s", index, message);
  } else if (item == kNoItem) {
    std::snprintf(message_, sizeof(message_), "constraints[%zu].%s: %s", index, field, message);
  } else {
    std::snprintf(message_, sizeof(message_), "constraints[%zu].%s[%zu]: %s", index, field, item, message);
  }
  return Error(message_);
}

Status Rig::Init(const Skeleton& skeleton, std::span<const LocalTransform> rest) {
  const std::size_t n = skeleton.size();
  if (n == 0) return Error("skeleton: has no joints (Skeleton::Init first)");
  if (!rest.empty() && rest.size() != n) return Error("rest: needs one transform per joint");
  Rig next;
  Status result;
  const Status allocated = Allocating(n * kBytesPerRigJoint + kBytesPerConstraint, "memory: out of memory", [&] {
    next.skeleton_ = skeleton;
    next.facing_ = facing_;
    next.up_ = up_;
    next.rest_.assign(n, LocalTransform{});
    next.model_.resize(n);
    next.fresh_.assign(n, 0);
    next.lastIn_.resize(n);
    next.animatedModel_.resize(n);
    next.kept_.assign(n, 0);
    next.moved_.assign(n, 1);
    next.walk_.resize(n);
    if (Status s = next.SetRest(rest.empty() ? std::span<const LocalTransform>(next.rest_) : rest); !s) {
      std::snprintf(message_, sizeof(message_), "%s", s.error);
      result = Error(message_);
    }
  });
  if (!allocated) return allocated;
  if (!result) return result;
  *this = std::move(next);
  return Ok();
}

std::size_t Rig::HeapBound() const {
  std::size_t joints = 0;
  for (const Constraint& c : constraints_) joints += c.joints.size();
  return skeleton_.size() * kBytesPerRigJoint + constraints_.size() * (sizeof(Constraint) + kBytesPerConstraint) +
         joints * kBytesPerConstraintJoint + grounds_.size() * (sizeof(GroundHit) + sizeof(GroundProbe)) +
         targets_.size() * sizeof(TargetPose);
}

Status Rig::SetRest(std::span<const LocalTransform> rest) {
  const std::size_t n = skeleton_.size();
  if (n == 0) return Error("rig: not initialized (Init first)");
  if (rest.size() != n) return Error("rest: needs one transform per joint");
  for (std::size_t i = 0; i < n; ++i) {
    const char* bad = !IsFinite(rest[i].translation) ? "translation: must be finite"
                      : !IsUsableRotation(rest[i].rotation) ? "rotation: must be finite and non-zero"
                      : !IsFinite(rest[i].scale) ? "scale: must be finite" : nullptr;
    if (bad != nullptr) {
      std::snprintf(message_, sizeof(message_), "rest[%zu].%s", i, bad);
      return Error(message_);
    }
  }
  std::vector<ModelTransform> model(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int p = skeleton_.parent(i);
    const ModelTransform parent = p >= 0 ? model[static_cast<std::size_t>(p)] : ModelTransform{};
    const LocalTransform& l = rest[i];
    model[i] = {parent.position + parent.rotation * (parent.scale * l.translation),
                NormalizeOr(parent.rotation * NormalizeOr(l.rotation, kIdentityRotation), kIdentityRotation),
                parent.scale * l.scale};
  }
  std::vector<LocalTransform> saved(rest.begin(), rest.end());
  std::swap(rest_, saved);
  std::swap(restModel_, model);
  std::vector<Constraint> constraints = constraints_;
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    if (Status s = Configure(constraints[i], constraints[i].settings, true); !s) {
      std::swap(rest_, saved);
      std::swap(restModel_, model);
      return s;
    }
  }
  constraints_ = std::move(constraints);
  return Ok();
}

Status Rig::SetFacing(const glm::vec3& facing) {
  if (!IsFinite(facing) || facing == glm::vec3(0.0f)) return Error("facing: must be a finite non-zero vector");
  const glm::vec3 saved = facing_;
  facing_ = NormalizeOr(facing, facing_);
  if (skeleton_.size() == 0) return Ok();
  if (Status s = SetRest(std::vector<LocalTransform>(rest_)); !s) {
    facing_ = saved;
    return s;
  }
  return Ok();
}

Status Rig::SetUp(const glm::vec3& up) {
  if (!IsFinite(up) || up == glm::vec3(0.0f)) return Error("up: must be a finite non-zero vector");
  const glm::vec3 saved = up_;
  up_ = NormalizeOr(up, up_);
  if (skeleton_.size() == 0) return Ok();
  if (Status s = SetRest(std::vector<LocalTransform>(rest_)); !s) {
    up_ = saved;
    return s;
  }
  return Ok();
}

// The generic part; the kind's own through its table entry (kinds/kind.h).
Status Rig::Configure(Constraint& c, const ConstraintSettings& s, bool keepState) {
  const detail::KindOps& kind = *detail::FindKind(s.kind);  // checked by Check
  const detail::Setup setup{skeleton_, restModel_.data(), facing_, up_, kindMessage_, sizeof(kindMessage_)};
  c.settings = s;
  detail::EnsureState(c, s.kind);
  c.joints.assign(s.joints.begin(), s.joints.end());
  c.joints.insert(c.joints.end(), s.arms.begin(), s.arms.end());
  c.joints.insert(c.joints.end(), s.legs.begin(), s.legs.end());
  c.joints.insert(c.joints.end(), s.eyes.begin(), s.eyes.end());
  c.frames.assign(c.joints.size(), kIdentityRotation);
  c.canonicalFrom.assign(c.joints.size(), kIdentityRotation);
  c.canonical.assign(c.joints.size(), kIdentityRotation);
  c.canonicalSet.assign(c.joints.size(), 0);  // (frames change here)
  kind.detectAxes(setup, c);
  c.writes.clear();
  kind.writes(s, c.writes);
  // The eyes come last in c.joints (look-ats only): the gaze writes them.
  for (std::size_t k = c.joints.size() - s.eyes.size(); k < c.joints.size(); ++k) c.writes.push_back(static_cast<std::uint16_t>(k));
  // Each write's nearest written ancestor: its local is taken under that
  // ancestor's solved rotation (WriteRotations, RigBatch's locals).
  c.writeAncestors.assign(c.writes.size(), -1);
  for (std::size_t w = 0; w < c.writes.size(); ++w) {
    for (int a = skeleton_.parent(static_cast<std::size_t>(c.joints[c.writes[w]])); a >= 0 && c.writeAncestors[w] < 0;
         a = skeleton_.parent(static_cast<std::size_t>(a))) {
      for (std::size_t x = 0; x < c.writes.size(); ++x) {
        if (c.joints[c.writes[x]] == a) c.writeAncestors[w] = static_cast<int>(x);
      }
    }
  }
  c.writeSteps.assign(c.writes.size(), {});
  for (std::size_t w = 0; w < c.writes.size(); ++w) {
    Constraint::WriteStep& step = c.writeSteps[w];
    step.slot = c.writes[w];
    step.joint = c.joints[step.slot];
    step.parent = skeleton_.parent(static_cast<std::size_t>(step.joint));
    if (c.writeAncestors[w] >= 0) {
      step.ancestorSlot = c.writes[static_cast<std::size_t>(c.writeAncestors[w])];
      step.ancestorJoint = c.joints[static_cast<std::size_t>(step.ancestorSlot)];
    }
  }
  c.keptRotations = kind.keptRotations != nullptr ? kind.keptRotations(s) : 0u;
  return kind.configure(setup, c, keepState);
}

Status Rig::Add(const ConstraintSettings& settings) {
  const std::size_t index = constraints_.size();
  if (skeleton_.size() == 0) return Error("rig: not initialized (Init first)");
  if (index >= kMaxConstraints) return Error("constraints: at most 256 constraints");
  if (Status s = Check(settings, index, nullptr); !s) return s;
  // Every allocation first (Configure, then each vector's growth), each into
  // storage of its own, so a failure leaves the rig as it was; then moves.
  const std::size_t joints = settings.joints.size() + settings.arms.size() + settings.legs.size() + settings.eyes.size();
  const std::size_t grown = std::max(2 * constraints_.size(), std::size_t{4});
  const std::size_t bytes = grown * (sizeof(Constraint) + sizeof(ConstraintFrame) + sizeof(ConstraintResult)) +
                            kBytesPerConstraint + joints * kBytesPerConstraintJoint +
                            2 * (grounds_.size() + settings.legs.size()) * (sizeof(GroundHit) + sizeof(GroundProbe)) +
                            2 * (targets_.size() + detail::FindKind(settings.kind)->targets) * sizeof(TargetPose) +
                            joints * (2 * sizeof(Transform) + sizeof(glm::quat));
  Constraint c;
  Status configured;
  std::vector<Constraint> constraints;
  std::vector<ConstraintFrame> frames;
  std::vector<ConstraintResult> results;
  std::vector<GroundHit> grounds;
  std::vector<GroundProbe> probes;
  std::vector<TargetPose> targets;
  std::vector<Transform> jobIn, jobOut;
  std::vector<glm::quat> desired;
  const Status allocated = Allocating(bytes, "memory: out of memory", [&] {
    configured = Configure(c, settings, false);
    if (!configured) return;
    const std::size_t legs = detail::Kind(c).groundLegs(c);
    if (constraints_.size() == constraints_.capacity()) {
      constraints.reserve(grown);  // then the old ones move over, in the second part
    }
    frames.reserve(index + 1), results.reserve(index + 1);
    grounds.reserve(grounds_.size() + legs), probes.reserve(grounds_.size() + legs);
    targets.reserve(targets_.size() + detail::Kind(c).targets);
    const std::size_t scratch = std::max(jobIn_.size(), c.joints.size());
    jobIn.reserve(scratch), jobOut.reserve(scratch), desired.reserve(scratch);
  });
  if (!allocated) return allocated;
  if (!configured) return Fail(index, nullptr, kNoItem, configured.error);
  // Nothing below allocates: every vector below has its capacity.
  const std::size_t used = c.joints.size();
  c.groundFirst = grounds_.size();
  c.targetFirst = targets_.size();
  if (constraints.capacity() > 0) {
    for (Constraint& old : constraints_) constraints.push_back(std::move(old));
    constraints_.swap(constraints);
  }
  constraints_.push_back(std::move(c));
  const auto append = [](auto& next, auto& current, std::size_t size) {
    next.assign(current.begin(), current.end());
    next.resize(size);
    current.swap(next);
  };
  append(frames, frames_, index + 1);
  append(results, results_, index + 1);
  const std::size_t legs = detail::Kind(constraints_.back()).groundLegs(constraints_.back());
  append(grounds, grounds_, grounds_.size() + legs);
  append(probes, probes_, grounds_.size());
  append(targets, targets_, targets_.size() + detail::Kind(constraints_.back()).targets);
  if (jobIn_.size() < used) {
    append(jobIn, jobIn_, used);
    append(jobOut, jobOut_, used);
    append(desired, desired_, used);
  }
  return Ok();
}

Status Rig::SetSettings(std::size_t index, const ConstraintSettings& settings) {
  if (index >= constraints_.size()) return Error("index: no constraint with that index");
  Constraint& current = constraints_[index];
  if (settings.kind != current.settings.kind) return Fail(index, "kind", kNoItem, "cannot change (add a new constraint)");
  if (Status s = Check(settings, index, nullptr); !s) return s;
  const bool sameJoints = settings.joints == current.settings.joints && settings.arms == current.settings.arms &&
                          settings.legs == current.settings.legs && settings.eyes == current.settings.eyes;
  Constraint next = current;
  if (Status s = Configure(next, settings, sameJoints); !s) return Fail(index, nullptr, kNoItem, s.error);
  if (detail::Kind(next).groundLegs(next) != detail::Kind(current).groundLegs(current)) {
    return Fail(index, "legs", kNoItem, "cannot change the number of legs (add a new constraint)");
  }
  const std::size_t joints = next.joints.size();
  if (jobIn_.size() < joints) {
    jobIn_.resize(joints);
    jobOut_.resize(joints);
    desired_.resize(joints);
  }
  current = std::move(next);
  return Ok();
}

}  // namespace ikpd::rig
