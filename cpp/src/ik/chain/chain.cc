// N-bone chains: validation, the normalized frame and the stages the solvers
// share (see docs/ik/chains.md). The solvers are in ccd.cc, fabrik.cc and
// fabrik_fast.cc.
#include "ikpd/ik/chain.h"

#include <algorithm>
#include <cmath>

#include "../../simd/lanes.h"
#include "rotation.h"
#include "solver.h"
#include "../fields.h"

namespace ikpd {

namespace chain_detail {

Chain::Chain(const ChainSetup& setup, const ChainFrame& f, std::span<Transform> output)
    : settings(setup.settings()),
      frame(f),
      pose(output),
      n(f.joints.size()),
      forward(setup.unitForward()),
      parent(NormalizeByReciprocalOr(f.parentRotation, kIdentityRotation)) {}

glm::vec3 Chain::Normalized(const glm::vec3& p) const {
  if (floatScale) return (p - glm::vec3(origin)) * inverseScale;
  return glm::vec3((glm::dvec3(p) - origin) / scale);
}

float Chain::Distance() const { return glm::distance(pose[n - 1].position, target); }

glm::quat Chain::UnitInputRotation(std::size_t i) const {
  const glm::quat& r = frame.joints[i].rotation;
  const float m = glm::dot(r, r);
  return m > 1e-20f && m < 1e20f ? r * (1.0f / std::sqrt(m)) : NormalizeByReciprocalOr(r, kIdentityRotation);
}

void Normalize(Chain& c) {
  const ChainFrame& frame = c.frame;
  const glm::vec3 o = frame.joints[0].position;
  c.origin = glm::dvec3(o);
  float extent = 0.0f;
  auto grow = [&](const glm::vec3& p) {
    const glm::vec3 d = glm::abs(p - o);
    extent = std::max(extent, std::max(d.x, std::max(d.y, d.z)));
  };
  for (const Transform& j : frame.joints) grow(j.position);
  grow(frame.target);
  const float root = std::max(std::abs(o.x), std::max(std::abs(o.y), std::abs(o.z)));
  if (extent >= 1e-30f && extent <= 1e30f && root <= 1e38f) {  // false for NaN (overflowed differences)
    // scale = 2^e with 2^e <= extent < 2^(e+1).
    c.floatScale = true;
    c.scale = static_cast<double>(simd::ExponentOf(extent));
    c.inverseScale = simd::InverseExponentOf(extent);
  } else {
    double wide = 0.0;
    auto growWide = [&](const glm::vec3& p) {
      const glm::dvec3 d = glm::abs(glm::dvec3(p) - c.origin);
      wide = std::max(wide, std::max(d.x, std::max(d.y, d.z)));
    };
    for (const Transform& j : frame.joints) growWide(j.position);
    growWide(frame.target);
    c.scale = wide > 0.0 ? wide : 1.0;
  }
  for (std::size_t i = 0; i < c.n; ++i) c.pose[i].position = c.Input(i);
  c.target = c.Normalized(frame.target);
  // The pole is a direction from the root: it must not set the scale (a far
  // pole would shrink the chain toward float underflow).
  if (frame.pole) {
    const glm::dvec3 d = glm::dvec3(*frame.pole) - c.origin;
    const double m = std::max(std::abs(d.x), std::max(std::abs(d.y), std::abs(d.z)));
    c.pole = m > 0.0 ? glm::vec3(glm::normalize(d / m)) : glm::vec3(0.0f);
  }
  c.length = 0.0f;
  for (std::size_t i = 0; i + 1 < c.n; ++i) {
    c.lengths[i] = glm::distance(c.pose[i + 1].position, c.pose[i].position);
    c.length += c.lengths[i];
  }
  c.tolerance = c.settings.tolerance * c.length;
}

void Align(Chain& c) {
  for (std::size_t i = 0; i < c.n; ++i) c.pose[i].rotation = NormalizeByReciprocalOr(c.frame.joints[i].rotation, kIdentityRotation);
  for (std::size_t i = 0; i + 1 < c.n; ++i) {
    glm::quat& r = c.pose[i].rotation;
    r = glm::normalize(Arc(r * c.forward, c.pose[i + 1].position - c.pose[i].position) * r);
  }
  c.tipLocal = glm::conjugate(c.pose[c.n - 2].rotation) * c.pose[c.n - 1].rotation;
}

void ForwardKinematics(Chain& c) {
  glm::quat r = c.parent;
  for (std::size_t i = 0; i + 1 < c.n; ++i) {
    r = glm::normalize(r * c.pose[i].rotation);
    c.pose[i].rotation = r;
    c.pose[i + 1].position = c.pose[i].position + r * (c.forward * c.Length(i));
  }
  c.pose[c.n - 1].rotation = glm::normalize(r * c.tipLocal);
}

bool StuckOnALine(const Chain& c) {
  if (c.n < 3) return false;
  const glm::vec3 root = c.pose[0].position;
  glm::vec3 u = c.target - root;
  const float reach = glm::length(u);
  if (reach >= c.length) return false;
  if (reach > 1e-6f * c.length) {
    u /= reach;
  } else {
    u = c.pose[c.n - 1].position - root;
    const float l = glm::length(u);
    if (!(l > 1e-6f * c.length)) return false;
    u /= l;
  }
  for (std::size_t i = 1; i < c.n; ++i) {
    const glm::vec3 v = c.pose[i].position - root;
    if (glm::length(v - u * glm::dot(u, v)) > 1e-5f * c.length) return false;
  }
  return true;
}

// The root turns by +0.2 rad and the inner joints share −0.4 rad, so the tip
// stays near the line and the solve can continue from a bent pose.
void Unstick(Chain& c, bool rotations) {
  // Unit directions only, so no threshold depends on the chain's scale.
  const glm::vec3 root = c.pose[0].position;
  const glm::quat r0 = rotations ? c.pose[0].rotation : NormalizeByReciprocalOr(c.frame.joints[0].rotation, kIdentityRotation);
  const glm::vec3 bone = NormalizeByReciprocalOr(r0 * c.forward, glm::vec3(1.0f, 0.0f, 0.0f));
  const glm::vec3 u = NormalizeByReciprocalOr(c.pose[c.n - 1].position - root, NormalizeByReciprocalOr(c.target - root, bone));
  glm::vec3 axis = glm::cross(u, c.pole);
  if (glm::dot(axis, axis) < 1e-12f) {
    axis = glm::cross(u, glm::vec3(1.0f, 0.0f, 0.0f));
    if (glm::dot(axis, axis) < 1e-4f) axis = glm::cross(u, glm::vec3(0.0f, 1.0f, 0.0f));
  }
  axis = glm::normalize(axis);
  const float inner = -0.4f / static_cast<float>(c.n - 2);
  for (std::size_t i = 0; i + 1 < c.n; ++i) {
    const glm::quat q = glm::angleAxis(i == 0 ? 0.2f : inner, axis);
    const glm::vec3 pivot = c.pose[i].position;
    for (std::size_t j = i; j < c.n; ++j) {
      c.pose[j].position = pivot + q * (c.pose[j].position - pivot);
      if (rotations) c.pose[j].rotation = glm::normalize(q * c.pose[j].rotation);
    }
  }
}

void ApplyPole(Chain& c, bool rotations) {
  const glm::vec3 root = c.pose[0].position;
  const glm::vec3 axis = c.pose[c.n - 1].position - root;
  const float la = glm::length(axis);
  if (!(la > 1e-12f)) return;
  const glm::vec3 u = axis / la;
  auto perp = [&](const glm::vec3& v) { return v - u * glm::dot(u, v); };
  glm::vec3 bend(0.0f);
  for (std::size_t i = 1; i + 1 < c.n; ++i) bend += perp(c.pose[i].position - root);
  const glm::vec3 toPole = perp(c.pole);
  if (glm::dot(bend, bend) < 1e-20f || glm::dot(toPole, toPole) < 1e-20f) return;
  const float angle = std::atan2(glm::dot(u, glm::cross(bend, toPole)), glm::dot(bend, toPole));
  const glm::quat q = glm::angleAxis(angle, u);
  for (std::size_t i = 0; i < c.n; ++i) {
    c.pose[i].position = root + q * (c.pose[i].position - root);
    if (rotations) c.pose[i].rotation = glm::normalize(q * c.pose[i].rotation);
  }
}

namespace {

void Denormalize(Chain& c) {
  if (c.floatScale) {  // |root| <= 1e38 and every |p| well below it: no overflow
    const glm::vec3 o(c.origin);
    const float s = static_cast<float>(c.scale);
    for (Transform& t : c.pose) t.position = o + t.position * s;
    return;
  }
  constexpr double kMax = 3.4028234663852886e38;  // FLT_MAX: clamp instead of overflowing
  for (Transform& t : c.pose) {
    const glm::dvec3 p = c.origin + glm::dvec3(t.position) * c.scale;
    t.position = glm::vec3(glm::clamp(p, glm::dvec3(-kMax), glm::dvec3(kMax)));
  }
}

}  // namespace

ChainResult Finish(Chain& c, int iterations) {
  ChainResult result;
  result.iterations = iterations;
  const float distance = c.Distance();
  result.reached = distance <= c.tolerance;
  Denormalize(c);
  result.distance = static_cast<float>(std::min(static_cast<double>(distance) * c.scale, 3.4028234663852886e38));
  return result;
}

}  // namespace chain_detail

namespace {

// The checks ChainJob::Validate, ChainSettings::Validate and SolveChain share,
// each naming the parameter as the JS API spells it.
Status CheckPoints(std::span<const Transform> joints, std::span<const Transform> output, const glm::vec3& target) {
  if (joints.size() < 2) return Error("joints: needs at least 2 joints");
  if (joints.size() > kMaxChainJoints) return Error("joints: at most 256 joints");
  if (output.size() != joints.size()) return Error("output: needs one entry per joint");
  // Branch-free scan for the usual all-valid input (v − v is 0 exactly for
  // finite v, NaN otherwise); the loop below names the first problem.
  bool valid = true;
  for (const Transform& j : joints) {
    const glm::vec3& p = j.position;
    const glm::quat& q = j.rotation;
    const float zero = ((p.x - p.x) + (p.y - p.y)) + ((p.z - p.z) + (q.x - q.x)) + ((q.y - q.y) + (q.z - q.z)) + (q.w - q.w);
    valid &= (zero == 0.0f) & (glm::dot(q, q) > 1e-12f);
  }
  if (!valid) {
    for (const Transform& j : joints) {
      if (!IsFinite(j.position)) return Error("joints: positions must be finite");
      if (!IsUsableRotation(j.rotation)) return Error("joints: rotations must be finite and non-zero");
    }
  }
  if (!IsFinite(target)) return Error("target: must be finite");
  return Ok();
}

Status CheckLimitCount(std::span<const JointLimit> limits, std::size_t n) {
  if (!limits.empty() && limits.size() != n - 1 && limits.size() != n) {
    return Error("limits: needs one entry per joint (or per bone)");
  }
  return Ok();
}

Status CheckLimits(std::span<const JointLimit> limits) {
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
  return Ok();
}

Status CheckForward(const glm::vec3& forward) {
  if (!IsFinite(forward) || (forward.x == 0.0f && forward.y == 0.0f && forward.z == 0.0f)) {
    return Error("forward: must be a finite non-zero vector");
  }
  return Ok();
}

Status CheckPole(const std::optional<glm::vec3>& pole) {
  if (pole && !IsFinite(*pole)) return Error("pole: must be finite");
  return Ok();
}

Status CheckParent(const glm::quat& parentRotation) {
  if (!IsUsableRotation(parentRotation)) return Error("parentRotation: must be finite and non-zero");
  return Ok();
}

// The solve on checked settings and frame (SolveChain and ChainJob::Run).
ChainResult Solve(const ChainSetup& setup, const ChainFrame& frame, std::span<Transform> output) {
  chain_detail::Chain chain(setup, frame, output);
  chain_detail::Normalize(chain);
  if (setup.settings().method == ChainMethod::kCcd) return chain_detail::SolveCcd(chain);
  if (chain.HasLimits()) return chain_detail::SolveFabrik(chain);
  return chain_detail::SolveFreeFabrik(chain);
}

}  // namespace

// The joints, output and target; every described range and enum (method,
// iterations, tolerance: CheckFields); then the limits, pole, forward and
// parent rotation.
Status ChainJob::Validate() const {
  if (Status s = CheckPoints(frame.joints, output, frame.target); !s) return s;
  if (Status s = describe::CheckFields(*this); !s) return s;
  if (Status s = CheckLimitCount(settings.limits, frame.joints.size()); !s) return s;
  if (Status s = CheckLimits(settings.limits); !s) return s;
  if (Status s = CheckPole(frame.pole); !s) return s;
  if (Status s = CheckForward(settings.forward); !s) return s;
  return CheckParent(frame.parentRotation);
}

// Fills a setup from settings already checked (by Prepare, or by ChainJob::Validate,
// which checks the same fields), so ChainJob::Run does not check them twice.
struct ChainSetupAccess {
  static void Store(const ChainSettings& settings, ChainSetup* setup) {
    setup->settings_ = settings;
    setup->forward_ = NormalizeByReciprocalOr(settings.forward, glm::vec3(1.0f, 0.0f, 0.0f));
    setup->prepared_ = true;
  }
};

Status ChainJob::Run() const {
  if (Status s = Validate(); !s) return s;
  ChainSetup setup;
  ChainSetupAccess::Store(settings, &setup);
  const ChainResult r = Solve(setup, frame, output);
  if (result) *result = r;
  return Ok();
}

Status ChainSettings::Validate() const {
  if (Status s = describe::CheckFields(*this, &ChainJob::settings); !s) return s;
  if (Status s = CheckLimits(limits); !s) return s;
  return CheckForward(forward);
}

Status Prepare(const ChainSettings& settings, ChainSetup* setup) {
  if (Status s = settings.Validate(); !s) return s;
  ChainSetupAccess::Store(settings, setup);
  return Ok();
}

Status SolveChain(const ChainSetup& setup, const ChainFrame& frame, std::span<Transform> output, ChainResult* result) {
  if (!setup.prepared()) return Error("setup: not prepared (Prepare first)");
  if (Status s = CheckPoints(frame.joints, output, frame.target); !s) return s;
  if (Status s = CheckLimitCount(setup.settings().limits, frame.joints.size()); !s) return s;
  if (Status s = CheckPole(frame.pole); !s) return s;
  if (Status s = CheckParent(frame.parentRotation); !s) return s;
  const ChainResult r = Solve(setup, frame, output);
  if (result) *result = r;
  return Ok();
}

}  // namespace ikpd
