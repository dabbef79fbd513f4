#include "ikpd/ik/aim.h"

#include "aim_kernel.h"
#include "ik_math.h"
#include "job_memo.h"

namespace ikpd {
namespace {

using detail::PerpendicularUnit;

// Everything AimShared depends on, as plain 4-byte fields.
struct AimKey {
  glm::vec3 forward, up, hingeAxis, offset;
  int method, hasHinge, hasPole;
};
static_assert(sizeof(AimKey) == 15 * 4, "AimKey must have no padding");

AimKey KeyOf(const AimJob& job) {
  AimKey k;
  k.forward = job.forward;
  k.up = job.up;
  k.hingeAxis = job.hingeAxis.value_or(glm::vec3(0.0f));
  k.offset = job.offset;
  k.method = static_cast<int>(job.method);
  k.hasHinge = job.hingeAxis.has_value();
  k.hasPole = job.pole.has_value();
  return k;
}

using AimMemo = detail::OptionsMemo<AimKey, detail::AimShared>;

// The common case in one pass: finite per-call inputs, a usable rotation, a
// weight in range and the options of an earlier valid call on this thread.
// Returns their shared setup, or null when the full check must run.
const detail::AimShared* QuickValid(const AimJob& job) {
  const glm::vec3 pole = job.pole.value_or(glm::vec3(0.0f));
  if (!detail::AllFinite(job.position, job.rotation, job.target, pole)) return nullptr;
  if (!(glm::dot(job.rotation, job.rotation) > 1e-12f) || !(job.weight >= 0.0f && job.weight <= 1.0f)) return nullptr;
  if (job.result == nullptr) return nullptr;
  return AimMemo::OfThisThread().Find(KeyOf(job));
}

const detail::AimShared& Remember(const AimJob& job) {
  return AimMemo::OfThisThread().Store(KeyOf(job), detail::MakeAimShared(job, job.pole.has_value()));
}

// Every check, in parameter order (the errors name the first bad one).
Status ValidateAll(const AimJob& job) {
  if (!IsFinite(job.position)) return Error("position: must be finite");
  if (!IsUsableRotation(job.rotation)) return Error("rotation: must be a non-zero finite quaternion");
  if (!IsFinite(job.target)) return Error("target: must be finite");
  const glm::vec3 f = NormalizeOr(job.forward, glm::vec3(0.0f), detail::kNoDirection);
  if (f == glm::vec3(0.0f)) return Error("forward: must be a non-zero finite vector");
  if (job.method != AimMethod::kYawPitch && job.method != AimMethod::kCrossProduct && job.method != AimMethod::kShortestArc) {
    return Error("method: must be yawPitch, crossProduct or shortestArc");
  }
  if (job.pole) {
    if (!IsFinite(*job.pole)) return Error("pole: must be finite");
    if (job.hingeAxis) return Error("pole: cannot be combined with hingeAxis (a hinge cannot roll)");
    const glm::vec3 up = NormalizeOr(job.up, glm::vec3(0.0f), detail::kNoDirection);
    if (up == glm::vec3(0.0f)) return Error("up: must be a non-zero finite vector");
    if (detail::Parallel(up, f)) return Error("up: must not be parallel to forward");
  }
  if (job.hingeAxis) {
    const glm::vec3 hinge = NormalizeOr(*job.hingeAxis, glm::vec3(0.0f), detail::kNoDirection);
    if (hinge == glm::vec3(0.0f)) return Error("hingeAxis: must be a non-zero finite vector");
    if (detail::Parallel(hinge, f)) return Error("hingeAxis: must not be parallel to forward");
  }
  if (!IsFinite(job.offset)) return Error("offset: must be finite");
  if (job.hingeAxis && job.offset != glm::vec3(0.0f)) return Error("offset: cannot be combined with hingeAxis");
  if (!(job.weight >= 0.0f && job.weight <= 1.0f)) return Error("weight: must be in [0, 1]");
  if (job.result == nullptr) return Error("result: output pointer must not be null");
  return Ok();
}

}  // namespace

Status AimJob::Validate() const {
  if (QuickValid(*this) != nullptr) return Ok();
  const Status status = ValidateAll(*this);
  if (status) Remember(*this);
  return status;
}

namespace detail {

AimShared MakeAimShared(const AimJob& job, bool pole) {
  const glm::vec3 f = NormalizeOr(job.forward, glm::vec3(0.0f), detail::kNoDirection);
  const glm::vec3 pitchAxis = StablePerpendicular(f);  // Y for f = X (docs/aim.md)
  AimShared s;
  s.method = job.method;
  s.forward = simd::FromGlm(f);
  s.pitchAxis = simd::FromGlm(pitchAxis);
  s.yawAxis = simd::FromGlm(glm::cross(f, pitchAxis));  // Z for f = X (docs/aim.md)
  s.frameInverse = simd::Conjugate(simd::FrameQuat(s.forward, s.pitchAxis));
  if (job.hingeAxis) {
    const glm::vec3 h = NormalizeOr(*job.hingeAxis, glm::vec3(0.0f), detail::kNoDirection);
    glm::vec3 fp(0.0f);
    PerpendicularUnit(f, h, &fp);  // validated: forward is not parallel to the hinge
    s.hinge = true;
    s.hingeAxis = simd::FromGlm(h);
    s.hingeForward = simd::FromGlm(fp);
    s.hingeSide = simd::FromGlm(glm::cross(h, fp));
  }
  if (pole) {
    glm::vec3 u(0.0f);
    PerpendicularUnit(job.up, f, &u);  // validated: up is not parallel to forward
    s.pole = true;
    s.up = simd::FromGlm(u);
    s.upSide = simd::FromGlm(glm::cross(f, u));
  }
  if (job.offset != glm::vec3(0.0f)) {
    s.offset = true;
    s.offsetHalf = simd::FromGlm(job.offset * 0.5f);
    s.offsetHalfMax = simd::MaxAbs(s.offsetHalf);
  }
  return s;
}

}  // namespace detail

Status AimJob::Run() const {
  const detail::AimShared* cached = QuickValid(*this);
  if (cached == nullptr) {
    const Status status = ValidateAll(*this);
    if (!status) return status;
    cached = &Remember(*this);
  }
  const detail::AimShared& shared = *cached;
  detail::AimLanes<float> io;
  io.position = simd::FromGlm(position);
  io.rotation = simd::FromGlm(rotation);
  io.target = simd::FromGlm(target);
  io.pole = simd::FromGlm(pole.value_or(glm::vec3(0.0f)));
  io.weight = weight;
  detail::SolveAim(shared, io);
  *result = simd::ToGlm(io.outRotation);
  return Ok();
}

}  // namespace ikpd
