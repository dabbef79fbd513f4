// The IK area's descriptions (cpp/src/describe/fields.h): each job's fields
// once, with their roles, JS names, enum names and valid ranges, and the
// results' fields (role kOutput) that the single calls, the prepared solvers
// and the batches' out.* fields carry. A job packs its fields in this order
// (cpp/bindings/packed.h); the limb's inputs come first, as prepared solvers
// expect.
#pragma once

#include <optional>
#include <string_view>

#include "../describe/checks.h"
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
// The limb's settings and frame in a job that holds a two-bone limb.
constexpr TwoBoneSettings& LimbSettings(TwoBoneJob& job) { return job.settings; }
constexpr const TwoBoneSettings& LimbSettings(const TwoBoneJob& job) { return job.settings; }
constexpr TwoBoneFrame& LimbFrame(TwoBoneJob& job) { return job.frame; }
constexpr const TwoBoneFrame& LimbFrame(const TwoBoneJob& job) { return job.frame; }
constexpr TwoBoneSettings& LimbSettings(PseudoThreeBoneJob& job) { return job.settings.limb; }
constexpr const TwoBoneSettings& LimbSettings(const PseudoThreeBoneJob& job) { return job.settings.limb; }
constexpr TwoBoneFrame& LimbFrame(PseudoThreeBoneJob& job) { return job.frame.limb; }
constexpr const TwoBoneFrame& LimbFrame(const PseudoThreeBoneJob& job) { return job.frame.limb; }
template <TwoBonePole Kind, class Job = TwoBoneJob>
struct TwoBonePoleInput {
  using Value = std::optional<glm::vec3>;
  static constexpr int kBit = static_cast<int>(Kind);
  static constexpr Value Get(const Job& job) {
    const int kind = static_cast<int>(LimbSettings(job).pole);
    const bool given = Kind == TwoBonePole::kPoint ? (kind & kBit) != 0 : kind == kBit;
    return given ? Value(LimbFrame(job).pole) : std::nullopt;
  }
  // `pole` is read before `poleDirection` (the description's order): it wins frame.pole.
  static constexpr void Set(Job& job, const Value& value) {
    int kind = static_cast<int>(LimbSettings(job).pole) & ~kBit;
    if (value) {
      if (Kind == TwoBonePole::kPoint || (kind & static_cast<int>(TwoBonePole::kPoint)) == 0) LimbFrame(job).pole = *value;
      kind |= kBit;
    }
    LimbSettings(job).pole = static_cast<TwoBonePole>(kind);
  }
};

