#include "ikpd/chain/chain.h"

#include <algorithm>
#include <array>
#include <limits>
#include <cmath>

#include <glm/gtc/type_precision.hpp>
#include <glm/mat3x3.hpp>

#include "rotation.h"

namespace ikpd {
namespace {

using chain_detail::Arc;

const glm::quat kIdentity(1.0f, 0.0f, 0.0f, 0.0f);

// three.js Euler 'XYZ' (R = Rx·Ry·Rz) from a unit quaternion.
glm::vec3 EulerXYZ(const glm::quat& q) {
  const glm::mat3 m = glm::mat3_cast(q);  // m[column][row]
  const float m13 = m[2][0];
  const float y = std::asin(std::clamp(m13, -1.0f, 1.0f));
  if (std::abs(m13) < 0.9999999f) {
    return {std::atan2(-m[2][1], m[2][2]), y, std::atan2(-m[1][0], m[0][0])};
  }
  return {std::atan2(m[1][2], m[1][1]), y, 0.0f};
}

glm::quat FromEulerXYZ(const glm::vec3& e) {
  return glm::angleAxis(e.x, glm::vec3(1.0f, 0.0f, 0.0f)) * glm::angleAxis(e.y, glm::vec3(0.0f, 1.0f, 0.0f)) *
         glm::angleAxis(e.z, glm::vec3(0.0f, 0.0f, 1.0f));
}

// Returns the limited local rotation.
glm::quat ApplyLimit(const JointLimit& limit, const glm::quat& local, const glm::vec3& forward) {
  switch (limit.kind) {
    case JointLimit::Kind::kCone: {
      const glm::vec3 axis = chain_detail::SafeNormalize(limit.axis, forward);
      const glm::vec3 d = local * forward;
      const float c = glm::dot(d, axis);
      const float cosMax = std::cos(limit.angle);
      if (c >= cosMax) return local;
      glm::vec3 perp = d - axis * c;
      float lp = glm::length(perp);
      if (lp < 1e-6f) {  // pointing straight away from the axis: pick any side
        perp = glm::cross(axis, glm::vec3(1.0f, 0.0f, 0.0f));
        if (glm::dot(perp, perp) < 1e-4f) perp = glm::cross(axis, glm::vec3(0.0f, 1.0f, 0.0f));
        lp = glm::length(perp);
      }
      const glm::vec3 limited = axis * cosMax + (perp / lp) * std::sin(limit.angle);
      return glm::normalize(Arc(d, limited) * local);
    }
    case JointLimit::Kind::kEuler: {
      const glm::vec3 e = EulerXYZ(local);
      const glm::vec3 clamped = glm::clamp(e, limit.min, limit.max);
      if (clamped == e) return local;
      return FromEulerXYZ(clamped);
    }
    case JointLimit::Kind::kNone:
      break;
  }
  return local;
}

struct Solver {
  const ChainJob& job;
  std::size_t n;
  glm::vec3 forward;   // unit
  glm::quat parent;    // unit
  glm::quat tipLocal;  // tip rotation relative to the last bone

  // The solve runs in normalized coordinates p' = (p − root) / scale, so huge
  // and tiny inputs behave like unit-sized ones (no overflow, no underflow).
  glm::dvec3 origin{0.0};
  double scale = 1.0;
  glm::vec3 target{0.0f};
  glm::vec3 pole{0.0f};  // unit direction root → pole (only its direction matters); zero when none

  glm::vec3 Normalized(const glm::vec3& p) const { return glm::vec3((glm::dvec3(p) - origin) / scale); }
  glm::vec3 Input(std::size_t i) const { return Normalized(job.joints[i].position); }
  // Bone lengths in normalized units, cached for chains of up to kCached bones.
  static constexpr std::size_t kCached = 256;
  std::array<float, kCached> lengths{};
  float InputLength(std::size_t i) const { return glm::distance(Input(i + 1), Input(i)); }
  float Length(std::size_t i) const { return i < kCached ? lengths[i] : InputLength(i); }

