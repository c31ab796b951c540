// The device store's rules for objects other than base arrays (DeviceBases::get_object, a compiled
// circuit's matrices on the device), checked without a device: the objects here are host values
// that only stand for device bytes, made by the caller's function as the real ones are uploaded.
#include "backend/cuda/runtime/device_bases.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

namespace cuzk::cuda {
namespace {

struct Thing {
  uint64_t id = 0;
};

// get_object with a maker that counts its calls.
struct Store {
  DeviceBases bases;
  int made = 0;
  explicit Store(size_t capacity) : bases(0, capacity) {}
  Result<std::shared_ptr<const Thing>> get(uint64_t id, size_t bytes) {
    return bases.get_object<Thing>(id, bytes, [&]() -> Result<Thing> {
      ++made;
      return Thing{id};
    });
  }
};

TEST(DeviceBasesObjects, MadeOnceAndFoundByIdAfter) {
  Store s(1000);
  auto a = s.get(7, 300);
  ASSERT_TRUE(a.ok()) << a.message();
  ASSERT_TRUE(*a);
  EXPECT_EQ((*a)->id, 7u);
  auto again = s.get(7, 300);
  ASSERT_TRUE(again.ok() && *again);
  EXPECT_EQ(again->get(), a->get());  // the same copy, not made again
  EXPECT_EQ(s.made, 1);
  EXPECT_EQ(s.bases.bytes(), 300u);
  EXPECT_EQ(s.bases.arrays(), 1u);
  EXPECT_EQ(s.bases.uploads(), 1u);
}

// An object takes only free room: it never pushes out another entry, held or idle (base arrays
// would be uploaded again at once, and the two would take turns on every proof).
TEST(DeviceBasesObjects, TakeOnlyFreeRoom) {
  Store s(1000);
  {
    auto idle = s.get(1, 700);  // dropped at the end of this scope: idle from then on
    ASSERT_TRUE(idle.ok() && *idle);
  }
  auto no_room = s.get(2, 400);
  ASSERT_TRUE(no_room.ok()) << no_room.message();
  EXPECT_FALSE(*no_room);  // 700 + 400 > 1000, and the idle one stays
  EXPECT_EQ(s.made, 1);
  EXPECT_EQ(s.bases.bytes(), 700u);
  auto fits = s.get(3, 300);  // exactly the free room
  ASSERT_TRUE(fits.ok() && *fits);
  EXPECT_EQ(s.bases.bytes(), 1000u);
  // Idle entries go when asked (a parameter set evicted); held ones stay.
  s.bases.release_unused();
  EXPECT_EQ(s.bases.bytes(), 300u);
  EXPECT_EQ(s.bases.arrays(), 1u);
  auto now = s.get(2, 400);
  ASSERT_TRUE(now.ok() && *now);
  EXPECT_EQ(s.bases.bytes(), 700u);
}

// A failing maker is an error carried to the caller, and leaves nothing behind.
TEST(DeviceBasesObjects, AFailedMakeIsAnErrorAndLeavesNoEntry) {
  DeviceBases bases(0, 1000);
  auto r = bases.get_object<Thing>(5, 100, []() -> Result<Thing> { return make_error("upload failed"); });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("upload failed"), std::string::npos);
  EXPECT_EQ(bases.bytes(), 0u);
  EXPECT_EQ(bases.arrays(), 0u);
  EXPECT_EQ(bases.uploads(), 0u);
}

}  // namespace
}  // namespace cuzk::cuda
