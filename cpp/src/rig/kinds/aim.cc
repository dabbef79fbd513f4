// The aim kind (aim.h): its options checked by its job, its look axis
// detected, its settings prepared once (docs/ik/prepared-solvers.md), the solve.
#include "aim.h"

#include "look.h"
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

Status CheckOptions(const Setup&, const ConstraintSettings& s) {
  AimJob job = s.aim;
  glm::quat out;
  job.frame.position = glm::vec3(0.0f);
  job.frame.rotation = kIdentityRotation;
  job.frame.target = glm::vec3(1.0f);
  job.frame.weight = 1.0f;
  job.result = &out;
  return job.Validate();
}

void DetectAxes(const Setup& setup, Constraint& c) {
  AimState& a = std::get<AimState>(c.state);
  DetectLook(setup, c.settings, 0, &a.look, &a.up);
}

void Writes(const ConstraintSettings&, std::vector<std::uint16_t>& out) { out.push_back(0); }

Status Configure(const Setup&, Constraint& c, bool keepState) {
  AimState& a = std::get<AimState>(c.state);
  PrepareBoth(a.setup, [&](bool withPole) {
    AimSettings settings = c.settings.aim.settings;
    settings.forward = a.look, settings.up = a.up, settings.pole = withPole;
    return settings;
  });
  return ConfigureSmoothing(a.smooth, c.settings.common, keepState);
}

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& raw, ConstraintResult& r) {
  AimState& a = *std::get_if<AimState>(&c.state);
  const ConstraintFrame& f = SmoothInputs(a.smooth, c.settings.common, dt, raw);
  const glm::vec3 target = stage.ToModel(f.target);
  const bool pole = f.poleSet != 0.0f;
  const Transform& joint = stage.jobIn[0];
  glm::quat solved = joint.rotation;
  const AimFrame frame{joint.position, joint.rotation, target, pole ? stage.ToModel(f.pole) : glm::vec3(0.0f), 1.0f};
  if (!SolveAim(a.setup[pole ? 1 : 0], frame, &solved)) solved = joint.rotation;  // cannot fail for checked input
  Back(stage, c, 0, solved);
  const float error = LookError({joint.position, solved}, a.look, target);
  r.distance = error;
  r.reached = error <= 1e-3f ? 1.0f : 0.0f;
  return {true, a.smooth.weightNow};
}

}  // namespace

const KindOps kAimKind = {
    ConstraintKind::kAim, "aim", 1, 1, /*eyes=*/false, /*positiveSettleTime=*/false, /*batch=*/true, /*movesPelvis=*/false,
    NoDefaults, NoArmsOrLegs, CheckOptions, DetectAxes, Writes, Configure, ClearLimbSmoothing<AimState>, Solve, NoGroundLegs, NoProbe,
};

}  // namespace ikpd::rig::detail
