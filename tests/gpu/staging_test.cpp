// HostStager: bytes go up and come back unchanged, for pageable and pinned memory (whole, or
// pinned in pieces), unaligned pointers, sizes from 0 to several rings of slots, and slots reused
// across directions.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "backend/cuda/runtime/staging.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace cuzk {
namespace {

std::vector<unsigned char> random_bytes(size_t n, std::mt19937_64& rng) {
  std::vector<unsigned char> v(n);
  for (auto& b : v) b = static_cast<unsigned char>(rng());
  return v;
}

// Up through the stager, down through it, compared; `offset` misaligns both host pointers.
void round_trip(cuda::HostStager& st, const cuda::Stream& s, size_t n, size_t offset, std::mt19937_64& rng) {
  SCOPED_TRACE("bytes " + std::to_string(n) + " offset " + std::to_string(offset));
  const auto src = random_bytes(n + offset, rng);
  auto dev = cuda::DeviceBuffer<unsigned char>::alloc(st.device(), n + 1);
  ASSERT_TRUE(dev.ok()) << dev.message();
  auto up = st.to_device(dev->data(), src.data() + offset, n, s);
  ASSERT_TRUE(up.ok()) << up.message();
  std::vector<unsigned char> back(n + offset, 0);
  auto down = st.to_host(back.data() + offset, dev->data(), n, s);
  ASSERT_TRUE(down.ok()) << down.message();
  EXPECT_EQ(0, std::memcmp(back.data() + offset, src.data() + offset, n));
}

TEST(HostStager, RoundTripsPageableMemoryOfEverySize) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  const int device = gputest::test_device();
  auto s = cuda::Stream::create(device);
  ASSERT_TRUE(s.ok());
  // Small slots make a few hundred KiB run through the ring several times.
  cuda::StagerOptions small;
  small.slot_bytes = size_t(64) << 10;
  small.slots = 3;
  small.threads = 3;
  auto st = cuda::HostStager::create(device, small);
  ASSERT_TRUE(st.ok()) << st.message();
  for (size_t n : {size_t(0), size_t(1), size_t(1000), size_t(64) << 10, (size_t(64) << 10) + 1,
                   size_t(3) * (64 << 10), size_t(7) * (64 << 10) + 13, size_t(2) << 20})
    for (size_t offset : {0, 3}) round_trip(**st, *s, n, offset, rng);
  // Default slots, with host threads splitting each slot: a transfer over several rings.
  auto big = cuda::HostStager::create(device);
  ASSERT_TRUE(big.ok()) << big.message();
  round_trip(**big, *s, size_t(150) << 20, 5, rng);
}

// An express worker's streams are created at the device's highest priority, a lead worker's one
// level above normal; the copies and kernels on them work as on any stream.
TEST(Stream, HighPriorityIsTheDevicesGreatestAndWorks) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  const int device = gputest::test_device();
  auto normal = cuda::Stream::create(device);
  auto raised = cuda::Stream::create(device, cuda::StreamPriority::raised);
  auto high = cuda::Stream::create(device, cuda::StreamPriority::high);
  ASSERT_TRUE(normal.ok() && raised.ok() && high.ok());
  int least = 0, greatest = 0;
  ASSERT_EQ(cudaSuccess, cudaDeviceGetStreamPriorityRange(&least, &greatest));
  auto pn = normal->priority();
  auto pr = raised->priority();
  auto ph = high->priority();
  ASSERT_TRUE(pn.ok() && pr.ok() && ph.ok());
  EXPECT_EQ(*pn, least);
  EXPECT_EQ(*ph, greatest);
  // Raised sits strictly between the two where the device has a level between them.
  EXPECT_EQ(*pr, least - 1 > greatest ? least - 1 : least);
  EXPECT_LE(*ph, *pr);  // lower numbers are more urgent
  EXPECT_LE(*pr, *pn);
  auto st = cuda::HostStager::create(device);
  ASSERT_TRUE(st.ok()) << st.message();
  round_trip(**st, *high, size_t(3) << 20, 1, rng);
}

