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
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

using ikpd::detail::AxisAngle;
using ikpd::detail::SignedAngle;

constexpr float kVelocitySmoothing = 0.1f;  // seconds: the body velocity's time constant
constexpr int kBisections = 24;             // a threshold's crossing to 2^-24 of the frame
constexpr int kEvents = 8;                  // steps started or landed within one frame, at most
constexpr float kTie = 1e-4f;               // seconds (and world units): feet due together
constexpr float kStraight = 1e-3f;          // model units: a leg within this of its length stands straight
constexpr float kCloser = 2e-3f;            // model units: a straight leg settles when its place is this much nearer the hip
constexpr float kSettleSpeed = 0.1f;        // × stepThreshold / stepTime: the body all but still
constexpr float kHeld = 0.9999f;            // a foot tracker's smoothed weight from which it holds the plant
constexpr float kBand = 3.0f;               // the body's velocity within a frame departs from its mean by at most this × the mean

// The body in model space: the pelvis on the ground plane through the root
// and its heading, a turn about up from the character's facing.
Transform Body(const Stage& stage, const AvatarState& a, const Transform& pelvis) {
  const glm::vec3 up = stage.up;
  const glm::vec3 facing = pelvis.rotation * a.pelvisFacing;
  const glm::vec3 flat = facing - glm::dot(facing, up) * up, rest = stage.facing - glm::dot(stage.facing, up) * up;
  const float yaw = glm::dot(flat, flat) > 1e-12f ? SignedAngle(rest, flat, up) : 0.0f;
  return {pelvis.position - glm::dot(pelvis.position, up) * up, AxisAngle(up, yaw)};
}

// One frame's motion of the body (world) and what a foot's place needs.
struct Frame {
  const AvatarSettings* s;
  Transform from, to;               // the body last frame and now (world)
  glm::vec3 velocity{0.0f};         // this frame's mean velocity of the body (world)
  // The cubic through the body's positions at this frame's ends and at the
  // two frames' starts before (At, in Newton's form from the frame's start):
  // its divided differences of second and third order (0 where fewer frames
  // are known: the quadratic, the chord), and last frame's length.
  glm::vec3 d2{0.0f}, d3{0.0f};
  float before = 0.0f;
  glm::vec3 up{0.0f, 1.0f, 0.0f};   // world
  float dt = 0.0f, scale = 1.0f;
  Transform offsets[2];             // each foot from the animated body (model units)
  glm::vec3 hips[2];                // each hip from the animated pelvis, in the body's frame (model units)
  float reach[2] = {0.0f, 0.0f};    // each leg's length (world)
  bool measured = false;            // hips and reach filled (MeasureLegs)
  float heightFrom = 0.0f, heightTo = 0.0f;  // the pelvis the head wants above the ground (model units)
  float settleAt[2] = {2.0f, 2.0f};  // each foot due to settle from this fraction on (2: not)
  glm::vec3 calm{0.0f};             // the body's smoothed velocity at the frame's start (Calm)
  float fadeEnd = 1.0f;             // exp(−dt / kVelocitySmoothing)
  glm::vec3 left{1.0f, 0.0f, 0.0f};  // the character's left (model)
  float gap = 0.0f;                 // world: the least a place keeps outside the other foot's plant
  const Transform* plants = nullptr;
  float cosHalf = 1.0f, sinHalf = 0.0f;  // of angleThreshold / 2 (TurnedPast)

  glm::vec3 Flat(const glm::vec3& v) const { return v - glm::dot(v, up) * up; }

  // The body's position at fraction u: the path whose velocity is Motion,
  // the cubic through the body at this frame's ends and the two frames'
  // starts before (the chord alone is off by acceleration · dt² · u(1 − u) / 2,
  // the quadratic through three by jerk · dt³ · u(1 − u)(u + 1) / 6).
  glm::vec3 At(float u) const {
    if (u == 0.0f) return from.position;
    if (u == 1.0f) return to.position;
    const float tau = u * dt;
    return glm::mix(from.position, to.position, u) + (d2 + d3 * (tau + before)) * (tau * (tau - dt));
  }

