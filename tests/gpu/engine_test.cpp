// The engine on a CUDA device: pooled partition buffers are pinned for the device (so the H stage
// and the MSM scalars go by direct DMA), and jobs of synthetic and already-synthesized partitions
// complete with pairing-checked proofs through two workers sharing one budget, their buffer sets
// reused. Skips without a GPU.
#include <gtest/gtest.h>

#include "backend/cuda/h_stage.hpp"
#include "backend/cuda/runtime/staging.hpp"
#include "engine/cuda_devices.hpp"
#include "engine/partition_buffers.hpp"
#include "r1cs/circuits/circuit.hpp"
#include "tests/engine/test_util.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace cuzk::engine {
namespace {

// `shared`: the workers share one store of resident bases (the small budget is let through), and
// waiting host threads sleep (blocking sync; a process-wide setting, so tests that follow keep it).
Result<DeviceSet> one_device(uint32_t workers, bool shared = false) {
  CudaDeviceOptions o;
  o.indices = {uint32_t(gputest::test_device())};
  o.vram_budget = uint64_t(4) << 30;
  o.workers = workers;
  if (shared) o.min_worker_bytes = uint64_t(512) << 20;
  o.blocking_sync = shared;
  return cuda_devices(o);
}

// The store is carved out only where it leaves every worker enough, and only for several workers.
TEST(GpuEngine, ADeviceBudgetIsSplitIntoSharedBasesAndWorkerShares) {
  CudaDeviceOptions o;
  const uint64_t gib = uint64_t(1) << 30;
  o.workers = 2;
  DeviceSplit d = split_device_budget(140 * gib, o.workers, o);
  EXPECT_EQ(d.shared_bases, uint64_t(140 * gib * 0.6));
  EXPECT_EQ(d.per_worker, (140 * gib - d.shared_bases) / 2);
  EXPECT_LE(d.shared_bases + 2 * d.per_worker, 140 * gib);
  d = split_device_budget(16 * gib, o.workers, o);  // too small to share: as before, half each
  EXPECT_EQ(d.shared_bases, 0u);
  EXPECT_EQ(d.per_worker, 8 * gib);
  o.workers = 1;
  d = split_device_budget(140 * gib, o.workers, o);
  EXPECT_EQ(d.shared_bases, 0u);
  EXPECT_EQ(d.per_worker, 140 * gib);
  o.workers = 2;
  o.shared_bases_fraction = 0;
  EXPECT_EQ(split_device_budget(140 * gib, o.workers, o).shared_bases, 0u);
}

// Express workers above all, then each device's first ordinary worker when lead_worker is on, the
// other ordinary workers below it; with lead_worker off (the default) every ordinary worker alike.
TEST(GpuEngine, TheFirstOrdinaryWorkerLeadsAndExpressWorkersStayAbove) {
  CudaDeviceOptions o;
  EXPECT_FALSE(o.lead_worker);
  o.lead_worker = true;
  DeviceDescriptor d;
  d.workers = 3;
  d.express_workers = 1;
  EXPECT_EQ(worker_role(d, 0, o), WorkerRole::lead);
  EXPECT_EQ(worker_role(d, 1, o), WorkerRole::ordinary);
  EXPECT_EQ(worker_role(d, 2, o), WorkerRole::ordinary);
  EXPECT_EQ(worker_role(d, 3, o), WorkerRole::express);
  d.workers = 0;  // only express workers: none leads
  EXPECT_EQ(worker_role(d, 0, o), WorkerRole::express);
  d.workers = 2;
  o.lead_worker = false;
  EXPECT_EQ(worker_role(d, 0, o), WorkerRole::ordinary);
  EXPECT_EQ(worker_role(d, 1, o), WorkerRole::ordinary);
  EXPECT_EQ(worker_role(d, 2, o), WorkerRole::express);
}

// A witness partition's H stage is lean on a worker whose budget is below the backend's resident
// plan from compiled rows: three domain vectors, the fixed tables and the witness (host-only).
TEST(GpuEngine, AWorkerBelowTheResidentRowsPlanRunsTheHStageLean) {
  const uint64_t domain = uint64_t(1) << 27, wires = 130169893 + 328;
  const uint64_t bytes = cuda::HStage::rows_resident_bytes(27, wires);
  // The compact twiddle tables: the least the resident plan needs.
  EXPECT_EQ(bytes, (3 * domain + wires) * 32 + cuda::HStage::fixed_bytes(27, true));
  EXPECT_GT(cuda::HStage::fixed_bytes(27), domain / 2 * 32);  // one table of every twiddle, coset tables
  EXPECT_LT(cuda::HStage::fixed_bytes(27, true), size_t(32) << 20);
  EXPECT_TRUE(h_stage_is_lean(bytes - 1, domain, wires));
  EXPECT_FALSE(h_stage_is_lean(bytes, domain, wires));
  // A 20 GB device's two workers run a 32 GiB PoRep partition lean; an H200's do not.
  const uint64_t gib = uint64_t(1) << 30;
  CudaDeviceOptions o;
  o.workers = 2;
  EXPECT_TRUE(h_stage_is_lean(split_device_budget(20 * gib, 2, o).per_worker, domain, wires));
  EXPECT_FALSE(h_stage_is_lean(split_device_budget(139 * gib, 2, o).per_worker, domain, wires));
}

// An express worker's share comes out of the store where there is one (the ordinary workers keep
// theirs), else out of the budget before the ordinary workers split it; at most an eighth.
TEST(GpuEngine, ExpressWorkersTakeTheirShareFromTheStoreFirst) {
  CudaDeviceOptions o;
  const uint64_t gib = uint64_t(1) << 30;
  o.workers = 2;
  const DeviceSplit plain = split_device_budget(140 * gib, 2, o);
  DeviceSplit d = split_device_budget(140 * gib, 2, o, 1);
  EXPECT_EQ(d.per_express_worker, 8 * gib);
  EXPECT_EQ(d.per_worker, plain.per_worker);
  EXPECT_EQ(d.shared_bases, plain.shared_bases - 8 * gib);
  EXPECT_LE(d.shared_bases + 2 * d.per_worker + d.per_express_worker, 140 * gib);
  d = split_device_budget(16 * gib, 2, o, 1);  // no store: an eighth of the budget, the rest halved
  EXPECT_EQ(d.shared_bases, 0u);
  EXPECT_EQ(d.per_express_worker, 2 * gib);
  EXPECT_EQ(d.per_worker, 7 * gib);
  d = split_device_budget(140 * gib, 1, o, 2);  // one ordinary worker, two express
  EXPECT_EQ(d.per_express_worker, 8 * gib);
  EXPECT_EQ(d.per_worker, 124 * gib);
  d = split_device_budget(140 * gib, 2, o, 0);
  EXPECT_EQ(d.per_express_worker, 0u);
  EXPECT_EQ(d.per_worker, plain.per_worker);
}

TEST(GpuEngine, PooledBuffersArePinnedForTheDevice) {
  CUZK_REQUIRE_GPU();
  auto devices = one_device(1);
  CUZK_ASSERT_OK(devices);
  MemoryBudget host("host", uint64_t(1) << 30, testing::test_logger());
  PartitionBufferPool pool(1, devices->pin_host, testing::test_logger(), 2);
  const BufferShape shape{uint64_t(1) << 16, uint64_t(1) << 16};  // 2 MiB per vector
  auto r = host.acquire(shape.bytes(), {}, "p", {});
  CUZK_ASSERT_OK(r);
  auto lease = pool.make(shape, *r, "p");
  ASSERT_TRUE(lease.pinned());
  r1cs::Assignment as;
  lease.lend_to(as);
  for (const auto* v : {&as.a, &as.b, &as.c, &as.aux_assignment}) {
    EXPECT_TRUE(cuda::HostStager::is_pinned(v->data()));
    EXPECT_TRUE(cuda::HostStager::is_pinned(v->data() + v->capacity() - 1));
  }
  lease.take_back(as);
}

class GpuEngineWorkers : public ::testing::TestWithParam<bool> {};

TEST_P(GpuEngineWorkers, ProveWithPooledPinnedBuffers) {
  CUZK_REQUIRE_GPU();
  auto devices = one_device(2, GetParam());
  CUZK_ASSERT_OK(devices);
  if (GetParam()) {
    unsigned flags = 0;
    ASSERT_EQ(cudaSetDevice(gputest::test_device()), cudaSuccess);
    ASSERT_EQ(cudaGetDeviceFlags(&flags), cudaSuccess);
    EXPECT_EQ(flags & cudaDeviceScheduleMask, unsigned(cudaDeviceScheduleBlockingSync));
  }
  r1cs::SampleSpec spec = testing::tiny_spec();
  spec.log_domain = 12;
  EngineConfig c;
  c.devices = std::move(*devices);
  c.host_memory_budget = uint64_t(2) << 30;
  c.synthesis_workers = 2;
  c.synthesis_threads = 2;
  c.keys["k12"] = testing::key_for(spec);
  c.logger = testing::test_logger();
  auto made = Engine::create(std::move(c));
  CUZK_ASSERT_OK(made);
  Engine& engine = **made;
  std::vector<JobId> ids;
  for (int j = 0; j < 3; ++j) {
    JobRequest r;
    r.params = "k12";
    for (int p = 0; p < 4; ++p) r.partitions.emplace_back(SampleInput{spec});
    auto id = engine.submit(std::move(r));
    CUZK_ASSERT_OK(id);
    ids.push_back(*id);
  }
  {
    auto circuit = r1cs::make_sample_circuit(spec);
    CUZK_ASSERT_OK(circuit);
    auto as = r1cs::synthesize_for_proving(**circuit);
    CUZK_ASSERT_OK(as);
    JobRequest r;
    r.params = "k12";
    r.partitions.emplace_back(SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(*as))});
    auto id = engine.submit(std::move(r));
    CUZK_ASSERT_OK(id);
    ids.push_back(*id);
  }
  for (JobId id : ids) {
    auto res = engine.await(id, std::chrono::seconds(120));
    CUZK_ASSERT_OK(res);
    EXPECT_EQ(res->state, JobState::done) << res->error;
    EXPECT_EQ(res->retries, 0u);
  }
  const EngineStatus s = testing::wait_until_idle(engine);
  ASSERT_EQ(s.devices.size(), 1u);
  EXPECT_EQ(s.devices[0].proofs_done, 13u);
  EXPECT_EQ(s.devices[0].failures, 0u);
  // At most the partitions in flight at once: 4 ahead (2 synthesis + 2 device workers) and 2 proving.
  EXPECT_GE(s.buffer_sets_made, 1u);
  EXPECT_LE(s.buffer_sets_made, 6u);
  EXPECT_EQ(s.buffer_sets_idle, s.buffer_sets_made);
  // With sharing, the device's store holds the key's bases once, and the status says so.
  const auto& shared = s.devices[0].shared_bases;
  if (GetParam()) {
    EXPECT_GT(shared.capacity, 0u);
    EXPECT_GT(shared.bytes, 0u);
    EXPECT_EQ(shared.uploads, shared.arrays);
  } else {
    EXPECT_EQ(shared.capacity, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(SharedBasesAndBlockingSync, GpuEngineWorkers, ::testing::Bool());

}  // namespace
}  // namespace cuzk::engine
