// The daemon's configuration: TOML read strictly, flags over the file, checks.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "server/auth.hpp"
#include "server/config.hpp"
#include "tests/server/test_util.hpp"

namespace cuzk::server {
namespace {

// The example shipped in deploy/ stays a valid configuration, with every key the reader knows.
TEST(ServerConfig, TheDeployedExampleLoads) {
  DaemonConfig c;
  const auto st = load_config_file(CUZK_DEPLOY_DIR "/cuzkd.example.toml", c);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(c.max_partitions_ahead, 0u);
  EXPECT_EQ(c.express_synthesis_workers, 1u);
  EXPECT_EQ(c.synthesis_nice, 10u);
  EXPECT_FALSE(c.idle_buffer_sets.has_value());
}

TEST(ServerConfig, ReadsEveryTable) {
  DaemonConfig c;
  const auto st = load_config_text(R"(
[daemon]
listen = ["unix:///tmp/x.sock", "127.0.0.1:9820"]
http_listen = "127.0.0.1:9821"
token = "s3cret"
max_message_bytes = "64M"
shutdown_grace_s = 30
log_level = "debug"

[engine]
journal = "/var/lib/cuzk/journal.db"
host_memory_budget = "96G"
synthesis_workers = 4
synthesis_nice = 5
express_synthesis_workers = 2
max_partitions_ahead = 3
idle_buffer_sets = 0
trusted_params = true

[devices]
backend = "cpu"
shared_bases_fraction = 0.5
express_workers = 2
express_max_log_domain = 23
blocking_sync = true
lead_worker = true
[[devices.device]]
index = 0
vram_budget = "20G"
workers = 2
[[devices.device]]
index = 1

[params]
preload = ["/a.params", "/b.params"]
)",
                                   "test.toml", c);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(c.listen.size(), 2u);
  EXPECT_EQ(c.listen[1], "127.0.0.1:9820");
  EXPECT_EQ(c.token, "s3cret");
  EXPECT_EQ(c.max_message_bytes, uint64_t(64) << 20);
  EXPECT_EQ(c.shutdown_grace_s, 30u);
  EXPECT_EQ(c.journal, "/var/lib/cuzk/journal.db");
  EXPECT_EQ(c.host_memory_budget, uint64_t(96) << 30);
  EXPECT_EQ(c.synthesis_workers, 4u);
  EXPECT_EQ(c.synthesis_nice, 5u);
  EXPECT_EQ(c.express_synthesis_workers, 2u);
  EXPECT_EQ(c.max_partitions_ahead, 3u);
  ASSERT_TRUE(c.idle_buffer_sets.has_value());
  EXPECT_EQ(*c.idle_buffer_sets, 0u);
  EXPECT_TRUE(c.trusted_params);
  EXPECT_EQ(c.shared_bases_fraction, 0.5);
  EXPECT_EQ(c.express_workers, 2u);
  EXPECT_EQ(c.express_max_log_domain, 23u);
  EXPECT_TRUE(c.blocking_sync);
  EXPECT_TRUE(c.lead_worker);
  ASSERT_EQ(c.devices.size(), 2u);
  EXPECT_EQ(c.devices[0].vram_budget, uint64_t(20) << 30);
  EXPECT_EQ(c.devices[0].workers, 2u);
  EXPECT_EQ(c.devices[1].index, 1u);
  EXPECT_EQ(c.devices[1].workers, 1u);
  EXPECT_EQ(c.preload.size(), 2u);
  EXPECT_TRUE(resolve(c).ok());
  EXPECT_EQ(c.effective_token, "s3cret");
}

TEST(ServerConfig, ReadsTheCompiledCircuitFolder) {
  DaemonConfig c;
  EXPECT_EQ(c.compiled_dir, "");  // the default: beside the parameters
  const auto st = load_config_text("[engine]\ncompiled_dir = \"/srv/cuzk/compiled\"\n", "test.toml", c);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(c.compiled_dir, "/srv/cuzk/compiled");
}

TEST(ServerConfig, ReadsWhereThePostWitnessIsComputed) {
  DaemonConfig c;
  EXPECT_TRUE(c.device_witness);  // the default: on the proving GPU
  const auto st = load_config_text("[engine]\ndevice_witness = false\n", "test.toml", c);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_FALSE(c.device_witness);
  const auto bad = load_config_text("[engine]\ndevice_witness = \"yes\"\n", "test.toml", c);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("engine.device_witness"), std::string::npos) << bad.message();
}