template <>
struct JobFields<TwoBoneJob> {
  static constexpr const char* kName = "twoBone";
  template <class F>
  static constexpr void Visit(F&& f) {
    const auto frame = [](auto member) { return Nest(&TwoBoneJob::frame, member); };
    const auto settings = [](auto member) { return Nest(&TwoBoneJob::settings, member); };
    f(Role::kInput, "root", frame(&TwoBoneFrame::root), Doc{"Root joint (shoulder/hip), world space. Its position stays fixed."});
    f(Role::kInput, "mid", frame(&TwoBoneFrame::mid), Doc{"Middle joint (elbow/knee), world space."});
    f(Role::kInput, "end", frame(&TwoBoneFrame::end), Doc{"End joint (wrist/ankle), world space."});
    f(Role::kInput, "target", frame(&TwoBoneFrame::target),
      Doc{"World point the end joint (plus `effectorOffset`) should reach."});
    f(Role::kOption, "pole", TwoBonePoleInput<TwoBonePole::kPoint>{},
      Doc{"World point the middle joint bends toward; selects the limb plane. Not given: keep the current plane."});
    f(Role::kOption, "poleDirection", TwoBonePoleInput<TwoBonePole::kDirection>{},
      Doc{"World direction the middle joint bends toward (instead of `pole`, not both)."});
    f(Role::kOption, "forward", settings(&TwoBoneSettings::forward),
      Doc{"Joint-local bone axis of root and mid (points at the child); three.js rigs from Blender: `[0, 1, 0]`."});
    f(Role::kOption, "bendAxis", settings(&TwoBoneSettings::bendAxis),
      Doc{"Joint-local hinge axis of the middle joint (not parallel to `forward`)."});
    f(Role::kOption, "effectorOffset", frame(&TwoBoneFrame::effectorOffset),
      Doc{"World offset from the end joint to the contact point (fingertip, sole) (docs/ik/two-bone.md)."});
    f(Role::kOption, "bendDirection", settings(&TwoBoneSettings::bendDirection), EnumNames{"auto|positive|negative", 0},
      Doc{"Which way the middle joint bends about `bendAxis`: `'auto'` keeps the side the limb is bent\n"
          "to now (a straight limb: `straightBend`)."});
    f(Role::kOption, "straightBend", settings(&TwoBoneSettings::straightBend), EnumNames{"positive|negative", 1},
      Doc{"The side `'auto'` takes when the limb is perfectly straight."});
    f(Role::kOption, "minAngle", settings(&TwoBoneSettings::minAngle), Closed(0.0, kPi),
      Doc{"Minimum interior angle of the middle joint, radians (at most `maxAngle`)."});
    f(Role::kOption, "maxAngle", settings(&TwoBoneSettings::maxAngle), Closed(0.0, kPi),
      Doc{"Maximum interior angle of the middle joint, radians (at least `minAngle`); 170–175° keeps\n"
          "the limb from snapping straight."});
    f(Role::kOption, "weight", frame(&TwoBoneFrame::weight), Closed(0.0, 1.0),
      Doc{"Blend from the input pose (0) to the solved pose (1)."});
    f(Role::kOption, "soften", settings(&TwoBoneSettings::soften), Closed(0.0, 1.0),
      Doc{"Soft-IK zone near full extension, as a fraction of the reach (0: off)."});
    f(Role::kOption, "maxStretch", settings(&TwoBoneSettings::maxStretch), AtLeast(1.0),
      Doc{"Largest bone scale when the target is out of reach (1: no stretch)."});
    f(Role::kOption, "twist", settings(&TwoBoneSettings::twist), kFinite,
      Doc{"Rotation of the limb plane about the root→target axis, radians (right-handed)."});
    f(Role::kOption, "endRotation", settings(&TwoBoneSettings::endRotation), EnumNames{"world|relative", 0},
      Doc{"The end joint's rotation: `'world'` keeps its world rotation, `'relative'` keeps it relative to the mid."});
    f(Role::kOption, "tolerance", settings(&TwoBoneSettings::tolerance), AtLeast(0.0),
      Doc{"`reached` tolerance, relative to the limb length (upper + lower)."});
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
    f(Role::kInput, "position", frame(&AimFrame::position), Doc{"Joint world position."});
    f(Role::kInputOrDefault, "rotation", frame(&AimFrame::rotation), Doc{"Joint world rotation."});
    f(Role::kInput, "target", frame(&AimFrame::target),
      Doc{"World point the forward axis should point at. At the joint itself: no aim rotation."});
    f(Role::kOption, "forward", settings(&AimSettings::forward),
      Doc{"Joint-local axis to aim (three.js rigs from Blender: `[0, 1, 0]`)."});
    f(Role::kOption, "up", settings(&AimSettings::up),
      Doc{"Joint-local axis rolled toward `pole` (docs/ik/aim.md); only used with `pole`."});
    f(Role::kOption, "pole", AimPoleInput{},
      Doc{"World \"up target\": after aiming, roll about forward so `up` points toward it. Not given: no roll."});
    f(Role::kOption, "hingeAxis", settings(&AimSettings::hingeAxis),
      Doc{"Joint-local axis; when given, the joint only rotates about it (2D use; `method` unused, no `pole`)."});
    f(Role::kOption, "offset", settings(&AimSettings::offset),
      Doc{"Joint-local point that aims instead of the joint (the eyes in front of a head joint, a\n"
          "fingertip): the ray from it along `forward` passes through the target (docs/ik/aim.md).\n"
          "A target within the offset's reach gets no aim rotation. Not with `hingeAxis`."});
    f(Role::kOption, "method", settings(&AimSettings::method), EnumNames{"yawPitch|crossProduct|shortestArc", 0},
      Doc{"`'yawPitch'` (yaw, then pitch; docs/ik/aim.md); `'crossProduct'` gives the same rotation;\n"
          "`'shortestArc'` gives the same forward axis with no roll correction."});
    f(Role::kOption, "weight", frame(&AimFrame::weight), Closed(0.0, 1.0),
      Doc{"Blend from the input rotation (0) to the solved one (1)."});
  }
};