  void Normalize() {
    origin = glm::dvec3(job.joints[0].position);
    double extent = 0.0;
    auto grow = [&](const glm::vec3& p) {
      const glm::dvec3 d = glm::abs(glm::dvec3(p) - origin);
      extent = std::max(extent, std::max(d.x, std::max(d.y, d.z)));
    };
    for (const Transform& j : job.joints) grow(j.position);
    grow(job.target);
    scale = extent > 0.0 ? extent : 1.0;
    target = Normalized(job.target);
    // The pole is a direction from the root: it must not set the scale (a far
    // pole would shrink the chain toward float underflow).
    if (job.hasPole) {
      const glm::dvec3 d = glm::dvec3(job.pole) - origin;
      const double m = std::max(std::abs(d.x), std::max(std::abs(d.y), std::abs(d.z)));
      pole = m > 0.0 ? glm::vec3(glm::normalize(d / m)) : glm::vec3(0.0f);
    }
    for (std::size_t i = 0; i + 1 < n && i < kCached; ++i) lengths[i] = InputLength(i);
  }

  void Denormalize() {
    constexpr double kMax = 3.4028234663852886e38;  // FLT_MAX: clamp instead of overflowing
    for (std::size_t i = 0; i < n; ++i) {
      const glm::dvec3 p = origin + glm::dvec3(job.output[i].position) * scale;
      job.output[i].position = glm::vec3(glm::clamp(p, glm::dvec3(-kMax), glm::dvec3(kMax)));
    }
  }
  const JointLimit* Limit(std::size_t i) const {
    if (i >= job.limits.size() || job.limits[i].kind == JointLimit::Kind::kNone) return nullptr;
    return &job.limits[i];
  }
  glm::quat Limited(std::size_t i, const glm::quat& parentRotation, const glm::quat& rotation) const {
    const JointLimit* limit = Limit(i);
    if (!limit) return rotation;
    return glm::normalize(parentRotation * ApplyLimit(*limit, glm::conjugate(parentRotation) * rotation, forward));
  }
  glm::quat ParentOf(std::size_t i) const { return i == 0 ? parent : job.output[i - 1].rotation; }

  // Input rotations, normalized and turned so `forward` points at the child.
  void Align() {
    for (std::size_t i = 0; i < n; ++i) {
      job.output[i].position = Input(i);
      job.output[i].rotation = chain_detail::SafeNormalize(job.joints[i].rotation);
    }
    for (std::size_t i = 0; i + 1 < n; ++i) {
      glm::quat& r = job.output[i].rotation;
      r = glm::normalize(Arc(r * forward, Input(i + 1) - Input(i)) * r);
    }
    tipLocal = glm::conjugate(job.output[n - 2].rotation) * job.output[n - 1].rotation;
  }

  // Forward kinematics from the root; output[i].rotation holds local rotations on entry.
  void ForwardKinematics() {
    glm::quat r = parent;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      r = glm::normalize(r * job.output[i].rotation);
      job.output[i].rotation = r;
      job.output[i + 1].position = job.output[i].position + r * (forward * Length(i));
    }
    job.output[n - 1].rotation = glm::normalize(r * tipLocal);
  }

  void CcdSweep() {
    glm::vec3 tip = job.output[n - 1].position;
    for (std::size_t i = n - 1; i-- > 0;) {
      const glm::vec3 p = job.output[i].position;
      const glm::quat r = job.output[i].rotation;
      const glm::quat pr = ParentOf(i);  // world rotation (ancestors are untouched this sweep)
      const glm::vec3 a = tip - p;
      glm::quat turned = glm::normalize(Arc(a, target - p) * r);
      turned = Limited(i, pr, turned);
      tip = p + (turned * glm::conjugate(r)) * a;
      job.output[i].rotation = glm::conjugate(pr) * turned;  // local, for ForwardKinematics
    }
    ForwardKinematics();
  }

