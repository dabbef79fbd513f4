// The animated pose's model transforms kept across frames (docs/rig/rig.md,
// "Update order") change no result: a rig fed a pose that holds still, then
// moves at one joint, a leaf, every joint, under a moving root, across a Probe
// and a copy, gives the same output and results as a twin whose pose differs
// every frame (the pelvis' translation x toggles between +0 and −0, equal
// values with other bits), and without smoothing as a new rig each frame.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "native/rig_batch_test_util.h"

namespace {

using ikpd::rig::ConstraintKind;
using ikpd::rig::LocalTransform;
using ikpd::rig::Rig;

struct Twin {
  Rig kept, fresh;  // `fresh` never sees the same pose twice in a row
};

void ExpectSame(Rig& kept, Rig& reference, const std::vector<LocalTransform>& pose, const std::vector<LocalTransform>& referencePose,
                const LocalTransform& root, int frame, const std::string& what) {
  std::vector<LocalTransform> a(pose.size()), b(pose.size());
  std::vector<std::uint8_t> ca(pose.size()), cb(pose.size());
  ASSERT_TRUE(kept.Update(1.0f / 60.0f, pose, root, a, ca).ok());
  ASSERT_TRUE(reference.Update(1.0f / 60.0f, referencePose, root, b, cb).ok());
  for (std::size_t j = 0; j < pose.size(); ++j) {
    // ==, not the bits: the twin's −0 may reach a zero's sign (nothing else).
    ASSERT_TRUE(a[j].rotation == b[j].rotation && a[j].translation == b[j].translation)
        << what << ", frame " << frame << ", joint " << j;
    ASSERT_EQ(ca[j], cb[j]) << what << ", frame " << frame << ", joint " << j;
  }
  for (std::size_t i = 0; i < kept.results().size(); ++i) {
    const auto& ra = kept.results()[i];
    const auto& rb = reference.results()[i];
    ASSERT_TRUE(ra.active == rb.active && ra.reached == rb.reached && ra.distance == rb.distance)
        << what << ", frame " << frame << ", constraint " << i;
  }
}

void ExpectSameFrame(Twin& t, const std::vector<LocalTransform>& pose, const LocalTransform& root, int frame, const std::string& what) {
  std::vector<LocalTransform> toggled = pose;
  toggled[0].translation.x = frame % 2 == 0 ? -0.0f : 0.0f;
  ExpectSame(t.kept, t.fresh, pose, toggled, root, frame, what);
}

// Random creatures (a skeleton that is not depth-first: its last joint is a
// toe) with the look-at over the spine added after the limbs, smoothing on and off.
TEST(RigReuse, KeptModelTransformsChangeNothing) {
  iktest::Rng rng(4301);
  for (int c = 0; c < 40; ++c) {
    rigbatchtest::Creature creature = rigbatchtest::RandomCreature(rng, c % 2 == 0 ? 0.0f : 0.15f);
    creature.skeleton.rest[0].translation.x = 0.0f;
    ikpd::rig::ConstraintSettings look = rigtest::Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
    creature.stack.push_back(look);
    Twin t{rigbatchtest::MakeTemplate(creature), rigbatchtest::MakeTemplate(creature)};
    std::vector<LocalTransform> pose = creature.skeleton.rest;
    for (LocalTransform& l : pose) l.rotation = glm::normalize(l.rotation * glm::quat(1.0f, rng.Vec(-0.3f, 0.3f)));
    LocalTransform root{};
    root.translation = rng.Vec(-1.0f, 1.0f);
    const std::size_t hand = 8;  // the left hand (a leaf's parent: its finger follows)
    for (int frame = 0; frame < 80; ++frame) {
      for (Rig* r : {&t.kept, &t.fresh}) {
        for (std::size_t i = 0; i < r->frames().size(); ++i) {
          r->frames()[i].target = root.translation + glm::vec3(std::sin(0.1f * static_cast<float>(frame + 7 * static_cast<int>(i))), 0.5f, 0.4f);
        }
      }
      std::string what = "creature " + std::to_string(c);
      if (frame == 10) pose[2].rotation = glm::normalize(pose[2].rotation * glm::quat(1.0f, 0.05f, 0.0f, 0.0f)), what += " (chest moved)";
      if (frame == 15) root.translation.y += 0.1f, what += " (root moved)";
      if (frame == 20) pose[hand].rotation = glm::normalize(pose[hand].rotation * glm::quat(1.0f, 0.0f, 0.05f, 0.0f)), what += " (hand moved)";
      if (frame == 25) {
        std::vector<LocalTransform> other = pose;
        other[1].rotation = glm::normalize(other[1].rotation * glm::quat(1.0f, 0.2f, 0.0f, 0.0f));
        ASSERT_TRUE(t.kept.Probe(other, root).ok());
        what += " (after a Probe)";
      }
      if (frame == 30) {
        Rig copy = t.kept;
        t.kept = copy;
        what += " (copied)";
      }
      if (frame == 33) pose[0].translation.y += 0.01f, what += " (pelvis moved)";
      if (frame >= 50) {  // animated: every local every frame
        for (std::size_t j = 1; j < pose.size(); ++j) pose[j].rotation = glm::normalize(pose[j].rotation * glm::quat(1.0f, rng.Vec(-0.02f, 0.02f)));
        what += " (animated)";
      }
      if (frame == 65) pose[3].rotation = creature.skeleton.rest[3].rotation, what += " (neck at rest)";
      ExpectSameFrame(t, pose, root, frame, what);
    }
  }
}

// A depth-first chain (subtrees are ranges): a two-bone limb and an aim on its
// tip; a joint inside the limb, the top and a leaf move in turn.
TEST(RigReuse, DepthFirstChain) {
  iktest::Rng rng(4302);
  for (int c = 0; c < 40; ++c) {
    rigtest::ChainRig chain = rigtest::RandomChain(rng, 6);
    chain.rest[0].translation.x = 0.0f;
    const auto make = [&] {
      Rig rig = rigtest::MakeRig(chain);
      EXPECT_TRUE(rig.Add(rigtest::Settings(ConstraintKind::kTwoBone, {1, 2, 3})).ok());
      EXPECT_TRUE(rig.Add(rigtest::Settings(ConstraintKind::kAim, {4})).ok());
      return rig;
    };
    // settleTime 0: a frame depends on its inputs alone, so a new rig each frame is the reference.
    const Rig blank = make();
    Rig kept = blank;
    std::vector<LocalTransform> pose = rigtest::RandomPose(rng, chain.rest);
    for (int frame = 0; frame < 40; ++frame) {
      Rig reference = blank;
      for (Rig* r : {&kept, &reference}) {
        r->frames()[0].target = glm::vec3(1.0f + 0.1f * std::sin(0.2f * static_cast<float>(frame)), 0.5f, 0.3f);
        r->frames()[1].target = glm::vec3(-1.0f, 2.0f, 0.1f * static_cast<float>(frame));
      }
      if (frame == 12) pose[2].rotation = rng.Rotation();
      if (frame == 20) pose[0].rotation = rng.Rotation();
      if (frame >= 30) pose[5].rotation = rng.Rotation();
      ExpectSame(kept, reference, pose, pose, {}, frame, "chain " + std::to_string(c));
    }
  }
}

}  // namespace
