// The body look-at kind (body_look_at.h): its arms and legs checked, the
// BodyLookAt job configured from the constraint's settings, the solve.
#include "body_look_at.h"

#include <algorithm>

#include "look.h"
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

void Defaults(ConstraintSettings& s) { s.common.blendOutTime = s.bodyLookAt.blendOutTime; }

// Each limb list 0, 3 or 6 joints, each limb a chain.
Status CheckLimbs(const Setup& setup, const ConstraintSettings& s) {
  for (const auto* limb : {&s.arms, &s.legs}) {
    const char* field = limb == &s.arms ? "arms" : "legs";
    if (limb->size() != 0 && limb->size() != 3 && limb->size() != 6) {
      return FailText(setup, "%s: needs 0, 3 or 6 joints (3 per limb)", field);
    }
    for (std::size_t k = 0; k < limb->size(); k += 3) {
      if (Status st = CheckChain(setup, std::span<const int>(*limb).subspan(k, 3), field, k); !st) return st;
    }
  }
  return Ok();
}

Status CheckOptions(const Setup&, const ConstraintSettings& s) {
  BodyLookAtSettings bs = s.bodyLookAt;
  bs.spineJoints = s.joints.size();
  bs.spine.weights = s.spineWeights;
  bs.spine.limits = s.spineLimits;
  bs.spine.settleTimes = s.spineSettleTimes;
  bs.blendOutTime = s.common.blendOutTime;
  return bs.Validate();
}

void DetectAxes(const Setup& setup, Constraint& c) { DetectLookAxes(setup, c.settings, std::get<BodyLookAtState>(c.state).axes); }

// The spine, each arm's upper arm, every leg joint.
void Writes(const ConstraintSettings& s, std::vector<std::uint16_t>& out) {
  const std::size_t n = s.joints.size();
  WritesAll(s, out);
  for (std::size_t k = 0; k < s.arms.size(); k += 3) out.push_back(static_cast<std::uint16_t>(n + k));
  for (std::size_t k = 0; k < s.legs.size(); ++k) out.push_back(static_cast<std::uint16_t>(n + s.arms.size() + k));
}

Status Configure(const Setup& setup, Constraint& c, bool keepState) {
  BodyLookAtState& b = std::get<BodyLookAtState>(c.state);
  const ConstraintSettings& s = c.settings;
  const std::size_t n = s.joints.size();
  const float weight = s.common.weight;
  BodyLookAtSettings bs = s.bodyLookAt;
  bs.spineJoints = n;
  bs.forward = b.axes.look;
  bs.up = setup.up;
  std::vector<float> weights(n);
  if (s.spineWeights.empty()) DefaultBodyLookAtWeights(weights);
  else std::copy(s.spineWeights.begin(), s.spineWeights.end(), weights.begin());
  for (float& w : weights) w *= weight;
  bs.spine.weights = weights;
  bs.spine.limits = s.spineLimits;
  bs.spine.settleTimes = s.spineSettleTimes;
  bs.weightShift.amount *= weight;
  bs.blendOutTime = s.common.blendOutTime;
  return keepState ? b.job.Configure(bs) : b.job.Reset(bs);
}

void Clear(Constraint& c) { std::get<BodyLookAtState>(c.state).job.Clear(); }

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& f, ConstraintResult& r) {
  BodyLookAtState& b = *std::get_if<BodyLookAtState>(&c.state);
  const ConstraintSettings& s = c.settings;
  const std::size_t n = s.joints.size(), arms = s.arms.size(), legs = s.legs.size();
  const std::size_t e = s.eyes.size(), firstEye = c.joints.size() - e;  // the eyes come last
  const glm::vec3 target = stage.ToModel(f.target);
  BodyLookAtInput input;
  input.spine = std::span<const Transform>(stage.jobIn, n);
  input.arms = std::span<const Transform>(stage.jobIn + n, arms);
  input.legs = std::span<const Transform>(stage.jobIn + n + arms, legs);
  input.target = target;
  input.enabled = s.common.enabled;
  input.eyes = std::span<const Transform>(stage.jobIn + firstEye, e);
  const BodyLookAtOutput output{std::span<Transform>(stage.jobOut, n), std::span<Transform>(stage.jobOut + n, arms),
                                std::span<Transform>(stage.jobOut + n + arms, legs), std::span<Transform>(stage.jobOut + firstEye, e)};
  const Status status = b.job.Update(dt, input, output);
  LookResult(stage, c, static_cast<bool>(status), b.axes.look, target, r);
  return {b.job.active(), 1.0f};  // inactive: exactly the animated pose, nothing to write
}

}  // namespace

const KindOps kBodyLookAtKind = {
    ConstraintKind::kBodyLookAt, "bodyLookAt", 2, 64, /*eyes=*/true, /*positiveSettleTime=*/false, /*batch=*/false,
    /*movesPelvis=*/true, Defaults, CheckLimbs, CheckOptions, DetectAxes, Writes, Configure, Clear, Solve, NoGroundLegs, NoProbe,
};

}  // namespace ikpd::rig::detail
