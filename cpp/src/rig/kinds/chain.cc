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

// Local limits (docs/rig/rig.md, "Chain limits"): when every joint but the tip
// has the same bone axis in its own frame, the job sees the joints' own
// rotations (identity frames, that axis as forward), so a limit is on the
// joint's local rotation; else the detected frames stay (cone limits only).
// The root's limit is relative to its parent either way.
void DetectAxes(const Setup& setup, Constraint& c) {
  ChainState& state = std::get<ChainState>(c.state);
  state.rootRest = DetectBoneFrames(setup, c);
  state.forward = glm::vec3(1.0f, 0.0f, 0.0f);  // the canonical frames' bone axis
  state.sharedAxis = false;
  if (!c.settings.chainLimitsLocal) return;
  state.rootRest = kIdentityRotation;
  const glm::vec3 shared = c.frames[0] * glm::vec3(1.0f, 0.0f, 0.0f);
  for (std::size_t k = 1; k + 1 < c.frames.size(); ++k) {
    const glm::vec3 d = c.frames[k] * glm::vec3(1.0f, 0.0f, 0.0f) - shared;
    if (glm::dot(d, d) > 1e-8f) return;
  }
  for (glm::quat& f : c.frames) f = kIdentityRotation;
  state.forward = shared;
  state.sharedAxis = true;
}

void Prepare(Constraint& c, ChainState& state) {
  ChainSettings chain = c.settings.chain.settings;
  chain.limits = state.limits;  // the state's own storage
  chain.forward = state.forward;
  state.setup = ChainSetup{};
  (void)ikpd::Prepare(chain, &state.setup);  // checked by Check; else unprepared (the solve keeps the pose)
}

// The limits the job sees: local limits on the detected frames take each cone
// axis (in the parent joint's own frame) into the parent's canonical frame;
// their 'euler' limits need the shared axis.
Status JobLimits(const Constraint& c, ChainState& state) {
  state.limits = c.settings.chainLimits;
  if (!c.settings.chainLimitsLocal || state.sharedAxis) return Ok();
  for (std::size_t k = 0; k < state.limits.size(); ++k) {
    JointLimit& limit = state.limits[k];
    if (limit.kind == JointLimit::Kind::kEuler) {
      return Error("limits: 'euler' limits on local rotations need joints that share one bone axis; pass forward (or use 'cone')");
    }
    if (limit.kind == JointLimit::Kind::kCone && k > 0) limit.axis = glm::conjugate(c.frames[k - 1]) * limit.axis;
  }
  return Ok();
}

Status Configure(const Setup&, Constraint& c, bool keepState) {
  ChainState& state = std::get<ChainState>(c.state);
  if (const Status s = JobLimits(c, state); !s) return s;
  Prepare(c, state);
  return ConfigureSmoothing(state.smooth, c.settings.common, keepState);
}

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& raw, ConstraintResult& r) {
  ChainState& state = *std::get_if<ChainState>(&c.state);
  if (state.setup.prepared() && state.setup.settings().limits.data() != state.limits.data()) {
    Prepare(c, state);  // a copied rig: its setup still viewed the original's limits (no allocation)
  }
  const ConstraintFrame& f = SmoothInputs(state.smooth, c.settings.common, dt, raw);
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
