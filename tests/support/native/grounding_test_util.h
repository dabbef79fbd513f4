// Grounding tests' helpers: a biped (or quadruped) skeleton with exporter-style
// bone axes, a procedural walk cycle authored by two-bone IK on the authored
// ground (y = 0), analytic grounds (flat, slope, step) queried at the rig's
// probes, and a driver that runs frames and measures what the targets of
// docs/rig/grounding.md name.
#pragma once

#include <cmath>
#include <functional>
#include <vector>

#include "native/rig_test_util.h"

namespace groundtest {

using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
using ikpd::rig::GroundHit;
using ikpd::rig::LocalTransform;
using ikpd::rig::Rig;
using rigtest::World;

// World positions of the skeleton at rest (metres, +Y up, facing +Z):
// 0 body root, 1 pelvis, 2 chest; legs: hip, knee, ankle, toe.
struct Layout {
  std::vector<int> parents;
  std::vector<glm::vec3> positions;
  std::vector<std::vector<int>> legs;  // [hip, knee, ankle, toe] each
  int pelvis = 1, chest = 2;
};

inline Layout Biped() {
  Layout l;
  l.parents = {-1, 0, 1};
  l.positions = {{0, 0, 0}, {0, 1.0f, 0}, {0, 1.3f, 0}};
  for (int side = 0; side < 2; ++side) {
    const float s = side == 0 ? 1.0f : -1.0f;
    const int first = static_cast<int>(l.parents.size());
    l.parents.insert(l.parents.end(), {1, first, first + 1, first + 2});
    l.positions.insert(l.positions.end(), {{0.1f * s, 0.95f, 0}, {0.1f * s, 0.53f, 0.04f}, {0.1f * s, 0.1f, 0}, {0.1f * s, 0.03f, 0.13f}});
    l.legs.push_back({first, first + 1, first + 2, first + 3});
  }
  return l;
}

// Hind legs under the pelvis (z = −0.5), front legs under the chest (z = +0.5).
inline Layout Quadruped() {
  Layout l;
  l.parents = {-1, 0, 1};
  l.positions = {{0, 0, 0}, {0, 0.7f, -0.5f}, {0, 0.72f, 0.5f}};
  for (int leg = 0; leg < 4; ++leg) {
    const float s = leg % 2 == 0 ? 1.0f : -1.0f;
    const float z = leg < 2 ? -0.5f : 0.5f;
    const int first = static_cast<int>(l.parents.size());
    l.parents.insert(l.parents.end(), {leg < 2 ? 1 : 2, first, first + 1, first + 2});
    const float knee = leg < 2 ? -0.05f : 0.05f;
    l.positions.insert(l.positions.end(), {{0.15f * s, 0.65f, z}, {0.15f * s, 0.36f, z + knee}, {0.15f * s, 0.07f, z}, {0.15f * s, 0.02f, z + 0.06f}});
    l.legs.push_back({first, first + 1, first + 2, first + 3});
  }
  return l;
}

// The shortest rotation taking unit a to unit b.
inline glm::quat Arc(const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 c = glm::cross(a, b);
  const float w = 1.0f + glm::dot(a, b);
  if (w < 1e-6f) return glm::angleAxis(3.14159265f, std::abs(a.x) < 0.9f ? glm::normalize(glm::cross(a, glm::vec3(1, 0, 0))) : glm::vec3(0, 1, 0));
  return glm::normalize(glm::quat(w, c.x, c.y, c.z));
}

// Bone axes: 0 identity world rotations, 1 +Y along each bone (three.js/Blender
// exports), 2 −Z along each bone, 3 random per joint.
inline glm::quat Axis(const glm::vec3& bone, int style, iktest::Rng& rng) {
  if (style == 0 || glm::length(bone) < 1e-6f) return ikpd::kIdentityRotation;
  const glm::vec3 d = glm::normalize(bone);
  if (style == 1) return Arc(glm::vec3(0, 1, 0), d);
  if (style == 2) return Arc(glm::vec3(0, 0, -1), d);
  return rng.Rotation();
}

// A rest pose: the layout with joint world rotations by `style`; joint 0 may
// carry a rotation and scale (its children are counter-rotated and scaled so
// the world positions stay those of the layout).
struct Character {
  Layout layout;
  std::vector<LocalTransform> rest;
  std::vector<glm::quat> frames;  // each joint's rest world rotation (the "bone axes")
};

inline Character Make(const Layout& l, int style, unsigned seed = 1, float rootScale = 1.0f,
                      const glm::quat& rootRotation = ikpd::kIdentityRotation) {
  iktest::Rng rng(seed);
  Character c{l, {}, {}};
  c.frames.resize(l.parents.size());
  for (std::size_t j = 0; j < l.parents.size(); ++j) {
    int child = -1;
    for (std::size_t k = j + 1; k < l.parents.size(); ++k) {
      if (l.parents[k] == static_cast<int>(j)) { child = static_cast<int>(k); break; }
    }
    const glm::vec3 bone = child >= 0 ? l.positions[static_cast<std::size_t>(child)] - l.positions[j] : glm::vec3(0, 0, 1);
    c.frames[j] = j == 0 ? ikpd::kIdentityRotation : Axis(bone, style, rng);
  }
  // Joint 0's world rotation is rootRotation (scale rootScale); children undo it.
  c.rest.resize(l.parents.size());
  for (std::size_t j = 0; j < l.parents.size(); ++j) {
    const int p = l.parents[j];
    LocalTransform& t = c.rest[j];
    if (p < 0) {
      t.translation = l.positions[j];
      t.rotation = rootRotation;
      t.scale = glm::vec3(rootScale);
      continue;
    }
    const bool top = p == 0;
    const glm::quat pw = top ? rootRotation : c.frames[static_cast<std::size_t>(p)];
    const float s = rootScale;  // joint 0's scale reaches every joint below it
    t.rotation = glm::normalize(glm::conjugate(pw) * c.frames[j]);
    t.translation = glm::conjugate(pw) * (l.positions[j] - l.positions[static_cast<std::size_t>(p)]) / s;
  }
  return c;
}

// The grounding constraint on a character (toes when `toes`).
inline ConstraintSettings Settings(const Layout& l, bool toes) {
  ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kGrounding);
  s.joints = {l.pelvis};
  if (l.legs.size() == 4) s.joints.push_back(l.chest);
  s.grounding.legJoints = toes ? 4 : 3;
  for (const auto& leg : l.legs) s.legs.insert(s.legs.end(), leg.begin(), leg.begin() + (toes ? 4 : 3));
  return s;
}

