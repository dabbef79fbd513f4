// Grounding: one update (docs/rig/grounding.md, the model). Stages, in order:
// FootTargets (ground offset, sole rotation, stance) → SmoothFeet (PDs and
// plant lock) → BodyTargets (pitch, pelvis offset) → SmoothBody → SolveLegs
// (carry by the pelvis, two-bone IK per leg). One step: Update (grounding.cc)
// runs the first four at sub-steps between frames and checks first.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ikpd/rig/grounding.h"
#include "../ik/chain/rotation.h"
#include "body_parts.h"
#include "grounding_continuous.h"

namespace ikpd::rig {

namespace {
using body_detail::FrameOf;
using body_detail::Horizontal;
using chain_detail::Arc;
using grounding_detail::HasJumps;
using grounding_detail::SharedKept;
using grounding_detail::SmoothAcrossEdges;
const glm::dquat kIdentityD(1.0, 0.0, 0.0, 0.0);
constexpr float kWall = 0.1f;  // |n·up| below this: a wall, not ground

float LegLength(const Transform* leg) {
  return glm::length(leg[1].position - leg[0].position) + glm::length(leg[2].position - leg[1].position);
}

// Where a leg's reach starts to soften: the soft zone below full reach L, or
// the animated hip-to-ankle distance where the clip itself reaches farther
// (a leg the animation straightens is solved as straight as it was).
float SoftStart(const Transform* leg, float length, float soften) {
  return std::min(length, std::max((1.0f - soften) * length, glm::length(leg[2].position - leg[0].position)));
}

// Soft IK: an ankle target past `start` is drawn in along v = target − hip,
// approaching full reach L exponentially (continuous in value and slope).
glm::vec3 Softened(const glm::vec3& hip, const glm::vec3& target, float start, float length) {
  const glm::vec3 v = target - hip;
  const float d = glm::length(v);
  if (!(d > start) || d == 0.0f) return target;
  const float zone = length - start;
  const float reach = zone > 1e-6f * length ? start + zone * (1.0f - std::exp(-(d - start) / zone)) : start;
  return hip + v * (reach / d);
}
}  // namespace

// Per leg, this update's targets (world).
struct Grounding::Desired {
  struct Foot {
    glm::vec3 sole{0.0f};     // animated sole point
    glm::vec3 normal{0.0f};   // ground normal (unit, toward up)
    glm::vec3 point{0.0f};    // a ground point
    float lift = 0.0f;        // animated sole height above the authored ground
    glm::vec3 lock{0.0f};     // a planted foot's lock, within unplantRadius of the sole
    glm::vec3 at{0.0f};       // where the sole stands this update (its lock, or the sole carried by its slide)
    float offset = 0.0f;      // target height offset (weighted): the ground's height under `at`
    float change = 0.0f;      // a free foot's jump between the last hit's plane and this one (weighted)
    float edge = -1.0f;       // where in the step an edge was crossed (GroundHit::edge; < 0: not known)
    float jump = 0.0f;        // `change` when `edge` is known (the pelvis takes it there too)
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // target sole rotation (weighted)
    bool ground = false;
    bool stance = false;
  };
  std::array<Foot, kMaxGroundLegs> feet;
  std::array<glm::vec3, kMaxGroundLegs> target{};  // effector's final sole point
  std::array<float, kMaxGroundLegs> height{};      // each foot's smoothed height offset
  float length = 0.0f;  // shortest leg
};

// Whether a leg carries an offset (else it is copied bit for bit).
bool Grounding::FootMoved(const Leg& st) {
  return st.height.value() != 0.0 || (st.grounded && st.base != 0.0f) || st.rotation.value() != kIdentityD || st.planted || st.slide[0].value() != 0.0 ||
         st.slide[1].value() != 0.0 || st.slide[2].value() != 0.0;
}

Status Grounding::Advance(float dt, const GroundingInput& in, const GroundingOutput* output, GroundingReport* report) {
  const GroundingSettings& S = settings_;
  const std::size_t legs = S.legs, J = S.legJoints;
  const glm::vec3 up = NormalizeOr(in.up, glm::vec3(0.0f, 1.0f, 0.0f));
  const float scale = in.scale;
  const bool on = in.enabled;
  // The weight in force glides to `weight` through the PD, so a weight change never pops
  // (the first update takes it at once; enabling and disabling glide through the offsets).
  pd::ScalarPD weight = state_.weight;
  if (S.settleTime == 0.0f || !state_.seen) weight.Reset(S.weight);
  else (void)weight.Update(dt, S.weight);
  const float w = static_cast<float>(std::clamp(weight.value(), 0.0, 1.0));
  Desired d;
  d.length = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < legs; ++i) d.length = std::min(d.length, LegLength(&in.legs[i * J]));
  if (!std::isfinite(d.length)) d.length = 0.0f;
  // Derived defaults (docs/rig/grounding.md): from the shortest leg.
  const float maxDrop = std::isnan(S.maxPelvisDrop) ? kDerivedPelvisDrop * d.length : S.maxPelvisDrop * scale;
  const float maxRise = std::isnan(S.maxPelvisRise) ? kDerivedPelvisRise * d.length : S.maxPelvisRise * scale;
  const float plantHeight = std::isnan(S.plantHeight) ? kDerivedPlantHeight * d.length : S.plantHeight * scale;
  const float unplantRadius = std::isnan(S.unplantRadius) ? kDerivedUnplantRadius * d.length : S.unplantRadius * scale;
  // The root's horizontal move (the authored ground's origin moving): a stance foot
  // moves with the ground, not with the root, whatever speed the clip was made for.
  const glm::vec3 rootStep = state_.seen ? Horizontal(in.groundOrigin - state_.origin, up) : glm::vec3(0.0f);
  const glm::vec3 forward = NormalizeOr(Horizontal(in.forward, up), glm::vec3(0.0f), 1e-12f);
  const glm::vec3 right = glm::cross(up, forward);