// The limb's inputs, then the tip (and blend, per frame), then the limb's
// options and the pseudo three-bone options: inputs first, as prepared solvers
// expect. The limb's effectorOffset and endRotation are not fields (the tip
// sets them).
template <>
struct JobFields<PseudoThreeBoneJob> {
  static constexpr const char* kName = "pseudoThreeBone";
  // A two-bone field moved into this job: frame.x → frame.limb.x,
  // settings.x → settings.limb.x, the pole pair onto this job's limb.
  template <class M>
  static constexpr auto Limb(M member) {
    if constexpr (requires { member.outer; }) {
      if constexpr (std::is_same_v<decltype(member.outer), TwoBoneFrame TwoBoneJob::*>) {
        return Nest(&PseudoThreeBoneJob::frame, Nest(&PseudoThreeBoneFrame::limb, member.inner));
      } else {
        return Nest(&PseudoThreeBoneJob::settings, Nest(&PseudoThreeBoneSettings::limb, member.inner));
      }
    } else {
      return TwoBonePoleInput<static_cast<TwoBonePole>(M::kBit), PseudoThreeBoneJob>{};
    }
  }
  template <class F>
  static constexpr void Visit(F&& f) {
    const auto limb = [&](bool inputs) {
      JobFields<TwoBoneJob>::Visit([&](Role r, const char* name, auto member, auto... names) {
        const std::string_view n = name;
        if (IsInput(r) != inputs || n == "effectorOffset" || n == "endRotation") return;
        f(r, name, Limb(member), names...);
      });
    };
    limb(true);
    f(Role::kInput, "tip", Nest(&PseudoThreeBoneJob::frame, &PseudoThreeBoneFrame::tip),
      Doc{"World-space tip of the end joint (toe, fingertip); it moves rigidly with `end` and is what reaches `target`."});
    f(Role::kInputOrDefault, "blend", Nest(&PseudoThreeBoneJob::frame, &PseudoThreeBoneFrame::blend), Closed(0.0, 1.0),
      Doc{"Joint 3's blend between its rebuilt posture (0) and its input world rotation (1).\n"
          "1: a plain two-bone solve with the effector's rotation fixed. Below 1 a second two-bone pass\n"
          "puts the tip back on the target."});
    limb(false);
    f(Role::kOption, "variant", Nest(&PseudoThreeBoneJob::settings, &PseudoThreeBoneSettings::variant),
      EnumNames{"relative|followMid", 0},
      Doc{"How joint 3 is rebuilt after the first pass: `'relative'` keeps its input rotation\n"
          "relative to joint 2; `'followMid'` gives it joint 2's rotation."});
    f(Role::kOption, "endLimit", Nest(&PseudoThreeBoneJob::settings, &PseudoThreeBoneSettings::endLimit),
      Closed(0.0, kPi),
      Doc{"How far joint 3 may turn from its input rotation relative to joint 2, radians (π: off); a limit\n"
          "forces the second pass (which may break it slightly)."});
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
    f(Role::kInput, "target", frame(&ChainFrame::target), Doc{"World point the tip should reach."});
    f(Role::kInputOrDefault, "pole", frame(&ChainFrame::pole),
      Doc{"World point the chain bends toward: the solved chain is turned about the root→tip axis\n"
          "(the tip does not move) so its bend faces the pole. That turn ignores the root's limit. Not given: none."});
    f(Role::kInputOrDefault, "parentRotation", frame(&ChainFrame::parentRotation),
      Doc{"World rotation of the root's parent (the reference of the root's limit)."});
    f(Role::kOption, "method", settings(&ChainSettings::method), EnumNames{"ccd|fabrik", 0},
      Doc{"`'fabrik'` (fewest iterations) or `'ccd'` (like three.js CCDIKSolver, moves the joints near the tip most)."});
    f(Role::kOption, "iterations", settings(&ChainSettings::iterations), Closed(0.0, kMaxChainIterations),
      Doc{"Most iterations (CCD sweeps, FABRIK back-and-forth passes), an integer."});
    f(Role::kOption, "tolerance", settings(&ChainSettings::tolerance), AtLeast(0.0),
      Doc{"Stop when |tip − target| <= tolerance × chain length (the sum of bone lengths)."});
    f(Role::kOption, "forward", settings(&ChainSettings::forward),
      Doc{"Joint-local bone axis (points at the child); three.js rigs from Blender: `[0, 1, 0]`."});
  }
};

