// The avatar's procedural steps (avatar.h; docs/rig/avatar.md, "Steps"): the
// feet stay planted in world space and one at a time step to their place
// under the body when it moves or turns past the thresholds. Frame-rate
// independent: within a frame the body moves from last frame's to this one's
// along the cubic through its positions at the ends of this frame and the two
// before (At; its velocity Motion, smoothed, leads the places and hurries a
// step: Calm), a step starts
// at the moment within the frame its threshold is crossed, and its progress
// is its pace integrated over time.
#include <algorithm>
#include <cmath>

#include "../../ik/ik_math.h"
#include "avatar.h"
#include "avatar_angles.h"
#include "avatar_path.h"
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

using namespace avatar_path;  // NOLINT: the steps' own path, one translation unit

// Each tracked foot's goal blended by its weight to its target (whether any is).
bool TrackFeet(AvatarGoals* goals) {
  bool any = false;
  for (int side = 0; side < 2; ++side) {
    const float w = goals->footWeights[side];
    if (w == 0.0f) continue;
    Transform& foot = goals->feet[side];
    const Transform& target = goals->footTargets[side];
    foot = {glm::mix(foot.position, target.position, w), Toward(foot.rotation, target.rotation, w)};
    any = true;
  }
  return any;
}

// The thresholds at the frame's start (AvatarSteps::past): last frame's end's
// judgement while nothing it read has changed, which saves two of a still
// animated pose's four judgements a frame; at the end, a bound from the last
// judgement in full (Frame::Clear) the other two while the feet are well inside.
bool PastAtStart(const Frame& f, const AvatarSteps& st, const Transform& plant, int side) {
  return st.pastStamp[side] == st.stamp ? st.past[side] : f.Past(plant, side, 0.0f);
}

bool Same(const Transform& x, const Transform& y) { return x.position == y.position && x.rotation == y.rotation; }

// Each foot's offset from the animated body (Frame::offsets) and the body's
// back rotation, made again only when the animated pelvis or a foot moved
// (AvatarSteps::seen; the offsets change the thresholds' stamp).
void SeeAnimated(const Stage& stage, const AvatarState& a, AvatarSteps& st) {
  auto& seen = st.seen;
  const Transform& pelvis = stage.jobIn[0];
  const Transform* feet[2] = {&stage.jobIn[a.legs[0].end], &stage.jobIn[a.legs[1].end]};
  if (seen.known && Same(seen.pelvis, pelvis) && Same(seen.feet[0], *feet[0]) && Same(seen.feet[1], *feet[1])) return;
  const Transform animatedBody = Body(stage, a, pelvis);
  const glm::quat back = glm::conjugate(animatedBody.rotation);
  for (int side = 0; side < 2; ++side) {
    const Transform& foot = *feet[side];
    seen.offsets[side] = {back * (foot.position - animatedBody.position), Unit(back * foot.rotation)};
    seen.feet[side] = foot;
  }
  seen.known = true, seen.pelvis = pelvis, seen.back = back;
  ++st.stamp;
}

// Whether anything else the thresholds read besides the plants and the body changed since last frame (AvatarSteps::seen).
// The rig's facing and up (Frame::left, the rest frames) change only through Rig::SetFacing/SetUp,
// which configure the kind again: Configure forgets `seen`, and SeeAnimated moves the stamp.
void SeeInputs(const Frame& f, const AvatarSettings& s, AvatarSteps& st) {
  auto& seen = st.seen;
  if (seen.up == f.up && seen.scale == f.scale && seen.threshold == s.stepThreshold && seen.prediction == s.stepPrediction &&
      seen.angle == s.angleThreshold) {
    return;
  }
  seen.up = f.up, seen.scale = f.scale;
  seen.threshold = s.stepThreshold, seen.prediction = s.stepPrediction, seen.angle = s.angleThreshold;
  seen.cosHalf = std::cos(0.5f * s.angleThreshold), seen.sinHalf = std::sin(0.5f * s.angleThreshold);
  ++st.stamp;
}

// Frame::Clear's bound for foot `side` from its reference, the body's drift
// shared with the other foot's when their references are one frame's.
bool ClearAtEnd(const Frame& f, const AvatarSteps& st, int side, Frame::Drift* drift) {
  const AvatarPastRef& ref = st.ref[side];
  if (drift[side].e < 0.0f) {
    const AvatarPastRef& other = st.ref[1 - side];
    const bool shared = drift[1 - side].e >= 0.0f && st.refStamp[1 - side] == st.stamp && other.to.position == ref.to.position &&
                        other.to.rotation == ref.to.rotation && other.calm == ref.calm;
    drift[side] = shared ? drift[1 - side] : f.DriftFrom(ref);
  }
  return f.Clear(ref, drift[side]);
}

