// The metrics page renders the engine's status: device gauges, and a device's shared store of
// resident bases only where it has one.
#include <gtest/gtest.h>

#include "server/metrics.hpp"

namespace cuzk::server {
namespace {

TEST(Metrics, SharedBasesAppearOnlyForDevicesThatHaveAStore) {
  engine::EngineStatus s;
  s.devices.resize(2);
  s.devices[0].index = 0;
  s.devices[0].shared_bases = {uint64_t(80) << 30, uint64_t(56) << 30, 8, 9};
  s.devices[1].index = 1;  // its workers keep their own bases
  Metrics m;
  const std::string out = m.render(s, false);
  EXPECT_NE(out.find("cuzk_device_shared_bases_bytes{device=\"0\",kind=\"capacity\"} 85899345920"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("cuzk_device_shared_bases_bytes{device=\"0\",kind=\"held\"} 60129542144"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("cuzk_device_shared_bases_uploads_total{device=\"0\"} 9"), std::string::npos) << out;
  EXPECT_EQ(out.find("cuzk_device_shared_bases_bytes{device=\"1\""), std::string::npos) << out;
  EXPECT_NE(out.find("cuzk_device_memory_bytes{device=\"1\",kind=\"budget\"}"), std::string::npos) << out;
}

}  // namespace
}  // namespace cuzk::server
