// Fuzzes the batch jobs (ikpd/batch/*.h): two-bone, aim, scalar PD and
// quaternion PD over 0–11 items (both SIMD lanes and the tail); two-bone batches also as two
// parts cut by batch::Slice, which must write the same floats. Checks: an
// error names a parameter and its failedItem; a validation error writes no
// output; an accepted two-bone or aim batch gives, for every item, exactly
// the single job's result (bit for bit, docs/architecture.md); PD batches keep
// their state finite.
#include <array>
#include <vector>

#include "two_bone_input.h"

using namespace ikpd;
using namespace ikpd::fuzz;

namespace {

constexpr std::size_t kMaxItems = 11;
constexpr float kSentinel = 7.0f;

void Put(std::vector<float>& field, std::size_t i, const glm::vec3& v) {
  field[3 * i] = v.x, field[3 * i + 1] = v.y, field[3 * i + 2] = v.z;
}
void Put(std::vector<float>& field, std::size_t i, const glm::quat& q) {
  field[4 * i] = q.x, field[4 * i + 1] = q.y, field[4 * i + 2] = q.z, field[4 * i + 3] = q.w;
}
bool SameAs(const std::vector<float>& field, std::size_t i, const glm::vec3& v) {
  const float* p = &field[3 * i];
  return SameBytes(glm::vec3(p[0], p[1], p[2]), v);
}
bool SameAs(const std::vector<float>& field, std::size_t i, const glm::quat& q) {
  const float* p = &field[4 * i];
  return SameBytes(glm::quat(p[3], p[0], p[1], p[2]), q);
}
bool SameFloats(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}
bool AllSentinel(const std::vector<float>& field) {
  return std::all_of(field.begin(), field.end(), [](float v) { return SameBytes(v, kSentinel); });
}

void FuzzTwoBone(Input& in, std::size_t count) {
  TwoBoneJob options;
  options.frame.root = in.Joint();
  FillTwoBoneOptions(in, options);
  const bool hasWeight = in.Bool();
  const PoleMode mode = static_cast<PoleMode>(in.Int(0, 2));
  std::vector<float> rootP(3 * count), rootR(4 * count), midP(3 * count), midR(4 * count), endP(3 * count),
      endR(4 * count), target(3 * count), pole(3 * count), weight(count);
  std::vector<TwoBoneJob> singles(count, options);
  for (std::size_t i = 0; i < count; ++i) {
    TwoBoneJob& j = singles[i];
    j.settings.pole = ikpd::TwoBonePole::kNone;
    FillTwoBoneJob(in, j);  // joints, target, pole, weight; the shared options are put back below
    const glm::vec3 p = mode == PoleMode::kNone ? glm::vec3(0.0f) : in.Vec3();
    if (mode == PoleMode::kPoint) j.settings.pole = ikpd::TwoBonePole::kPoint, j.frame.pole = p;
    if (mode == PoleMode::kDirection) j.settings.pole = ikpd::TwoBonePole::kDirection, j.frame.pole = p;
    if (mode == PoleMode::kNone) j.settings.pole = ikpd::TwoBonePole::kNone;
    if (!hasWeight) j.frame.weight = options.frame.weight;
    const ikpd::TwoBonePole itemPole = j.settings.pole;
    j.settings = options.settings, j.settings.pole = itemPole;
    j.frame.effectorOffset = options.frame.effectorOffset;
    Put(rootP, i, j.frame.root.position), Put(rootR, i, j.frame.root.rotation), Put(midP, i, j.frame.mid.position);
    Put(midR, i, j.frame.mid.rotation), Put(endP, i, j.frame.end.position), Put(endR, i, j.frame.end.rotation);
    Put(target, i, j.frame.target), Put(pole, i, p);
    weight[i] = j.frame.weight;
  }
  std::vector<float> oRootR(4 * count, kSentinel), oMidP(3 * count, kSentinel), oMidR(4 * count, kSentinel),
      oEndP(3 * count, kSentinel), oEndR(4 * count, kSentinel), oReached(count, kSentinel), oDistance(count, kSentinel);
  TwoBoneBatchJob batch;
  batch.options = options;
  batch.poleMode = mode;
  batch.count = count;
  batch.rootPosition = rootP.data(), batch.rootRotation = rootR.data(), batch.midPosition = midP.data();
  batch.midRotation = midR.data(), batch.endPosition = endP.data(), batch.endRotation = endR.data();
  batch.target = target.data(), batch.pole = pole.data(), batch.weight = hasWeight ? weight.data() : nullptr;
  batch.outRootRotation = oRootR.data(), batch.outMidPosition = oMidP.data(), batch.outMidRotation = oMidR.data();
  batch.outEndPosition = oEndP.data(), batch.outEndRotation = oEndR.data(), batch.outReached = oReached.data();
  batch.outDistance = oDistance.data();
  std::size_t failed = kMaxItems + 1;
  batch.failedItem = &failed;
  FUZZ_TRACE("twoBone batch count %zu pole mode %d weight %d\n", count, static_cast<int>(mode), hasWeight);
  const Status validated = batch.Validate();
  const Status st = batch.Run();
  if (!st) {
    FUZZ_CHECK(NamesParameter(st), "error does not name a parameter: %s", st.error);
    if (!validated) FUZZ_CHECK(AllSentinel(oRootR) && AllSentinel(oEndP), "output written on a validation error: %s", st.error);
    return;
  }
  // Two parts (batch::Slice) write exactly what the whole batch wrote.
  {
    const std::vector<float> wholeRootR = oRootR, wholeEndP = oEndP, wholeEndR = oEndR, wholeDistance = oDistance;
    for (auto* o : {&oRootR, &oMidP, &oMidR, &oEndP, &oEndR, &oReached, &oDistance}) std::fill(o->begin(), o->end(), kSentinel);
    const std::size_t split = static_cast<std::size_t>(in.Int(0, static_cast<int>(count)));
    TwoBoneBatchJob parts[2];
    FUZZ_CHECK(ikpd::batch::Slice(batch, 0, split, &parts[0]).ok() && ikpd::batch::Slice(batch, split, count - split, &parts[1]).ok(),
               "Slice refused a valid range");
    FUZZ_CHECK(parts[1].Run().ok() && parts[0].Run().ok(), "a part failed where the whole batch solved");
    FUZZ_CHECK(SameFloats(oRootR, wholeRootR) && SameFloats(oEndP, wholeEndP) && SameFloats(oEndR, wholeEndR) &&
                   SameFloats(oDistance, wholeDistance),
               "parts split at %zu differ from the whole batch", split);
  }
  for (std::size_t i = 0; i < count; ++i) {
    TwoBoneResult r;
    singles[i].result = &r;
    const Status single = singles[i].Run();
    FUZZ_CHECK(single.ok(), "batch item %zu solved, single call failed: %s", i, single.error);
    FUZZ_CHECK(SameAs(oRootR, i, r.root.rotation) && SameAs(oMidP, i, r.mid.position) && SameAs(oMidR, i, r.mid.rotation) &&
                   SameAs(oEndP, i, r.end.position) && SameAs(oEndR, i, r.end.rotation) && SameBytes(oDistance[i], r.distance),
               "batch item %zu differs from the single call", i);
  }
}

void FuzzAim(Input& in, std::size_t count) {
  AimJob options;
  options.settings.forward = in.Axis();
  options.settings.method = static_cast<AimMethod>(in.Int(0, 3));
  options.settings.up = in.Axis();
  if (in.Int(0, 3) == 0) options.settings.hingeAxis = in.Axis();
  if (in.Bool()) options.settings.offset = in.Vec3();
  options.frame.weight = in.Bool() ? 1.0f : in.Range(0.0f, 1.0f);
  const bool hasWeight = in.Bool();
  const PoleMode mode = in.Bool() ? PoleMode::kPoint : static_cast<PoleMode>(in.Int(0, 2));
  std::vector<float> position(3 * count), rotation(4 * count), target(3 * count), pole(3 * count), weight(count);
  std::vector<AimJob> singles(count, options);
  for (std::size_t i = 0; i < count; ++i) {
    AimJob& j = singles[i];
    j.frame.position = in.Int(0, 7) == 0 ? in.MaybeNonFiniteVec3() : in.Vec3();
    j.frame.rotation = in.Quat();
    j.frame.target = in.Bool() ? j.frame.position + in.Vec3() : in.MaybeNonFiniteVec3();
    const glm::vec3 p = in.Vec3();
    if (mode == PoleMode::kPoint) j.settings.pole = true, j.frame.pole = p;
    j.frame.weight = hasWeight ? (in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite()) : options.frame.weight;
    Put(position, i, j.frame.position), Put(rotation, i, j.frame.rotation), Put(target, i, j.frame.target), Put(pole, i, p);
    weight[i] = j.frame.weight;
  }
  std::vector<float> out(4 * count, kSentinel);
  AimBatchJob batch;
  batch.options = options;
  batch.poleMode = mode;
  batch.count = count;
  batch.position = position.data(), batch.rotation = rotation.data(), batch.target = target.data();
  batch.pole = pole.data(), batch.weight = hasWeight ? weight.data() : nullptr, batch.outRotation = out.data();
  FUZZ_TRACE("aim batch count %zu pole mode %d forward %.9g %.9g %.9g up %.9g %.9g %.9g hinge %d method %d\n", count,
             static_cast<int>(mode), options.settings.forward.x, options.settings.forward.y, options.settings.forward.z, options.settings.up.x, options.settings.up.y,
             options.settings.up.z, options.settings.hingeAxis.has_value(), static_cast<int>(options.settings.method));
  const Status validated = batch.Validate();
  const Status st = batch.Run();
  if (!st) {
    FUZZ_CHECK(NamesParameter(st), "error does not name a parameter: %s", st.error);
    if (!validated) FUZZ_CHECK(AllSentinel(out), "output written on a validation error: %s", st.error);
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    glm::quat r;
    singles[i].result = &r;
    const Status single = singles[i].Run();
    FUZZ_CHECK(single.ok(), "batch item %zu solved, single call failed: %s", i, single.error);
    FUZZ_CHECK(SameAs(out, i, r), "batch item %zu differs from the single call", i);
  }
}

void FuzzPd(Input& in, std::size_t count) {
  pd::PdSettings settings;
  if (!pd::SettingsFromSettleTime(in.Range(0.01f, 2.0f), in.Range(0.1f, 2.0f), &settings)) return;
  settings.integrator = static_cast<pd::Integrator>(in.Int(0, 3));
  settings.onUnstable = static_cast<pd::OnUnstable>(in.Int(0, 1));
  if (in.Bool()) settings.maxVelocity = in.Range(0.1f, 50.0f);
  if (in.Int(0, 7) == 0) settings.ki = 1.0;  // not allowed in batches: must be an error
  const double dt = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 0.2f);
  if (in.Bool()) {
    std::vector<float> value(count), velocity(count), target(count);
    for (std::size_t i = 0; i < count; ++i) value[i] = in.MaybeNonFinite(), velocity[i] = in.Float(), target[i] = in.Float();
    const std::vector<float> before = value;
    PdBatchJob batch;
    batch.settings = settings;
    batch.angle = in.Bool();
    batch.dt = dt;
    batch.count = count;
    batch.value = value.data(), batch.velocity = velocity.data(), batch.target = target.data();
    const Status validated = batch.Validate();
    const Status st = batch.Run();
    if (!st) {
      FUZZ_CHECK(NamesParameter(st), "error does not name a parameter: %s", st.error);
      if (!validated) FUZZ_CHECK(SameFloats(before, value), "state written on error");
      return;
    }
    for (std::size_t i = 0; i < count; ++i) FUZZ_CHECK(Finite(value[i], velocity[i]), "item %zu state not finite", i);
  } else {
    std::vector<float> value(4 * count), velocity(3 * count), target(4 * count);
    for (std::size_t i = 0; i < count; ++i) {
      Put(value, i, in.Quat()), Put(target, i, in.Quat());
      velocity[3 * i] = in.Float(), velocity[3 * i + 1] = in.Float(), velocity[3 * i + 2] = in.MaybeNonFinite();
    }
    const std::vector<float> before = value;
    for (std::size_t i = 0; i < count; ++i) {
      FUZZ_TRACE("quat item %zu value [%.9g %.9g %.9g %.9g] velocity [%.9g %.9g %.9g] target [%.9g %.9g %.9g %.9g]\n", i,
                 static_cast<double>(value[4 * i]), static_cast<double>(value[4 * i + 1]), static_cast<double>(value[4 * i + 2]),
                 static_cast<double>(value[4 * i + 3]), static_cast<double>(velocity[3 * i]), static_cast<double>(velocity[3 * i + 1]),
                 static_cast<double>(velocity[3 * i + 2]), static_cast<double>(target[4 * i]), static_cast<double>(target[4 * i + 1]),
                 static_cast<double>(target[4 * i + 2]), static_cast<double>(target[4 * i + 3]));
    }
    QuatPdBatchJob batch;
    batch.settings = settings;
    if (in.Bool()) batch.settings.maxAngle = in.Range(0.01f, kPi);
    batch.dt = dt;
    batch.count = count;
    batch.value = value.data(), batch.velocity = velocity.data(), batch.target = target.data();
    const Status validated = batch.Validate();
    const Status st = batch.Run();
    if (!st) {
      FUZZ_CHECK(NamesParameter(st), "error does not name a parameter: %s", st.error);
      if (!validated) FUZZ_CHECK(SameFloats(before, value), "state written on error");
      return;
    }
    for (std::size_t i = 0; i < count; ++i) {
      const glm::quat q(value[4 * i + 3], value[4 * i], value[4 * i + 1], value[4 * i + 2]);
      FUZZ_CHECK(Finite(q) && IsUnit(q, 1e-4f), "item %zu value not unit: |q| %g before [%g %g %g %g] after [%g %g %g %g] dt %.17g kp %.17g kd %.17g integrator %d maxVelocity %g maxAngle %g",
                 i, static_cast<double>(glm::length(q)), static_cast<double>(before[4 * i]), static_cast<double>(before[4 * i + 1]),
                 static_cast<double>(before[4 * i + 2]), static_cast<double>(before[4 * i + 3]), static_cast<double>(q.x),
                 static_cast<double>(q.y), static_cast<double>(q.z), static_cast<double>(q.w), dt, batch.settings.kp, batch.settings.kd,
                 static_cast<int>(batch.settings.integrator), batch.settings.maxVelocity, batch.settings.maxAngle);
      FUZZ_CHECK(Finite(glm::vec3(velocity[3 * i], velocity[3 * i + 1], velocity[3 * i + 2])), "item %zu velocity not finite", i);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const int kind = in.Int(0, 2);
  const std::size_t count = static_cast<std::size_t>(in.Int(0, static_cast<int>(kMaxItems)));
  switch (kind) {
    case 0: FuzzTwoBone(in, count); break;
    case 1: FuzzAim(in, count); break;
    default: FuzzPd(in, count); break;
  }
  return 0;
}
