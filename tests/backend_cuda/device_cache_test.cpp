// DeviceCache over a fake allocator that hands out addresses and counts the calls, so that the
// reuse rule, the ceiling and the bookkeeping are checked without a device.
#include "backend/cuda/runtime/device_cache.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <vector>

namespace cuzk::cuda {
namespace {

constexpr size_t MiB = size_t(1) << 20;

// Addresses that are never dereferenced; every allocation and free is recorded.
struct FakeDevice {
  uintptr_t next = 0x100000;
  std::map<void*, size_t> live;
  uint64_t allocs = 0, frees = 0;
  size_t capacity = SIZE_MAX;  // allocations fail beyond this many live bytes
  size_t live_bytes() const {
    size_t b = 0;
    for (const auto& [p, n] : live) b += n;
    return b;
  }
  DeviceCache::Source source() {
    return {[this](size_t bytes) -> Result<void*> {
              if (live_bytes() + bytes > capacity) return make_error("fake device: out of memory");
              void* p = reinterpret_cast<void*>(next);
              next += (bytes + 255) / 256 * 256 + 256;
              live.emplace(p, bytes);
              ++allocs;
              return p;
            },
            [this](void* p) {
              EXPECT_EQ(live.erase(p), 1u) << "freed an address that is not live";
              ++frees;
            }};
  }
};

struct Fixture {
  FakeDevice dev;
  size_t ceiling = SIZE_MAX;
  std::optional<DeviceCache> cache;
  Fixture() {
    cache.emplace(
        0, [this] { return ceiling; }, dev.source());
  }
};

TEST(DeviceCache, ReusesAGivenBackBlockOfTheSameSize) {
  Fixture f;
  void* first = nullptr;
  {
    auto a = f.cache->take<uint64_t>(1000);
    ASSERT_TRUE(a) << a.error().message;
    first = a->data();
    EXPECT_EQ(a->size(), 1000u);
    EXPECT_EQ(f.cache->stats().lent_bytes, 8000u);
  }
  EXPECT_EQ(f.cache->stats().idle_bytes, 8000u);
  EXPECT_EQ(f.cache->stats().lent_bytes, 0u);
  auto b = f.cache->take<uint64_t>(1000);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->data(), first);
  const auto st = f.cache->stats();
  EXPECT_EQ(st.made, 1u);
  EXPECT_EQ(st.reused, 1u);
  EXPECT_EQ(st.freed, 0u);
  EXPECT_EQ(f.dev.allocs, 1u);
  EXPECT_EQ(f.dev.frees, 0u);
}

TEST(DeviceCache, TakesTheSmallestIdleBlockThatFitsWithinItsSlack) {
  Fixture f;
  std::vector<void*> at;
  {
    std::vector<DeviceBuffer<char>> held;
    for (size_t mib : {100, 101, 160, 400}) {
      auto b = f.cache->take<char>(mib * MiB);
      ASSERT_TRUE(b);
      at.push_back(b->data());
      held.push_back(std::move(*b));
    }
  }
  EXPECT_EQ(f.cache->stats().idle_bytes, 761 * MiB);
  // 100.5 MiB: 101 is the smallest block that holds it (100 is too small), and wastes under 1/64.
  auto a = f.cache->take<char>(100 * MiB + MiB / 2);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->data(), at[1]);
  EXPECT_EQ(a->size(), 100 * MiB + MiB / 2);
  // 150 MiB: the 160 block would waste more than 1/64, so a new block is made.
  auto b = f.cache->take<char>(150 * MiB);
  ASSERT_TRUE(b);
  EXPECT_NE(b->data(), at[2]);
  EXPECT_EQ(f.dev.allocs, 5u);
  // 99 MiB takes the 100 MiB block; the lent bytes count the whole block.
  auto c = f.cache->take<char>(99 * MiB);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->data(), at[0]);
  EXPECT_EQ(f.cache->stats().lent_bytes, (101 + 150 + 100) * MiB);
}

