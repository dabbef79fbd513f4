// Grounding: one update (docs/rig/grounding.md, the model). Stages, in order:
// FootTargets (ground offset, sole rotation, stance) → SmoothFeet (PDs and
// plant lock) → BodyTargets (pitch, pelvis offset) → SmoothBody → SolveLegs
// (carry by the pelvis, two-bone IK per leg). Every check happens first, so a
// failed update changes nothing.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ikpd/rig/grounding.h"
#include "body_parts.h"

namespace ikpd::rig {

namespace {
using body_detail::FrameOf;
using body_detail::Horizontal;
const glm::dquat kIdentityD(1.0, 0.0, 0.0, 0.0);
constexpr float kWall = 0.1f;  // |n·up| below this: a wall, not ground

// The shortest rotation taking unit a to unit b (|angle| < π).
glm::quat Arc(const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 c = glm::cross(a, b);
  return NormalizeOr(glm::quat(1.0f + glm::dot(a, b), c.x, c.y, c.z), kIdentityRotation);
}

float LegLength(const Transform* leg) {
  return glm::length(leg[1].position - leg[0].position) + glm::length(leg[2].position - leg[1].position);
}
}  // namespace

// Per leg, this update's targets (world).
struct Grounding::Desired {
  struct Foot {
    glm::vec3 sole{0.0f};     // animated sole point
    glm::vec3 normal{0.0f};   // ground normal (unit, toward up)
    glm::vec3 point{0.0f};    // a ground point
    float lift = 0.0f;        // animated sole height above the authored ground
    float offset = 0.0f;      // target height offset (weighted)
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // target sole rotation (weighted)
    bool ground = false;
    bool stance = false;
  };
  std::array<Foot, kMaxGroundLegs> feet;
  std::array<glm::vec3, kMaxGroundLegs> target{};  // effector's final sole point
  float length = 0.0f;  // shortest leg
};

Status Grounding::Update(float dt, const GroundingInput& in, const GroundingOutput& out, GroundingReport* report) {
  if (Status s = Check(dt, in, out); !s) return s;
  const GroundingSettings& S = settings_;
  const std::size_t legs = S.legs, J = S.legJoints;
  const glm::vec3 up = NormalizeOr(in.up, glm::vec3(0.0f, 1.0f, 0.0f));
  const float scale = in.scale;
  const bool on = in.enabled;
  const float w = S.weight;
  Desired d;
  d.length = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < legs; ++i) d.length = std::min(d.length, LegLength(&in.legs[i * J]));
  if (!std::isfinite(d.length)) d.length = 0.0f;
  // Derived defaults (docs/rig/grounding.md): from the shortest leg.
  const float maxDrop = std::isnan(S.maxPelvisDrop) ? 0.3f * d.length : S.maxPelvisDrop * scale;
  const float maxRise = std::isnan(S.maxPelvisRise) ? 0.1f * d.length : S.maxPelvisRise * scale;
  const float plantHeight = std::isnan(S.plantHeight) ? 0.03f * d.length : S.plantHeight * scale;
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
    // Stance: the flag, else slow and low (leaving it takes 1.5× either threshold).
    if (g.plant >= 0.0f) {
      f.stance = g.plant >= 0.5f;
    } else if (dt > 0.0f) {
      const float speed = leg.seen ? glm::length(Horizontal(f.sole - leg.previous, up)) / dt : 0.0f;
      const float k = leg.planted ? 1.5f : 1.0f;
      f.stance = f.lift <= k * plantHeight + 1e-6f * d.length && speed <= k * S.plantSpeed * scale;
    } else {
      f.stance = leg.planted;
    }
    // Along up to the ground plane: a free foot keeps its animated lift above it; a stance
    // foot stands on it, under its lock once planted.
    const glm::vec3 at = f.stance && leg.planted ? leg.lock - glm::dot(leg.lock - f.sole, up) * up : f.sole;
    const float t = glm::dot(g.point - at, n) / glm::dot(up, n);
    f.offset = w * (f.stance ? t : t + f.lift);
  }
  for (std::size_t i = 0; i < legs; ++i) {
    if (!std::isfinite(d.feet[i].offset) || !IsFinite(d.feet[i].rotation)) return Error("legs: pose out of range");
  }

  // Stage 2: smooth each foot, lock planted ones (from here on the state changes).
  // Tracks `target`, or blends out to exactly zero when released (disabled, no ground).
  const auto smooth = [&](pd::ScalarPD& pd, float target, bool release) {
    // At rest at zero, toward zero: the update would leave it there (skipped: most slides, a biped's pitch).
    if ((release || (target == 0.0f && pd.target() == 0.0)) && pd.value() == 0.0 && pd.velocity() == 0.0) return 0.0f;
    if (S.settleTime == 0.0f) pd.Reset(release ? 0.0 : target);
    else if (!release) (void)pd.Update(dt, target);
    else (void)pd.UpdateBlendOut(dt, 0.0);
    return static_cast<float>(pd.value());
  };
  std::array<glm::quat, kMaxGroundLegs> footRotation{};
  for (std::size_t i = 0; i < legs; ++i) {
    Leg& leg = state_.legs[i];
    const Desired::Foot& f = d.feet[i];
    // A planted foot stands on its ground exactly but for a residual from landing that
    // blends out (its PD holds the residual); a free foot's PD holds its height offset.
    const bool stance = f.ground && f.stance;
    float h;
    if (stance) {
      if (!leg.planted) leg.height.Reset(leg.height.value() - f.offset, leg.height.velocity());
      leg.base = f.offset;
      h = f.offset + smooth(leg.height, 0.0f, true);
    } else {
      if (leg.planted) leg.height.Reset(leg.height.value() + leg.base, leg.height.velocity());
      h = smooth(leg.height, f.offset, !f.ground);
    }
    if (S.settleTime == 0.0f) (void)leg.rotation.Reset(glm::dquat(f.ground ? f.rotation : kIdentityRotation));
    else if (f.ground) (void)leg.rotation.Update(dt, f.rotation);
    else (void)leg.rotation.UpdateBlendOut(dt);
    footRotation[i] = glm::normalize(leg.rotation.valuef());
    const glm::vec3 free = f.sole + h * up;
    glm::vec3 slide(static_cast<float>(leg.slide[0].value()), static_cast<float>(leg.slide[1].value()),
                    static_cast<float>(leg.slide[2].value()));
    if (stance && !leg.planted) leg.lock = free + slide;  // planted where the foot is now
    leg.planted = stance;
    if (stance) {
      slide = Horizontal(leg.lock - free, up);
      for (int k = 0; k < 3; ++k) leg.slide[static_cast<std::size_t>(k)].Reset(slide[k]);
    } else {
      for (int k = 0; k < 3; ++k) slide[k] = smooth(leg.slide[static_cast<std::size_t>(k)], 0.0f, true);
      slide = Horizontal(slide, up);
    }
    d.target[i] = free + slide;
    if (dt > 0.0f || !leg.seen) leg.previous = f.sole, leg.seen = true;
  }

  // Stage 3: body pitch (four legs: front pair vs hind pair) and pelvis offset targets.
  glm::vec3 pitchAxis(0.0f);
  float pitchTarget = 0.0f;
  if (legs == 4) {
    const glm::vec3 hind = 0.5f * (in.legs[0].position + in.legs[J].position);
    const glm::vec3 front = 0.5f * (in.legs[2 * J].position + in.legs[3 * J].position);
    const glm::vec3 along = Horizontal(front - hind, up);
    const float span = glm::length(along);
    if (span > 1e-6f * d.length && span > 0.0f) {
      pitchAxis = glm::cross(along / span, up);
      const float rise = 0.5f * (d.feet[2].offset + d.feet[3].offset - d.feet[0].offset - d.feet[1].offset);
      pitchTarget = std::clamp(std::atan2(rise, span), -S.maxFootPitch, S.maxFootPitch);
    }
  }
  bool grounded = false;  // any foot on ground: else the body blends back to the animation
  for (std::size_t i = 0; i < legs; ++i) grounded = grounded || d.feet[i].ground;
  const float pitch = smooth(state_.pitch, pitchTarget, !grounded || pitchAxis == glm::vec3(0.0f));
  const glm::quat bodyTurn = pitchAxis == glm::vec3(0.0f) ? kIdentityRotation : glm::angleAxis(pitch, pitchAxis);
  const glm::vec3 pivot = in.pelvis.position;
  float need = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < legs; ++i) {
    if (!d.feet[i].ground) continue;
    const glm::vec3 hip = in.legs[i * J].position;
    need = std::min(need, d.feet[i].offset - glm::dot(bodyTurn * (hip - pivot) - (hip - pivot), up));
  }
  // Lowers pelvis offset p (within maxDrop) until every leg, carried by `turn` and p,
  // reaches its foot with the soft zone to spare.
  const auto reach = [&](float p, const glm::quat& turn) {
    for (std::size_t i = 0; i < legs; ++i) {
      if (!d.feet[i].ground) continue;  // a foot without ground keeps its animated pose
      const Transform* leg = &in.legs[i * J];
      const glm::vec3 hip = pivot + turn * (leg[0].position - pivot) + p * up;
      glm::vec3 ankle = d.target[i] + S.soleOffsets[i] * scale * (footRotation[i] * up);
      if (J == 4) ankle -= footRotation[i] * (leg[3].position - leg[2].position);
      const float most = LegLength(leg) * (1.0f - S.soften) * (1.0f - 1e-5f);
      const glm::vec3 v = hip - ankle;
      const float vv = glm::dot(v, v);
      if (!(vv > most * most)) continue;
      const float vu = glm::dot(v, up), horizontal = std::max(vv - vu * vu, 0.0f);
      const float drop = horizontal < most * most ? vu - std::sqrt(most * most - horizontal) : vu;
      if (drop > 0.0f) p = std::max(-maxDrop, p - drop);
    }
    return p;
  };
  const float pelvisTarget = reach(std::isfinite(need) ? std::clamp(need, -maxDrop, maxRise) : 0.0f, bodyTurn);
  // The smoothed pelvis; enabled, lowered at once where it lags a leg's reach (never past full reach).
  float pelvis = std::clamp(smooth(state_.pelvis, pelvisTarget, !grounded), -maxDrop, maxRise);
  if (grounded) pelvis = reach(pelvis, bodyTurn);

  // Stage 4: carry the legs by the pelvis, solve each leg.
  const glm::vec3 lift = pelvis * up;
  out.pelvis->position = in.pelvis.position + lift;
  out.pelvis->rotation = glm::normalize(bodyTurn * NormalizeByReciprocalOr(in.pelvis.rotation, kIdentityRotation));
  GroundingReport r;
  const bool bodyMoved = pelvis != 0.0f || pitch != 0.0f;
  for (std::size_t i = 0; i < legs; ++i) {
    const Transform* leg = &in.legs[i * J];
    Transform* o = &out.legs[i * J];
    const Leg& st = state_.legs[i];
    const bool footMoved = st.height.value() != 0.0 || st.rotation.value() != kIdentityD || st.planted ||
                           st.slide[0].value() != 0.0 || st.slide[1].value() != 0.0 || st.slide[2].value() != 0.0;
    if (!bodyMoved && !footMoved) {
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
      const Desired::Foot& f = d.feet[i];
      const glm::vec3 sole = o[J - 1].position - S.soleOffsets[i] * scale * (turn * up);
      // In double, at most the largest float: a hit near the float range still reports a number.
      const double gap = std::abs(glm::dot(glm::dvec3(sole) - glm::dvec3(f.point), glm::dvec3(f.normal)));
      const float error = static_cast<float>(std::min(gap, static_cast<double>(std::numeric_limits<float>::max())));
      r.maxPlantedError = std::max(r.maxPlantedError, error);
      r.reached = r.reached && error <= 1e-3f;
      ++r.planted;
    }
  }
  if (report != nullptr) *report = r;
  return Ok();
}

}  // namespace ikpd::rig
