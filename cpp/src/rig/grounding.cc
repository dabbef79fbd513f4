// Grounding: settings, state, input checks and stance (docs/rig/grounding.md).
// The per-frame stages are in grounding_solve.cc.
#include "ikpd/rig/grounding.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "body_parts.h"
#include "fields.h"

namespace ikpd::rig {

namespace {
using body_detail::Horizontal;
bool FiniteAtLeast(float v, float min) { return std::isfinite(v) && v >= min; }

using describe::CheckRange;
using describe::FirstError;
using S = GroundingSettings;

// Sub-steps between frames (docs/rig/grounding.md, "Sub-steps"): each at most this long, so
// a lock drawn and the pelvis target it moves are followed alike at any frame rate.
constexpr float kSubStep = 1.0f / 60.0f;
constexpr int kMostSubSteps = 8;

// The knee between hip h and ankle a (interpolated) with leg b's bone lengths, in the plane of
// the interpolated knee k: the leg's length, and so its reach, is the frame's at every sub-step.
glm::vec3 KneeBetween(const glm::vec3& h, const glm::vec3& k, const glm::vec3& a, const Transform* b) {
  const float l1 = glm::length(b[1].position - b[0].position), l2 = glm::length(b[2].position - b[1].position);
  const glm::vec3 v = a - h;
  const float d = glm::length(v);
  if (!(d > 0.0f) || !std::isfinite(d)) return k;
  const glm::vec3 u = v / d, off = (k - h) - glm::dot(k - h, u) * u;
  const float x = std::min((l1 * l1 - l2 * l2 + d * d) / (2.0f * d), l1), side = glm::length(off);
  if (!(side > 0.0f)) return h + x * u;
  return h + x * u + std::sqrt(std::max(l1 * l1 - x * x, 0.0f)) * (off / side);
}

glm::quat Turned(const glm::quat& a, const glm::quat& b, float t) {
  return glm::slerp(NormalizeByReciprocalOr(a, kIdentityRotation), NormalizeByReciprocalOr(b, kIdentityRotation), t);
}

// NaN is a derived default (resolved per update from the legs); any other value
// must lie in the described range.
template <describe::FieldName Name>
Status CheckDerived(float v) {
  return std::isnan(v) ? Ok() : CheckRange<S, Name>(v);
}
}  // namespace

Status GroundingSettings::Validate() const {
  if (legs != 2 && legs != 4) return Error("legs: must be 2 or 4 legs");
  if (legJoints != 3 && legJoints != 4) return Error("legs: each leg needs 3 or 4 joints ([hip, knee, ankle, toe?])");
  static const char* const kSole[kMaxGroundLegs] = {"soleOffsets[0]: must be finite and > 0", "soleOffsets[1]: must be finite and > 0",
                                                    "soleOffsets[2]: must be finite and > 0", "soleOffsets[3]: must be finite and > 0"};
  for (std::size_t i = 0; i < legs; ++i) {
    if (!(std::isfinite(soleOffsets[i]) && soleOffsets[i] > 0.0f)) return Error(kSole[i]);
  }
  if (const Status s = FirstError({CheckRange<S, "groundHeight">(groundHeight), CheckDerived<"maxPelvisDrop">(maxPelvisDrop),
                                   CheckDerived<"maxPelvisRise">(maxPelvisRise), CheckRange<S, "maxFootPitch">(maxFootPitch),
                                   CheckRange<S, "maxFootRoll">(maxFootRoll), CheckRange<S, "plantSpeed">(plantSpeed),
                                   CheckDerived<"plantHeight">(plantHeight), CheckRange<S, "soften">(soften),
                                   CheckDerived<"unplantRadius">(unplantRadius)});
      !s) {
    return s;
  }
  if (!(weight >= 0.0f && weight <= 1.0f)) return Error("weight: must be in [0, 1]");
  if (!FiniteAtLeast(settleTime, 0.0f)) return Error("settleTime: must be finite and >= 0");
  if (!(std::isfinite(damping) && damping > 0.0f)) return Error("damping: must be finite and > 0");
  if (!FiniteAtLeast(blendOutTime, 0.0f)) return Error("blendOutTime: must be finite and >= 0");
  return Ok();
}

Status Grounding::Reset(const GroundingSettings& settings) { return Apply(settings, false); }
Status Grounding::Configure(const GroundingSettings& settings) { return Apply(settings, true); }

Status Grounding::Apply(const GroundingSettings& settings, bool keepState) {
  if (Status s = settings.Validate(); !s) return s;
  pd::PdSettings pds;
  if (Status s = pd::SettingsFromSettleTime(settings.settleTime > 0.0f ? settings.settleTime : 1.0, settings.damping, &pds); !s) return s;
  pds.blendOutTime = settings.blendOutTime;
  // Slides, pelvis and pitch follow a moving target from the previous one (first-order
  // hold): a ramp is tracked alike at any rate (docs/rig/grounding.md, "Smoothing").
  pd::PdSettings linear = pds;
  linear.targetMotion = pd::TargetMotion::kLinear;
  TwoBoneSettings limb;
  limb.pole = TwoBonePole::kPoint;
  limb.soften = 0.0f;  // the job softens the reach itself, from the animated leg's (grounding_solve.cc)
  limb.endRotation = EndRotation::kWorld;
  TwoBoneSetup setup;
  if (Status s = Prepare(limb, &setup); !s) return s;
  const bool same = keepState && settings.legs == settings_.legs && settings.legJoints == settings_.legJoints;
  State next = same ? state_ : State{};
  // Smoothing turned on (settleTime 0 → > 0): the PDs already hold the offsets applied.
  for (Leg& leg : next.legs) {
    if (Status s = leg.height.Configure(pds); !s) return s;
    if (Status s = leg.rotation.Configure(pds); !s) return s;
    for (pd::ScalarPD& axis : leg.slide) {
      if (Status s = axis.Configure(linear); !s) return s;
    }
  }
  if (Status s = next.pelvis.Configure(linear); !s) return s;
  if (Status s = next.pitch.Configure(linear); !s) return s;
  if (Status s = next.weight.Configure(pds); !s) return s;
  settings_ = settings;
  state_ = next;
  limb_ = setup;
  return Ok();
}

// One frame: the stages run at sub-steps of at most kSubStep from the last update's input to
// this one (docs/rig/grounding.md, "Sub-steps"), only the last one writing the output, so
// state at a time does not depend on where the frames fall. Between the two frames the pose
// is interpolated (positions linearly, rotations along the shortest arc), and each foot's ground is
// the last hit until its edge, this one from there on (an edge not known: the two hits' planes
// interpolated): no query beyond the frame's. A failed step restores the state: errors change nothing.
Status Grounding::Update(float dt, const GroundingInput& in, const GroundingOutput& out, GroundingReport* report) {
  if (Status s = Check(dt, in, out); !s) return s;
  const std::size_t legs = settings_.legs, J = settings_.legJoints;
  const int steps = state_.seen && dt > 0.0f ? static_cast<int>(std::clamp(std::ceil(dt / kSubStep - 1e-3f), 1.0f, static_cast<float>(kMostSubSteps))) : 1;
  State saved;
  if (steps > 1) saved = state_;
  std::array<Transform, kMaxGroundLegs * 4> pose{};
  std::array<GroundHit, kMaxGroundLegs> grounds{};
  GroundingInput at = in;
  at.grounds = std::span<const GroundHit>(grounds.data(), legs);
  const float h = dt / static_cast<float>(steps);
  for (int s = 1; s <= steps; ++s) {
    const float t0 = static_cast<float>(s - 1) / static_cast<float>(steps), t1 = static_cast<float>(s) / static_cast<float>(steps);
    const bool last = s == steps;
    for (std::size_t i = 0; i < legs; ++i) {
      const GroundHit& now = in.grounds[i];
      const float edge = now.edge >= 0.0f ? now.edge : 0.5f;
      const GroundHit& before = state_.groundsBefore[i];
      grounds[i] = last || edge < t1 ? now : before;
      if (now.edge < 0.0f && !last && now.hit != 0.0f && before.hit != 0.0f) {
        grounds[i] = now;
        grounds[i].point = glm::mix(before.point, now.point, t1);
        grounds[i].normal = glm::mix(NormalizeOr(before.normal, in.up, 1e-20f), NormalizeOr(now.normal, in.up, 1e-20f), t1);
      }
      grounds[i].plant = now.plant;
      grounds[i].edge = now.edge >= 0.0f && edge >= t0 && (last || edge < t1) ? std::clamp((now.edge - t0) * static_cast<float>(steps), 0.0f, 1.0f) : -1.0f;
    }
    if (last) {
      at.pelvis = in.pelvis, at.groundOrigin = in.groundOrigin, at.legs = in.legs;
    } else {
      at.pelvis = {glm::mix(state_.pelvisBefore.position, in.pelvis.position, t1), Turned(state_.pelvisBefore.rotation, in.pelvis.rotation, t1)};
      at.groundOrigin = glm::mix(state_.origin, in.groundOrigin, t1);
      for (std::size_t i = 0; i < legs; ++i) {
        const Transform* a = &state_.legsBefore[i * J];
        const Transform* b = &in.legs[i * J];
        Transform* o = &pose[i * J];
        for (std::size_t k = 0; k < J; ++k) {
          o[k].rotation = Turned(a[k].rotation, b[k].rotation, t1);
          o[k].position = glm::mix(a[k].position, b[k].position, t1);
        }
        o[1].position = KneeBetween(o[0].position, o[1].position, o[2].position, b);
      }
      at.legs = std::span<const Transform>(pose.data(), legs * J);
    }
    // A new plant waits for the frame's last step: a lock planted from the interpolated pose
    // would hold the foot off its frame's path. A held lock is drawn, and released, at every step
    // (the pelvis's target follows it between frames); a free foot's glide goes on.
    std::array<bool, kMaxGroundLegs> unplanted{};
    std::array<glm::vec3, kMaxGroundLegs> lock{};
    std::array<std::array<pd::ScalarPD, 3>, kMaxGroundLegs> slide{};
    for (std::size_t i = 0; i < legs && !last; ++i) unplanted[i] = !state_.legs[i].planted, lock[i] = state_.legs[i].lock, slide[i] = state_.legs[i].slide;
    if (Status st = Advance(h, at, last ? &out : nullptr, last ? report : nullptr); !st) {
      if (steps > 1) state_ = saved;
      return st;
    }
    for (std::size_t i = 0; i < legs && !last; ++i) {
      Leg& leg = state_.legs[i];
      if (unplanted[i] && leg.planted) leg.planted = false, leg.lock = lock[i], leg.slide = slide[i];
    }
  }
  if (dt > 0.0f) state_.step = dt;
  state_.pelvisBefore = in.pelvis;
  std::copy(in.legs.begin(), in.legs.end(), state_.legsBefore.begin());
  std::copy(in.grounds.begin(), in.grounds.end(), state_.groundsBefore.begin());
  return Ok();
}

// A leg's slide (world, horizontal) after this update: blended out when `release`d, else as it is.
glm::vec3 Grounding::SlideAfter(const Leg& leg, float dt, const glm::vec3& up, bool release) const {
  glm::vec3 slide(0.0f);
  for (std::size_t k = 0; k < 3; ++k) {
    pd::ScalarPD axis = leg.slide[k];
    if (release && axis.value() == 0.0 && axis.velocity() == 0.0) continue;
    if (release && settings_.settleTime == 0.0f) axis.Reset(0.0);
    else if (release) (void)axis.UpdateBlendOut(dt, 0.0);
    slide[static_cast<glm::length_t>(k)] = static_cast<float>(axis.value());
  }
  return Horizontal(slide, up);
}

// Stance: the flag, else slow and low (leaving it takes 1.5× either threshold). `rootStep`:
// the root's horizontal move over dt.
bool Grounding::Stance(const Leg& leg, float plant, const glm::vec3& sole, float lift, const glm::vec3& rootStep, float dt, float plantHeight,
                       float tolerance, float scale, const glm::vec3& up) const {
  if (plant >= 0.0f) return plant >= 0.5f;
  if (!(dt > 0.0f)) return leg.planted;
  // A stance foot may move up to half as fast as it travels against the root (a clip in
  // place on a moving root); a foot carried along with the root is not planted.
  const glm::vec3 step = leg.seen ? Horizontal(sole - leg.previous, up) : glm::vec3(0.0f);
  const float speed = glm::length(step) / dt, against = glm::length(step - rootStep) / dt, rootSpeed = glm::length(rootStep) / dt;
  const float k = leg.planted ? 1.5f : 1.0f;
  return lift <= k * plantHeight + tolerance && speed <= k * (settings_.plantSpeed * scale + 0.5f * std::min(rootSpeed, against));
}

glm::vec3 Grounding::standing(std::size_t leg, const glm::vec3& sole, const glm::vec3& groundOrigin, const glm::vec3& up, float scale) const {
  const Leg& st = state_.legs[leg];
  const glm::vec3 u = NormalizeOr(up, glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::vec3 rootStep = state_.seen ? Horizontal(groundOrigin - state_.origin, u) : glm::vec3(0.0f);
  const bool stance = Stance(st, st.plant, sole, glm::dot(sole - groundOrigin, u), rootStep, state_.step, state_.plantHeight,
                             1e-6f * state_.length, scale, u);
  if (stance && st.planted) {
    const glm::vec3 to = st.lock - sole;
    return sole + to - glm::dot(to, u) * u;
  }
  return sole + SlideAfter(st, state_.step, u, !stance);
}

bool Grounding::active() const {
  if (state_.pelvis.value() != 0.0 || state_.pitch.value() != 0.0) return true;
  for (std::size_t i = 0; i < settings_.legs; ++i) {
    if (FootMoved(state_.legs[i])) return true;
  }
  return false;
}

Status Grounding::Check(float dt, const GroundingInput& in, const GroundingOutput& out) const {
  if (!std::isfinite(dt) || dt < 0.0f) return Error("dt: must be finite and >= 0");
  const std::size_t legs = settings_.legs, joints = legs * settings_.legJoints;
  if (in.legs.size() != joints) return Error("legs: needs legs × legJoints transforms");
  if (in.grounds.size() != legs) return Error("grounds: needs one hit per leg");
  if (out.pelvis == nullptr || out.legs.size() != joints) return Error("output: needs the pelvis and legs × legJoints transforms");
  if (out.legs.data() == in.legs.data()) return Error("output: must not alias the input");
  if (!(std::isfinite(in.scale) && in.scale > 0.0f)) return Error("scale: must be finite and > 0");
  if (!IsFinite(in.pelvis) || !IsUsableRotation(in.pelvis.rotation) || !IsFinite(in.groundOrigin)) return Error("pelvis: must be finite");
  if (!IsFinite(in.up) || in.up == glm::vec3(0.0f)) return Error("up: must be a finite non-zero vector");
  if (!IsFinite(in.forward)) return Error("forward: must be finite");
  for (const Transform& t : in.legs) {
    if (!IsFinite(t) || !IsUsableRotation(t.rotation)) return Error("legs: must be finite with non-zero rotations");
  }
  static const char* const kNames[kMaxGroundLegs][5] = {
      {"grounds[0].hit: must be finite", "grounds[0].plant: must be finite", "grounds[0].point: must be finite", "grounds[0].normal: must be finite", "grounds[0].edge: must be finite and <= 1"},
      {"grounds[1].hit: must be finite", "grounds[1].plant: must be finite", "grounds[1].point: must be finite", "grounds[1].normal: must be finite", "grounds[1].edge: must be finite and <= 1"},
      {"grounds[2].hit: must be finite", "grounds[2].plant: must be finite", "grounds[2].point: must be finite", "grounds[2].normal: must be finite", "grounds[2].edge: must be finite and <= 1"},
      {"grounds[3].hit: must be finite", "grounds[3].plant: must be finite", "grounds[3].point: must be finite", "grounds[3].normal: must be finite", "grounds[3].edge: must be finite and <= 1"}};
  for (std::size_t i = 0; i < legs; ++i) {
    const GroundHit& g = in.grounds[i];
    if (!std::isfinite(g.hit)) return Error(kNames[i][0]);
    if (!std::isfinite(g.plant)) return Error(kNames[i][1]);
    if (!(std::isfinite(g.edge) && g.edge <= 1.0f)) return Error(kNames[i][4]);
    if (g.hit == 0.0f) continue;
    if (!IsFinite(g.point)) return Error(kNames[i][2]);
    if (!IsFinite(g.normal)) return Error(kNames[i][3]);
  }
  return Ok();
}

}  // namespace ikpd::rig