TEST(DeviceCache, SmallRequestsShareSmallBlocks) {
  Fixture f;
  { auto a = f.cache->take<char>(1000); }
  auto b = f.cache->take<unsigned long long>(1);  // within 64 KiB of the 1000-byte block
  ASSERT_TRUE(b);
  EXPECT_EQ(f.cache->stats().reused, 1u);
  EXPECT_EQ(f.cache->stats().lent_bytes, 1000u);
  auto z = f.cache->take<char>(0);  // a zero-size request still gets a distinct block
  ASSERT_TRUE(z);
  EXPECT_NE(static_cast<void*>(z->data()), static_cast<void*>(b->data()));
}

TEST(DeviceCache, FreesIdleBlocksLargestFirstToStayUnderTheCeiling) {
  Fixture f;
  f.ceiling = 1000 * MiB;
  {
    auto a = f.cache->take<char>(100 * MiB);
    auto b = f.cache->take<char>(300 * MiB);
    auto c = f.cache->take<char>(400 * MiB);
    ASSERT_TRUE(a && b && c);
  }
  EXPECT_EQ(f.cache->stats().idle_bytes, 800 * MiB);
  // 500 MiB reuses nothing (the 400 block is too small); making it needs 300 MiB freed: the 400
  // block goes, the 300 and 100 stay.
  auto d = f.cache->take<char>(500 * MiB);
  ASSERT_TRUE(d);
  auto st = f.cache->stats();
  EXPECT_EQ(st.freed, 1u);
  EXPECT_EQ(st.idle_bytes, 400 * MiB);
  EXPECT_LE(st.lent_bytes + st.idle_bytes, f.ceiling);
  EXPECT_EQ(f.dev.live_bytes(), 900 * MiB);
  // The owner about to allocate 450 MiB of its own: idle blocks go until 500 + idle + 450 ≤ 1000.
  f.cache->trim(450 * MiB);
  st = f.cache->stats();
  EXPECT_EQ(st.idle_bytes, 0u);
  EXPECT_EQ(st.freed, 3u);
  EXPECT_EQ(st.freed_bytes, 800 * MiB);
  EXPECT_EQ(st.made_bytes, 1300 * MiB);
  // A smaller ceiling (the owner's resident memory grew) takes effect at the next new block.
  { auto e = f.cache->take<char>(200 * MiB); }
  f.ceiling = 600 * MiB;
  auto g = f.cache->take<char>(50 * MiB);  // 500 lent + 200 idle + 50 > 600: the 200 goes first
  ASSERT_TRUE(g);
  st = f.cache->stats();
  EXPECT_EQ(st.idle_bytes, 0u);
  EXPECT_EQ(st.lent_bytes, 550 * MiB);
}

TEST(DeviceCache, ReleasesIdleBlocksAndRetriesWhenTheDeviceRefuses) {
  Fixture f;
  f.dev.capacity = 1000 * MiB;
  { auto a = f.cache->take<char>(700 * MiB); }
  // 400 MiB does not reuse the 700 block (too much waste). The cache sees no ceiling, but the
  // device has 300 MiB left: the first try fails, and the idle block is given up for a second.
  auto b = f.cache->take<char>(400 * MiB);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(f.cache->stats().freed, 1u);
  // Nothing idle to give up: the device's refusal comes back as an error.
  auto c = f.cache->take<char>(700 * MiB);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("out of memory"), std::string::npos);
  EXPECT_EQ(f.cache->stats().lent_bytes, 400 * MiB);
}

TEST(DeviceCache, MovedBuffersGiveTheirBlockBackOnce) {
  Fixture f;
  auto a = f.cache->take<uint32_t>(4096);
  ASSERT_TRUE(a);
  DeviceBuffer<uint32_t> moved = std::move(*a);
  EXPECT_EQ(a->data(), nullptr);
  DeviceBuffer<uint32_t> assigned;
  assigned = std::move(moved);
  EXPECT_EQ(f.cache->stats().lent_bytes, 4096u * 4);
  assigned = DeviceBuffer<uint32_t>();
  EXPECT_EQ(f.cache->stats().lent_bytes, 0u);
  EXPECT_EQ(f.cache->stats().idle_bytes, 4096u * 4);
}

