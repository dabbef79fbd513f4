// The table of constraint kinds (docs/architecture.md, "Adding a constraint
// kind"): one line per kind, in ConstraintKind's order, each kind's entry in
// its own file of this folder. The rig's generic stages and RigBatch find a
// constraint's kind here, never by a switch.
#include "registry.h"

#include <array>
#include <utility>

namespace ikpd::rig::detail {

namespace {

constexpr std::array<const KindOps*, 10> kKinds = {
    &kAimKind,          // ConstraintKind::kAim
    &kTwoBoneKind,      // ConstraintKind::kTwoBone
    &kPseudoThreeBoneKind,
    &kChainKind,
    &kLookAtKind,
    &kBodyLookAtKind,
    &kGroundingKind,
    &kTwistKind,
    &kAvatarKind,
    &kSpringsKind,
};
static_assert(kKinds.size() == std::variant_size_v<KindState>, "one state per kind (registry.h)");

// state.emplace<I>() for each alternative, indexed as the table.
template <std::size_t... I>
constexpr auto Emplacers(std::index_sequence<I...>) {
  return std::array<void (*)(KindState&), sizeof...(I)>{[](KindState& s) { s.emplace<I>(); }...};
}
constexpr auto kEmplace = Emplacers(std::make_index_sequence<std::variant_size_v<KindState>>());

}  // namespace

const KindOps* FindKind(ConstraintKind kind) {
  const auto index = static_cast<std::size_t>(kind);
  return index < kKinds.size() ? kKinds[index] : nullptr;
}

std::size_t KindCount() { return kKinds.size(); }
const KindOps& KindAt(std::size_t index) { return *kKinds[index]; }

void EnsureState(Constraint& c, ConstraintKind kind) {
  const auto index = static_cast<std::size_t>(kind);
  if (c.state.index() != index) kEmplace[index](c.state);
}

glm::vec3 LookAxis(const Constraint& c) {
  return std::visit(
      [](const auto& state) {
        if constexpr (requires { state.axes; }) return state.axes.look;
        else if constexpr (requires { state.look; }) return state.look;
        else return glm::vec3(0.0f, 0.0f, 1.0f);
      },
      c.state);
}

std::span<const glm::vec3> EyeAxes(const Constraint& c) {
  return std::visit(
      [](const auto& state) {
        if constexpr (requires { state.axes; }) return std::span<const glm::vec3>(state.axes.eyeAxes);
        else return std::span<const glm::vec3>();
      },
      c.state);
}

}  // namespace ikpd::rig::detail
