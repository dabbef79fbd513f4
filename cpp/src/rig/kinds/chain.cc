// The chain kind (chain.h): options checked by its job on a sample chain,
// settings prepared once (docs/ik/prepared-solvers.md), the solve.
#include "chain.h"

#include <algorithm>

#include "registry.h"
#include "two_bone.h"

namespace ikpd::rig::detail {

namespace {

Status CheckOptions(const Setup&, const ConstraintSettings& s) {
  std::vector<Transform> joints(s.joints.size()), output(s.joints.size());
  for (std::size_t k = 0; k < joints.size(); ++k) joints[k] = SampleJoint(static_cast<float>(k), 0);
  ChainJob job = s.chain;
  job.frame.joints = joints;
  job.output = output;
  job.settings.limits = s.chainLimits;
  job.frame.pole.reset();
  job.result = nullptr;
  return job.Validate();
}

void DetectAxes(const Setup& setup, Constraint& c) { std::get<ChainState>(c.state).rootRest = DetectBoneFrames(setup, c); }

void Prepare(Constraint& c, ChainState& state) {
  ChainSettings chain = c.settings.chain.settings;
  chain.limits = c.settings.chainLimits;         // c.settings' own storage
  chain.forward = glm::vec3(1.0f, 0.0f, 0.0f);  // the canonical frames' bone axis
  state.setup = ChainSetup{};
  (void)ikpd::Prepare(chain, &state.setup);  // checked by Check; else unprepared (the solve keeps the pose)
}

Status Configure(const Setup&, Constraint& c, bool keepState) {
  ChainState& state = std::get<ChainState>(c.state);
  Prepare(c, state);
  return ConfigureSmoothing(state.smooth, c.settings.common, keepState);
}

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& raw, ConstraintResult& r) {
  ChainState& state = *std::get_if<ChainState>(&c.state);
  if (state.setup.prepared() && state.setup.settings().limits.data() != c.settings.chainLimits.data()) {
    Prepare(c, state);  // a copied rig: its setup still viewed the original's limits (no allocation)
  }
  const ConstraintFrame f = SmoothInputs(state.smooth, c.settings.common, dt, raw);
  const std::optional<glm::vec3> pole = f.poleSet != 0.0f ? std::optional<glm::vec3>(stage.ToModel(f.pole)) : std::nullopt;
  const std::size_t n = c.joints.size();
  ChainResult result;
  const int parent = stage.skeleton->parent(static_cast<std::size_t>(c.joints[0]));
  const glm::quat parentRotation = parent >= 0 ? stage.model[static_cast<std::size_t>(parent)].rotation : kIdentityRotation;
  const ChainFrame frame{std::span<const Transform>(stage.jobIn, n), stage.ToModel(f.target), pole,
                         Unit(parentRotation * state.rootRest)};
  if (!SolveChain(state.setup, frame, std::span<Transform>(stage.jobOut, n), &result)) std::copy(stage.jobIn, stage.jobIn + n, stage.jobOut);
  for (std::size_t k = 0; k < n; ++k) Back(stage, c, k, stage.jobOut[k].rotation);
  r.reached = result.reached ? 1.0f : 0.0f;
  r.distance = result.distance * stage.root.scale;
  r.iterations = static_cast<float>(result.iterations);
  return {true, state.smooth.weightNow};
}

}  // namespace

const KindOps kChainKind = {
    ConstraintKind::kChain, "chain", 2, kMaxChainJoints, /*eyes=*/false, /*positiveSettleTime=*/false, /*batch=*/false,
    /*movesPelvis=*/false, NoDefaults, NoArmsOrLegs, CheckOptions, DetectAxes, WritesAllButTip, Configure, ClearLimbSmoothing<ChainState>, Solve,
    NoGroundLegs, NoProbe,
};

}  // namespace ikpd::rig::detail
