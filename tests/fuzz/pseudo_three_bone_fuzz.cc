// Fuzzes PseudoThreeBoneJob (docs/ik/pseudo-three-bone.md): finite input → finite, unit, consistent
// limb plus tip, or a named error (output untouched). Invariants: the root
// stays put, bone lengths are preserved (or stretched within maxStretch in
// total over both passes), the tip moves rigidly with the end joint (same
// offset and rotation in the end's frame), forward axes point at the child
// (weight 1), the mid angle stays within [minAngle, maxAngle], blend 1 without
// an end limit keeps the end's input rotation, `distance`/`reached` match the
// output, and a target the final pass can reach is reached.
#include "two_bone_input.h"

using namespace ikpd;
using namespace ikpd::fuzz;

namespace {

// Unit quaternion from any finite non-zero one (huge or denormal components included).
glm::quat Unit(const glm::quat& q) {
  const float m = std::max(std::max(std::fabs(q.x), std::fabs(q.y)), std::max(std::fabs(q.z), std::fabs(q.w)));
  return glm::normalize(glm::quat(q.w / m, q.x / m, q.y / m, q.z / m));
}

void CheckResult(const PseudoThreeBoneJob& job, const PseudoThreeBoneResult& r) {
  const TwoBoneJob limb{job.frame.limb, job.settings.limb, nullptr};
  FUZZ_CHECK(Finite(limb.frame.root, limb.frame.mid, limb.frame.end, limb.frame.target, job.frame.tip), "non-finite input accepted");
  FUZZ_CHECK(Finite(r.root, r.mid, r.end, r.tip, r.distance), "non-finite result");
  FUZZ_CHECK(IsUnit(r.root.rotation) && IsUnit(r.mid.rotation) && IsUnit(r.end.rotation) && IsUnit(r.tip.rotation),
             "rotation not unit");
  FUZZ_CHECK(r.distance >= 0.0f, "negative distance");

  const float a = glm::distance(limb.frame.root.position, limb.frame.mid.position);
  const float b = glm::distance(limb.frame.mid.position, limb.frame.end.position);
  const float t = glm::distance(limb.frame.end.position, job.frame.tip.position);
  const bool moderate = Moderate(limb.frame.root.position) && Moderate(limb.frame.mid.position) && Moderate(limb.frame.end.position) &&
                        Moderate(job.frame.tip.position) && Moderate(limb.frame.target) && (limb.settings.pole != ikpd::TwoBonePole::kPoint || Moderate(limb.frame.pole)) &&
                        a + b > 1e-2f;
  if (!moderate) return;  // only finiteness is meaningful at extreme magnitudes
  const float scale = 1.0f + glm::length(limb.frame.root.position) + glm::length(limb.frame.target) + a + b + t;
  const float tol = 1e-3f * scale;

  CheckLimbKept(limb.frame.root.position, a, b, r.root.position, r.mid.position, r.end.position, limb.settings.maxStretch, tol);

  // The tip moves rigidly with the end joint: same offset and rotation in the end's frame.
  const glm::quat q3 = Unit(limb.frame.end.rotation);
  const glm::quat tip_rotation = Unit(job.frame.tip.rotation);
  const glm::vec3 local_before = glm::conjugate(q3) * (job.frame.tip.position - limb.frame.end.position);
  const glm::vec3 local_after = glm::conjugate(r.end.rotation) * (r.tip.position - r.end.position);
  FUZZ_CHECK(glm::distance(local_before, local_after) <= tol, "tip offset in the end's frame changed by %g",
             double(glm::distance(local_before, local_after)));
  const float relative = std::fabs(glm::dot(glm::conjugate(q3) * tip_rotation, glm::conjugate(r.end.rotation) * r.tip.rotation));
  FUZZ_CHECK(relative >= 1.0f - 1e-4f, "tip rotation relative to the end changed (|dot| %g)", double(relative));

  const float actual_distance = glm::distance(r.tip.position, limb.frame.target);
  FUZZ_CHECK(std::fabs(actual_distance - r.distance) <= tol, "distance %g but tip is %g from target",
             double(r.distance), double(actual_distance));
  if (r.reached) {
    FUZZ_CHECK(r.distance <= limb.settings.tolerance * (a + b) * 1.001f + 1e-5f * scale, "reached but distance %g",
               double(r.distance));
  }
  // Blend 1 without a limit: one pass, the end keeps its input world rotation.
  if (job.frame.blend == 1.0f && job.settings.endLimit >= kPi) {
    FUZZ_CHECK(std::fabs(glm::dot(q3, r.end.rotation)) >= 1.0f - 1e-5f, "blend 1 changed the end rotation");
  }
  if (limb.frame.weight != 1.0f) return;

  CheckForwardsAtChildren(limb.settings.forward, r.root, r.mid, r.end.position, a > 1e-2f * scale, b > 1e-2f * scale);
  // The last two-bone pass aims the end at target − (tip − end).
  const glm::vec3 end_target = limb.frame.target - (r.tip.position - r.end.position);
  if (a > 1e-2f * scale && b > 1e-2f * scale) {
    const float angle = AngleAt(r.root.position, r.mid.position, r.end.position);
    FUZZ_CHECK(angle >= limb.settings.minAngle - 1e-2f && angle <= limb.settings.maxAngle + 1e-2f, "mid angle %g outside [%g, %g]",
               double(angle), double(limb.settings.minAngle), double(limb.settings.maxAngle));
    // A target the final pass can reach is reached (no soften/stretch).
    const float c = glm::distance(end_target, limb.frame.root.position);
    const float c_min = std::sqrt(std::max(0.0f, a * a + b * b - 2.0f * a * b * std::cos(limb.settings.minAngle)));
    const float c_max = std::sqrt(std::max(0.0f, a * a + b * b - 2.0f * a * b * std::cos(limb.settings.maxAngle)));
    if (limb.settings.soften == 0.0f && limb.settings.maxStretch == 1.0f && c > c_min + 1e-2f * scale && c < c_max - 1e-2f * scale) {
      FUZZ_CHECK(r.distance <= tol, "reachable target missed by %g (c=%g in [%g, %g])", double(r.distance), double(c),
                 double(c_min), double(c_max));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  PseudoThreeBoneJob job;
  TwoBoneJob limb;
  FillTwoBoneJob(in, limb);  // its effectorOffset and endRotation are ignored by the job
  job.frame.limb = limb.frame, job.settings.limb = limb.settings;
  switch (in.Int(0, 7)) {
    case 0: job.frame.tip = {in.MaybeNonFiniteVec3(), in.Quat()}; break;
    case 1: job.frame.tip = {in.Vec3(), in.Quat()}; break;
    case 2: job.frame.tip = {job.frame.limb.end.position, in.Quat()}; break;  // zero-length third bone
    default: job.frame.tip = {job.frame.limb.end.position + in.Vec3(), in.Quat()}; break;
  }
  switch (in.Int(0, 5)) {
    case 0: job.frame.blend = 0.0f; break;
    case 1: job.frame.blend = 1.0f; break;
    case 2: job.frame.blend = in.MaybeNonFinite(); break;
    default: job.frame.blend = in.Range(0.0f, 1.0f); break;
  }
  job.settings.variant = static_cast<PseudoThreeBoneVariant>(in.Int(0, 15) == 0 ? in.Int(2, 255) : in.Int(0, 1));
  switch (in.Int(0, 3)) {
    case 0: job.settings.endLimit = in.Range(0.0f, kPi); break;
    case 1: job.settings.endLimit = in.MaybeNonFinite(); break;
    default: break;  // kPi: no limit
  }
  TraceTwoBoneJob(limb);
  FUZZ_TRACE("tip %.9g %.9g %.9g wxyz %.9g %.9g %.9g %.9g blend %.9g variant %d endLimit %.9g\n", job.frame.tip.position.x,
             job.frame.tip.position.y, job.frame.tip.position.z, job.frame.tip.rotation.w, job.frame.tip.rotation.x, job.frame.tip.rotation.y,
             job.frame.tip.rotation.z, job.frame.blend, static_cast<int>(job.settings.variant), job.settings.endLimit);

  PseudoThreeBoneResult result;
  result.root.position = glm::vec3(7.0f);
  result.distance = -7.0f;
  const PseudoThreeBoneResult untouched = result;
  job.result = in.Int(0, 31) == 0 ? nullptr : &result;
  const bool ran = RunChecked(job, [&] {
    return SameBytes(result.root, untouched.root) && SameBytes(result.mid, untouched.mid) &&
           SameBytes(result.end, untouched.end) && SameBytes(result.tip, untouched.tip) &&
           result.distance == untouched.distance;
  });
  if (!ran) return 0;
  FUZZ_CHECK(job.result != nullptr, "null result accepted");
  CheckResult(job, result);
  return 0;
}