  void FabrikIteration() {
    // Backward: tip on the target, each joint pulled toward its child.
    job.output[n - 1].position = target;
    for (std::size_t i = n - 1; i-- > 0;) {
      glm::vec3 d = job.output[i].position - job.output[i + 1].position;
      const float l = glm::length(d);
      d = l > 1e-12f ? d / l : -(job.output[i].rotation * forward);
      job.output[i].position = job.output[i + 1].position + d * Length(i);
    }
    // Forward: root back in place, each bone turned toward its child's new place, limited.
    job.output[0].position = glm::vec3(0.0f);
    glm::quat pr = parent;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const glm::quat r = job.output[i].rotation;
      const glm::vec3 d = job.output[i + 1].position - job.output[i].position;
      glm::quat turned = glm::dot(d, d) > 1e-24f ? glm::normalize(Arc(r * forward, d) * r) : r;
      turned = Limited(i, pr, turned);
      job.output[i].rotation = turned;
      job.output[i + 1].position = job.output[i].position + turned * (forward * Length(i));
      pr = turned;
    }
    job.output[n - 1].rotation = glm::normalize(pr * tipLocal);
  }

  // True when the whole chain and the target lie on one line while the target
  // is within reach: every joint's turn is then 0 or 180° and neither method
  // can leave the line.
  bool StuckOnALine(float length) const {
    if (n < 3) return false;
    const glm::vec3 root = job.output[0].position;
    glm::vec3 u = target - root;
    const float reach = glm::length(u);
    if (reach >= length) return false;
    if (reach > 1e-6f * length) {
      u /= reach;
    } else {
      u = job.output[n - 1].position - root;
      const float l = glm::length(u);
      if (!(l > 1e-6f * length)) return false;
      u /= l;
    }
    for (std::size_t i = 1; i < n; ++i) {
      const glm::vec3 v = job.output[i].position - root;
      if (glm::length(v - u * glm::dot(u, v)) > 1e-5f * length) return false;
    }
    return true;
  }

  // Bends the chain into a shallow arc off the line (toward the pole when there
  // is one): the root turns by +0.2 rad and the inner joints share −0.4 rad, so
  // the tip stays near the line and the solve can continue from a bent pose.
  void Unstick() {
    // Unit directions only, so no threshold depends on the chain's scale.
    const glm::vec3 root = job.output[0].position;
    using chain_detail::SafeNormalize;
    const glm::vec3 bone = SafeNormalize(job.output[0].rotation * forward, glm::vec3(1.0f, 0.0f, 0.0f));
    const glm::vec3 u = SafeNormalize(job.output[n - 1].position - root, SafeNormalize(target - root, bone));
    glm::vec3 axis = glm::cross(u, pole);
    if (glm::dot(axis, axis) < 1e-12f) {
      axis = glm::cross(u, glm::vec3(1.0f, 0.0f, 0.0f));
      if (glm::dot(axis, axis) < 1e-4f) axis = glm::cross(u, glm::vec3(0.0f, 1.0f, 0.0f));
    }
    axis = glm::normalize(axis);
    const float inner = -0.4f / static_cast<float>(n - 2);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const glm::quat q = glm::angleAxis(i == 0 ? 0.2f : inner, axis);
      const glm::vec3 pivot = job.output[i].position;
      for (std::size_t j = i; j < n; ++j) {
        job.output[j].position = pivot + q * (job.output[j].position - pivot);
        job.output[j].rotation = glm::normalize(q * job.output[j].rotation);
      }
    }
  }

  void ApplyPole() {
    const glm::vec3 root = job.output[0].position;
    const glm::vec3 axis = job.output[n - 1].position - root;
    const float la = glm::length(axis);
    if (!(la > 1e-12f)) return;
    const glm::vec3 u = axis / la;
    auto perp = [&](const glm::vec3& v) { return v - u * glm::dot(u, v); };
    glm::vec3 bend(0.0f);
    for (std::size_t i = 1; i + 1 < n; ++i) bend += perp(job.output[i].position - root);
    const glm::vec3 toPole = perp(pole);
    if (glm::dot(bend, bend) < 1e-20f || glm::dot(toPole, toPole) < 1e-20f) return;
    const float angle = std::atan2(glm::dot(u, glm::cross(bend, toPole)), glm::dot(bend, toPole));
    const glm::quat q = glm::angleAxis(angle, u);
    for (std::size_t i = 0; i < n; ++i) {
      job.output[i].position = root + q * (job.output[i].position - root);
      job.output[i].rotation = glm::normalize(q * job.output[i].rotation);
    }
  }

  ChainResult Solve() {
    Normalize();
    Align();
    float length = 0.0f;
    for (std::size_t i = 0; i + 1 < n; ++i) length += Length(i);
    const float tolerance = job.tolerance * length;
    ChainResult result;
    const bool ccd = job.method == ChainMethod::kCcd;
    if (ccd) {
      // Enforce the limits on the input pose as well (store locals, rebuild).
      for (std::size_t i = n - 1; i-- > 0;) {
        const glm::quat pr = ParentOf(i);
        job.output[i].rotation = glm::conjugate(pr) * Limited(i, pr, job.output[i].rotation);
      }
      ForwardKinematics();
    }
    float previous = std::numeric_limits<float>::infinity();
    for (int it = 0; it < job.iterations; ++it) {
      const float distance = glm::distance(job.output[n - 1].position, target);
      if (distance <= tolerance) break;
      // Only a chain that made no progress can be stuck on the target's line.
      if (previous - distance <= 1e-6f * length && StuckOnALine(length)) Unstick();
      previous = distance;
      if (ccd) {
        CcdSweep();
      } else {
        FabrikIteration();
      }
      result.iterations = it + 1;
    }
    if (job.hasPole) ApplyPole();
    const float distance = glm::distance(job.output[n - 1].position, target);
    result.reached = distance <= tolerance;
    Denormalize();
    result.distance = static_cast<float>(std::min(static_cast<double>(distance) * scale, 3.4028234663852886e38));
    return result;
  }
};

}  // namespace