TEST(ServerConfig, RejectsTyposAndWrongTypes) {
  const std::pair<const char*, const char*> bad[] = {
      {"[daemon]\nlisten_addr = \"x\"\n", "daemon.listen_addr"},
      {"[deamon]\nlisten = \"x\"\n", "deamon"},
      {"[engine]\nsynthesis_workers = \"four\"\n", "engine.synthesis_workers"},
      {"[engine]\nsynthesis_workers = -1\n", "engine.synthesis_workers"},
      {"[engine]\nhost_memory_budget = \"12Q\"\n", "unknown unit"},
      {"[[devices.device]]\nindex = 0\nvram = \"1G\"\n", "devices.device[0].vram"},
      {"[devices]\nshared_bases_fraction = 1.5\n", "devices.shared_bases_fraction must be between 0 and 1"},
      {"[devices]\nshared_bases_fraction = \"half\"\n", "devices.shared_bases_fraction must be a number"},
      {"[daemon\nlisten = 1\n", "test.toml:1"},
  };
  for (const auto& [text, want] : bad) {
    DaemonConfig c;
    const auto st = load_config_text(text, "test.toml", c);
    ASSERT_FALSE(st.ok()) << text;
    EXPECT_NE(st.message().find(want), std::string::npos) << st.message();
  }
}

TEST(ServerConfig, FlagsOverrideTheFile) {
  DaemonConfig c;
  ASSERT_TRUE(
      load_config_text("[daemon]\nlisten = \"unix:///a.sock\"\n[engine]\njournal = \"/j.db\"\n", "t", c)
          .ok());
  CLI::App app;
  ConfigOverrides o;
  add_flags(app, o);
  std::vector<std::string> args{"--listen",
                                "127.0.0.1:1",
                                "--journal",
                                "/other.db",
                                "--device",
                                "3:2G:4",
                                "--device",
                                "5",
                                "--host-memory-budget",
                                "8G",
                                "--preload",
                                "/p.params",
                                "--set",
                                "engine.max_attempts=7",
                                "--set",
                                "daemon.log_level=debug",
                                "--set",
                                "engine.trusted_params=true"};
  std::reverse(args.begin(), args.end());
  app.parse(args);
  ASSERT_TRUE(apply_overrides(o, c).ok());
  EXPECT_EQ(c.listen, std::vector<std::string>{"127.0.0.1:1"});
  EXPECT_EQ(c.journal, "/other.db");
  ASSERT_EQ(c.devices.size(), 2u);
  EXPECT_EQ(c.devices[0].index, 3u);
  EXPECT_EQ(c.devices[0].vram_budget, uint64_t(2) << 30);
  EXPECT_EQ(c.devices[0].workers, 4u);
  EXPECT_EQ(c.devices[1].index, 5u);
  EXPECT_EQ(c.host_memory_budget, uint64_t(8) << 30);
  EXPECT_EQ(c.preload, std::vector<std::string>{"/p.params"});
  EXPECT_EQ(c.max_attempts, 7u);
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_TRUE(c.trusted_params);
  for (const std::string bad : {"engine.max_attempt=7", "engine.max_attempts=-2", "nodot=1", "engine.x"}) {
    ConfigOverrides o2;
    o2.set = {bad};
    EXPECT_FALSE(apply_overrides(o2, c).ok()) << bad;
  }
}