  // Stage 1: each foot's ground offset, sole rotation and stance (no state change).
  for (std::size_t i = 0; i < legs; ++i) {
    Desired::Foot& f = d.feet[i];
    const GroundHit& g = in.grounds[i];
    const Leg& leg = state_.legs[i];
    f.sole = in.legs[i * J + J - 1].position - S.soleOffsets[i] * scale * up;
    f.lift = glm::dot(f.sole - in.groundOrigin, up);
    glm::vec3 n = NormalizeOr(g.normal, up, 1e-20f);
    if (glm::dot(n, up) < 0.0f) n = -n;
    f.ground = on && g.hit != 0.0f && glm::dot(n, up) >= kWall;
    if (!f.ground) continue;
    f.normal = n, f.point = g.point;
    // Sole rotation: the normal's pitch and roll, each limited, faded out above plantHeight.
    const float nu = glm::dot(n, up);
    const float pitch = std::clamp(std::atan2(-glm::dot(n, forward), nu), -S.maxFootPitch, S.maxFootPitch);
    const float roll = std::clamp(std::atan2(glm::dot(n, right), nu), -S.maxFootRoll, S.maxFootRoll);
    const glm::vec3 limited = glm::normalize(up - std::tan(pitch) * forward + std::tan(roll) * right);
    const float fade = plantHeight > 0.0f ? std::clamp(2.0f - f.lift / plantHeight, 0.0f, 1.0f) : (f.lift <= 0.0f ? 1.0f : 0.0f);
    f.rotation = glm::slerp(kIdentityRotation, Arc(up, limited), w * fade);
    f.stance = Stance(leg, g.plant, f.sole, f.lift, rootStep, dt, plantHeight, 1e-6f * d.length, scale, up);
    // The ground's height above the authored ground under the foot (under its lock once
    // planted; a lock that drifted past unplantRadius follows the sole): every foot keeps
    // its animated clearance, planted or not.
    f.lock = leg.lock;
    if (f.stance && leg.planted) {
      const glm::vec3 drift = Horizontal(leg.lock - f.sole, up);
      const float far = glm::length(drift);
      if (far > unplantRadius) f.lock = leg.lock - drift * ((far - unplantRadius) / far);
    }
    // A free foot stands where its slide carries it (a released lock gliding back: where the
    // glide is after this update), and its ground is taken there.
    const bool held = f.stance && leg.planted;
    f.at = held ? f.lock - glm::dot(f.lock - f.sole, up) * up : f.sole + SlideAfter(leg, dt, up, !f.stance);
    const float t = glm::dot(g.point - f.at, n) / glm::dot(up, n);
    f.offset = w * (t + f.lift);
    // A free foot is kept on this hit's plane exactly; a change between the last hit's plane
    // and this one (a ground edge) is smoothed: compared halfway along the sole's way, where
    // two tangent planes of a smooth ground agree, so only an edge counts.
    if (leg.grounded && !held) {
      const glm::vec3 mid = 0.5f * (leg.at + f.at);
      const float change = w * (glm::dot(g.point - mid, n) / glm::dot(up, n) - glm::dot(leg.point - mid, leg.normal) / glm::dot(up, leg.normal));
      f.change = std::isfinite(change) ? change : 0.0f;
      if (dt > 0.0f && g.edge >= 0.0f) f.edge = g.edge, f.jump = f.change;
    }
  }
  for (std::size_t i = 0; i < legs; ++i) {
    if (!std::isfinite(d.feet[i].offset) || !IsFinite(d.feet[i].rotation)) return Error("legs: pose out of range");
  }