Status ChainJob::Validate() const {
  if (joints.size() < 2) return Error("joints: needs at least 2 joints");
  if (output.size() != joints.size()) return Error("output: needs one entry per joint");
  for (const Transform& j : joints) {
    if (!IsFinite(j.position)) return Error("joints: positions must be finite");
    if (!IsUsableRotation(j.rotation)) return Error("joints: rotations must be finite and non-zero");
  }
  if (!IsFinite(target)) return Error("target: must be finite");
  if (method != ChainMethod::kCcd && method != ChainMethod::kFabrik) return Error("method: must be 'ccd' or 'fabrik'");
  if (iterations < 0 || iterations > kMaxChainIterations) return Error("iterations: must be in [0, 10000]");
  if (!IsFinite(tolerance) || tolerance < 0.0f) return Error("tolerance: must be finite and >= 0");
  if (!limits.empty() && limits.size() != joints.size() - 1 && limits.size() != joints.size()) {
    return Error("limits: needs one entry per joint (or per bone)");
  }
  for (const JointLimit& l : limits) {
    switch (l.kind) {
      case JointLimit::Kind::kNone:
        break;
      case JointLimit::Kind::kCone:
        if (!IsFinite(l.angle) || l.angle < 0.0f || l.angle > kPi) return Error("limits: cone angle must be in [0, pi]");
        if (!IsFinite(l.axis)) return Error("limits: cone axis must be finite");
        break;
      case JointLimit::Kind::kEuler:
        if (!IsFinite(l.min) || !IsFinite(l.max)) return Error("limits: min and max must be finite");
        if (l.min.x > l.max.x || l.min.y > l.max.y || l.min.z > l.max.z) return Error("limits: min must be <= max");
        break;
      default:
        return Error("limits: unknown kind");
    }
  }
  if (hasPole && !IsFinite(pole)) return Error("pole: must be finite");
  if (!IsFinite(forward) || (forward.x == 0.0f && forward.y == 0.0f && forward.z == 0.0f)) {
    return Error("forward: must be a finite non-zero vector");
  }
  if (!IsUsableRotation(parentRotation)) return Error("parentRotation: must be finite and non-zero");
  return Ok();
}

Status ChainJob::Run() const {
  if (Status s = Validate(); !s) return s;
  Solver solver{*this,
                joints.size(),
                chain_detail::SafeNormalize(forward, glm::vec3(1.0f, 0.0f, 0.0f)),
                chain_detail::SafeNormalize(parentRotation),
                kIdentity,
                {},
                1.0,
                {},
                {}};
  const ChainResult r = solver.Solve();
  if (result) *result = r;
  return Ok();
}

}  // namespace ikpd
