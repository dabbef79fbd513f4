// Every number a description gives a range (cpp/src/<area>/fields.h) is
// checked by its C++ validation: for each described bound, a value just past
// it is rejected with an error naming the field, and a closed bound itself is
// accepted. JS checks the same ranges from the same descriptions
// (tests/js/field-ranges.test.js compares the two sides).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../../cpp/bindings/packed.h"
#include "../../cpp/src/ik/fields.h"
#include "../../cpp/src/pd/fields.h"
#include "../../cpp/src/rig/fields.h"
#include "ikpd/ik/tentacle2d.h"
#include "ikpd/rig/look_at.h"

namespace {

using namespace ikpd;
using namespace ikpd::describe;

// The name an error uses for a field (both body look-at spine settle times
// are "spine.settleTime").
std::string Shown(std::string_view name) {
  if (name == "spine.headSettleTime" || name == "spine.pelvisSettleTime") return "spine.settleTime";
  return std::string(name);
}

template <class T>
constexpr bool kIsInteger = std::is_integral_v<T>;

// A value of field type T just below `bound` (or just above, `up`); false when
// T cannot hold one (an unsigned count below 0).
template <class T>
bool Past(double bound, bool open, bool up, T* out) {
  if constexpr (std::is_same_v<T, std::optional<double>>) {
    double v = 0.0;
    if (!Past<double>(bound, open, up, &v)) return false;
    *out = v;
    return true;
  } else if constexpr (kIsInteger<T>) {
    const double v = open ? bound : up ? bound + 1.0 : bound - 1.0;
    if (v < static_cast<double>(std::numeric_limits<T>::min()) || v > static_cast<double>(std::numeric_limits<T>::max())) {
      return false;
    }
    *out = static_cast<T>(v);
    return true;
  } else {
    const T inf = std::numeric_limits<T>::infinity();
    *out = open ? static_cast<T>(bound) : std::nextafter(static_cast<T>(bound), up ? inf : -inf);
    if (!open && static_cast<double>(static_cast<T>(bound)) != bound) *out = static_cast<T>(bound);  // float-rounded bound
    return true;
  }
}

// For every ranged field of Job's description: `validate(settings)` (a valid
// settings value with that one field changed) rejects values past each bound
// naming the field, and accepts a closed finite bound.
template <class Job, class Validate>
void ExpectRangesChecked(const Job& valid, Validate validate, const std::vector<std::string>& notInCore = {}) {
  ASSERT_EQ(validate(valid).error, nullptr) << "the sample settings must be valid";
  int checked = 0;
  JobFields<Job>::Visit([&](Role, const char* name, auto member, const auto&... extras) {
    using T = FieldType<Job, decltype(member)>;
    if constexpr (ikpd::bindings::IsNumber<T>()) {
    Range range{};
    bool ranged = false;
    ((TakeRange(extras, &range, &ranged)), ...);
    if (!ranged) return;
    const std::string shown = Shown(name);
    for (const bool up : {false, true}) {
      const double bound = up ? range.max : range.min;
      const bool open = up ? range.maxOpen : range.minOpen;
      Job job = valid;
      T value{};
      if (std::isinf(bound) && !open) continue;  // Infinity admitted: nothing lies past it
      if (std::isinf(bound) && open) {
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, std::optional<double>>) {
          value = static_cast<std::conditional_t<std::is_same_v<T, std::optional<double>>, double, T>>(bound);
        } else {
          continue;
        }
      } else if (!Past(bound, open, up, &value)) {
        continue;
      }
      if (up && std::find(notInCore.begin(), notInCore.end(), name) != notInCore.end()) continue;
      Field(job, member) = value;
      const Status s = validate(job);
      ASSERT_NE(s.error, nullptr) << name << (up ? " above " : " below ") << bound << " accepted";
      EXPECT_EQ(std::string_view(s.error).substr(0, shown.size() + 2), shown + ": ") << s.error;
      ++checked;
      if (!open && !std::isinf(bound)) {
        Job at = valid;
        using V = std::conditional_t<std::is_same_v<T, std::optional<double>>, double, T>;
        Field(at, member) = static_cast<V>(bound);
        const Status ok = validate(at);
        EXPECT_TRUE(ok.error == nullptr || !std::string_view(ok.error).starts_with(shown + ":"))
            << name << " = " << bound << ": " << ok.error;
      }
    }
    }
  });
  EXPECT_GT(checked, 0);
}

TEST(DescribedRanges, TwoBone) {
  TwoBoneResult result;
  TwoBoneJob job;
  job.frame.mid.position = {1.0f, 0.0f, 0.0f};
  job.frame.end.position = {2.0f, 0.0f, 0.0f};
  job.result = &result;
  ExpectRangesChecked(job, [](const TwoBoneJob& j) { return j.Validate(); });
}

TEST(DescribedRanges, Aim) {
  glm::quat result;
  AimJob job;
  job.frame.target = {0.0f, 0.0f, 1.0f};
  job.result = &result;
  ExpectRangesChecked(job, [](const AimJob& j) { return j.Validate(); });
}

TEST(DescribedRanges, PseudoThreeBone) {
  PseudoThreeBoneResult result;
  PseudoThreeBoneJob job;
  job.frame.limb.mid.position = {1.0f, 0.0f, 0.0f};
  job.frame.limb.end.position = {2.0f, 0.0f, 0.0f};
  job.frame.tip.position = {2.5f, 0.0f, 0.0f};
  job.result = &result;
  ExpectRangesChecked(job, [](const PseudoThreeBoneJob& j) { return j.Validate(); });
}

TEST(DescribedRanges, Chain) {
  static const Transform joints[3] = {{}, {{1.0f, 0.0f, 0.0f}, kIdentityRotation}, {{2.0f, 0.0f, 0.0f}, kIdentityRotation}};
  static Transform output[3];
  ChainJob job;
  job.frame.joints = joints;
  job.output = output;
  ExpectRangesChecked(job, [](const ChainJob& j) { return j.Validate(); });
}

TEST(DescribedRanges, Tentacle) {
  static const float lengths[2] = {1.0f, 1.0f};
  Tentacle2DSettings s;
  s.lengths = lengths;
  ExpectRangesChecked(s, [](const Tentacle2DSettings& t) { return Tentacle2D().Reset(t); });
}

TEST(DescribedRanges, LookAt) {
  static const float weights[1] = {1.0f};
  LookAtSettings s;
  s.weights = weights;
  ExpectRangesChecked(s, [](const LookAtSettings& l) { return LookAt().Reset(l); });
}

TEST(DescribedRanges, BodyLookAt) {
  // spineJoints' upper bound is the WebAssembly handle's cap (its buffers),
  // checked in the bindings; the core takes any spine of at least 2.
  ExpectRangesChecked(BodyLookAtSettings{}, [](const BodyLookAtSettings& b) { return b.Validate(); }, {"spineJoints"});
}

TEST(DescribedRanges, Pd) {
  ExpectRangesChecked(PdOptions{}, [](const PdOptions& o) {
    pd::PdSettings s;
    return o.Resolve(&s);
  });
}

TEST(DescribedRanges, Grounding) {
  rig::GroundingSettings s;
  s.soleOffsets = {0.1f, 0.1f, 0.1f, 0.1f};
  ExpectRangesChecked(s, [](const rig::GroundingSettings& g) { return g.Validate(); });
}

}  // namespace
