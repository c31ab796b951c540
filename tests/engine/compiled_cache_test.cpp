// The compiled circuit cache: one build per shape however many callers ask at once, files written
// beside the parameters and mapped back, damaged or foreign files rebuilt (never used), a write that
// fails served from memory with a warning, background builds, and host and device budgets
// accounted and relieved like the parameter cache's.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "engine/compiled_cache.hpp"
#include "io/compiled_circuit_file.hpp"
#include "io/file.hpp"
#include "tests/io/compiled_test_util.hpp"

namespace cuzk::engine {
namespace {

namespace fs = std::filesystem;
using test::Rng;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "cuzk-compiled-cache-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// A logger whose lines the test reads.
struct CapturedLog {
  std::shared_ptr<std::ostringstream> out = std::make_shared<std::ostringstream>();
  Logger log =
      std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(*out));
  CapturedLog() { log->set_level(spdlog::level::info); }
  std::string text() const {
    log->flush();
    return out->str();
  }
};

// A builder that counts its calls and compiles `m`; `gate`, when given, holds it until set.
struct Builder {
  explicit Builder(r1cs::ConstraintMatrices matrices) : m(std::move(matrices)) {}
  r1cs::ConstraintMatrices m;
  std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
  std::shared_future<void> gate;
  std::string fail;  // not empty: the builder fails with this message

  CompiledBuilder fn() const {
    return [m = m, calls = calls, gate = gate, fail = fail]() -> Result<r1cs::CompiledCircuit> {
      ++*calls;
      if (gate.valid()) gate.wait();
      if (!fail.empty()) return make_error(fail);
      return r1cs::CompiledCircuit::from_parts(test::compile_reference(m));
    };
  }
  int count() const { return calls->load(); }
};

// A builder that must not run (the circuit is expected from memory or its file).
CompiledBuilder must_not_build() {
  return []() -> Result<r1cs::CompiledCircuit> {
    ADD_FAILURE() << "the builder ran";
    return make_error("must not build");
  };
}

constexpr uint64_t kLarge = uint64_t(1) << 30;

TEST(CompiledCache, FileNamesAndFolder) {
  const std::string a = compiled_file_name("porep-32g/v28-stacked.params"),
                    b = compiled_file_name("porep-32g v28-stacked.params");
  EXPECT_EQ(a.rfind("porep-32g_v28-stacked.params-", 0), 0u) << a;
  EXPECT_NE(a, b);  // the same sanitized text, different keys
  EXPECT_EQ(a.size(), b.size());
  const std::string long_name = compiled_file_name(std::string(500, 'x') + "/../../etc");
  EXPECT_LT(long_name.size(), 120u);
  for (const std::string& n : {a, b, long_name, compiled_file_name("")}) {
    EXPECT_EQ(n.find('/'), std::string::npos) << n;
    EXPECT_TRUE(n.ends_with(".cuzkc")) << n;
  }
  EXPECT_EQ(compiled_file_name("k"), compiled_file_name("k"));

  EXPECT_EQ(compiled_circuit_dir("/srv/compiled", "/p"), fs::path("/srv/compiled"));
  EXPECT_EQ(compiled_circuit_dir("", "/p"), fs::path("/p/cuzk-compiled"));
  const char* old = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  const std::string saved = old ? old : "";
  ::setenv("FIL_PROOFS_PARAMETER_CACHE", "/params-here", 1);
  EXPECT_EQ(compiled_circuit_dir(""), fs::path("/params-here/cuzk-compiled"));
  if (old)
    ::setenv("FIL_PROOFS_PARAMETER_CACHE", saved.c_str(), 1);
  else
    ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");
}

TEST(CompiledCache, BuildsOnceWritesTheFileAndMapsIt) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", kLarge, make_null_logger());
  Builder builder{test::random_matrices(rng, 3, 50, 80)};
  const std::string key = "winning-2k/v28-test.params";
  {
    CompiledCache cache(dir.path / "cuzk-compiled", host, {}, make_null_logger());
    auto c = cache.get_or_build(key, builder.fn());
    ASSERT_TRUE(c.ok()) << c.message();
    test::expect_same_circuit(**c, builder.m, rng);
    EXPECT_EQ(builder.count(), 1);
    EXPECT_TRUE(fs::is_regular_file(cache.path_of(key)));
    EXPECT_EQ(cache.path_of(key).parent_path(), dir.path / "cuzk-compiled");
    auto st = cache.status();
    ASSERT_EQ(st.size(), 1u);
    EXPECT_TRUE(st[0].from_file);
    EXPECT_EQ(st[0].users, 1);
    EXPECT_EQ(st[0].host_bytes, (*c)->bytes());
    EXPECT_EQ(host.reserved(), (*c)->bytes());
    auto again = cache.get_or_build(key, must_not_build());
    ASSERT_TRUE(again.ok()) << again.message();
    EXPECT_EQ(again->get(), c->get());
    EXPECT_EQ(cache.find(key).get(), c->get());
    EXPECT_EQ(cache.find("other"), nullptr);
  }
  EXPECT_EQ(host.reserved(), 0u);
  // A new cache (a restarted daemon) maps the file without building.
  CompiledCache cache(dir.path / "cuzk-compiled", host, {}, make_null_logger());
  auto c = cache.get_or_build(key, must_not_build());
  ASSERT_TRUE(c.ok()) << c.message();
  test::expect_same_circuit(**c, builder.m, rng);
}