  // Foot `side`'s place at fraction u of the frame: its animated offset from
  // the body, carried by the interpolated body, and kept `gap` on its own
  // side of the other foot's plant (across the body) so the legs never cross.
  Transform Place(int side, float u) const {
    const glm::vec3 at = At(u);
    // The frame's ends (most calls) without the slerp's arc cosine: the ends themselves.
    const glm::quat turn = u == 0.0f ? from.rotation : u == 1.0f ? to.rotation : Unit(glm::slerp(from.rotation, to.rotation, u));
    Transform place{at + turn * (scale * offsets[side].position), Unit(turn * offsets[side].rotation)};
    const glm::vec3 out = turn * (side == 0 ? left : -left);  // away from the other foot
    const float apart = glm::dot(place.position - plants[1 - side].position, out);
    if (apart < gap) place.position += out * (gap - apart);
    return place;
  }
  // Where the body's smoothed velocity (Calm) leads the places at fraction u (at most stepThreshold).
  glm::vec3 Lead(float u) const {
    glm::vec3 lead = Flat(Calm(u)) * s->stepPrediction;
    const float length = glm::length(lead);
    return length > s->stepThreshold ? lead * (s->stepThreshold / length) : lead;
  }

  // How far a plant is from a place: along the ground, and its turn about up.
  float Distance(const Transform& plant, const Transform& place) const { return glm::length(Flat(place.position - plant.position)); }
  // Whether the plant's turn about up to the place, |Heading| = 2·atan2(|s|, |w|)
  // in [0, π], is past angleThreshold: |s|·cos(θ/2) > |w|·sin(θ/2), no arctangent.
  bool TurnedPast(const Transform& plant, const Transform& place) const {
    const glm::quat q = place.rotation * glm::conjugate(plant.rotation);
    return std::abs(glm::dot(glm::vec3(q.x, q.y, q.z), up)) * cosHalf > std::abs(q.w) * sinHalf;
  }
  // Hip `side` at fraction u where the body the head wants puts it (world).
  glm::vec3 Hip(int side, float u) const {
    const glm::quat turn = u == 0.0f ? from.rotation : u == 1.0f ? to.rotation : Unit(glm::slerp(from.rotation, to.rotation, u));
    return At(u) + up * (scale * (heightFrom + (heightTo - heightFrom) * u)) + turn * (scale * hips[side]);
  }
  // A step is due when the plant is past a threshold from its place led by
  // the body's velocity (the step itself lands on the place), or from its
  // settling instant (`settleAt`: SettleFeet).
  bool Due(const Transform& plant, int side, float u) const {
    Transform place = Place(side, u);
    place.position += Lead(u);
    const glm::vec3 d = Flat(place.position - plant.position);
    return glm::dot(d, d) > s->stepThreshold * s->stepThreshold || TurnedPast(plant, place) || u >= settleAt[side];
  }
  // Whether foot `side`'s leg stands straight to its plant from the hip where
  // the body the head wants puts it at fraction u (within kStraight of its
  // length; the body, the pelvis's height and so the hip interpolated to u),
  // and its place is more than kCloser nearer that hip.
  bool Straight(const Transform& plant, int side, float u) const {
    if (!(reach[side] > 0.0f)) return false;
    const glm::vec3 hip = Hip(side, u);
    const float toPlant = glm::length(plant.position - hip);
    return toPlant > reach[side] - kStraight * scale && toPlant > glm::length(Place(side, u).position - hip) + kCloser * scale;
  }
  // The body's own velocity at fraction u, to third order in the frame's
  // length: the derivative of At's cubic, the quadratic whose means over
  // this frame and the two before are theirs (the line through two frames'
  // means is off by jerk · dt² / 3 at the frame's end: 0.14 m/s at 30 Hz on
  // the quick side step).
  glm::vec3 Motion(float u) const { return motion[0] + (motion[1] + motion[2] * u) * u; }
  // That velocity smoothed (kVelocitySmoothing) exactly along the quadratic,
  // from `calm` at the frame's start (the instant it falls below a bound is
  // a function of time, where the smoothed mean velocity put 30 Hz's 0.7 ms
  // after 240 Hz's): Motion less the lag T · v′ − T² · v″, and what `calm`
  // departs from that at the start faded by exp(−t / T).
  glm::vec3 Calm(float u) const {
    if (!(dt > 0.0f) || u == 0.0f) return calm;  // exp(0) = 1 without the call
    const float fade = u == 1.0f ? fadeEnd : std::exp(-u * dt / kVelocitySmoothing);
    return steady[0] + (steady[1] + motion[2] * u) * u + (calm - steady[0]) * fade;
  }
  // Motion's and Calm's coefficients in u from d2 and d3 (PrepareMotion).
  glm::vec3 motion[3] = {glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(0.0f)}, steady[2] = {glm::vec3(0.0f), glm::vec3(0.0f)};
  void PrepareMotion() {
    constexpr float T = kVelocitySmoothing;
    motion[0] = velocity - (d2 + d3 * before) * dt;
    motion[1] = (d2 * 2.0f + d3 * (2.0f * (before - dt))) * dt;
    motion[2] = d3 * (3.0f * dt * dt);
    steady[0] = motion[0] - (d2 * 2.0f + d3 * (2.0f * (before - dt))) * T + d3 * (6.0f * T * T);
    steady[1] = motion[1] - d3 * (6.0f * T * dt);
  }
  // The body all but still at fraction u: its smoothed and its own speed
  // along the ground below kSettleSpeed × stepThreshold / stepTime (its own
  // too, so the smoothed velocity passing through 0 after a jump of the body,
  // a snap turn, is not still).
  bool Settling(float u) const {
    const float most = kSettleSpeed * s->stepThreshold / s->stepTime;
    const glm::vec3 smoothedNow = Flat(Calm(u)), now = Flat(Motion(u));
    return glm::dot(smoothedNow, smoothedNow) < most * most && glm::dot(now, now) < most * most;
  }
};