// The first fraction in [u, 1] at which foot `side` is due (2: none); the
// thresholds at the frame's end kept for the next frame's start (AvatarSteps::past).
float DueAt(const Frame& f, AvatarSteps& st, int side, float u, Frame::Drift* drift) {
  const Transform& plant = st.feet[side];
  if (u >= f.settleAt[side] || (u == 0.0f ? PastAtStart(f, st, plant, side) : f.Past(plant, side, u))) return u;
  if (1.0f < f.settleAt[side]) {
    if (st.refStamp[side] == st.stamp && ClearAtEnd(f, st, side, drift)) {
      st.past[side] = false;  // surely inside both: the judgement in full would say so
    } else {
      st.past[side] = f.Past(plant, side, 1.0f, &st.ref[side]), st.refStamp[side] = st.stamp;
      drift[side] = {};  // its reference is this frame's now
    }
    st.pastStamp[side] = st.stamp;
    if (!st.past[side]) return 2.0f;
  }
  float lo = u, hi = 1.0f;
  for (int k = 0; k < kBisections; ++k) {
    const float mid = 0.5f * (lo + hi);
    (f.Due(plant, side, mid) ? hi : lo) = mid;
  }
  return hi;
}

// The settling steps (docs/rig/avatar.md, "Steps"): a walk that stops with
// each foot within stepThreshold of its place can leave a leg straight, the
// head out of reach. At the instant within the frame the body comes all but
// still (Settling crossed, found by bisection as the thresholds are), each
// foot not stepping whose leg cannot reach its plant from the hip there
// (Straight, judged at that instant) is due from it: once a stop, kept until
// it steps (one foot at a time), dropped when the body moves again. A step
// landing while the body is all but still judges the other foot the same
// way at its landing instant (StepFeet): its place may have moved with the
// landed foot's plant (Place keeps the feet apart).
// Each hip from the animated pelvis in the body's frame and each leg's
// length (Straight), once a frame and only in a frame that needs them.
void MeasureLegs(const Stage& stage, const AvatarState& a, const glm::quat& back, Frame& f) {
  if (f.measured) return;
  for (int side = 0; side < 2; ++side) {
    const AvatarLimb& leg = a.legs[side];
    const glm::vec3 hip = stage.jobIn[leg.upper].position, knee = stage.jobIn[leg.lower].position;
    f.hips[side] = back * (hip - stage.jobIn[0].position);
    f.reach[side] = f.scale * (glm::length(knee - hip) + glm::length(stage.jobIn[leg.end].position - knee));
  }
  f.measured = true;
}

// Returns whether the body is all but still at the frame's end.
bool SettleFeet(const Stage& stage, const AvatarState& a, const glm::quat& back, Frame& f) {
  const AvatarSteps& st = a.steps;
  for (int side = 0; side < 2; ++side) f.settleAt[side] = st.settle[side] && !st.held[side] ? 0.0f : 2.0f;
  const bool still = f.Settling(1.0f);
  if (st.still || !still) return still;
  float lo = 0.0f, hi = 1.0f;
  if (f.Settling(0.0f)) hi = 0.0f;
  for (int k = 0; k < kBisections && hi > 0.0f; ++k) {
    const float mid = 0.5f * (lo + hi);
    (f.Settling(mid) ? hi : lo) = mid;
  }
  MeasureLegs(stage, a, back, f);
  for (int side = 0; side < 2; ++side) {
    if (!st.held[side] && side != st.stepping && f.Straight(st.feet[side], side, hi)) f.settleAt[side] = hi;
  }
  return still;
}

}  // namespace