  // Stage 2: smooth each foot, lock planted ones (from here on the state changes).
  state_.weight = weight;
  // Tracks `target`, or blends out to exactly zero when released (disabled, no ground).
  const auto smooth = [&](pd::ScalarPD& pd, float target, bool release) {
    // At rest at zero, toward zero: the update would leave it there (skipped: most slides, a biped's pitch).
    if ((release || (target == 0.0f && pd.target() == 0.0)) && pd.value() == 0.0 && pd.velocity() == 0.0) return 0.0f;
    if (S.settleTime == 0.0f) pd.Reset(release ? 0.0 : target);
    else if (release) (void)pd.UpdateBlendOut(dt, 0.0);
    else (void)pd.Update(dt, target);
    return static_cast<float>(pd.value());
  };
  // A foot on ground: its residual over the exact offset blends out; a change between the
  // hits' planes (`change`) enters it where the edge was crossed, else at mid-step. The exact
  // step is exact on each piece, so where the frames fall does not matter.
  const auto settle = [&](pd::ScalarPD& pd, float change, double edge) {
    if (change == 0.0f || S.settleTime == 0.0f) return smooth(pd, 0.0f, true);
    const double first = edge * static_cast<double>(dt);
    (void)pd.UpdateBlendOut(first, 0.0);
    pd.Reset(pd.value() - change, pd.velocity());
    (void)pd.UpdateBlendOut(static_cast<double>(dt) - first, 0.0);
    return static_cast<float>(pd.value());
  };
  std::array<glm::quat, kMaxGroundLegs> footRotation{};
  // Where a lock is reached from: the pelvis offset the ground asks for (stage 3's first
  // step), lowered by the spread of the feet's ground changes. The pelvis drops to hold a
  // lock only on uneven ground; on the authored floor a lock yields instead.
  // (`moved`: a leg whose offset is taken as `offset`, where its lock is drawn to.)
  const auto needWith = [&](std::size_t moved, float offset) {
    float lowest = std::numeric_limits<float>::infinity(), highest = -lowest;
    for (std::size_t i = 0; i < legs; ++i) {
      if (!d.feet[i].ground) continue;
      const float o = i == moved ? offset : d.feet[i].offset;
      lowest = std::min(lowest, o), highest = std::max(highest, o);
    }
    return std::isfinite(lowest) ? std::clamp(lowest - (highest - lowest), -maxDrop, maxRise) : 0.0f;
  };
  const float groundNeed = needWith(kMaxGroundLegs, 0.0f);
  // The share of a lock's slide the leg reaches from its hip (carried by groundNeed) with
  // its soft zone to spare: a lock farther than that is drawn toward the animated foot,
  // released by a glide, so the pelvis is never lowered to hold it.
  const auto reachable = [&](std::size_t i, const glm::vec3& free, const glm::vec3& slide, const glm::quat& turn, float need) {
    const Transform* leg = &in.legs[i * J];
    const float most = SoftStart(leg, LegLength(leg), S.soften) * (1.0f - 1e-5f);
    glm::vec3 ankle = free + S.soleOffsets[i] * scale * (turn * up);
    if (J == 4) ankle -= turn * (leg[3].position - leg[2].position);
    const glm::vec3 b = ankle - (leg[0].position + need * up);
    // The animated foot itself is always within reach (a clip may straighten the leg).
    const float ss = glm::dot(slide, slide), bs = glm::dot(b, slide), bb = glm::dot(b, b), cc = std::max(most * most, bb);
    if (ss == 0.0f || glm::dot(b + slide, b + slide) <= cc) return 1.0f;
    return std::clamp((-bs + std::sqrt(std::max(bs * bs - ss * (bb - cc), 0.0f))) / ss, 0.0f, 1.0f);
  };
  for (std::size_t i = 0; i < legs; ++i) {
    Leg& leg = state_.legs[i];
    Desired::Foot& f = d.feet[i];
    // A foot on ground stands on it exactly but for a residual (from landing, from a change of
    // ground) that blends out: its PD holds the residual. Off the ground (disabled, no hit) the
    // PD holds the whole offset and blends it out.
    const bool stance = f.ground && f.stance;
    float h;
    if (f.ground) {
      if (!leg.grounded) leg.height.Reset(leg.height.value() - f.offset, leg.height.velocity());
      leg.base = f.offset;
      h = f.offset + settle(leg.height, f.change, f.edge >= 0.0f ? static_cast<double>(f.edge) : 0.5);
      leg.at = f.at, leg.point = f.point, leg.normal = f.normal;
    } else {
      if (leg.grounded) leg.height.Reset(leg.height.value() + leg.base, leg.height.velocity());
      h = smooth(leg.height, 0.0f, true);
    }
    leg.grounded = f.ground;
    leg.plant = in.grounds[i].plant;
    if (S.settleTime == 0.0f) (void)leg.rotation.Reset(glm::dquat(f.ground ? f.rotation : kIdentityRotation));
    else if (f.ground) (void)leg.rotation.Update(dt, f.rotation);
    else (void)leg.rotation.UpdateBlendOut(dt);
    footRotation[i] = glm::normalize(leg.rotation.valuef());
    glm::vec3 free = f.sole + h * up;
    glm::vec3 slide(static_cast<float>(leg.slide[0].value()), static_cast<float>(leg.slide[1].value()),
                    static_cast<float>(leg.slide[2].value()));
    if (stance && !leg.planted) leg.lock = free + slide;  // planted where the foot is now
    else if (stance) leg.lock = f.lock;
    leg.planted = stance;
    if (stance) {
      slide = Horizontal(leg.lock - free, up);
      if (in.grounds[i].plant < 0.0f && reachable(i, free, slide, footRotation[i], groundNeed) < 1.0f) {  // a given plant holds
        // The lock is drawn toward the sole; its ground (and so the pelvis it is reached from)
        // moves with it, so the share kept is where the leg just reaches it (grounding_continuous.h).
        const float nu = glm::dot(up, f.normal), residual = h - f.offset;
        const auto offsetAt = [&](float k) { return w * (glm::dot(in.grounds[i].point - (f.sole + k * slide), f.normal) / nu + f.lift); };
        const float kept = SharedKept([&](float k) {
          const float offset = offsetAt(k);
          return reachable(i, f.sole + (offset + residual) * up, slide, footRotation[i], needWith(i, offset));
        });
        if (const float offset = offsetAt(kept); std::isfinite(offset)) f.offset = leg.base = offset, h = offset + residual, free = f.sole + h * up;
        slide *= kept;
      }
      leg.lock = free + slide;
      leg.at = f.sole + slide;
      for (int k = 0; k < 3; ++k) leg.slide[static_cast<std::size_t>(k)].Reset(slide[k]);
    } else {
      for (int k = 0; k < 3; ++k) slide[k] = smooth(leg.slide[static_cast<std::size_t>(k)], 0.0f, true);
      slide = Horizontal(slide, up);
    }
    d.target[i] = free + slide;
    d.height[i] = h;
    if (dt > 0.0f || !leg.seen) leg.previous = f.sole, leg.seen = true;
  }
  if (dt > 0.0f || !state_.seen) state_.origin = in.groundOrigin, state_.seen = true;
  if (dt > 0.0f) state_.step = dt;
  state_.plantHeight = plantHeight, state_.length = d.length;