// A ground: height and normal at (x, z).
struct Ground {
  std::function<float(float, float)> height;
  std::function<glm::vec3(float, float)> normal;
};
inline Ground Flat(float h) {
  return {[h](float, float) { return h; }, [](float, float) { return glm::vec3(0, 1, 0); }};
}
// Rising along +z by `angle` radians.
inline Ground Slope(float angle) {
  const float t = std::tan(angle);
  return {[t](float, float z) { return t * z; }, [t](float, float) { return glm::normalize(glm::vec3(0, 1, -t)); }};
}
// A step of `rise` at z = `edge` (up ahead when rise > 0), or across x = `edge` when `sideways`.
inline Ground Step(float edge, float rise, bool sideways = false) {
  return {[=](float x, float z) { return (sideways ? x : z) >= edge ? rise : 0.0f; }, [](float, float) { return glm::vec3(0, 1, 0); }};
}

// Fills the rig's grounds from its probes (a vertical ray through each sole).
inline void Query(Rig& rig, const Ground& g, float plant = -1.0f) {
  for (std::size_t i = 0; i < rig.probes().size(); ++i) {
    const glm::vec3 sole = rig.probes()[i].sole;
    GroundHit& hit = rig.grounds()[i];
    hit.point = {sole.x, g.height(sole.x, sole.z), sole.z};
    hit.normal = g.normal(sole.x, sole.z);
    hit.hit = 1.0f;
    hit.plant = plant;
  }
}