// The frame's steps: plants kept, a step started where a threshold is
// crossed, a step landed where its time is up (then the other foot may
// start); each foot's place for the legs (model space, blended with the
// animated foot by the constraint's weight) in goals->feet, and the pelvis
// lowered as far as a hip out of its leg's reach of its foot needs.
void StepFeet(const Stage& stage, Constraint& c, float dt, Transform* pose, AvatarGoals* goals) {
  AvatarState& a = std::get<AvatarState>(c.state);
  AvatarSteps& st = a.steps;
  if (a.legCount == 0) return;
  const AvatarSettings& s = c.settings.avatar;
  if (!s.steps) {  // the animated feet (the pelvis already fits them: SpineStage)
    for (int side = 0; side < 2; ++side) goals->feet[side] = stage.jobIn[a.legs[side].end];
    st.planted = false;  // plants again where the animation has them when steps come back on
    if (TrackFeet(goals)) FitFeet(stage, a, goals->feet, pose, 1.0f - goals->pelvisWeight);
    return;
  }
  Frame f;
  f.s = &s;
  f.to = stage.ToWorld(Body(stage, a, {pose[0].position + goals->pelvisMove, pose[0].rotation}));  // the body the head wants
  f.up = NormalizeOr(stage.root.transform.rotation * stage.up, glm::vec3(0.0f, 1.0f, 0.0f));
  f.scale = stage.root.scale;
  f.dt = dt;
  f.left = NormalizeOr(glm::cross(stage.up, stage.facing), glm::vec3(1.0f, 0.0f, 0.0f));
  f.plants = st.feet;
  SeeAnimated(stage, a, st);
  const glm::quat back = st.seen.back;
  f.offsets[0] = st.seen.offsets[0], f.offsets[1] = st.seen.offsets[1];
  f.gap = 0.5f * f.scale * std::abs(glm::dot(f.offsets[0].position - f.offsets[1].position, f.left));
  f.heightTo = glm::dot(pose[0].position + goals->pelvisMove, stage.up);
  if (!st.planted) {  // plant the feet where the animation has them, the body at rest
    for (int side = 0; side < 2; ++side) {
      st.feet[side] = stage.ToWorld(stage.jobIn[a.legs[side].end]);
      AvatarOnGround(stage, c, side, &st.feet[side]);
    }
    st.stepping = -1, st.progress = 0.0f, st.body = f.to, st.planted = true;
    st.chord = st.chordBefore = st.calm = glm::vec3(0.0f), st.chordTime = st.chordTimeBefore = 0.0f;
    st.height = f.heightTo, st.still = false, st.settle[0] = st.settle[1] = false;
    st.held[0] = st.held[1] = false;
    ++st.stamp;  // new plants and body
  }
  // A foot tracker in full holds the foot's plant on its target on the ground
  // (its place's height, turned as the target about up) until its weight is
  // back to 0: the foot does not step, the other foot keeps clear of it, and
  // a lost tracker's foot comes down there. Blending in (or at a partial
  // weight) the foot steps as before, blended with its target.
  for (int side = 0; side < 2; ++side) {
    const std::size_t k = static_cast<std::size_t>(kAvatarLeftFoot + side);
    const float given = stage.targets[k].weight;
    const float smoothed = c.settings.common.settleTime > 0.0f ? static_cast<float>(a.targetPds[k].value()) : given;
    st.held[side] = goals->footWeights[side] > 0.0f && (st.held[side] || (given > 0.0f && smoothed >= kHeld));
    if (!st.held[side]) continue;
    const Transform target = stage.ToWorld(goals->footTargets[side]), place = f.Place(side, 1.0f);
    const float turn = Twist(Unit(target.rotation * glm::conjugate(place.rotation)), f.up);
    st.feet[side] = {target.position - f.up * glm::dot(target.position - place.position, f.up), Unit(AxisAngle(f.up, turn) * place.rotation)};
    if (st.stepping == side) st.stepping = -1, st.progress = 0.0f;
    ++st.stamp;
  }
  SeeInputs(f, s, st);
  f.cosHalf = st.seen.cosHalf, f.sinHalf = st.seen.sinHalf;
  f.from = st.body;
  f.heightFrom = st.height;
  f.velocity = dt > 0.0f ? (f.to.position - f.from.position) / dt : st.chord;
  // The divided differences over this frame and the two before (0 where
  // they are not known: the line, or the chord).
  if (st.chordTime > 0.0f && dt > 0.0f) {
    f.before = st.chordTime;
    f.d2 = (f.velocity - st.chord) / (dt + st.chordTime);
    if (st.chordTimeBefore > 0.0f) {
      const glm::vec3 d2Before = (st.chord - st.chordBefore) / (st.chordTime + st.chordTimeBefore);
      f.d3 = (f.d2 - d2Before) / (dt + st.chordTime + st.chordTimeBefore);
    }
    // Past a corner (the body stopping within a frame, a jump) the cubic
    // rings: the body would move within frames it stood still over. Its
    // velocity at each end stays within kBand × the frame's mean speed of
    // the mean (still frames: still; the side step's foot landing 0.32 mm
    // off at 30 Hz without).
    f.PrepareMotion();
    const float band = kBand * kBand * glm::dot(f.velocity, f.velocity);
    const glm::vec3 start = f.Motion(0.0f) - f.velocity, end = f.Motion(1.0f) - f.velocity;
    const float most = std::max(glm::dot(start, start), glm::dot(end, end));
    if (most > band) {
      const float shrink = std::sqrt(band / most);
      f.d2 *= shrink, f.d3 *= shrink;
      f.PrepareMotion();
    }
  } else {
    f.motion[0] = f.steady[0] = f.velocity;
  }
  f.calm = st.calm;
  if (dt != st.seen.dt) st.seen.dt = dt, st.seen.fade = std::exp(-dt / kVelocitySmoothing);
  f.fadeEnd = st.seen.fade;
  const bool still = SettleFeet(stage, a, back, f);
  f.calmEnd = f.Calm(1.0f);
  Frame::Drift drift[2];  // from each foot's reference (DueAt), once a frame
  float u = 0.0f;
  for (int event = 0; event < kEvents && u <= 1.0f; ++event) {
    if (st.stepping >= 0) {  // land it within the frame, else carry it on
      const Pace pace = dt > 0.0f ? PaceOf(f, u) : Pace{};
      float end = 2.0f;
      if (dt > 0.0f && pace.Plain()) {
        end = u + (1.0f - st.progress) * s.stepTime / dt;
      } else if (dt > 0.0f) {  // hurried: where the integrated pace finishes the step
        const float need = (1.0f - st.progress) * s.stepTime / dt;
        end = need <= pace.Integral(1.0f) ? pace.Until(need) : 2.0f;
      }
      if (end > 1.0f) {
        if (dt > 0.0f) st.progress = std::min(st.progress + pace.Integral(1.0f) * dt / s.stepTime, 1.0f);
        break;
      }
      const int other = 1 - st.stepping;
      st.feet[st.stepping] = f.Place(st.stepping, end);
      const glm::vec3 base = f.At(end);  // the root's plane at the landing instant
      AvatarOnGround(stage, c, st.stepping, &st.feet[st.stepping], &base);
      ++st.stamp;
      st.stepping = -1, st.progress = 0.0f, u = end;
      if (!st.held[other] && f.settleAt[other] > 1.0f && f.Settling(end)) {  // landed with the body still: SettleFeet
        MeasureLegs(stage, a, back, f);
        if (f.Straight(st.feet[other], other, end)) f.settleAt[other] = end;
      }
      continue;
    }
    // The foot due first; due within kTie of each other, the one farther
    // from its place (the left at a tie), whatever the frame rate.
    float due[2], distance[2];
    for (int side = 0; side < 2; ++side) {
      due[side] = st.held[side] ? 2.0f : DueAt(f, st, side, u, drift);
      distance[side] = due[side] <= 1.0f ? f.Distance(st.feet[side], f.Place(side, due[side])) : 0.0f;
    }
    if (due[0] > 1.0f && due[1] > 1.0f) break;
    int next = due[0] <= due[1] ? 0 : 1;
    if (std::abs(due[0] - due[1]) * dt <= kTie && due[0] <= 1.0f && due[1] <= 1.0f) {
      next = distance[1] > distance[0] + kTie ? 1 : 0;
    }
    const float at = due[next];
    st.stepping = next, st.progress = 0.0f, u = at;
    f.settleAt[next] = 2.0f;  // stepping: settled
    st.from = st.feet[next];
  }
  st.body = f.to, st.height = f.heightTo, st.still = still;
  if (dt > 0.0f) {
    st.calm = f.calmEnd, st.chordBefore = st.chord, st.chordTimeBefore = st.chordTime;
    st.chord = f.velocity, st.chordTime = dt;
  }
  for (int side = 0; side < 2; ++side) st.settle[side] = st.still && f.settleAt[side] <= 1.0f;  // moving again: dropped
  for (int side = 0; side < 2; ++side) {
    Transform world = st.feet[side];
    if (side == st.stepping) {
      Transform place = f.Place(side, 1.0f);
      AvatarOnGround(stage, c, side, &place);
      const float e = Ease(st.progress);
      const glm::vec3 eased = glm::mix(st.from.position, place.position, e);
      world.position = eased + f.up * AvatarLift(stage, c, side, st.from.position, place.position, eased, f.up, st.progress);
      world.rotation = Unit(glm::slerp(st.from.rotation, place.rotation, e));
    }
    const Transform& animated = stage.jobIn[a.legs[side].end];
    const float w = a.smooth.weightNow;
    goals->feet[side] = {glm::mix(animated.position, stage.ToModel(world.position), w),
                         Toward(animated.rotation, Unit(stage.root.inverse * world.rotation), w)};
  }
  (void)TrackFeet(goals);
  ReachFeet(stage, a, goals->feet, pose, goals->pelvisMove);
  FitFeet(stage, a, goals->feet, pose, 1.0f - goals->pelvisWeight);
}

}  // namespace ikpd::rig::detail
