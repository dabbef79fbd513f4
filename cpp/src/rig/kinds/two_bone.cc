// The two-bone kind (two_bone.h): options checked by its job on a sample limb,
// settings prepared once per settings or axes change, the solve.
#include "two_bone.h"

#include "ikpd/batch/two_bone_batch.h"
#include "lanes.h"
#include "registry.h"
#include "../../ik/two_bone_kernel.h"

namespace ikpd::rig::detail {

TwoBoneSettings CanonicalLimb(const TwoBoneSettings& limb, bool withPole) {
  TwoBoneSettings settings = limb;
  settings.forward = glm::vec3(1.0f, 0.0f, 0.0f), settings.bendAxis = glm::vec3(0.0f, 0.0f, 1.0f);
  settings.pole = withPole ? TwoBonePole::kPoint : HasPoleDirection(limb) ? TwoBonePole::kDirection : TwoBonePole::kNone;
  return settings;
}

void SampleLimb(TwoBoneFrame& frame, TwoBoneSettings& settings) {
  frame.root = SampleJoint(0, 0), frame.mid = SampleJoint(1, 0), frame.end = SampleJoint(2, 0);
  frame.target = glm::vec3(1.0f, 1.0f, 0.0f);
  if (settings.pole == TwoBonePole::kPoint) settings.pole = TwoBonePole::kNone;
  frame.weight = 1.0f;
}

Status CheckNoStretch(const TwoBoneSettings& limb) {
  if (limb.maxStretch != 1.0f) return Error("maxStretch: the rig does not stretch bones (must be 1)");
  return Ok();
}

void WritesLimb(const ConstraintSettings&, std::vector<std::uint16_t>& out) { out.insert(out.end(), {0, 1, 2}); }

namespace {

Status CheckOptions(const Setup&, const ConstraintSettings& s) {
  if (Status st = CheckNoStretch(s.twoBone.settings); !st) return st;
  TwoBoneJob job = s.twoBone;
  TwoBoneResult out;
  SampleLimb(job.frame, job.settings);
  job.result = &out;
  return job.Validate();
}

void DetectAxes(const Setup& setup, Constraint& c) { (void)DetectBoneFrames(setup, c); }

Status Configure(const Setup&, Constraint& c, bool keepState) {
  TwoBoneState& t = std::get<TwoBoneState>(c.state);
  PrepareBoth(t.setup, [&](bool withPole) { return CanonicalLimb(c.settings.twoBone.settings, withPole); });
  return ConfigureSmoothing(t.smooth, c.settings.common, keepState);
}

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& raw, ConstraintResult& r) {
  TwoBoneState& t = *std::get_if<TwoBoneState>(&c.state);
  const ConstraintFrame& f = SmoothInputs(t.smooth, c.settings.common, dt, raw);
  const Transform* in = stage.jobIn;
  TwoBoneResult& out = t.out;
  TwoBoneFrame& frame = t.frame;  // weight 1 (TwoBoneFrame's default, never changed)
  frame.root = in[0], frame.mid = in[1], frame.end = in[2], frame.target = stage.ToModel(f.target);
  frame.pole = ModelPole(stage, f, c.settings.twoBone.settings, c.settings.twoBone.frame);
  // (No offset, the common case, is exactly zero, as RigBatch gives it, without turning it into model space.)
  frame.effectorOffset = f.effectorOffset != glm::vec3(0.0f) ? stage.ToModelVector(f.effectorOffset) : glm::vec3(0.0f);
  // The gathered rotations are unit (Rig::Gather): the kernel's own test of them is skipped.
  if (!ikpd::detail::SolveTwoBoneUsableRotations(t.setup[f.poleSet != 0.0f ? 1 : 0], frame, &out)) {
    out = {in[0], in[1], in[2], false, 0.0f};
  }
  BackDirect(stage, c, 0, out.root.rotation), BackDirect(stage, c, 1, out.mid.rotation);
  // An end that keeps its world rotation is set by the write-back from its
  // gathered model rotation (keptRotations below; RigBatch::Locals alike).
  if (!KeepsEnd(c.settings.twoBone.settings)) BackDirect(stage, c, 2, out.end.rotation);
  r.reached = out.reached ? 1.0f : 0.0f;
  r.distance = out.distance * stage.root.scale;
  return {true, t.smooth.weightNow};
}

// RigBatch's solve of many characters: TwoBoneBatchJob (lanes.h).
void SolveLanes(const LaneStage& stage, const Constraint& c) {
  const TwoBoneJob& options = c.settings.twoBone;
  TwoBoneBatchJob job;
  static_cast<LimbBatchArrays&>(job) = LimbArrays(stage, c, options.settings);
  job.options = CanonicalOptions(options.frame, options.settings);
  SolveLimbLanes(stage, std::get<TwoBoneState>(c.state).setup[stage.pole ? 1 : 0].prepared(), job,
                 [](TwoBoneBatchJob& one, std::size_t k) { ShiftLimb(one, k); });
}

bool PoleDirection(const ConstraintSettings& s, glm::vec3* direction) {
  if (!HasPoleDirection(s.twoBone.settings)) return false;
  *direction = s.twoBone.frame.pole;
  return true;
}

}  // namespace

const KindOps kTwoBoneKind = {
    ConstraintKind::kTwoBone, "twoBone", 3, 3, /*eyes=*/false, /*positiveSettleTime=*/false, /*batch=*/true, /*movesPelvis=*/false,
    NoDefaults, NoArmsOrLegs, CheckOptions, DetectAxes, WritesLimb, Configure, ClearLimbSmoothing<TwoBoneState>, Solve, NoGroundLegs, NoProbe,
    /*targets=*/0, /*solveCharacter=*/nullptr, /*clearCharacter=*/nullptr, /*solvePose=*/nullptr, /*directWrites=*/true,
    /*keptRotations=*/[](const ConstraintSettings& s) { return KeepsEnd(s.twoBone.settings) ? std::uint32_t{1} << 2 : 0u; },
};

const LaneOps kTwoBoneLanes = {ConstraintKind::kTwoBone, SolveLanes, PoleDirection};

}  // namespace ikpd::rig::detail