  // Stage 3: body pitch (four legs: front pair vs hind pair) and pelvis offset targets.
  glm::vec3 pitchAxis(0.0f);
  float pitchTarget = 0.0f;
  // The body turns about the middle between the hind and the front hips (the pelvis for two
  // legs), so the hind hips go down a rising slope as far as the front ones go up.
  glm::vec3 pivot = in.pelvis.position;
  if (legs == 4) {
    const glm::vec3 hind = 0.5f * (in.legs[0].position + in.legs[J].position);
    const glm::vec3 front = 0.5f * (in.legs[2 * J].position + in.legs[3 * J].position);
    const glm::vec3 along = Horizontal(front - hind, up);
    const float span = glm::length(along);
    if (span > 1e-6f * d.length && span > 0.0f) {
      pitchAxis = glm::cross(along / span, up);
      // The slope between the pairs' feet (farther apart than their hips on most animals).
      const float rise = 0.5f * (d.height[2] + d.height[3] - d.height[0] - d.height[1]);
      const float feet = glm::length(Horizontal(d.feet[2].sole + d.feet[3].sole - d.feet[0].sole - d.feet[1].sole, up)) * 0.5f;
      pitchTarget = std::clamp(std::atan2(rise, feet > span ? feet : span), -S.maxFootPitch, S.maxFootPitch);
      pivot = 0.5f * (hind + front);
    }
  }
  bool grounded = false;  // any foot on ground: else the body blends back to the animation
  for (std::size_t i = 0; i < legs; ++i) grounded = grounded || d.feet[i].ground;
  const float pitch = smooth(state_.pitch, pitchTarget, !grounded || pitchAxis == glm::vec3(0.0f));
  const glm::quat bodyTurn = pitchAxis == glm::vec3(0.0f) ? kIdentityRotation : glm::angleAxis(pitch, pitchAxis);
  // Lowers pelvis offset p (within maxDrop) until every leg, carried by `turn` and p,
  // reaches its foot (each foot's sole at `feet`) with the soft zone to spare.
  const auto reach = [&](float p, const glm::quat& turn, const std::array<glm::vec3, kMaxGroundLegs>& feet) {
    for (std::size_t i = 0; i < legs; ++i) {
      // Every foot with an offset, blending out ones too: no leg is solved past its reach.
      if (!d.feet[i].ground && !FootMoved(state_.legs[i])) continue;
      const Transform* leg = &in.legs[i * J];
      const glm::vec3 hip = pivot + turn * (leg[0].position - pivot) + p * up;
      glm::vec3 ankle = feet[i] + S.soleOffsets[i] * scale * (footRotation[i] * up);
      if (J == 4) ankle -= footRotation[i] * (leg[3].position - leg[2].position);
      const float most = SoftStart(leg, LegLength(leg), S.soften) * (1.0f - 1e-5f);
      const glm::vec3 v = hip - ankle;
      const float vv = glm::dot(v, v);
      if (!(vv > most * most)) continue;
      const float vu = glm::dot(v, up), horizontal = std::max(vv - vu * vu, 0.0f);
      const float drop = horizontal < most * most ? vu - std::sqrt(most * most - horizontal) : vu;
      if (drop > 0.0f) p = std::max(-maxDrop, p - drop);
    }
    return p;
  };
  // The pelvis's target: what the lowest foot needs, then every leg's reach of its foot's
  // target (its height offset unsmoothed: the smoothed feet are reached at once, below, so
  // the target holds no smoothed state and jumps only where a foot's target does); the feet
  // whose edge falls after `at` (a fraction of the step) counted before their jump.
  std::array<glm::vec3, kMaxGroundLegs> goals{};
  const auto goal = [&](float at) {
    float need = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < legs; ++i) {
      goals[i] = d.target[i];
      if (!d.feet[i].ground) continue;
      const glm::vec3 hip = in.legs[i * J].position;
      const float before = d.feet[i].jump != 0.0f && d.feet[i].edge > at ? d.feet[i].jump : 0.0f;
      goals[i] += (d.feet[i].offset - before - d.height[i]) * up;
      need = std::min(need, d.feet[i].offset - before - glm::dot(bodyTurn * (hip - pivot) - (hip - pivot), up));
    }
    return reach(std::isfinite(need) ? std::clamp(need, -maxDrop, maxRise) : 0.0f, bodyTurn, goals);
  };
  const float pelvisTarget = goal(1.0f);
  // The smoothed pelvis; enabled, lowered at once where it lags a leg's reach (never past full reach).
  const float smoothed = HasJumps(d, legs) && grounded && S.settleTime > 0.0f ? SmoothAcrossEdges(state_.pelvis, d, legs, dt, goal)
                                                                             : smooth(state_.pelvis, pelvisTarget, !grounded);
  float pelvis = reach(std::clamp(smoothed, -maxDrop, maxRise), bodyTurn, d.target);

  // Stage 4 (the frame's last step only): carry the legs by the pelvis, solve each leg.
  if (output == nullptr) return Ok();
  const GroundingOutput& out = *output;
  const glm::vec3 lift = pelvis * up;
  out.pelvis->position = pivot + bodyTurn * (in.pelvis.position - pivot) + lift;
  out.pelvis->rotation = glm::normalize(bodyTurn * NormalizeByReciprocalOr(in.pelvis.rotation, kIdentityRotation));
  GroundingReport r;
  r.reached = true;
  const bool bodyMoved = pelvis != 0.0f || pitch != 0.0f;
  for (std::size_t i = 0; i < legs; ++i) {
    const Transform* leg = &in.legs[i * J];
    Transform* o = &out.legs[i * J];
    const Leg& st = state_.legs[i];
    if (!bodyMoved && !FootMoved(st)) {
      std::copy(leg, leg + J, o);  // exactly the animated leg
      continue;
    }
    for (std::size_t k = 0; k < J; ++k) {
      o[k] = {pivot + bodyTurn * (leg[k].position - pivot) + lift,
              glm::normalize(bodyTurn * NormalizeByReciprocalOr(leg[k].rotation, kIdentityRotation))};
    }
    const glm::quat turn = footRotation[i];
    const glm::quat ankleRotation = glm::normalize(turn * NormalizeByReciprocalOr(leg[2].rotation, kIdentityRotation));
    glm::vec3 ankle = d.target[i] + S.soleOffsets[i] * scale * (turn * up);
    if (J == 4) ankle -= turn * (leg[3].position - leg[2].position);
    ankle = Softened(o[0].position, ankle, SoftStart(leg, LegLength(leg), S.soften), LegLength(leg));
    const glm::vec3 thigh = o[1].position - o[0].position, shin = o[2].position - o[1].position;
    if (glm::dot(thigh, thigh) > 0.0f && glm::dot(shin, shin) > 0.0f) {
      const glm::vec3 bend = glm::cross(thigh, shin);
      const glm::quat hipFrame = FrameOf(glm::normalize(thigh), bend);
      const glm::quat kneeFrame = FrameOf(glm::normalize(shin), hipFrame * glm::vec3(0.0f, 0.0f, 1.0f));
      const bool straight = glm::dot(bend, bend) <= 1e-6f * glm::dot(thigh, thigh) * glm::dot(shin, shin);
      TwoBoneFrame frame;
      frame.root = {o[0].position, hipFrame};
      frame.mid = {o[1].position, kneeFrame};
      frame.end = {o[2].position, kIdentityRotation};
      frame.target = ankle;
      frame.pole = straight ? o[1].position + forward * LegLength(leg) : o[1].position;
      TwoBoneResult solved;
      if (SolveTwoBone(limb_, frame, &solved)) {
        o[0].rotation = glm::normalize(solved.root.rotation * glm::conjugate(hipFrame) * o[0].rotation);
        o[1] = {solved.mid.position, glm::normalize(solved.mid.rotation * glm::conjugate(kneeFrame) * o[1].rotation)};
        o[2] = {solved.end.position, ankleRotation};
      }
    }
    if (J == 4) o[3] = {o[2].position + turn * (leg[3].position - leg[2].position), glm::normalize(turn * NormalizeByReciprocalOr(leg[3].rotation, kIdentityRotation))};
    if (st.planted) {
      const glm::vec3 sole = o[J - 1].position - S.soleOffsets[i] * scale * (turn * up);
      // In double, at most the largest float: a hit near the float range still reports a number.
      const double gap = glm::length(glm::dvec3(sole) - glm::dvec3(d.target[i]));
      const float error = static_cast<float>(std::min(gap, static_cast<double>(std::numeric_limits<float>::max())));
      r.maxPlantedError = std::max(r.maxPlantedError, error);
      r.reached = r.reached && error <= 1e-3f;
      ++r.planted;
    }
  }
  r.reached = r.reached && r.planted > 0;
  if (report != nullptr) *report = r;
  return Ok();
}

}  // namespace ikpd::rig