// A procedural walk on the authored ground (y = 0), authored in model space:
// each foot is in stance for 60% of the period (still in the world while the
// root moves along +Z at `speed`), then swings forward, lifted by `lift`. The
// knees bend forward (+Z); the ankles keep their rest world rotation.
struct Walk {
  float period = 1.0f;   // seconds
  float stride = 0.4f;   // metres the foot travels in model space during stance
  float lift = 0.08f;    // swing height
  float crouch = 0.05f;  // the pelvis sits this much lower than at rest (stance legs stay bent)
  float speed() const { return stride / (0.6f * period); }
  // 0 ≤ phase < 0.6: stance.
  float Phase(float t, std::size_t leg) const {
    const float p = t / period + (leg % 2 == 0 ? 0.0f : 0.5f) + (leg >= 2 ? 0.25f : 0.0f);
    return p - std::floor(p);
  }
  // The ankle's model-space offset from its rest position.
  glm::vec3 Foot(float t, std::size_t leg) const {
    const float p = Phase(t, leg);
    if (p < 0.6f) return {0.0f, 0.0f, stride * (0.5f - p / 0.6f)};
    const float u = (p - 0.6f) / 0.4f;
    const float s = u - std::sin(2.0f * 3.14159265f * u) / (2.0f * 3.14159265f);
    const float h = std::sin(3.14159265f * u);
    return {0.0f, lift * h * h, stride * (-0.5f + s)};
  }
};

// The animated locals at time t (root translation returned in `root`).
inline std::vector<LocalTransform> WalkPose(const Character& c, const Walk& w, float t, LocalTransform* root) {
  const Layout& l = c.layout;
  std::vector<glm::quat> world = c.frames;
  for (std::size_t i = 0; i < l.legs.size(); ++i) {
    const auto& leg = l.legs[i];
    const std::size_t hip = static_cast<std::size_t>(leg[0]), knee = static_cast<std::size_t>(leg[1]),
                      ankle = static_cast<std::size_t>(leg[2]);
    const float a = glm::length(l.positions[knee] - l.positions[hip]), b = glm::length(l.positions[ankle] - l.positions[knee]);
    const glm::vec3 target = l.positions[ankle] + w.Foot(t, i);
    const glm::vec3 h = l.positions[hip] - glm::vec3(0.0f, w.crouch, 0.0f);
    const float d = std::min(glm::length(target - h), (a + b) * 0.9999f);
    const glm::vec3 dir = glm::normalize(target - h);
    const float cosA = std::clamp((a * a + d * d - b * b) / (2.0f * a * d), -1.0f, 1.0f);
    const glm::vec3 bend = (l.legs.size() == 4 && i < 2) ? glm::vec3(0, 0, -1) : glm::vec3(0, 0, 1);  // hind knees bend back
    const glm::vec3 perp = glm::normalize(bend - glm::dot(bend, dir) * dir);
    const glm::vec3 k = h + a * (cosA * dir + std::sqrt(1.0f - cosA * cosA) * perp);
    const glm::vec3 e = h + d * dir;
    world[hip] = Arc(glm::normalize(l.positions[knee] - l.positions[hip]), glm::normalize(k - h)) * c.frames[hip];
    world[knee] = Arc(glm::normalize(l.positions[ankle] - l.positions[knee]), glm::normalize(e - k)) * c.frames[knee];
  }
  std::vector<LocalTransform> out = c.rest;
  for (std::size_t j = 1; j < l.parents.size(); ++j) {
    const std::size_t p = static_cast<std::size_t>(l.parents[j]);
    const glm::quat pw = p == 0 ? c.rest[0].rotation : world[p];
    out[j].rotation = glm::normalize(glm::conjugate(pw) * world[j]);
  }
  // The pelvis lowered by `crouch` (in its parent's frame).
  const std::size_t pelvis = static_cast<std::size_t>(l.pelvis);
  const std::size_t parent = static_cast<std::size_t>(l.parents[pelvis]);
  const glm::quat pw = parent == 0 ? c.rest[0].rotation : world[parent];
  out[pelvis].translation += glm::conjugate(pw) * glm::vec3(0.0f, -w.crouch, 0.0f) / c.rest[0].scale.x;
  root->translation = {0.0f, 0.0f, w.speed() * t};
  return out;
}

}  // namespace groundtest
