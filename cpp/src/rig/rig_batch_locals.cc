// RigBatch: the locals stage over characters [c0, c1) (docs/rig/rig-batch.md):
// solved model rotations back to each joint's local rotation, weighed and
// written (the effective weights come from rig_batch_smooth.cc). Every formula is the Rig's
// (rig_update.cc, Rig::WriteRotations), so each character gets its own Rig's result.
#include <cstddef>
#include <type_traits>

#include "ikpd/rig/rig_batch.h"
#include "kinds/registry.h"
#include "rig_batch_lanes.h"
#include "rig_math.h"

namespace ikpd::rig {

using simd::Q4;

// Stage 3: full-weight locals (Rig::WriteRotations), all of the constraint's
// writes in one pass: the solved model rotations back in each joint's own
// frame (Rig::SolveLimb's `back`), then each written joint's parent turned by
// its nearest solved ancestor's change; the same pass weighs them by the
// effective weight Inputs left in weightNow_ and writes those that changed
// (stage 4 in one pass). Nothing is stored before
// every lane of a group has passed its checks (a group that fails runs again
// item by item).
void RigBatch::Locals(std::size_t index, std::size_t c0, std::size_t c1) {
  constexpr std::size_t kMaxWrites = 3;  // aim 1, two-bone and pseudo three-bone 3 (the tip follows the end)
  const std::size_t n = count_, blocked = lanes::Blocked(n);
  const Plan& plan = plans_[index];
  const detail::Constraint& c = template_.constraints_[index];
  const auto model = [&](int joint) { return &modelRotations_[static_cast<std::size_t>(joint) * blocked * 4]; };
  const float* weights = weightNow_.data();
  // The solved rotations back in the joints' frames normalized unless the kind
  // leaves them so (KindOps::directWrites, as its solve did on a Rig); a slot the
  // kind keeps (KindOps::keptRotations) takes its model rotation as solved.
  const bool direct = detail::Kind(c).directWrites;
  glm::quat inverse[kMaxWrites];
  const float* pose[kMaxWrites];
  bool kept[kMaxWrites] = {};
  for (std::size_t w = 0; w < plan.writes.size(); ++w) {
    const Write& wr = plan.writes[w];
    inverse[w] = glm::conjugate(c.frames[wr.slot]);
    pose[w] = Pose(index, wr.joint);
    kept[w] = wr.slot < 32 && ((c.keptRotations >> wr.slot) & 1u) != 0;
  }
  // The write count as a constant (aim 1, the limbs kMaxWrites), so the loops over writes unroll.
  const auto pass = [&](auto count) {
    constexpr std::size_t writes = decltype(count)::value;
    lanes::ForCharacters(c0, c1, [&](auto lane, std::size_t ch) {
      using F = decltype(lane);
      Q4<F> desired[kMaxWrites], raw[kMaxWrites], current[kMaxWrites], local[kMaxWrites];
      for (std::size_t w = 0; w < writes; ++w) {
        if (kept[w]) {
          desired[w] = lanes::LoadBlockQ4<F>(model(static_cast<int>(plan.writes[w].joint)), ch);
          continue;
        }
        desired[w] = lanes::Mul(simd::LoadQ4<F>(solvedRotations_.data(), plan.writes[w].slot * n + ch), lanes::Splat<F>(inverse[w]));
        if (!direct && !lanes::Unit(&desired[w])) return false;
      }
      for (std::size_t w = 0; w < writes; ++w) {
        const Write& wr = plan.writes[w];
        Q4<F> parent = wr.parent >= 0 ? lanes::LoadBlockQ4<F>(model(wr.parent), ch) : lanes::Splat<F>(kIdentityRotation);
        if (wr.ancestorWrite >= 0) {
          const Q4<F>& solved = desired[wr.ancestorWrite];
          if (wr.ancestor == wr.parent) {
            parent = solved;
          } else {
            const Q4<F> was = wr.ancestor == wr.parent ? parent : lanes::LoadBlockQ4<F>(model(wr.ancestor), ch);
            parent = lanes::Mul(lanes::Mul(solved, simd::Conjugate(was)), parent);
          }
        }
        current[w] = raw[w] = simd::LoadQ4<F>(pose[w], wr.joint * n + ch);
        if (!lanes::Unit(&current[w])) return false;
        local[w] = lanes::Mul(simd::Conjugate(parent), desired[w]);
        if (!lanes::Unit(&local[w])) return false;
      }
      const F weight = simd::Load1<F>(weights, ch);
      for (std::size_t w = 0; w < writes; ++w) {
        const Write& wr = plan.writes[w];
        const Q4<F> final = Weighted(weight, current[w], local[w]);
        simd::StoreQ4(output_.data(), wr.joint * n + ch, lanes::Written(raw[w], current[w], final, weight >= 1.0f));
      }
      return true;
    });
  };
  if (plan.writes.size() == 1) pass(std::integral_constant<std::size_t, 1>{});
  else pass(std::integral_constant<std::size_t, kMaxWrites>{});
}

}  // namespace ikpd::rig