TEST(HostStager, PinnedMemoryGoesDirectly) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  const int device = gputest::test_device();
  auto s = cuda::Stream::create(device);
  ASSERT_TRUE(s.ok());
  auto st = cuda::HostStager::create(device);
  ASSERT_TRUE(st.ok()) << st.message();
  const size_t n = size_t(5) << 20;
  void* pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(&pinned, n), cudaSuccess);
  EXPECT_TRUE(cuda::HostStager::is_pinned(pinned));
  std::vector<unsigned char> pageable(16);
  EXPECT_FALSE(cuda::HostStager::is_pinned(pageable.data()));
  const auto src = random_bytes(n, rng);
  std::memcpy(pinned, src.data(), n);
  auto dev = cuda::DeviceBuffer<unsigned char>::alloc(device, n);
  ASSERT_TRUE(dev.ok());
  ASSERT_TRUE((*st)->to_device(dev->data(), pinned, n, *s).ok());
  ASSERT_TRUE(s->synchronize().ok());  // pinned sources are read in stream order, not before return
  std::memset(pinned, 0, n);
  ASSERT_TRUE((*st)->to_host(pinned, dev->data(), n, *s).ok());
  EXPECT_EQ(0, std::memcmp(pinned, src.data(), n));
  (void)cudaFreeHost(pinned);
}

// Ordinary memory pinned piece by piece (PinnedRange): every piece is pinned, copies through the
// stager cross the pieces' boundaries in both directions, a second pin of the same range owns
// nothing and leaves the first's in place, and the range is ordinary memory again after.
TEST(HostStager, MemoryPinnedInPiecesRoundTrips) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  const int device = gputest::test_device();
  auto s = cuda::Stream::create(device);
  ASSERT_TRUE(s.ok());
  auto st = cuda::HostStager::create(device);
  ASSERT_TRUE(st.ok()) << st.message();
  const size_t n = 3 * cuda::kPinPieceBytes + 12345, offset = 7;
  std::vector<unsigned char> host(n + offset);
  unsigned char* p = host.data() + offset;
  {
    auto pinned = cuda::PinnedRange::pin(p, n);
    ASSERT_TRUE(pinned.ok()) << pinned.message();
    EXPECT_GE(pinned->pieces(), 4u);
    for (size_t at : {size_t(0), cuda::kPinPieceBytes, n / 2, n - 1})
      EXPECT_TRUE(cuda::HostStager::is_pinned(p + at));
    {
      auto again = cuda::PinnedRange::pin(p, n);
      ASSERT_TRUE(again.ok()) << again.message();
      EXPECT_EQ(again->pieces(), 0u);
    }
    EXPECT_TRUE(cuda::HostStager::is_pinned(p + n / 2));
    const auto src = random_bytes(n, rng);
    std::memcpy(p, src.data(), n);
    auto dev = cuda::DeviceBuffer<unsigned char>::alloc(device, n);
    ASSERT_TRUE(dev.ok());
    ASSERT_TRUE((*st)->to_device(dev->data(), p, n, *s).ok());
    ASSERT_TRUE(s->synchronize().ok());
    std::memset(p, 0, n);
    ASSERT_TRUE((*st)->to_host(p, dev->data(), n, *s).ok());
    EXPECT_EQ(0, std::memcmp(p, src.data(), n));
  }
  EXPECT_FALSE(cuda::HostStager::is_pinned(p + n / 2));
}

TEST(HostStager, RejectsAStreamOfAnotherDeviceAndBadOptions) {
  CUZK_REQUIRE_GPU();
  cuda::StagerOptions bad;
  bad.slots = 1;
  auto st = cuda::HostStager::create(gputest::test_device(), bad);
  EXPECT_FALSE(st.ok());
}

}  // namespace
}  // namespace cuzk
