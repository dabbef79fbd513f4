// The body's path within a frame for the avatar's steps (avatar_steps.cc;
// docs/rig/avatar.md, "Steps"): the body on the ground, its position along
// the cubic through the last frames' positions (At), its velocity (Motion)
// and that velocity smoothed (Calm), each foot's place and when it is due,
// and a step's pace (Hurry, integrated over the frame: Pace). Included by
// avatar_steps.cc alone.
#pragma once

#include <algorithm>
#include <cmath>

#include "../../ik/ik_math.h"
#include "avatar.h"
#include "avatar_angles.h"

namespace ikpd::rig::detail::avatar_path {

using ikpd::detail::AxisAngle;

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
inline Transform Body(const Stage& stage, const AvatarState& a, const Transform& pelvis) {
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
  Transform Place(int side, float u, AvatarPastRef* ref = nullptr) const {
    const glm::vec3 at = At(u);
    // The frame's ends (most calls) without the slerp's arc cosine: the ends themselves.
    const glm::quat turn = u == 0.0f ? from.rotation : u == 1.0f ? to.rotation : Unit(glm::slerp(from.rotation, to.rotation, u));
    Transform place{at + turn * (scale * offsets[side].position), Unit(turn * offsets[side].rotation)};
    const glm::vec3 out = turn * (side == 0 ? left : -left);  // away from the other foot
    const float apart = glm::dot(place.position - plants[1 - side].position, out);
    if (ref != nullptr) ref->apart = apart - gap, ref->lever = glm::length(place.position - plants[1 - side].position);
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
  bool Due(const Transform& plant, int side, float u) const { return u >= settleAt[side] || Past(plant, side, u); }
  // The thresholds alone: the plant past stepThreshold or angleThreshold from the led place.
  // With `ref` (at u = 1), how far inside both it was too (Clear).
  bool Past(const Transform& plant, int side, float u, AvatarPastRef* ref = nullptr) const {
    Transform place = Place(side, u, ref);
    place.position += Lead(u);
    const glm::vec3 d = Flat(place.position - plant.position);
    if (ref != nullptr) {
      const glm::quat q = place.rotation * glm::conjugate(plant.rotation);
      ref->to = to, ref->calm = calmEnd, ref->inside = s->stepThreshold - glm::length(d);
      ref->turn = std::abs(q.w) * sinHalf - std::abs(glm::dot(glm::vec3(q.x, q.y, q.z), up)) * cosHalf;
      ref->size = scale * glm::length(offsets[side].position);
      ref->slack = 2e-5f * (1.0f + glm::length(to.position) + glm::length(plant.position) + ref->size + ref->lever + s->stepThreshold);
    }
    return glm::dot(d, d) > s->stepThreshold * s->stepThreshold || TurnedPast(plant, place);
  }
  // Whether the plant is surely inside both thresholds at the frame's end,
  // bounded from `ref` (a judgement in full at an earlier frame's end with
  // the same plants, offsets and settings) without the place: the body moved
  // by |Δp| and turned by Δ since, which moves the place by at most
  // |Δp| + 2·|vec Δ|·size (every rotated offset by 2·|vec Δ| of its length,
  // the other foot's gap line too: none kept out by it then or now), the lead
  // by stepPrediction·|Δcalm| (Flat and the clip move nothing farther), and
  // the turn's margin (1-Lipschitz in the quaternion) by |Δ − 1| ≤ 1.04·|vec Δ|
  // while |Δ.w| > 0.9 (docs/rig/avatar.md, "Steps").
  // The body's drift since a reference (|vec Δ|, |Δp|, the lead's bound;
  // e < 0: turned too far to bound), once a frame for both feet when they
  // share it (DriftFor).
  struct Drift {
    float e = -1.0f, moved = 0.0f, lead = 0.0f;
  };
  Drift DriftFrom(const AvatarPastRef& ref) const {
    const glm::quat d = to.rotation * glm::conjugate(ref.to.rotation);
    if (!(std::abs(d.w) > 0.9f)) return {};
    return {std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), glm::length(to.position - ref.to.position),
            s->stepPrediction * glm::length(calmEnd - ref.calm)};
  }
  bool Clear(const AvatarPastRef& ref, const Drift& d) const {
    if (!(d.e >= 0.0f)) return false;
    const float moved = d.moved + 2.0f * d.e * ref.size;
    return ref.turn > 1.04f * d.e + 1e-5f && ref.apart > moved + 2.0f * d.e * ref.lever + ref.slack &&
           ref.inside > moved + d.lead + ref.slack;
  }
  glm::vec3 calmEnd{0.0f};  // Calm(1), once a frame (after PrepareMotion, calm and fadeEnd)
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

inline float Ease(float x) { return x * x * (3.0f - 2.0f * x); }

// How much faster than stepTime the step under way goes at fraction u of
// the frame (docs/rig/avatar.md, "Steps"): 1, or while the body's smoothed
// speed along the ground (Calm) is past kHurrySpeed × stepThreshold /
// stepTime (it outruns one foot at a time: a quick side step), 2 × its ratio
// to that speed − 1, at most kMostHurry. A function of time, not of the
// frame's chord, so a snap turn (a jump of the body within a frame) and every
// slower motion never hurry, at any frame rate. stepThreshold 0 never hurries.
constexpr float kHurrySpeed = 2.5f, kMostHurry = 3.0f;
inline float Hurry(const Frame& f, float u) {
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
inline Pace PaceOf(const Frame& f, float u) {
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

}  // namespace ikpd::rig::detail::avatar_path