float Ease(float x) { return x * x * (3.0f - 2.0f * x); }

// How much faster than stepTime the step under way goes at fraction u of
// the frame (docs/rig/avatar.md, "Steps"): 1, or while the body's smoothed
// speed along the ground (Calm) is past kHurrySpeed × stepThreshold /
// stepTime (it outruns one foot at a time: a quick side step), 2 × its ratio
// to that speed − 1, at most kMostHurry. A function of time, not of the
// frame's chord, so a snap turn (a jump of the body within a frame) and every
// slower motion never hurry, at any frame rate. stepThreshold 0 never hurries.
constexpr float kHurrySpeed = 2.5f, kMostHurry = 3.0f;
float Hurry(const Frame& f, float u) {
  if (!(f.s->stepThreshold > 0.0f)) return 1.0f;
  const float speed = glm::length(f.Flat(f.Calm(u)));
  const float past = speed * f.s->stepTime / (kHurrySpeed * f.s->stepThreshold);
  return past > 1.0f ? std::min(2.0f * past - 1.0f, kMostHurry) : 1.0f;
}

// The step's pace over fraction [u, 1] of the frame: the hurry sampled at
// the ends and middles of kPanels equal panels of it and integrated along
// the parabola through each panel's three (composite Simpson's rule), so the
// progress is the integral of a function of time, not one sample of it held
// over the frame, and the step lands where that integral finishes it
// (bisected). The hurry has corners where it starts, ends and saturates
// (Hurry's max and min), which one parabola over a 30 Hz frame missed by up
// to 1 ms of step time. Not hurried (1 at u, the middle and 1): the plain
// step, exactly, and the other samples not taken.
constexpr int kPanels = 4;
struct Pace {
  float u = 0.0f;
  float h[2 * kPanels + 1] = {};
  bool plain = true;
  bool Plain() const { return plain; }
  // The hurry integrated over [u, u + x (1 − u)], in units of the frame's length.
  float Integral(float x) const {
    if (plain) return (1.0f - u) * x;
    constexpr float w = 1.0f / static_cast<float>(kPanels);
    float total = 0.0f;
    for (int p = 0; p < kPanels; ++p) {
      const float start = static_cast<float>(p) * w;
      if (!(x > start)) break;
      const float y = std::min(1.0f, (x - start) * static_cast<float>(kPanels));
      const float y2 = y * y, y3 = y2 * y;
      const float i0 = y3 * (2.0f / 3.0f) - 1.5f * y2 + y, im = 2.0f * y2 - y3 * (4.0f / 3.0f), i1 = y3 * (2.0f / 3.0f) - 0.5f * y2;
      total += w * (h[2 * p] * i0 + h[2 * p + 1] * im + h[2 * p + 2] * i1);
    }
    return (1.0f - u) * total;
  }
  // The fraction of the frame at which the integral reaches `need` (≤ Integral(1)).
  float Until(float need) const {
    float lo = 0.0f, hi = 1.0f;
    for (int k = 0; k < kBisections; ++k) {
      const float mid = 0.5f * (lo + hi);
      (Integral(mid) >= need ? hi : lo) = mid;
    }
    return u + hi * (1.0f - u);
  }
};
Pace PaceOf(const Frame& f, float u) {
  Pace pace;
  pace.u = u;
  constexpr int n = 2 * kPanels;
  const auto at = [&](int k) { return k == n ? 1.0f : u + (1.0f - u) * (static_cast<float>(k) / static_cast<float>(n)); };
  pace.h[0] = Hurry(f, u), pace.h[kPanels] = Hurry(f, at(kPanels)), pace.h[n] = Hurry(f, 1.0f);
  pace.plain = pace.h[0] == 1.0f && pace.h[kPanels] == 1.0f && pace.h[n] == 1.0f;
  if (!pace.plain) {
    for (int k = 1; k < n; ++k) {
      if (k != kPanels) pace.h[k] = Hurry(f, at(k));
    }
  }
  return pace;
}

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

