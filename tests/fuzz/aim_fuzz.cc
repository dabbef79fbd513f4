// Fuzzes AimJob (SPEC §1/§2): finite input → unit rotation or a named error
// (output untouched); with weight 1 and no hinge the forward axis points at
// the target, and the roll brings the up axis toward the pole.
#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  AimJob job;
  const bool finite_only = in.Int(0, 7) != 0;
  job.position = finite_only ? in.Vec3() : in.MaybeNonFiniteVec3();
  job.rotation = in.Quat();
  job.target = in.Bool() ? job.position + in.Vec3() : in.Vec3();
  job.forward = in.Axis();
  job.method = static_cast<AimMethod>(in.Int(0, 2));
  job.up = in.Axis();
  if (in.Bool()) job.pole = in.Vec3();
  if (in.Int(0, 3) == 0) job.hingeAxis = in.Axis();
  job.weight = in.Bool() ? 1.0f : (in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite());

  const glm::quat sentinel(7.0f, 7.0f, 7.0f, 7.0f);
  glm::quat result = sentinel;
  job.result = &result;
  FUZZ_TRACE("position %.9g %.9g %.9g rotation(wxyz) %.9g %.9g %.9g %.9g target %.9g %.9g %.9g forward %.9g %.9g %.9g "
             "method %d up %.9g %.9g %.9g pole %d %.9g %.9g %.9g hinge %d weight %.9g\n",
             job.position.x, job.position.y, job.position.z, job.rotation.w, job.rotation.x, job.rotation.y,
             job.rotation.z, job.target.x, job.target.y, job.target.z, job.forward.x, job.forward.y, job.forward.z,
             static_cast<int>(job.method), job.up.x, job.up.y, job.up.z, job.pole.has_value(),
             job.pole ? job.pole->x : 0.0f, job.pole ? job.pole->y : 0.0f, job.pole ? job.pole->z : 0.0f,
             job.hingeAxis.has_value(), job.weight);
  if (!RunChecked(job, [&] { return SameBytes(result, sentinel); })) return 0;
  FUZZ_CHECK(Finite(job.position, job.rotation, job.target, job.weight), "non-finite input accepted");
  FUZZ_CHECK(Finite(result), "non-finite result");
  FUZZ_CHECK(IsUnit(result), "result not unit: |q| = %g", static_cast<double>(glm::length(result)));

  // Geometry: forward points at the target (weight 1, no hinge, well-conditioned input).
  const glm::vec3 to_target = job.target - job.position;
  const float distance = glm::length(to_target);
  const float forward_length = glm::length(job.forward);
  if (job.weight == 1.0f && !job.hingeAxis && Moderate(job.position) && Moderate(job.target) &&
      distance > 1e-2f && forward_length > 1e-3f && Moderate(job.forward, 1e3f)) {
    const glm::vec3 aimed = result * (job.forward / forward_length);
    const float alignment = glm::dot(aimed, to_target / distance);
    FUZZ_CHECK(alignment > 0.999f, "forward misses the target: dot = %g (method %d)",
               static_cast<double>(alignment), static_cast<int>(job.method));

    // Roll: the up axis (made perpendicular to forward) leans toward the pole.
    const glm::vec3 f = job.forward / forward_length;
    const glm::vec3 up_perp = job.up - glm::dot(job.up, f) * f;
    if (job.pole && Moderate(*job.pole) &&
        glm::length(up_perp) > 1e-2f * glm::length(job.up) && glm::length(job.up) > 1e-3f) {
      const glm::vec3 world_f = aimed;
      const glm::vec3 to_pole = *job.pole - job.position;
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
