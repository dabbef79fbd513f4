// Buffer<T>: a failed allocation is reported and changes nothing (the storage
// of LookAt, BodyLookAt, Tentacle2D and the bindings' handles; std::vector
// wrote through null in the WebAssembly build, which has no exceptions).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "ikpd/buffer.h"

namespace {

TEST(Buffer, AllocatesValueInitializedElements) {
  ikpd::Buffer<float> b;
  EXPECT_TRUE(b.empty());
  ASSERT_TRUE(b.Allocate(5));
  EXPECT_EQ(b.size(), 5u);
  for (float x : b) EXPECT_EQ(x, 0.0f);
  b[4] = 2.0f;
  EXPECT_EQ(b.back(), 2.0f);
  const ikpd::Buffer<float> copy = b;
  EXPECT_EQ(copy[4], 2.0f);
}

TEST(Buffer, AFailedAllocationIsReportedAndKeepsTheContents) {
  ikpd::Buffer<double> b;
  ASSERT_TRUE(b.Allocate(3));
  b[1] = 7.0;
  // More elements than the address space holds: refused before any allocation.
  EXPECT_FALSE(b.Allocate(static_cast<std::size_t>(-1) / 4));
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(b[1], 7.0);
  ASSERT_TRUE(b.Allocate(0));
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.data(), nullptr);
}

}  // namespace
