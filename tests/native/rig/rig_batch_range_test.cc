// RigBatch: partial lane groups and chunk edges (counts 1, 7, 8, 9, 2049),
// ranges (threads) equal to the full update, and the degenerate inputs
// (target at the root, zero-length bones, weight 0, dt 0), each against a Rig
// per character.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

#include "native/rig_batch_test_util.h"

// Every allocation of the test binary counted (the replaceable global
// operator new; the rest of the binary sees no difference). GCC takes the
// replaced pair for a mismatch where it inlines library allocations.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
namespace {
std::atomic<std::size_t> gAllocations{0};
}  // namespace
void* operator new(std::size_t size) {
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// The nothrow form too (std::stable_sort's buffer, for one), so every new pairs with this delete.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace rigbatchtest;

// Bit-identical outputs and results.
void ExpectSame(const RigBatch& a, const RigBatch& b) {
  ASSERT_EQ(a.output().size(), b.output().size());
  EXPECT_EQ(std::memcmp(a.output().data(), b.output().data(), a.output().size_bytes()), 0);
  for (std::size_t i = 0; i < a.constraintCount(); ++i) {
    EXPECT_EQ(std::memcmp(a.reached(i).data(), b.reached(i).data(), a.reached(i).size_bytes()), 0) << i;
    EXPECT_EQ(std::memcmp(a.distance(i).data(), b.distance(i).data(), a.distance(i).size_bytes()), 0) << i;
  }
}

// The inputs of `from` copied into `to` (same template and count).
void CopyInputs(RigBatch& from, RigBatch& to) {
  const auto copy = [](std::span<float> a, std::span<float> b) { std::copy(a.begin(), a.end(), b.begin()); };
  copy(from.translations(), to.translations()), copy(from.rotations(), to.rotations()), copy(from.scales(), to.scales());
  copy(from.rootPositions(), to.rootPositions()), copy(from.rootRotations(), to.rootRotations());
  copy(from.rootScales(), to.rootScales());
  for (std::size_t i = 0; i < from.constraintCount(); ++i) {
    copy(from.targets(i), to.targets(i)), copy(from.poles(i), to.poles(i)), copy(from.weights(i), to.weights(i));
    to.poleSet()[i] = from.poleSet()[i];
  }
}

TEST(RigBatchRange, CountsAtLaneAndChunkEdgesEqualTheRig) {
  for (const std::size_t count : {1u, 7u, 8u, 9u, 2049u}) {  // a chunk is 2048 characters
    for (const float settle : {0.0f, 0.1f}) {
      iktest::Rng rng(static_cast<unsigned>(2910 + count));
      const Rig rig = MakeTemplate(RandomCreature(rng, settle));
      RigBatch batch;
      ASSERT_TRUE(batch.Init(rig, count).ok());
      Mirror mirror(rig, count);
      for (int f = 0; f < 4; ++f) {
        RandomInputs(rng, batch, rig);
        ASSERT_TRUE(batch.Update(1.0f / 60.0f).ok());
        mirror.Update(batch, 1.0f / 60.0f);
        EXPECT_LT(mirror.Gap(batch), settle == 0.0f ? 1e-5f : 1e-4f) << count << " characters, frame " << f;
      }
    }
  }
}

// Update(dt, first, count) over ranges that cover the batch (in any order, of
// any size, across chunk edges) equals Update(dt), bit for bit, frame after frame.
TEST(RigBatchRange, RangesEqualTheFullUpdate) {
  iktest::Rng rng(2911);
  const Rig rig = MakeTemplate(RandomCreature(rng, 0.1f));
  const std::size_t n = 2600;  // a chunk is 2048 characters
  RigBatch full, parts;
  ASSERT_TRUE(full.Init(rig, n).ok());
  ASSERT_TRUE(parts.Init(rig, n).ok());
  for (int f = 0; f < 6; ++f) {
    RandomInputs(rng, full, rig);
    CopyInputs(full, parts);
    ASSERT_TRUE(full.Update(1.0f / 30.0f).ok());
    const std::size_t a = static_cast<std::size_t>(rng.Uniform(1.0f, 1300.0f)), b = a + static_cast<std::size_t>(rng.Uniform(0.0f, 1299.0f));
    ASSERT_TRUE(parts.Update(1.0f / 30.0f, b, n - b).ok());
    ASSERT_TRUE(parts.Update(1.0f / 30.0f, 0, a).ok());
    ASSERT_TRUE(parts.Update(1.0f / 30.0f, a, b - a).ok());
    ASSERT_TRUE(parts.Update(1.0f / 30.0f, a, 0).ok());  // empty: nothing
    ExpectSame(full, parts);
  }
}

// Disjoint ranges on threads at once (the way a job system splits a crowd)
// equal the full update, bit for bit.
TEST(RigBatchRange, RangesOnThreadsEqualTheFullUpdate) {
  iktest::Rng rng(2915);
  const Rig rig = MakeTemplate(RandomCreature(rng, 0.1f));
  const std::size_t n = 1000;
  RigBatch full, parts;
  ASSERT_TRUE(full.Init(rig, n).ok());
  ASSERT_TRUE(parts.Init(rig, n).ok());
  for (int f = 0; f < 4; ++f) {
    RandomInputs(rng, full, rig);
    CopyInputs(full, parts);
    ASSERT_TRUE(full.Update(1.0f / 60.0f).ok());
    bool ok[4] = {};
    std::thread threads[4];
    for (std::size_t t = 0; t < 4; ++t) {
      threads[t] = std::thread([&, t] { ok[t] = parts.Update(1.0f / 60.0f, t * 250, 250).ok(); });
    }
    for (std::thread& t : threads) t.join();
    for (const bool o : ok) EXPECT_TRUE(o);
    ExpectSame(full, parts);
  }
}

// Update never allocates: not on a frame, a range, a blend-out, nor an error.
TEST(RigBatchRange, UpdateNeverAllocates) {
  iktest::Rng rng(2914);
  const Rig rig = MakeTemplate(RandomCreature(rng, 0.1f));
  RigBatch batch;
  ASSERT_TRUE(batch.Init(rig, 300).ok());
  RandomInputs(rng, batch, rig);
  ConstraintSettings off = rig.settings(3);
  off.common.enabled = false;
  const std::size_t before = gAllocations.load();
  for (int f = 0; f < 20; ++f) {
    if (f == 10) {
      const std::size_t settings = gAllocations.load();  // SetSettings may allocate (set rarely): not counted
      ASSERT_TRUE(batch.SetSettings(3, off).ok());
      gAllocations.store(settings);
    }
    ASSERT_TRUE(batch.Update(1.0f / 60.0f).ok());
    ASSERT_TRUE(batch.Update(1.0f / 60.0f, 7, 100).ok());
  }
  batch.weights(2)[5] = 2.0f;
  EXPECT_FALSE(batch.Update(1.0f / 60.0f).ok());
  EXPECT_EQ(gAllocations.load(), before);
}

// Nor with a springs constraint (each character's state sized at Init): frames,
// ranges, dt 0 and 0.1, a ClearSmoothing, an error.
TEST(RigBatchRange, SpringsUpdateNeverAllocates) {
  rigtest::ChainRig c;
  c.parents = {-1, 0, 1};
  c.rest = {rigtest::At({0.0f, 1.0f, 0.0f}), rigtest::At({0.0f, 0.45f, 0.0f}), rigtest::At({0.0f, 0.1f, 0.0f})};
  ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kSprings);
  s.joints = {1};
  for (int chain = 0; chain < 2; ++chain) {
    for (int k = 0; k < 5; ++k) {
      c.parents.push_back(k == 0 ? 2 : static_cast<int>(c.parents.size()) - 1);
      c.rest.push_back(rigtest::At(k == 0 ? glm::vec3(0.05f - 0.1f * static_cast<float>(chain), 0.1f, -0.05f) : glm::vec3(0.0f, -0.05f, -0.02f)));
      s.legs.push_back(static_cast<int>(c.parents.size()) - 1);
    }
    s.springChains.push_back(5);
  }
  s.legs.push_back(2);
  ikpd::rig::SpringCollider ball;
  ball.joint = 2, ball.offset = {0.0f, 0.1f, 0.0f}, ball.radius = 0.09f;
  s.springColliders.push_back(ball);
  s.common.settleTime = 0.2f;
  Rig rig = rigtest::MakeRig(c);
  ASSERT_TRUE(rig.Add(s).ok());
  RigBatch batch;
  ASSERT_TRUE(batch.Init(rig, 300).ok());
  iktest::Rng rng(2915);
  RandomInputs(rng, batch, rig);
  const std::size_t before = gAllocations.load();
  for (int f = 0; f < 20; ++f) {
    ASSERT_TRUE(batch.Update(f % 5 == 0 ? 0.0f : f % 5 == 1 ? 0.1f : 1.0f / 60.0f).ok());
    ASSERT_TRUE(batch.Update(1.0f / 60.0f, 7, 100).ok());
    if (f == 10) {
      ASSERT_TRUE(batch.ClearSmoothing(3, 50).ok());
    }
  }
  batch.rootScales()[5] = 0.0f;
  EXPECT_FALSE(batch.Update(1.0f / 60.0f).ok());
  EXPECT_EQ(gAllocations.load(), before);
}