TEST(CompiledCache, ConcurrentCallersShareOneBuild) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", kLarge, make_null_logger());
  CompiledCache cache(dir.path, host, {}, make_null_logger());
  std::promise<void> open;
  Builder builder{test::random_matrices(rng, 2, 30, 40)};
  builder.gate = open.get_future().share();
  std::vector<std::thread> callers;
  std::vector<CompiledHandle> got(8);
  for (size_t i = 0; i < got.size(); ++i)
    callers.emplace_back([&, i] {
      auto c = cache.get_or_build("k", builder.fn());
      EXPECT_TRUE(c.ok()) << c.message();
      if (c.ok()) got[i] = *c;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let them queue (the test holds either way)
  open.set_value();
  for (auto& t : callers) t.join();
  EXPECT_EQ(builder.count(), 1);
  for (const auto& c : got) EXPECT_EQ(c.get(), got[0].get());
}

TEST(CompiledCache, AFailedBuildIsEveryWaitersErrorThenRetried) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", kLarge, make_null_logger());
  CompiledCache cache(dir.path, host, {}, make_null_logger());
  std::promise<void> open;
  Builder failing{test::random_matrices(rng, 2, 30, 40)};
  failing.gate = open.get_future().share();
  failing.fail = "the circuit cannot be synthesized";
  std::vector<std::thread> callers;
  std::atomic<int> errors{0};
  for (int i = 0; i < 4; ++i)
    callers.emplace_back([&] {
      auto c = cache.get_or_build("k", failing.fn());
      if (!c.ok() && c.message().find("cannot be synthesized") != std::string::npos) ++errors;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  open.set_value();
  for (auto& t : callers) t.join();
  EXPECT_EQ(errors.load(), 4);
  EXPECT_GE(failing.count(), 1);
  EXPECT_TRUE(cache.status().empty());
  EXPECT_EQ(host.reserved(), 0u);
  // The next caller builds afresh. A builder whose parts are invalid is an error too, not a crash.
  Builder good{failing.m};
  EXPECT_TRUE(cache.get_or_build("k", good.fn()).ok());
  auto bad = cache.get_or_build("bad", [] {
    r1cs::CompiledParts p;
    p.coeffs = {Fr::one()};
    return r1cs::CompiledCircuit::from_parts(std::move(p));
  });
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("coefficient table"), std::string::npos) << bad.message();
  auto throws =
      cache.get_or_build("throws", []() -> Result<r1cs::CompiledCircuit> { throw std::bad_alloc(); });
  ASSERT_FALSE(throws.ok());
  EXPECT_NE(throws.message().find("out of host memory"), std::string::npos) << throws.message();
}

// A damaged, truncated or foreign file at the circuit's name is rebuilt and replaced.
TEST(CompiledCache, BadFilesAreRebuiltNeverUsed) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", kLarge, make_null_logger());
  Builder builder{test::random_matrices(rng, 3, 60, 90)};
  Builder other{test::random_matrices(rng, 3, 60, 90)};
  fs::path path;
  {
    CompiledCache cache(dir.path, host, {}, make_null_logger());
    ASSERT_TRUE(cache.get_or_build("k", builder.fn()).ok());
    ASSERT_TRUE(cache.get_or_build("other", other.fn()).ok());
    path = cache.path_of("k");
  }
  auto good = read_file_bytes(path);
  ASSERT_TRUE(good.ok());
  const std::vector<std::pair<std::string, std::function<void()>>> damage = {
      {"a flipped byte",
       [&] {
         auto b = *good;
         b[b.size() / 2] ^= 0x10;
         ASSERT_TRUE(write_file_bytes(path, b).ok());
       }},
      {"a truncated file",
       [&] { ASSERT_TRUE(write_file_bytes(path, std::span(*good).first(good->size() / 3)).ok()); }},
      {"an empty file", [&] { ASSERT_TRUE(write_file_bytes(path, {}).ok()); }},
      {"another shape's file",
       [&] {
         CompiledCache c(dir.path, host, {}, make_null_logger());
         fs::copy_file(c.path_of("other"), path, fs::copy_options::overwrite_existing);
       }},
  };
  int builds = builder.count();
  for (const auto& [what, change] : damage) {
    SCOPED_TRACE(what);
    change();
    CapturedLog log;
    CompiledCache cache(dir.path, host, {}, log.log);
    auto c = cache.get_or_build("k", builder.fn());
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(builder.count(), ++builds);
    test::expect_same_circuit(**c, builder.m, rng);
    EXPECT_NE(log.text().find("event=compiled_rejected"), std::string::npos) << log.text();
    EXPECT_TRUE(cache.status()[0].from_file);
    EXPECT_TRUE(io::open_compiled_circuit(path, "k").ok()) << "the file is replaced by a good one";
  }
}