TEST(DeviceCache, ReleaseAndDestructionFreeEveryIdleBlock) {
  Fixture f;
  {
    auto a = f.cache->take<char>(MiB);
    auto b = f.cache->take<char>(2 * MiB);
  }
  f.cache->release_idle();
  EXPECT_EQ(f.dev.live.size(), 0u);
  { auto c = f.cache->take<char>(3 * MiB); }
  f.cache.reset();
  EXPECT_EQ(f.dev.live.size(), 0u);
  EXPECT_EQ(f.dev.allocs, f.dev.frees);
}

// Random takes and returns under a moving ceiling, against the invariants: lent blocks never
// overlap, the stats match the fake device, and every block comes back exactly once.
TEST(DeviceCache, RandomUseKeepsTheBooksAndNeverLeaks) {
  for (uint32_t seed : {1u, 2u, 3u, 4u}) {
    Fixture f;
    std::mt19937_64 rng(seed);
    std::vector<DeviceBuffer<char>> held;
    const size_t sizes[] = {1, 4096, 3 * MiB, 64 * MiB, 65 * MiB, 80 * MiB, 256 * MiB};
    for (int step = 0; step < 4000; ++step) {
      const uint64_t r = rng();
      if (r % 7 == 0) f.ceiling = (r >> 8) % 2 ? SIZE_MAX : size_t(600 + (r >> 16) % 800) * MiB;
      if (!held.empty() && (r >> 3) % 3 == 0) {
        held.erase(held.begin() + std::ptrdiff_t((r >> 24) % held.size()));
      } else if (held.size() < 8) {
        auto b = f.cache->take<char>(sizes[(r >> 32) % 7]);
        ASSERT_TRUE(b);
        held.push_back(std::move(*b));
      }
      const auto st = f.cache->stats();
      ASSERT_EQ(st.lent_bytes + st.idle_bytes, f.dev.live_bytes()) << "step " << step;
      ASSERT_EQ(st.made - st.freed, f.dev.live.size());
      std::map<uintptr_t, size_t> spans;
      for (const auto& h : held) spans.emplace(reinterpret_cast<uintptr_t>(h.data()), h.size());
      ASSERT_EQ(spans.size(), held.size()) << "one block lent twice";
      for (auto it = spans.begin(); !spans.empty() && std::next(it) != spans.end(); ++it)
        ASSERT_LE(it->first + it->second, std::next(it)->first);
    }
    held.clear();
    f.cache.reset();
    EXPECT_TRUE(f.dev.live.empty());
  }
}

TEST(DeviceCache, NamedContentsComeBackUnderTheirKey) {
  Fixture f;
  void* at = nullptr;
  {
    bool kept = true;
    auto a = f.cache->take_kept<uint64_t>(1000, "twiddles", kept);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_FALSE(kept);  // a new block: the caller fills it
    at = a->data();
    f.cache->keep_contents(*a, "twiddles");
  }
  bool kept = false;
  auto b = f.cache->take_kept<uint64_t>(1000, "twiddles", kept);
  ASSERT_TRUE(b);
  EXPECT_TRUE(kept);
  EXPECT_EQ(b->data(), at);
  EXPECT_EQ(f.dev.allocs, 1u);
  // Lent, the block is not there for another key.
  auto c = f.cache->take_kept<uint64_t>(1000, "other", kept);
  ASSERT_TRUE(c);
  EXPECT_FALSE(kept);
  EXPECT_NE(c->data(), at);
}

