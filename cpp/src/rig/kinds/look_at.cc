// The look-at kind (look_at.h): its weights, limits and per-joint settle times
// checked, the LookAt job configured from the constraint's settings, the solve.
#include "look_at.h"

#include "look.h"
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

void Defaults(ConstraintSettings& s) { SmoothingDefaultsOf(s.lookAt, s.common); }

// The job's settings; weights: storage for them (one per joint).
LookAtSettings JobSettings(const ConstraintSettings& s, std::vector<float>& weights) {
  LookAtSettings ls = s.lookAt;
  ls.weights = weights;
  ls.limits = s.lookAtLimits;
  ls.settleTimes = s.lookAtSettleTimes;  // empty: settleTime below for every joint
  ls.settleTime = s.common.settleTime, ls.damping = s.common.damping, ls.blendOutTime = s.common.blendOutTime;
  return ls;
}

Status CheckOptions(const Setup&, const ConstraintSettings& s) {
  const std::size_t k = s.joints.size();
  if (!s.lookAtWeights.empty() && s.lookAtWeights.size() != k) return Error("weights: needs one weight per joint");
  if (!s.lookAtLimits.empty() && s.lookAtLimits.size() != k) return Error("limits: needs one limit per joint");
  if (!s.lookAtSettleTimes.empty() && s.lookAtSettleTimes.size() != k) return Error("settleTime: needs one settle time per joint");
  std::vector<float> weights(k, 1.0f);
  if (!s.lookAtWeights.empty()) weights = s.lookAtWeights;
  LookAt probe;
  return probe.Reset(JobSettings(s, weights));
}

void DetectAxes(const Setup& setup, Constraint& c) { DetectLookAxes(setup, c.settings, std::get<LookAtState>(c.state).axes); }

Status Configure(const Setup& setup, Constraint& c, bool keepState) {
  LookAtState& l = std::get<LookAtState>(c.state);
  const ConstraintSettings& s = c.settings;
  const std::size_t n = s.joints.size();
  std::vector<float> weights(n);
  for (std::size_t k = 0; k < n; ++k) {
    const float share = s.lookAtWeights.empty() ? 1.0f / static_cast<float>(n - k) : s.lookAtWeights[k];
    weights[k] = share * s.common.weight;  // weight scales every share: 0 turns nothing, smoothly
  }
  LookAtSettings ls = JobSettings(s, weights);
  ls.forward = l.axes.look;
  ls.up = setup.up;  // the yaw/pitch limits' up, as bodyLookAt's
  const Status status = keepState ? l.job.Configure(ls) : l.job.Reset(ls);
  if (status) l.job.SetGazeWithoutEyes(false);  // the rig reports no gaze: without eyes it is not stepped
  return status;
}

void Clear(Constraint& c) { std::get<LookAtState>(c.state).job.Clear(); }

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& f, ConstraintResult& r) {
  LookAtState& l = *std::get_if<LookAtState>(&c.state);
  const ConstraintSettings& s = c.settings;
  const std::size_t n = s.joints.size(), e = s.eyes.size(), firstEye = c.joints.size() - e;  // the eyes come last
  const glm::vec3 target = stage.ToModel(f.target);
  const Status status = l.job.Update(dt, std::span<const Transform>(stage.jobIn, n), target, s.common.enabled,
                                     std::span<Transform>(stage.jobOut, n), std::span<const Transform>(stage.jobIn + firstEye, e),
                                     std::span<Transform>(stage.jobOut + firstEye, e));
  LookResult(stage, c, static_cast<bool>(status), l.axes.look, target, r);
  return {l.job.active(), 1.0f};  // inactive: exactly the animated pose, nothing to write
}

}  // namespace

const KindOps kLookAtKind = {
    ConstraintKind::kLookAt, "lookAt", 2, 64, /*eyes=*/true, /*positiveSettleTime=*/true, /*batch=*/false, /*movesPelvis=*/false,
    Defaults, NoArmsOrLegs, CheckOptions, DetectAxes, WritesAll, Configure, Clear, Solve, NoGroundLegs, NoProbe,
};

}  // namespace ikpd::rig::detail