// A folder that cannot be written: the built circuit is served from memory, with a warning.
TEST(CompiledCache, AFailedWriteServesFromMemory) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", kLarge, make_null_logger());
  Builder builder{test::random_matrices(rng, 2, 20, 30)};
  // Under a regular file no folder can be made (whoever runs the test, root included).
  ASSERT_TRUE(write_file_bytes(dir.path / "file", std::vector<uint8_t>{1}).ok());
  {
    CapturedLog log;
    CompiledCache cache(dir.path / "file" / "compiled", host, {}, log.log);
    auto c = cache.get_or_build("k", builder.fn());
    ASSERT_TRUE(c.ok()) << c.message();
    test::expect_same_circuit(**c, builder.m, rng);
    EXPECT_FALSE(cache.status()[0].from_file);
    EXPECT_EQ(host.reserved(), (*c)->bytes());
    EXPECT_NE(log.text().find("event=compiled_write_failed"), std::string::npos) << log.text();
  }
  // A folder in the file's place: rejected at load, and not writable.
  CapturedLog log;
  CompiledCache cache(dir.path, host, {}, log.log);
  fs::create_directory(cache.path_of("k"));
  auto c = cache.get_or_build("k", builder.fn());
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_FALSE(cache.status()[0].from_file);
  EXPECT_NE(log.text().find("event=compiled_rejected"), std::string::npos) << log.text();
  EXPECT_NE(log.text().find("event=compiled_write_failed"), std::string::npos) << log.text();
}

TEST(CompiledCache, PrefetchBuildsInTheBackground) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", kLarge, make_null_logger());
  CompiledCache cache(dir.path, host, {}, make_null_logger());
  std::promise<void> open;
  Builder builder{test::random_matrices(rng, 2, 40, 50)};
  builder.gate = open.get_future().share();
  cache.prefetch("k", builder.fn());
  cache.prefetch("k", builder.fn());  // under way: nothing more
  // A proof that comes meanwhile waits for the prefetch instead of building.
  auto waiter = std::async(std::launch::async, [&] { return cache.get_or_build("k", must_not_build()); });
  open.set_value();
  auto c = waiter.get();
  ASSERT_TRUE(c.ok()) << c.message();
  test::expect_same_circuit(**c, builder.m, rng);
  cache.drain();
  EXPECT_EQ(builder.count(), 1);
  cache.prefetch("k", must_not_build());  // in memory: nothing to do
  cache.drain();
  // A failing prefetch is logged, and the next caller tries again.
  Builder failing{builder.m};
  failing.fail = "no";
  cache.prefetch("f", failing.fn());
  cache.drain();
  EXPECT_EQ(cache.find("f"), nullptr);
  EXPECT_TRUE(cache.get_or_build("f", Builder{builder.m}.fn()).ok());
}

// Without room in the host budget, a background build still writes its file, and keeps nothing.
TEST(CompiledCache, PrefetchWithoutRoomLeavesTheFile) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", 1024, make_null_logger());
  CompiledCache cache(dir.path, host, {}, make_null_logger());
  Builder builder{test::random_matrices(rng, 2, 100, 150)};
  cache.prefetch("k", builder.fn());
  cache.drain();
  EXPECT_EQ(builder.count(), 1);
  EXPECT_EQ(cache.find("k"), nullptr);
  EXPECT_EQ(host.reserved(), 0u);
  auto c = io::open_compiled_circuit(cache.path_of("k"), "k");
  ASSERT_TRUE(c.ok()) << c.message();
  test::expect_same_circuit(*c, builder.m, rng);
  // In the foreground, a circuit larger than the whole budget is an error naming the budget.
  auto fg = cache.get_or_build("k", must_not_build());
  ASSERT_FALSE(fg.ok());
  EXPECT_NE(fg.message().find("host"), std::string::npos) << fg.message();
}

