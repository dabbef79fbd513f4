// The IK area's descriptions (cpp/src/describe/fields.h): each job's fields
// once, with their roles, JS names, enum names and valid ranges, and the
// results' fields (role kOutput) that the single calls, the prepared solvers
// and the batches' out.* fields carry. A job packs its fields in this order
// (cpp/bindings/packed.h); the limb's inputs come first, as prepared solvers
// expect.
#pragma once

#include <optional>
#include <string_view>

#include "../describe/fields.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/chain.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/tentacle2d.h"
#include "ikpd/ik/two_bone.h"

namespace ikpd::describe {

// The two-bone job's JS `pole` / `poleDirection` pair (docs/ik/two-bone.md),
// the one place it maps onto settings.pole (the kind) and frame.pole: `pole`
// given → kPoint, `poleDirection` given → kDirection, the value in frame.pole.
// Both given → kBothPoles (point | direction, frame.pole holding `pole`),
// which Validate rejects: "poleDirection: cannot be combined with pole".
inline constexpr TwoBonePole kBothPoles = static_cast<TwoBonePole>(3);
template <TwoBonePole Kind>
struct TwoBonePoleInput {
  using Value = std::optional<glm::vec3>;
  static constexpr int kBit = static_cast<int>(Kind);
  static constexpr Value Get(const TwoBoneJob& job) {
    const int kind = static_cast<int>(job.settings.pole);
    const bool given = Kind == TwoBonePole::kPoint ? (kind & kBit) != 0 : kind == kBit;
    return given ? Value(job.frame.pole) : std::nullopt;
  }
  // `pole` is read before `poleDirection` (the description's order): it wins frame.pole.
  static constexpr void Set(TwoBoneJob& job, const Value& value) {
    int kind = static_cast<int>(job.settings.pole) & ~kBit;
    if (value) {
      if (Kind == TwoBonePole::kPoint || (kind & static_cast<int>(TwoBonePole::kPoint)) == 0) job.frame.pole = *value;
      kind |= kBit;
    }
    job.settings.pole = static_cast<TwoBonePole>(kind);
  }
};

template <>
struct JobFields<TwoBoneJob> {
  static constexpr const char* kName = "twoBone";
  template <class F>
  static constexpr void Visit(F&& f) {
    const auto frame = [](auto member) { return Nest(&TwoBoneJob::frame, member); };
    const auto settings = [](auto member) { return Nest(&TwoBoneJob::settings, member); };
    f(Role::kInput, "root", frame(&TwoBoneFrame::root));
    f(Role::kInput, "mid", frame(&TwoBoneFrame::mid));
    f(Role::kInput, "end", frame(&TwoBoneFrame::end));
    f(Role::kInput, "target", frame(&TwoBoneFrame::target));
    f(Role::kOption, "pole", TwoBonePoleInput<TwoBonePole::kPoint>{});
    f(Role::kOption, "poleDirection", TwoBonePoleInput<TwoBonePole::kDirection>{});
    f(Role::kOption, "forward", settings(&TwoBoneSettings::forward));
    f(Role::kOption, "bendAxis", settings(&TwoBoneSettings::bendAxis));
    f(Role::kOption, "effectorOffset", frame(&TwoBoneFrame::effectorOffset));
    f(Role::kOption, "bendDirection", settings(&TwoBoneSettings::bendDirection), EnumNames{"auto|positive|negative", 0});
    f(Role::kOption, "straightBend", settings(&TwoBoneSettings::straightBend), EnumNames{"positive|negative", 1});
    f(Role::kOption, "minAngle", settings(&TwoBoneSettings::minAngle), Closed(0.0, kPi));
    f(Role::kOption, "maxAngle", settings(&TwoBoneSettings::maxAngle), Closed(0.0, kPi));
    f(Role::kOption, "weight", frame(&TwoBoneFrame::weight), Closed(0.0, 1.0));
    f(Role::kOption, "soften", settings(&TwoBoneSettings::soften), Closed(0.0, 1.0));
    f(Role::kOption, "maxStretch", settings(&TwoBoneSettings::maxStretch), AtLeast(1.0));
    f(Role::kOption, "twist", settings(&TwoBoneSettings::twist), kFinite);
    f(Role::kOption, "endRotation", settings(&TwoBoneSettings::endRotation), EnumNames{"world|relative", 0});
    f(Role::kOption, "tolerance", settings(&TwoBoneSettings::tolerance), AtLeast(0.0));
  }
};

// The aim job's JS `pole` (docs/ik/aim.md): given → settings.pole, the point in frame.pole.
struct AimPoleInput {
  using Value = std::optional<glm::vec3>;
  static constexpr Value Get(const AimJob& job) { return job.settings.pole ? Value(job.frame.pole) : std::nullopt; }
  static constexpr void Set(AimJob& job, const Value& value) {
    job.settings.pole = value.has_value();
    if (value) job.frame.pole = *value;
  }
};

template <>
struct JobFields<AimJob> {
  static constexpr const char* kName = "aim";
  template <class F>
  static constexpr void Visit(F&& f) {
    const auto frame = [](auto member) { return Nest(&AimJob::frame, member); };
    const auto settings = [](auto member) { return Nest(&AimJob::settings, member); };
    f(Role::kInput, "position", frame(&AimFrame::position));
    f(Role::kInputOrDefault, "rotation", frame(&AimFrame::rotation));
    f(Role::kInput, "target", frame(&AimFrame::target));
    f(Role::kOption, "forward", settings(&AimSettings::forward));
    f(Role::kOption, "up", settings(&AimSettings::up));
    f(Role::kOption, "pole", AimPoleInput{});
    f(Role::kOption, "hingeAxis", settings(&AimSettings::hingeAxis));
    f(Role::kOption, "offset", settings(&AimSettings::offset));
    f(Role::kOption, "method", settings(&AimSettings::method), EnumNames{"yawPitch|crossProduct|shortestArc", 0});
    f(Role::kOption, "weight", frame(&AimFrame::weight), Closed(0.0, 1.0));
  }
};

// The limb's inputs, then the tip (and blend, per frame), then the limb's
// options and the pseudo three-bone options: inputs first, as prepared solvers
// expect. The limb's effectorOffset and endRotation are not fields (the tip
// sets them).
template <>
struct JobFields<PseudoThreeBoneJob> {
  static constexpr const char* kName = "pseudoThreeBone";
  template <class F>
  static constexpr void Visit(F&& f) {
    const auto limb = [&](bool inputs) {
      JobFields<TwoBoneJob>::Visit([&](Role r, const char* name, auto member, auto... names) {
        const std::string_view n = name;
        if (IsInput(r) != inputs || n == "effectorOffset" || n == "endRotation") return;
        f(r, name, Nest(&PseudoThreeBoneJob::limb, member), names...);
      });
    };
    limb(true);
    f(Role::kInput, "tip", &PseudoThreeBoneJob::tip);
    f(Role::kInputOrDefault, "blend", &PseudoThreeBoneJob::blend, Closed(0.0, 1.0));
    limb(false);
    f(Role::kOption, "variant", &PseudoThreeBoneJob::variant, EnumNames{"relative|followMid", 0});
    f(Role::kOption, "endLimit", &PseudoThreeBoneJob::endLimit, Closed(0.0, kPi));
  }
};

// The chain's fixed-size fields; its joints and limits follow the packed job
// (cpp/bindings/ik/chain_job.h).
template <>
struct JobFields<ChainJob> {
  static constexpr const char* kName = "chain";
  template <class F>
  static constexpr void Visit(F&& f) {
    const auto frame = [](auto member) { return Nest(&ChainJob::frame, member); };
    const auto settings = [](auto member) { return Nest(&ChainJob::settings, member); };
    f(Role::kInput, "target", frame(&ChainFrame::target));
    f(Role::kInputOrDefault, "pole", frame(&ChainFrame::pole));
    f(Role::kInputOrDefault, "parentRotation", frame(&ChainFrame::parentRotation));
    f(Role::kOption, "method", settings(&ChainSettings::method), EnumNames{"ccd|fabrik", 0});
    f(Role::kOption, "iterations", settings(&ChainSettings::iterations), Closed(0.0, kMaxChainIterations));
    f(Role::kOption, "tolerance", settings(&ChainSettings::tolerance), AtLeast(0.0));
    f(Role::kOption, "forward", settings(&ChainSettings::forward));
  }
};

// Packed in doubles so escapeAfter keeps every 32-bit count.
template <>
struct JobFields<Tentacle2DSettings> {
  static constexpr const char* kName = "tentacle2d";
  using Storage = double;
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOption, "step", &Tentacle2DSettings::step, Closed(0.0, kPi));
    f(Role::kOption, "limit", &Tentacle2DSettings::limit, Range{0.0, kInfinity, false, false});
    f(Role::kOption, "root", &Tentacle2DSettings::root);
    f(Role::kOption, "baseAngle", &Tentacle2DSettings::baseAngle, kFinite);
    f(Role::kOption, "escapeAfter", &Tentacle2DSettings::escapeAfter, Closed(0.0, 4294967295.0));
  }
};

