// Fuzzes AimJob (docs/ik/aim.md): finite input → unit rotation or a named error
// (output untouched); with weight 1 and no hinge the forward axis points at
// the target, and the roll brings the up axis toward the pole.
#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  AimJob job;
  const bool finite_only = in.Int(0, 7) != 0;
  job.frame.position = finite_only ? in.Vec3() : in.MaybeNonFiniteVec3();
  job.frame.rotation = in.Quat();
  job.frame.target = in.Bool() ? job.frame.position + in.Vec3() : in.Vec3();
  job.settings.forward = in.Axis();
  job.settings.method = static_cast<AimMethod>(in.Int(0, 2));
  job.settings.up = in.Axis();
  if (in.Bool()) job.settings.pole = true, job.frame.pole = in.Vec3();
  if (in.Int(0, 3) == 0) job.settings.hingeAxis = in.Axis();
  job.frame.weight = in.Bool() ? 1.0f : (in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite());
  if (in.Bool()) job.settings.offset = in.Vec3();  // read last: older corpus inputs keep offset 0

  const glm::quat sentinel(7.0f, 7.0f, 7.0f, 7.0f);
  glm::quat result = sentinel;
  job.result = &result;
  FUZZ_TRACE("position %.9g %.9g %.9g rotation(wxyz) %.9g %.9g %.9g %.9g target %.9g %.9g %.9g forward %.9g %.9g %.9g "
             "method %d up %.9g %.9g %.9g pole %d %.9g %.9g %.9g hinge %d weight %.9g offset %.9g %.9g %.9g\n",
             job.frame.position.x, job.frame.position.y, job.frame.position.z, job.frame.rotation.w, job.frame.rotation.x, job.frame.rotation.y,
             job.frame.rotation.z, job.frame.target.x, job.frame.target.y, job.frame.target.z, job.settings.forward.x, job.settings.forward.y, job.settings.forward.z,
             static_cast<int>(job.settings.method), job.settings.up.x, job.settings.up.y, job.settings.up.z, job.settings.pole,
             job.settings.pole ? job.frame.pole.x : 0.0f, job.settings.pole ? job.frame.pole.y : 0.0f, job.settings.pole ? job.frame.pole.z : 0.0f,
             job.settings.hingeAxis.has_value(), job.frame.weight, job.settings.offset.x, job.settings.offset.y, job.settings.offset.z);
  if (!RunChecked(job, [&] { return SameBytes(result, sentinel); })) return 0;
  FUZZ_CHECK(Finite(job.frame.position, job.frame.rotation, job.frame.target, job.frame.weight), "non-finite input accepted");
  FUZZ_CHECK(Finite(result), "non-finite result");
  FUZZ_CHECK(IsUnit(result), "result not unit: |q| = %g", static_cast<double>(glm::length(result)));

  // Geometry: forward points at the target (weight 1, no hinge, well-conditioned input).
  const glm::vec3 to_target = job.frame.target - job.frame.position;
  const float distance = glm::length(to_target);
  const float forward_length = glm::length(job.settings.forward);
  if (job.settings.offset != glm::vec3(0.0f)) {
    // With an offset: the ray from the solved offset point along the solved
    // forward passes through the target, when the target is clearly outside
    // the offset sphere.
    if (job.frame.weight == 1.0f && Moderate(job.frame.position) && Moderate(job.frame.target) && Moderate(job.settings.offset) &&
        forward_length > 1e-3f && Moderate(job.settings.forward, 1e3f)) {
      const glm::dvec3 f = glm::normalize(glm::dvec3(job.settings.forward));
      const glm::dvec3 o(job.settings.offset);
      const double across = glm::length(o - f * glm::dot(f, o));
      const double r = glm::length(glm::dvec3(job.frame.target) - glm::dvec3(job.frame.position));
      if (r > 1e-2 && r > across * 1.01 + 1e-3) {
        const glm::dvec3 p = glm::dvec3(job.frame.position) + glm::dvec3(result * job.settings.offset);
        const glm::dvec3 u = glm::dvec3(result * glm::vec3(f));
        const glm::dvec3 t = glm::dvec3(job.frame.target) - p;
        const double miss = glm::length(t - u * glm::dot(t, u));
        const double scale = std::max(r, glm::length(o));
        FUZZ_CHECK(miss <= 1e-3 * scale, "offset ray misses the target by %g (scale %g, method %d)", miss, scale,
                   static_cast<int>(job.settings.method));
      }
    }
    return 0;
  }
  if (job.frame.weight == 1.0f && !job.settings.hingeAxis && Moderate(job.frame.position) && Moderate(job.frame.target) &&
      distance > 1e-2f && forward_length > 1e-3f && Moderate(job.settings.forward, 1e3f)) {
    const glm::vec3 aimed = result * (job.settings.forward / forward_length);
    const float alignment = glm::dot(aimed, to_target / distance);
    FUZZ_CHECK(alignment > 0.999f, "forward misses the target: dot = %g (method %d)",
               static_cast<double>(alignment), static_cast<int>(job.settings.method));

    // Roll: the up axis (made perpendicular to forward) leans toward the pole.
    const glm::vec3 f = job.settings.forward / forward_length;
    const glm::vec3 up_perp = job.settings.up - glm::dot(job.settings.up, f) * f;
    if (job.settings.pole && Moderate(job.frame.pole) &&
        glm::length(up_perp) > 1e-2f * glm::length(job.settings.up) && glm::length(job.settings.up) > 1e-3f) {
      const glm::vec3 world_f = aimed;
      const glm::vec3 to_pole = job.frame.pole - job.frame.position;
      const glm::vec3 pole_perp = to_pole - glm::dot(to_pole, world_f) * world_f;
      if (glm::length(pole_perp) > 1e-2f * std::max(1.0f, glm::length(to_pole))) {
        const glm::vec3 world_up = result * glm::normalize(up_perp);
        const float lean = glm::dot(world_up, glm::normalize(pole_perp));
        FUZZ_CHECK(lean > 0.99f, "up does not point toward the pole: dot = %g", static_cast<double>(lean));
      }
    }
  }
  return 0;
}
