// SoaStorage: storage that cannot be had is empty (ok() false, null fields),
// never a null allocation written through (which trapped in WASM and then
// left every later call trapping).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "ikpd/batch/soa.h"

namespace {

using ikpd::batch::Field;
using ikpd::batch::SoaStorage;

constexpr std::array<Field, 2> kFields = {Field{"target", 3, {1.0f, 2.0f, 3.0f, 0.0f}}, Field{"weight", 1, {0.5f}}};

TEST(BatchSoa, FillsEveryFieldWithItsDefault) {
  const SoaStorage s(kFields, 5);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.count(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(s.field(0)[3 * i + 2], 3.0f);
    EXPECT_EQ(s.field(1)[i], 0.5f);
  }
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s.field(1)) % 16, 0u);
}

TEST(BatchSoa, MoreItemsThanTheLimitGiveEmptyStorage) {
  const SoaStorage s(kFields, SoaStorage::kMaxCount + 1);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.field(0), nullptr);
  EXPECT_EQ(s.field(1), nullptr);
}

}  // namespace