// The aim's result: its job writes a bare rotation (AimJob::result points at `rotation`).
struct AimResult {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

template <>
struct JobFields<AimResult> {
  static constexpr const char* kName = "aim.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "rotation", &AimResult::rotation);
  }
};

template <>
struct JobFields<TwoBoneResult> {
  static constexpr const char* kName = "twoBone.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "root", &TwoBoneResult::root);
    f(Role::kOutput, "mid", &TwoBoneResult::mid);
    f(Role::kOutput, "end", &TwoBoneResult::end);
    f(Role::kOutput, "reached", &TwoBoneResult::reached);
    f(Role::kOutput, "distance", &TwoBoneResult::distance, kFinite);
  }
};

template <>
struct JobFields<PseudoThreeBoneResult> {
  static constexpr const char* kName = "pseudoThreeBone.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "root", &PseudoThreeBoneResult::root);
    f(Role::kOutput, "mid", &PseudoThreeBoneResult::mid);
    f(Role::kOutput, "end", &PseudoThreeBoneResult::end);
    f(Role::kOutput, "tip", &PseudoThreeBoneResult::tip);
    f(Role::kOutput, "reached", &PseudoThreeBoneResult::reached);
    f(Role::kOutput, "distance", &PseudoThreeBoneResult::distance, kFinite);
  }
};

// The chain's summary; its n solved joints precede it (chain_job.h).
template <>
struct JobFields<ChainResult> {
  static constexpr const char* kName = "chain.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "reached", &ChainResult::reached);
    f(Role::kOutput, "distance", &ChainResult::distance, kFinite);
    f(Role::kOutput, "iterations", &ChainResult::iterations, AtLeast(0.0));
  }
};

}  // namespace ikpd::describe