TEST(RigBatchRange, RangesOutOfBoundsAreErrors) {
  iktest::Rng rng(2912);
  const Rig rig = MakeTemplate(RandomCreature(rng, 0.0f));
  RigBatch batch;
  ASSERT_TRUE(batch.Init(rig, 10).ok());
  const char* message = "range: [first, first + count) must lie in [0, count())";
  EXPECT_STREQ(batch.Update(0.1f, 0, 11).error, message);
  EXPECT_STREQ(batch.Update(0.1f, 11, 0).error, message);
  EXPECT_STREQ(batch.Update(0.1f, 5, 6).error, message);
  EXPECT_STREQ(batch.Update(0.1f, 1, SIZE_MAX).error, message);  // first + count overflows
  EXPECT_STREQ(batch.Update(0.1f, SIZE_MAX, 2).error, message);
  EXPECT_TRUE(batch.Update(0.1f, 10, 0).ok());
  EXPECT_TRUE(batch.Update(0.1f, 4, 6).ok());
}

// Each limb's target at its root joint, each aim's at its joint; a zero-length
// forearm; weights 0; dt 0 (smoothing holds): finite, and each character's Rig.
TEST(RigBatchRange, DegenerateInputsEqualTheRig) {
  for (const float settle : {0.0f, 0.2f}) {
    iktest::Rng rng(2913);
    const Rig rig = MakeTemplate(RandomCreature(rng, settle, /*zeroBone=*/true));
    const std::size_t n = 40;
    RigBatch batch;
    ASSERT_TRUE(batch.Init(rig, n).ok());
    Mirror mirror(rig, n);
    const std::vector<int> parents(rig.skeleton().parents().begin(), rig.skeleton().parents().end());
    for (int f = 0; f < 8; ++f) {
      RandomInputs(rng, batch, rig);
      for (std::size_t c = 0; c < n; ++c) {
        const std::vector<rigtest::World> world = rigtest::Fk(parents, PoseOf(batch, c), RootOf(batch, c));
        for (std::size_t i = 0; i < batch.constraintCount(); ++i) {
          if (c % 3 == 0) ikpd::batch::StoreVec3(batch.targets(i).data(), c, world[static_cast<std::size_t>(rig.settings(i).joints[0])].position);
          if (c % 5 == 1) batch.weights(i)[c] = 0.0f;
        }
      }
      const float dt = f % 3 == 2 ? 0.0f : 1.0f / 60.0f;
      ASSERT_TRUE(batch.Update(dt).ok());
      mirror.Update(batch, dt);
      for (const float v : batch.output()) ASSERT_TRUE(std::isfinite(v));
      EXPECT_LT(mirror.Gap(batch), settle == 0.0f ? 1e-5f : 1e-4f) << "frame " << f;
      if (settle == 0.0f) {
        // Weight 0 everywhere on a character: its output is its input, bit for bit.
        for (std::size_t j = 0; j < batch.jointCount(); ++j) {
          EXPECT_EQ(OutputOf(batch, j, 1), ikpd::batch::LoadQuat(batch.rotations().data(), j * n + 1)) << j;
        }
      }
    }
  }
}

}  // namespace