// The first fraction in [u, 1] at which foot `side` is due (2: none).
float DueAt(const Frame& f, const Transform& plant, int side, float u) {
  if (f.Due(plant, side, u)) return u;
  if (!f.Due(plant, side, 1.0f)) return 2.0f;
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
  const Transform animatedBody = Body(stage, a, stage.jobIn[0]);
  Frame f;
  f.s = &s;
  f.to = stage.ToWorld(Body(stage, a, {pose[0].position + goals->pelvisMove, pose[0].rotation}));  // the body the head wants
  f.up = NormalizeOr(stage.root.transform.rotation * stage.up, glm::vec3(0.0f, 1.0f, 0.0f));
  f.scale = stage.root.scale;
  f.dt = dt;
  f.left = NormalizeOr(glm::cross(stage.up, stage.facing), glm::vec3(1.0f, 0.0f, 0.0f));
  f.plants = st.feet;
  f.cosHalf = std::cos(0.5f * s.angleThreshold), f.sinHalf = std::sin(0.5f * s.angleThreshold);
  const glm::quat back = glm::conjugate(animatedBody.rotation);
  for (int side = 0; side < 2; ++side) {
    const Transform& foot = stage.jobIn[a.legs[side].end];
    f.offsets[side] = {back * (foot.position - animatedBody.position), Unit(back * foot.rotation)};
  }
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
    const float turn = Heading(Unit(target.rotation * glm::conjugate(place.rotation)), f.up);
    st.feet[side] = {target.position - f.up * glm::dot(target.position - place.position, f.up), Unit(AxisAngle(f.up, turn) * place.rotation)};
    if (st.stepping == side) st.stepping = -1, st.progress = 0.0f;
  }
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
  f.fadeEnd = std::exp(-dt / kVelocitySmoothing);
  const bool still = SettleFeet(stage, a, back, f);
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
      due[side] = st.held[side] ? 2.0f : DueAt(f, st.feet[side], side, u);
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
    st.calm = f.Calm(1.0f), st.chordBefore = st.chord, st.chordTimeBefore = st.chordTime;
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