// Packed in doubles so escapeAfter keeps every 32-bit count.
template <>
struct JobFields<Tentacle2DSettings> {
  static constexpr const char* kName = "tentacle2d";
  using Storage = double;
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOption, "step", &Tentacle2DSettings::step, Closed(0.0, kPi), Doc{"Largest turn of one joint per update, radians."});
    f(Role::kOption, "limit", &Tentacle2DSettings::limit, Range{0.0, kInfinity, false, false},
      Doc{"Joint limit |angle| <= limit, radians, one number for all bones (or one per bone)."});
    f(Role::kOption, "root", &Tentacle2DSettings::root, Doc{"Root position."});
    f(Role::kOption, "baseAngle", &Tentacle2DSettings::baseAngle, kFinite,
      Doc{"Direction of the straight (all angles 0) pose, radians from +X."});
    f(Role::kOption, "escapeAfter", &Tentacle2DSettings::escapeAfter, Closed(0.0, 4294967295.0),
      Doc{"Opt-in escape from the plain rule's dead ends (0: off, the plain rule, which can curl into a\n"
          "knot it never leaves). N > 0: when the tip has not come closer to the target for N updates in a\n"
          "row while it is farther than `step * totalLength` beyond the best gap any pose could have, the\n"
          "tentacle unwinds (every joint one step toward 0 per update until straight) and then follows the\n"
          "plain rule again. At most once per target: the target must move by more than `step * totalLength`\n"
          "first (docs/ik/tentacle.md)."});
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
    f(Role::kOutput, "rotation", &AimResult::rotation, Doc{"New world rotation `[x, y, z, w]` (unit)."});
  }
};

template <>
struct JobFields<TwoBoneResult> {
  static constexpr const char* kName = "twoBone.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "root", &TwoBoneResult::root, Doc{"The solved root, world space; its forward axis points at the mid."});
    f(Role::kOutput, "mid", &TwoBoneResult::mid, Doc{"The solved middle joint; its forward axis points at the end."});
    f(Role::kOutput, "end", &TwoBoneResult::end, Doc{"The solved end joint."});
    f(Role::kOutput, "reached", &TwoBoneResult::reached, Doc{"True when `distance` <= tolerance × limb length."});
    f(Role::kOutput, "distance", &TwoBoneResult::distance, kFinite,
      Doc{"Remaining distance from the contact point (end + effectorOffset) to the target."});
  }
};

template <>
struct JobFields<PseudoThreeBoneResult> {
  static constexpr const char* kName = "pseudoThreeBone.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "root", &PseudoThreeBoneResult::root, Doc{"The solved root, world space."});
    f(Role::kOutput, "mid", &PseudoThreeBoneResult::mid, Doc{"The solved middle joint."});
    f(Role::kOutput, "end", &PseudoThreeBoneResult::end, Doc{"The solved end joint."});
    f(Role::kOutput, "tip", &PseudoThreeBoneResult::tip, Doc{"The tip, moved rigidly with `end`."});
    f(Role::kOutput, "reached", &PseudoThreeBoneResult::reached,
      Doc{"True when `distance` <= tolerance × (upper + lower length)."});
    f(Role::kOutput, "distance", &PseudoThreeBoneResult::distance, kFinite,
      Doc{"Remaining distance from the tip to the target."});
  }
};

// The chain's summary; its n solved joints precede it (chain_job.h).
template <>
struct JobFields<ChainResult> {
  static constexpr const char* kName = "chain.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "reached", &ChainResult::reached, Doc{"True when `distance` <= tolerance × chain length."});
    f(Role::kOutput, "distance", &ChainResult::distance, kFinite, Doc{"Remaining distance from the tip to the target."});
    f(Role::kOutput, "iterations", &ChainResult::iterations, AtLeast(0.0), Doc{"Iterations run."});
  }
};

}  // namespace ikpd::describe
