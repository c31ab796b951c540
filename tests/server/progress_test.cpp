// Progress for long work (common/progress.hpp): the percentage and the time left from the pace,
// what a mapped file's reader has read, and the daemon's log of parameter sets while they load
// (server/param_progress.hpp).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/progress.hpp"
#include "server/param_progress.hpp"
#include "tests/server/test_util.hpp"

namespace cuzk::server {
namespace {

using Clock = ProgressMeter::Clock;
using std::chrono::seconds;

TEST(ProgressMeter, PercentAndTimeLeftFollowThePaceSinceTheFirstUpdate) {
  ProgressMeter m("partitions proved");
  EXPECT_FALSE(m.eta_s());
  const auto t0 = Clock::now();
  m.update(4, 10, t0);  // four done before the wait began: they say nothing of the pace
  EXPECT_EQ(m.percent(), 40);
  EXPECT_FALSE(m.eta_s());
  EXPECT_EQ(m.describe(), "4/10 partitions proved (40%)");
  m.update(6, 10, t0 + seconds(30));  // 2 in 30 s: 15 s each, 4 left
  ASSERT_TRUE(m.eta_s());
  EXPECT_DOUBLE_EQ(*m.eta_s(), 60.0);
  EXPECT_EQ(m.describe(), "6/10 partitions proved (60%), about 1 min 00 s left");
  m.update(10, 10, t0 + seconds(90));
  EXPECT_EQ(m.percent(), 100);
  EXPECT_EQ(m.describe(), "10/10 partitions proved (100%)");  // no time left to tell

  ProgressMeter bytes("bytes");
  bytes.update(0, 47.0 * (1 << 30), t0);
  bytes.update(1.5 * (1 << 30), 47.0 * (1 << 30), t0 + seconds(3));  // 0.5 GiB/s, 45.5 GiB left
  EXPECT_EQ(bytes.describe(), "1.5/47.0 GiB (3%), about 1 min 31 s left");
  ProgressMeter bare("");
  bare.update(0, 3, t0);
  bare.update(1, 3, t0 + seconds(7200));
  EXPECT_EQ(bare.describe(), "33%, about 4 h 00 min left");
  // Less than a second of pace gives no estimate.
  ProgressMeter quick("items");
  quick.update(0, 100, t0);
  quick.update(1, 100, t0 + std::chrono::milliseconds(10));
  EXPECT_FALSE(quick.eta_s());
  // Totals of zero and counts past the total stay in range.
  ProgressMeter odd("items");
  odd.update(5, 0, t0);
  EXPECT_EQ(odd.percent(), 0);
  odd.update(12, 10, t0 + seconds(2));
  EXPECT_EQ(odd.percent(), 100);
  EXPECT_EQ(ProgressMeter::format_duration(59.4), "59 s");
  EXPECT_EQ(ProgressMeter::format_duration(3599), "59 min 59 s");
}

TEST(Ticker, TicksUntilDestroyed) {
  std::atomic<int> ticks{0};
  {
    Ticker t(std::chrono::milliseconds(5), [&] { ++ticks; });
    const auto give_up = Clock::now() + testing::kGuard;
    while (ticks < 3 && Clock::now() < give_up) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const int at_end = ticks;
  EXPECT_GE(at_end, 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(ticks, at_end) << "a tick after the destructor returned";
}

TEST(MappedResidentBytes, CountsThePagesOfTheFileThisProcessTouched) {
  testing::TempDir dir;
  const auto path = std::filesystem::canonical(std::filesystem::path(dir.file(""))).string() + "/big.params";
  const size_t page = size_t(::sysconf(_SC_PAGESIZE)), pages = 2048, size = page * pages;
  {
    std::ofstream out(path, std::ios::binary);
    std::string block(page, 'x');
    for (size_t i = 0; i < pages; ++i) out << block;
  }
  EXPECT_EQ(mapped_resident_bytes(path), 0u);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  ASSERT_NE(p, MAP_FAILED);
  // Every page of the first quarter read, as a front-to-back reader does.
  volatile uint64_t sum = 0;
  const auto* bytes = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < pages / 4; ++i) sum = sum + bytes[i * page];
  const uint64_t touched = mapped_resident_bytes(path);
  // The kernel may map a few neighbours of each fault at once (fault-around, 64 KiB by default).
  EXPECT_GE(touched, size / 4);
  EXPECT_LE(touched, size / 4 + (uint64_t(1) << 20));
  const auto probe = ParamLoadLog::mapped_file_probe(path);
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->size, size);
  EXPECT_EQ(probe->bytes, touched);
  ::munmap(p, size);
  EXPECT_EQ(mapped_resident_bytes(path), 0u);
  EXPECT_FALSE(ParamLoadLog::mapped_file_probe(dir.file("missing.params")));
}

TEST(ParamLoadLog, LogsEachLoadingSetWithItsProgressThenItsEnd) {
  std::ostringstream out;
  auto log =
      std::make_shared<spdlog::logger>("params", std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
  log->set_pattern("%v");
  engine::EngineStatus status;
  status.params.resize(2);
  status.params[0].name = "/p/v28-porep-32g.params";
  status.params[0].loading = true;
  status.params[1].name = "/p/loaded.params";  // not loading: never logged
  uint64_t read = 0;
  const uint64_t size = uint64_t(8) << 30;
  ParamLoadLog pl([&] { return status; }, log, std::chrono::seconds(10), false,
                  [&](const std::string&) {
                    return std::optional<ParamLoadLog::Read>({read, size});
                  });
  pl.tick();
  read = size / 2;
  pl.tick();
  status.params[0].loading = false;
  pl.tick();
  pl.tick();
  const std::string text = out.str();
  EXPECT_NE(text.find("event=params_loading name=/p/v28-porep-32g.params read=\"0.0/8.0 GiB (0%)\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("read=\"4.0/8.0 GiB (50%)"), std::string::npos) << text;
  EXPECT_NE(text.find("event=params_load_ended name=/p/v28-porep-32g.params"), std::string::npos) << text;
  EXPECT_EQ(text.find("loaded.params"), std::string::npos) << text;
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(lines, 3u) << text;  // two progress lines, one end, nothing once it is over
}

}  // namespace
}  // namespace cuzk::server
