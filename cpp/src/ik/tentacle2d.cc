#include "ikpd/ik/tentacle2d.h"

#include <algorithm>
#include <cmath>

#include "fields.h"

namespace ikpd {

using describe::CheckRange;
using describe::FirstError;

Status Tentacle2D::Reset(const Tentacle2DSettings& s) {
  if (s.lengths.empty()) return Error("lengths: must have at least one bone");
  for (float l : s.lengths) {
    if (!IsFinite(l) || l < 0.0f) return Error("lengths: every length must be finite and >= 0");
  }
  float total = 0.0f;
  for (float l : s.lengths) total += l;
  if (!(total <= 1e30f)) return Error("lengths: the total length must be at most 1e30");
  if (const Status r = CheckRange<Tentacle2DSettings, "step">(s.step); !r) return r;
  if (!s.limits.empty()) {
    if (s.limits.size() != s.lengths.size()) return Error("limit: needs one limit per bone");
    for (float l : s.limits) {
      if (!(l >= 0.0f) || std::isnan(l)) return Error("limit: every limit must be >= 0");
    }
  } else if (const Status r = CheckRange<Tentacle2DSettings, "limit">(s.limit); !r) {
    return r;
  }
  if (!IsFinite(s.root.x) || !IsFinite(s.root.y)) return Error("root: must be finite");
  if (const Status r = CheckRange<Tentacle2DSettings, "baseAngle">(s.baseAngle); !r) return r;

  const std::size_t n = s.lengths.size();
  Buffer<float> lengths, limits, angles;
  Buffer<glm::vec2> positions;
  if (!lengths.Allocate(n) || !limits.Allocate(n) || !angles.Allocate(n) || !positions.Allocate(n + 1)) {
    return Error("lengths: out of memory for the bones");
  }
  for (std::size_t i = 0; i < n; ++i) {
    lengths[i] = s.lengths[i];
    limits[i] = s.limits.empty() ? s.limit : s.limits[i];
  }
  lengths_ = std::move(lengths);
  limits_ = std::move(limits);
  angles_ = std::move(angles);
  positions_ = std::move(positions);
  step_ = s.step;
  cos_ = std::cos(s.step);
  sin_ = std::sin(s.step);
  root_ = s.root;
  baseAngle_ = s.baseAngle;
  escapeAfter_ = s.escapeAfter;
  totalLength_ = total;
  stalled_ = 0;
  tracking_ = false;
  unwinding_ = false;
  armed_ = true;
  Rebuild();
  return Ok();
}

Status Tentacle2D::SetAngles(std::span<const float> angles) {
  if (angles.size() != angles_.size()) return Error("angles: needs one angle per bone");
  for (std::size_t i = 0; i < angles.size(); ++i) {
    if (!IsFinite(angles[i])) return Error("angles: must be finite");
    if (std::abs(angles[i]) > limits_[i]) return Error("angles: every angle must be within its joint's limit");
  }
  for (std::size_t i = 0; i < angles.size(); ++i) angles_[i] = angles[i];
  stalled_ = 0;
  tracking_ = false;
  unwinding_ = false;
  Rebuild();
  return Ok();
}

void Tentacle2D::Rebuild() {
  // Forward pass (docs/ik/tentacle.md, second half): positions from the root, cumulative angles.
  float direction = baseAngle_;
  positions_[0] = root_;
  for (std::size_t i = 0; i < lengths_.size(); ++i) {
    direction += angles_[i];
    positions_[i + 1] = positions_[i] + lengths_[i] * glm::vec2(std::cos(direction), std::sin(direction));
  }
}

Status Tentacle2D::Update(glm::vec2 target) {
  if (!IsFinite(target.x) || !IsFinite(target.y)) return Error("target: must be finite");
  if (lengths_.empty()) return Error("tentacle: not initialized");
  if (unwinding_) {
    unwinding_ = !UnwindPass();
    Rebuild();
    return Ok();
  }
  GreedyPass(target);
  Rebuild();
  if (escapeAfter_ > 0 && step_ > 0.0f) TrackProgress(target);
  return Ok();
}

void Tentacle2D::GreedyPass(glm::vec2 target) {
  // Backward pass (docs/ik/tentacle.md, first half): from the last joint to the root, only the tip moves.
  glm::vec2 tip = positions_.back();
  for (std::size_t k = lengths_.size(); k-- > 0;) {
    const glm::vec2 joint = positions_[k];
    glm::vec2 x = target - joint;
    const float m = std::max(std::abs(x.x), std::abs(x.y));
    if (m > 0.0f) x /= m;  // only the direction matters; keeps the dot products finite
    const glm::vec2 a = tip - joint;
    const float dotA = glm::dot(a, x);
    const glm::vec2 b(cos_ * a.x - sin_ * a.y, sin_ * a.x + cos_ * a.y);  // +step
    const glm::vec2 c(cos_ * a.x + sin_ * a.y, -sin_ * a.x + cos_ * a.y);  // -step
    const float dotB = angles_[k] + step_ <= limits_[k] ? glm::dot(b, x) : dotA;
    const float dotC = angles_[k] - step_ >= -limits_[k] ? glm::dot(c, x) : dotA;
    if (dotB > dotA && dotB > dotC) {
      angles_[k] += step_;
      tip = joint + b;
    } else if (dotC > dotA && dotC > dotB) {
      angles_[k] -= step_;
      tip = joint + c;
    }
  }
}

bool Tentacle2D::UnwindPass() {
  bool straight = true;
  for (float& angle : angles_) {
    // Toward 0 by at most one step: never past 0, so the limit still holds.
    angle = angle > 0.0f ? std::max(0.0f, angle - step_) : std::min(0.0f, angle + step_);
    straight = straight && angle == 0.0f;
  }
  return straight;
}

void Tentacle2D::TrackProgress(glm::vec2 target) {
  const float tolerance = step_ * totalLength_;  // how far one step of the root joint moves a straight tip
  const float gap = glm::length(positions_.back() - target);
  if (!armed_ && glm::length(target - escapedTarget_) > tolerance) armed_ = true;
  // Progress is measured against the best gap since the target last moved by more than the tolerance.
  if (!tracking_ || glm::length(target - bestTarget_) > tolerance) {
    tracking_ = true;
    bestTarget_ = target;
    bestGap_ = gap;
    stalled_ = 0;
    return;
  }
  if (gap < bestGap_ - 0.05f * tolerance) {
    bestGap_ = gap;
    stalled_ = 0;
    return;
  }
  if (++stalled_ < escapeAfter_) return;
  stalled_ = 0;
  const float bestPossible = std::max(0.0f, glm::length(target - root_) - totalLength_);
  if (!armed_ || gap <= bestPossible + tolerance) return;
  armed_ = false;
  escapedTarget_ = target;
  unwinding_ = true;
  tracking_ = false;
}

}  // namespace ikpd