TEST(ServerConfig, ResolveChecksConsistency) {
  testing::TempDir dir;
  {
    DaemonConfig c;
    c.tls_cert = "/cert.pem";
    EXPECT_FALSE(resolve(c).ok());  // a certificate without its key
  }
  {
    DaemonConfig c;
    c.devices = {DeviceConfig{0, 0, 1}, DeviceConfig{0, 0, 1}};
    EXPECT_FALSE(resolve(c).ok());  // a device twice
  }
  {
    DaemonConfig c;
    c.synthesis_nice = 20;
    const auto st = resolve(c);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("synthesis_nice"), std::string::npos) << st.message();
  }
  for (uint32_t log : {0u, 33u}) {
    DaemonConfig c;
    c.express_max_log_domain = log;
    const auto st = resolve(c);
    ASSERT_FALSE(st.ok()) << log;
    EXPECT_NE(st.message().find("express_max_log_domain"), std::string::npos) << st.message();
  }
  {
    DaemonConfig c;
    c.token_file = dir.file("token");
    EXPECT_FALSE(resolve(c).ok());  // missing file
    std::ofstream(c.token_file) << "from-file\n";
    ASSERT_TRUE(resolve(c).ok());
    EXPECT_EQ(c.effective_token, "from-file");
    c.token = "inline";
    EXPECT_FALSE(resolve(c).ok());  // both
  }
  {
    // A secret others can read is a warning; clients_file names a client per line.
    DaemonConfig c;
    c.token_file = dir.file("token644");
    std::ofstream(c.token_file) << "t0\n";
    ::chmod(c.token_file.c_str(), 0644);
    c.clients_file = dir.file("clients");
    std::ofstream(c.clients_file) << "# comment\nalice  tok-a\nbob tok-b \n";
    ::chmod(c.clients_file.c_str(), 0600);
    ASSERT_TRUE(resolve(c).ok());
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("token644"), std::string::npos) << c.warnings[0];
    EXPECT_NE(c.warnings[0].find("644"), std::string::npos) << c.warnings[0];
    const ClientTokens want{{"default", "t0"}, {"alice", "tok-a"}, {"bob", "tok-b"}};
    EXPECT_EQ(c.client_tokens, want);
    std::ofstream(c.clients_file) << "carol tok-a\ncarol tok-c\n";
    EXPECT_FALSE(resolve(c).ok());  // a name twice
    std::ofstream(c.clients_file) << "dave t0\n";
    EXPECT_FALSE(resolve(c).ok());  // a token shared
    std::ofstream(c.clients_file) << "lonely\n";
    EXPECT_FALSE(resolve(c).ok());  // no token
  }
}

TEST(ServerAuth, BearerSchemeInAnyCaseAndEachTokenNamesItsClient) {
  const ClientTokens tokens{{"alice", "tok-a"}, {"bob", "tok-b"}};
  EXPECT_EQ(client_of("Bearer tok-a", tokens), "alice");
  EXPECT_EQ(client_of("bearer tok-b", tokens), "bob");
  EXPECT_EQ(client_of("BEARER  tok-b", tokens), "bob");
  for (const char* bad :
       {"", "Bearer", "Bearer ", "Basic tok-a", "Bearertok-a", "Bearer tok-a ", "Bearer tok"})
    EXPECT_EQ(client_of(bad, tokens), std::nullopt) << bad;
}

TEST(ServerConfig, ParsesSizes) {
  EXPECT_EQ(*parse_size("1024"), 1024u);
  EXPECT_EQ(*parse_size("4K"), 4096u);
  EXPECT_EQ(*parse_size("16GiB"), uint64_t(16) << 30);
  EXPECT_EQ(*parse_size("2T"), uint64_t(2) << 40);
  EXPECT_FALSE(parse_size("").ok());
  EXPECT_FALSE(parse_size("G").ok());
  EXPECT_FALSE(parse_size("99999999999999999999").ok());
  EXPECT_FALSE(parse_size("20000000000T").ok());
}

}  // namespace
}  // namespace cuzk::server