TEST(DeviceCache, PlainTakesLendNamedBlocksLastAndForgetTheirNames) {
  Fixture f;
  void *named = nullptr, *plain = nullptr;
  {
    bool kept = false;
    auto a = f.cache->take_kept<char>(MiB, "table", kept);
    auto b = f.cache->take<char>(MiB);
    ASSERT_TRUE(a && b);
    named = a->data();
    plain = b->data();
    f.cache->keep_contents(*a, "table");
  }
  auto x = f.cache->take<char>(MiB);
  ASSERT_TRUE(x);
  EXPECT_EQ(x->data(), plain);
  {
    auto y = f.cache->take<char>(MiB);  // no other block fits: the named one, its name dropped
    ASSERT_TRUE(y);
    EXPECT_EQ(y->data(), named);
  }
  bool kept = true;
  auto z = f.cache->take_kept<char>(MiB, "table", kept);
  ASSERT_TRUE(z);
  EXPECT_FALSE(kept);  // its contents were another holder's to overwrite
  EXPECT_EQ(z->data(), named);
  EXPECT_EQ(f.dev.allocs, 2u);
}

TEST(DeviceCache, ANamedBlockFreedUnderTheCeilingIsMadeAgain) {
  Fixture f;
  f.ceiling = 100 * MiB;
  {
    bool kept = false;
    auto a = f.cache->take_kept<char>(60 * MiB, "table", kept);
    ASSERT_TRUE(a);
    f.cache->keep_contents(*a, "table");
  }
  { auto big = f.cache->take<char>(90 * MiB); }  // frees the idle 60 MiB block to fit
  EXPECT_EQ(f.cache->stats().freed, 1u);
  bool kept = true;
  auto b = f.cache->take_kept<char>(60 * MiB, "table", kept);
  ASSERT_TRUE(b);
  EXPECT_FALSE(kept);
}

// A model of which block holds which named contents, against random takes, gives back, names and
// ceilings: take_kept reports contents kept exactly when the block still holds them.
TEST(DeviceCache, KeptContentsFollowAModel) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Fixture f;
    std::mt19937_64 rng(seed);
    std::map<const void*, std::string> holds;  // block → the contents last named in it
    std::vector<DeviceBuffer<char>> held;
    const size_t sizes[] = {4096, 3 * MiB, 64 * MiB};
    const std::string keys[] = {"a", "b", "c"};
    for (int step = 0; step < 4000; ++step) {
      const uint64_t r = rng();
      if (r % 11 == 0) f.ceiling = (r >> 8) % 2 ? SIZE_MAX : size_t(100 + (r >> 16) % 300) * MiB;
      if (!held.empty() && (r >> 3) % 3 == 0) {
        held.erase(held.begin() + std::ptrdiff_t((r >> 24) % held.size()));
      } else if (held.size() < 8) {
        const size_t size = sizes[(r >> 32) % 3];
        if ((r >> 40) % 2) {
          auto b = f.cache->take<char>(size);
          ASSERT_TRUE(b);
          holds.erase(b->data());
          held.push_back(std::move(*b));
        } else {
          const std::string key = keys[(r >> 44) % 3] + std::to_string(size);
          bool kept = false;
          auto b = f.cache->take_kept<char>(size, key, kept);
          ASSERT_TRUE(b);
          const auto it = holds.find(b->data());
          if (kept) {
            ASSERT_NE(it, holds.end()) << "step " << step;
            ASSERT_EQ(it->second, key) << "step " << step;
          } else {
            holds.erase(b->data());
            if ((r >> 48) % 4) {
              f.cache->keep_contents(*b, key);
              holds[b->data()] = key;
            }
          }
          held.push_back(std::move(*b));
        }
      }
      for (auto it = holds.begin(); it != holds.end();)  // freed blocks hold nothing
        it = f.dev.live.count(const_cast<void*>(it->first)) ? std::next(it) : holds.erase(it);
      const auto st = f.cache->stats();
      ASSERT_EQ(st.lent_bytes + st.idle_bytes, f.dev.live_bytes()) << "step " << step;
    }
  }
}

}  // namespace
}  // namespace cuzk::cuda
