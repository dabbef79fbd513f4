// The pseudo three-bone kind (pseudo_three_bone.h): options checked by its job
// on a sample limb, settings prepared once, the solve.
#include "pseudo_three_bone.h"

#include "ikpd/batch/pseudo_three_bone_batch.h"
#include "lanes.h"
#include "registry.h"
#include "two_bone.h"

namespace ikpd::rig::detail {

namespace {

Status CheckOptions(const Setup&, const ConstraintSettings& s) {
  if (Status st = CheckNoStretch(s.pseudoThreeBone.settings.limb); !st) return st;
  PseudoThreeBoneJob job = s.pseudoThreeBone;
  PseudoThreeBoneResult out;
  SampleLimb(job.frame.limb, job.settings.limb);
  job.frame.tip = SampleJoint(2, -1);
  job.result = &out;
  return job.Validate();
}

void DetectAxes(const Setup& setup, Constraint& c) { (void)DetectBoneFrames(setup, c); }

Status Configure(const Setup&, Constraint& c, bool keepState) {
  PseudoThreeBoneState& p = std::get<PseudoThreeBoneState>(c.state);
  PrepareBoth(p.setup, [&](bool withPole) {
    PseudoThreeBoneSettings pseudo = c.settings.pseudoThreeBone.settings;
    pseudo.limb = CanonicalLimb(pseudo.limb, withPole);
    return pseudo;
  });
  return ConfigureSmoothing(p.smooth, c.settings.common, keepState);
}

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& raw, ConstraintResult& r) {
  PseudoThreeBoneState& p = *std::get_if<PseudoThreeBoneState>(&c.state);
  const ConstraintFrame& f = SmoothInputs(p.smooth, c.settings.common, dt, raw);
  const Transform* in = stage.jobIn;
  PseudoThreeBoneResult out;
  PseudoThreeBoneFrame frame;
  frame.limb.root = in[0], frame.limb.mid = in[1], frame.limb.end = in[2], frame.tip = in[3];
  frame.limb.target = stage.ToModel(f.target);
  const PseudoThreeBoneJob& options = c.settings.pseudoThreeBone;
  frame.limb.pole = ModelPole(stage, f, options.settings.limb, options.frame.limb);
  frame.limb.weight = 1.0f;
  frame.blend = options.frame.blend;
  if (!SolvePseudoThreeBone(p.setup[f.poleSet != 0.0f ? 1 : 0], frame, &out)) out = {in[0], in[1], in[2], in[3], false, 0.0f};
  BackDirect(stage, c, 0, out.root.rotation), BackDirect(stage, c, 1, out.mid.rotation), BackDirect(stage, c, 2, out.end.rotation);
  r.reached = out.reached ? 1.0f : 0.0f;
  r.distance = out.distance * stage.root.scale;
  return {true, p.smooth.weightNow};
}

// RigBatch's solve of many characters: PseudoThreeBoneBatchJob (lanes.h), the tip slot 3.
void SolveLanes(const LaneStage& stage, const Constraint& c) {
  const PseudoThreeBoneJob& options = c.settings.pseudoThreeBone;
  const TwoBoneJob limb = CanonicalOptions(options.frame.limb, options.settings.limb);
  PseudoThreeBoneBatchJob job;
  static_cast<LimbBatchArrays&>(job) = LimbArrays(stage, c, options.settings.limb);
  job.options = options;
  job.options.frame.limb = limb.frame, job.options.settings.limb = limb.settings;
  job.tipPosition = stage.Position(c.joints[3]), job.tipRotation = stage.Rotation(3);
  job.outTipPosition = stage.Moved(2), job.outTipRotation = stage.Solved(3);
  SolveLimbLanes(stage, std::get<PseudoThreeBoneState>(c.state).setup[stage.pole ? 1 : 0].prepared(), job,
                 [](PseudoThreeBoneBatchJob& one, std::size_t k) {
                   ShiftLimb(one, k);
                   one.tipPosition += 3 * k, one.tipRotation += 4 * k, one.outTipPosition += 3 * k, one.outTipRotation += 4 * k;
                 });
}

bool PoleDirection(const ConstraintSettings& s, glm::vec3* direction) {
  if (!HasPoleDirection(s.pseudoThreeBone.settings.limb)) return false;
  *direction = s.pseudoThreeBone.frame.limb.pole;
  return true;
}

}  // namespace

const KindOps kPseudoThreeBoneKind = {
    ConstraintKind::kPseudoThreeBone, "pseudoThreeBone", 4, 4, /*eyes=*/false, /*positiveSettleTime=*/false, /*batch=*/true,
    /*movesPelvis=*/false, NoDefaults, NoArmsOrLegs, CheckOptions, DetectAxes, WritesLimb, Configure, ClearLimbSmoothing<PseudoThreeBoneState>, Solve,
    NoGroundLegs, NoProbe, /*targets=*/0, /*solveCharacter=*/nullptr, /*clearCharacter=*/nullptr, /*solvePose=*/nullptr,
    /*directWrites=*/true,
};

const LaneOps kPseudoThreeBoneLanes = {ConstraintKind::kPseudoThreeBone, SolveLanes, PoleDirection};

}  // namespace ikpd::rig::detail