TEST(CompiledCache, IdleCircuitsAreEvictedLeastRecentlyUsedFirst) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  Builder builder{test::random_matrices(rng, 2, 60, 80)};
  auto one = r1cs::CompiledCircuit::from_parts(test::compile_reference(builder.m));
  ASSERT_TRUE(one.ok());
  const uint64_t size = one->bytes();  // every key below holds this same circuit
  MemoryBudget host("host", 2 * size + size / 2, make_null_logger());
  CompiledCache cache(dir.path, host, {}, make_null_logger());
  auto a = cache.get_or_build("a", builder.fn());
  auto b = cache.get_or_build("b", builder.fn());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(host.reserved(), 2 * size);
  EXPECT_FALSE(cache.evict("a").ok()) << "in use";
  EXPECT_FALSE(cache.evict("nothing").ok());
  EXPECT_EQ(cache.drop_idle(size), 0u);  // both held
  // Both held: a third waits for memory; its abandon ends the wait with an error.
  std::atomic<bool> give_up{false};
  auto third = std::async(std::launch::async, [&] {
    return cache.get_or_build("c", builder.fn(), WaitKey{1, 1}, "job=1", [&] { return give_up.load(); });
  });
  while (host.waiters() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  give_up = true;
  host.wake_all();
  auto r = third.get();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("gave up"), std::string::npos) << r.message();
  // Released, "a" used last: a new circuit evicts "b", the least recently used.
  a = Result<CompiledHandle>(CompiledHandle{});
  b = Result<CompiledHandle>(CompiledHandle{});
  ASSERT_TRUE(cache.get_or_build("a", must_not_build()).ok());
  auto c = cache.get_or_build("c", must_not_build());  // its file was written before the wait
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(host.reserved(), 2 * size);
  EXPECT_NE(cache.find("a"), nullptr);
  EXPECT_EQ(cache.find("b"), nullptr);
  EXPECT_TRUE(cache.evict("a").ok());
  EXPECT_EQ(host.reserved(), size);
  EXPECT_EQ(cache.drop_idle(1), 0u);  // "c" is held
  c = Result<CompiledHandle>(CompiledHandle{});
  EXPECT_EQ(cache.drop_idle(1), size);
  EXPECT_EQ(host.reserved(), 0u);
  EXPECT_TRUE(cache.status().empty());
}

TEST(CompiledCache, ResidencyIsAccountedPerDevice) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", kLarge, make_null_logger());
  MemoryBudget dev0("device0", kLarge, make_null_logger()), dev1("device1", 16, make_null_logger());
  CompiledCache cache(dir.path, host, {{0, &dev0}, {1, &dev1}}, make_null_logger());
  Builder builder{test::random_matrices(rng, 2, 60, 80)};
  auto c = cache.get_or_build("k", builder.fn());
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(cache.make_resident("missing", 0));
  EXPECT_TRUE(cache.make_resident("k", 0));
  EXPECT_TRUE(cache.make_resident("k", 0));   // once
  EXPECT_FALSE(cache.make_resident("k", 1));  // no room
  EXPECT_FALSE(cache.make_resident("k", 7));  // no such device
  EXPECT_TRUE(cache.is_resident("k", 0));
  EXPECT_EQ(dev0.reserved(), (*c)->bytes());
  EXPECT_EQ(cache.status()[0].resident_on, std::vector<uint32_t>{0});
  EXPECT_EQ(cache.relieve_device(0, 1), 0u);  // in use
  const uint64_t bytes = (*c)->bytes();
  c = Result<CompiledHandle>(CompiledHandle{});
  EXPECT_EQ(cache.relieve_device(0, 1), bytes);
  EXPECT_FALSE(cache.is_resident("k", 0));
  EXPECT_EQ(dev0.reserved(), 0u);
  EXPECT_NE(cache.find("k"), nullptr) << "still in host memory";
}

TEST(CompiledCache, AWaiterForAnotherBuildMayGiveUp) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  TempDir dir;
  MemoryBudget host("host", kLarge, make_null_logger());
  CompiledCache cache(dir.path, host, {}, make_null_logger());
  std::promise<void> open;
  Builder builder{test::random_matrices(rng, 2, 20, 20)};
  builder.gate = open.get_future().share();
  cache.prefetch("k", builder.fn());
  std::atomic<bool> give_up{false};
  auto waiter = std::async(std::launch::async, [&] {
    return cache.get_or_build("k", must_not_build(), {}, "", [&] { return give_up.load(); });
  });
  give_up = true;
  cache.wake_all();
  auto r = waiter.get();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("gave up"), std::string::npos) << r.message();
  open.set_value();
  cache.drain();
  EXPECT_NE(cache.find("k"), nullptr);
}

}  // namespace
}  // namespace cuzk::engine
