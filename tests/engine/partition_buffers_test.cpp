// The partition buffer pool: sets are reused in place, pinned once, accounted in the host budget,
// dropped under pressure or when they moved; and the engine reuses them across partitions.
#include <gtest/gtest.h>

#include <atomic>

#include "engine/fault_injection.hpp"
#include "engine/partition_buffers.hpp"
#include "r1cs/circuits/circuit.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/compiled/compiler.hpp"
#include "r1cs/compiled/evaluate.hpp"
#include "tests/engine/test_util.hpp"

namespace cuzk::engine {
namespace {

using testing::test_logger;

// 2^15 Fr = 1 MiB per vector: large enough to be pinned.
constexpr BufferShape kShape{uint64_t(1) << 15, uint64_t(1) << 15};

struct PinCounter {
  std::atomic<int> pinned{0}, live{0};
  HostPinner pinner() {
    return [this](const void*, size_t bytes) -> Result<std::shared_ptr<void>> {
      if (bytes == 0) return make_error("empty range");
      ++pinned;
      ++live;
      return std::shared_ptr<void>(reinterpret_cast<void*>(1), [this](void*) { --live; });
    };
  }
};

// A set made from a partition reservation of exactly its size (which is then empty and dropped).
PartitionBuffers make_set(MemoryBudget& host, PartitionBufferPool& pool, const BufferShape& shape = kShape) {
  auto r = host.acquire(shape.bytes(), {}, "p", {});
  EXPECT_TRUE(r.ok());
  return r ? pool.make(shape, *r, "p") : PartitionBuffers{};
}

// A pool that keeps two idle sets, pinning through a counter.
class PinnedPool : public ::testing::Test {
 protected:
  MemoryBudget host{"host", uint64_t(1) << 30, test_logger()};
  PinCounter pins;
  PartitionBufferPool pool{2, pins.pinner(), test_logger()};
};

TEST(MemoryBudget, SplitMovesBytesIntoASecondReservation) {
  MemoryBudget b("host", 100, test_logger());
  auto r = b.acquire(80, {}, "p", {});
  ASSERT_TRUE(r.ok());
  auto part = r->split(30, "buffers");
  EXPECT_TRUE(part.held());
  EXPECT_EQ(part.bytes(), 30u);
  EXPECT_EQ(r->bytes(), 50u);
  EXPECT_EQ(b.reserved(), 80u);
  EXPECT_EQ(b.reservations(), 2u);
  EXPECT_FALSE(r->split(51, "too much").held());  // more than is left: nothing moves
  r->release();
  EXPECT_EQ(b.reserved(), 30u);
  part.release();
  EXPECT_EQ(b.reserved(), 0u);
  EXPECT_EQ(b.reservations(), 0u);
}

TEST_F(PinnedPool, ASetIsReusedInPlaceAndKeepsItsShareOfTheBudget) {
  const Fr* a_storage = nullptr;
  {
    auto r = host.acquire(kShape.bytes() + 1000, {}, "p0", {});
    ASSERT_TRUE(r.ok());
    auto lease = pool.make(kShape, *r, "p0");
    ASSERT_TRUE(lease.held());
    EXPECT_TRUE(lease.pinned());
    EXPECT_EQ(pins.pinned.load(), 4);  // a, b, c and aux
    EXPECT_EQ(r->bytes(), 1000u);      // the set's share moved to the set
    r1cs::Assignment as;
    lease.lend_to(as);
    EXPECT_TRUE(as.a.empty());
    EXPECT_GE(as.a.capacity(), kShape.domain);
    EXPECT_GE(as.aux_assignment.capacity(), kShape.aux);
    a_storage = as.a.data();
    as.a.resize(kShape.domain, Fr::one());  // within capacity: the storage stays
    as.aux_assignment.resize(100);
    lease.take_back(as);
    EXPECT_TRUE(as.a.empty());  // moved out
    // `r` (the partition's own bytes) and the lease are released here; the set stays idle.
  }
  EXPECT_EQ(pool.idle(), 1u);
  EXPECT_EQ(pool.idle_bytes(), kShape.bytes());
  EXPECT_EQ(host.reserved(), kShape.bytes());
  EXPECT_EQ(pins.live.load(), 4);

  EXPECT_FALSE(pool.take_idle({kShape.domain * 2, kShape.aux}).held());  // another shape
  auto again = pool.take_idle(kShape);
  ASSERT_TRUE(again.held());
  EXPECT_EQ(pool.idle(), 0u);
  r1cs::Assignment as;
  again.lend_to(as);
  EXPECT_EQ(as.a.data(), a_storage);
  // Lent as the last partition left it: a writer resizes and overwrites, never fills first.
  EXPECT_EQ(as.a.size(), kShape.domain);
  EXPECT_EQ(as.a.back(), Fr::one());
  EXPECT_EQ(as.aux_assignment.size(), 100u);
  again.take_back(as);
  EXPECT_EQ(pool.made(), 1u);
  EXPECT_EQ(pins.pinned.load(), 4);  // never pinned twice
}

TEST_F(PinnedPool, IdleSetsAreBoundedAndDroppedUnderPressure) {
  {
    std::vector<PartitionBuffers> leases;
    for (int i = 0; i < 3; ++i) leases.push_back(make_set(host, pool));
    EXPECT_EQ(host.reserved(), 3 * kShape.bytes());
  }
  EXPECT_EQ(pool.idle(), 2u);  // the third is freed at once
  EXPECT_EQ(host.reserved(), 2 * kShape.bytes());
  EXPECT_EQ(pins.live.load(), 8);
  EXPECT_EQ(pool.drop_idle(1), kShape.bytes());  // one set covers one byte
  EXPECT_EQ(pool.idle(), 1u);
  EXPECT_EQ(pool.drop_idle(UINT64_MAX), kShape.bytes());
  EXPECT_EQ(pool.idle(), 0u);
  EXPECT_EQ(host.reserved(), 0u);
  EXPECT_EQ(pins.live.load(), 0);
  EXPECT_EQ(pool.drop_idle(1), 0u);
}

// The bound is per shape: small sets of another circuit coming back push out none of this one's,
// and a third set of one shape is freed while two of the other stay.
TEST_F(PinnedPool, TheIdleBoundIsPerShape) {
  const BufferShape small{uint64_t(1) << 15, uint64_t(1) << 10, false, false};
  {
    std::vector<PartitionBuffers> leases;
    for (int i = 0; i < 2; ++i) leases.push_back(make_set(host, pool));
    for (int i = 0; i < 3; ++i) leases.push_back(make_set(host, pool, small));
  }
  EXPECT_EQ(pool.idle_of(kShape), 2u);
  EXPECT_EQ(pool.idle_of(small), 2u);
  EXPECT_EQ(pool.idle(), 4u);
  EXPECT_EQ(host.reserved(), 2 * kShape.bytes() + 2 * small.bytes());
}

TEST(PartitionBuffers, NoIdleSetsKeptWhenTheLimitIsZero) {
  MemoryBudget host("host", uint64_t(1) << 30, test_logger());
  PartitionBufferPool pool(0, {}, test_logger());
  {
    auto lease = make_set(host, pool);
    EXPECT_TRUE(lease.held());
    EXPECT_FALSE(lease.pinned());  // no pinner: ordinary memory
  }
  EXPECT_EQ(pool.idle(), 0u);
  EXPECT_EQ(host.reserved(), 0u);
}

// A set the host cannot allocate (here: more elements than a vector may hold, which fails the same
// way on every machine) is no set, not an exception; the partition's reservation keeps its bytes.
TEST_F(PinnedPool, ASetTheHostCannotAllocateIsNoSet) {
  auto r = host.acquire(kShape.bytes(), {}, "p", {});
  ASSERT_TRUE(r.ok());
  const BufferShape huge{uint64_t(1) << 60, 0};
  auto lease = pool.make(huge, *r, "p");
  EXPECT_FALSE(lease.held());
  EXPECT_EQ(r->bytes(), kShape.bytes());
  EXPECT_EQ(pins.pinned.load(), 0);
  EXPECT_EQ(pool.made(), 0u);
}

TEST_F(PinnedPool, ASetWhoseVectorMovedIsNotReused) {
  {
    auto lease = make_set(host, pool);
    r1cs::Assignment as;
    lease.lend_to(as);
    as.b.resize(kShape.domain * 2);  // beyond capacity: reallocated
    lease.take_back(as);
  }
  EXPECT_EQ(pool.idle(), 0u);
  EXPECT_EQ(host.reserved(), 0u);
  EXPECT_EQ(pins.live.load(), 0);
}

// Submits a job and expects it done.
void expect_done(Engine& engine, JobRequest r) {
  auto id = engine.submit(std::move(r));
  ASSERT_TRUE(id.ok()) << id.message();
  auto res = engine.await(*id, std::chrono::seconds(120));
  ASSERT_TRUE(res.ok()) << res.message();
  EXPECT_EQ(res->state, JobState::done) << res->error;
}

// Through the engine: many partitions, few sets, every proof verifying, nothing left reserved but
// the idle sets; and a partition given already synthesized is copied into a pooled set.
TEST(PartitionBuffers, TheEngineReusesSetsAcrossPartitions) {
  EngineConfig c = testing::cpu_config(1, 2);
  c.synthesis_workers = 2;
  auto made = Engine::create(std::move(c));
  ASSERT_TRUE(made.ok()) << made.message();
  Engine& engine = **made;
  // Jobs one after another: the first one's partitions make the sets (at most its 4 partitions
  // in flight), the later ones find them idle.
  for (int j = 0; j < 4; ++j) {
    JobRequest r;
    r.params = "tiny";
    for (int p = 0; p < 4; ++p) r.partitions.emplace_back(SampleInput{testing::tiny_spec()});
    expect_done(engine, std::move(r));
  }
  {  // one already-synthesized partition
    auto circuit = r1cs::make_sample_circuit(testing::tiny_spec());
    ASSERT_TRUE(circuit.ok());
    auto as = r1cs::synthesize_for_proving(**circuit);
    ASSERT_TRUE(as.ok()) << as.message();
    JobRequest r;
    r.params = "tiny";
    r.partitions.emplace_back(SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(*as))});
    expect_done(engine, std::move(r));
  }
  testing::wait_until_idle(engine);
  const EngineStatus s = engine.status();
  EXPECT_GE(s.buffer_sets_made, 1u);
  EXPECT_LE(s.buffer_sets_made, 4u);  // 17 partitions, one job (≤ 4 partitions) at a time
  EXPECT_EQ(s.buffer_sets_idle, s.buffer_sets_made);
  EXPECT_EQ(s.host_reserved, s.buffer_idle_bytes);  // every partition's own share went back
  EXPECT_GT(s.buffer_idle_bytes, 0u);
}

// Sets made before any job (as a preload makes them): the jobs that follow take them and make
// none; a budget that holds fewer stops the making without waiting; a partition that takes no
// pooled set needs none, and an unknown parameter set is an error.
TEST(PartitionBuffers, PreparedSetsServeTheJobsThatFollow) {
  EngineConfig c = testing::cpu_config(1, 2);
  c.synthesis_workers = 2;
  auto made = Engine::create(std::move(c));
  ASSERT_TRUE(made.ok()) << made.message();
  Engine& engine = **made;
  const PartitionInput like = SampleInput{testing::tiny_spec()};
  auto ready = engine.prepare_buffer_sets("tiny", like, 2);
  ASSERT_TRUE(ready.ok()) << ready.message();
  EXPECT_EQ(*ready, 2u);
  EXPECT_EQ(engine.status().buffer_sets_made, 2u);
  EXPECT_EQ(engine.status().buffer_sets_idle, 2u);
  auto again = engine.prepare_buffer_sets("tiny", like, 2);  // already there: nothing more
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(engine.status().buffer_sets_made, 2u);
  for (int j = 0; j < 3; ++j) {
    JobRequest r;
    r.params = "tiny";
    for (int p = 0; p < 2; ++p) r.partitions.emplace_back(like);
    expect_done(engine, std::move(r));
  }
  const EngineStatus s = testing::wait_until_idle(engine);
  EXPECT_LE(s.buffer_sets_made, 3u);  // the prepared two, and one more at most while both are lent
  r1cs::SampleSpec other = testing::tiny_spec();
  other.kind = "merkle";  // built by its own synthesis: no pooled set
  auto none = engine.prepare_buffer_sets("tiny", SampleInput{other}, 2);
  ASSERT_TRUE(none.ok()) << none.message();
  EXPECT_EQ(*none, 0u);
  EXPECT_FALSE(engine.prepare_buffer_sets("no-such-params", like, 1).ok());
}

TEST(PartitionBuffers, PreparingStopsWhereTheHostBudgetEnds) {
  auto set = make_param_set("tiny", testing::key_for(testing::tiny_spec()));
  ASSERT_TRUE(set.ok());
  const PartitionInput like = SampleInput{testing::tiny_spec()};
  EngineConfig c = testing::cpu_config(1, 1);
  c.host_memory_budget = buffer_shape(**set, like).bytes() * 3 / 2;  // one set, not two
  auto made = Engine::create(std::move(c));
  ASSERT_TRUE(made.ok()) << made.message();
  auto ready = (*made)->prepare_buffer_sets("tiny", like, 4);
  ASSERT_TRUE(ready.ok()) << ready.message();
  EXPECT_EQ(*ready, 1u);
  EXPECT_EQ((*made)->status().host_reserved, buffer_shape(**set, like).bytes());
}

// Idle sets of one shape give way when a partition of another shape needs their memory: with a
// host budget that holds one partition, a larger circuit's job follows a small one's.
TEST(PartitionBuffers, IdleSetsGiveWayUnderPressure) {
  r1cs::SampleSpec big = testing::tiny_spec();
  big.log_domain = 8;
  auto big_set = make_param_set("big", testing::key_for(big));
  ASSERT_TRUE(big_set.ok());
  EngineConfig c = testing::cpu_config(1, 1);
  c.synthesis_workers = 1;
  c.keys["big"] = testing::key_for(big);
  c.host_memory_budget = partition_host_bytes(**big_set) + 1024;
  auto made = Engine::create(std::move(c));
  ASSERT_TRUE(made.ok()) << made.message();
  Engine& engine = **made;
  for (const auto& [params, spec] : {std::pair{"tiny", testing::tiny_spec()}, std::pair{"big", big}}) {
    JobRequest r;
    r.params = params;
    r.partitions.emplace_back(SampleInput{spec});
    expect_done(engine, std::move(r));
  }
  const EngineStatus s = testing::wait_until_idle(engine);
  EXPECT_EQ(s.buffer_sets_made, 2u);
  EXPECT_EQ(s.buffer_sets_idle, 1u);  // the small one was dropped for the large one
  EXPECT_EQ(s.buffer_idle_bytes, buffer_shape(**big_set, SampleInput{big}).bytes());
}

// Each proof 5 ms slower: synthesis can run ahead of the device.
EngineConfig with_slow_device(EngineConfig c) {
  c.devices.factory = with_faults(c.devices.factory, [](const DeviceDescriptor&, uint32_t) {
    FaultPlan p;
    p.delay = std::chrono::milliseconds(5);
    return p;
  });
  return c;
}

// One job of n tiny partitions.
JobRequest tiny_partitions(int n) {
  JobRequest r;
  r.params = "tiny";
  for (int p = 0; p < n; ++p) r.partitions.emplace_back(SampleInput{testing::tiny_spec()});
  return r;
}

// Synthesis runs at most max_partitions_ahead partitions ahead of a slow device, so a long job
// holds (and pins) a few buffer sets instead of one per partition.
TEST(PartitionBuffers, SynthesisStaysABoundedDistanceAheadOfTheDevices) {
  EngineConfig c = testing::cpu_config(1, 1);
  c.synthesis_workers = 2;
  c.max_partitions_ahead = 2;
  auto made = Engine::create(with_slow_device(std::move(c)));
  ASSERT_TRUE(made.ok()) << made.message();
  Engine& engine = **made;
  auto id = engine.submit(tiny_partitions(12));
  ASSERT_TRUE(id.ok()) << id.message();
  uint32_t most_ahead = 0;
  for (;;) {
    const EngineStatus s = engine.status();
    most_ahead = std::max(most_ahead, s.partitions_waiting_device + s.partitions_synthesizing);
    if (s.jobs_done + s.jobs_failed > 0) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  auto res = engine.await(*id, std::chrono::seconds(60));
  ASSERT_TRUE(res.ok()) << res.message();
  EXPECT_EQ(res->state, JobState::done) << res->error;
  EXPECT_LE(most_ahead, 2u);
  EXPECT_GE(most_ahead, 1u);
  const EngineStatus s = testing::wait_until_idle(engine);
  EXPECT_LE(s.buffer_sets_made, 3u);  // two ahead and one on the device
}

// A partition's host bytes count the extras only where they are needed: a synthetic partition with a
// bellman key needs no second wire vector, and a device that computes H no host scratch; a circom
// witness does need the wire copy. Never less than its buffer set.
TEST(PartitionBuffers, APartitionReservesOnlyTheExtrasItNeeds) {
  auto set = make_param_set("tiny", testing::key_for(testing::tiny_spec()));
  ASSERT_TRUE(set.ok());
  const ParamSet& p = **set;
  const uint64_t fr = 32, domain = p.key->domain_size, wires = p.key->num_inputs + p.key->num_aux;
  const PartitionInput sample = SampleInput{testing::tiny_spec()};
  const PartitionInput circom = CircomInput{};
  const uint64_t all = partition_host_bytes(p);
  const uint64_t gpu_sample = partition_host_bytes(p, partition_extras(sample, p, true));
  const uint64_t cpu_sample = partition_host_bytes(p, partition_extras(sample, p, false));
  const uint64_t gpu_circom = partition_host_bytes(p, partition_extras(circom, p, true));
  EXPECT_EQ(all - gpu_sample, domain * fr + wires * fr);
  EXPECT_EQ(all - cpu_sample, wires * fr);
  EXPECT_EQ(all - gpu_circom, domain * fr);
  EXPECT_GE(gpu_sample, buffer_shape(p, sample).bytes());
}

// A partition that leaves c to the prover (r1cs::Assignment::c_from_ab) is copied into a set without
// c; one that carries c (every synthesis here writes it) into a set with c. The reservation counts c
// either way: the CPU backend, or a lean device plan, forms it on the host.
TEST(PartitionBuffers, ASetHoldsCOnlyForPartitionsThatCarryIt) {
  auto set = make_param_set("tiny", testing::key_for(testing::tiny_spec()));
  ASSERT_TRUE(set.ok());
  const ParamSet& p = **set;
  const uint64_t fr = 32, domain = p.key->domain_size, aux = p.key->num_aux;
  const PartitionInput sample = SampleInput{testing::tiny_spec()};
  EXPECT_TRUE(writes_c(sample));
  EXPECT_EQ(buffer_shape(p, sample).bytes(), (3 * domain + aux) * fr);

  auto synthesized = synthesize_partition(sample, p, 2);
  ASSERT_TRUE(synthesized.ok()) << synthesized.message();
  EXPECT_FALSE(synthesized->assignment.c_from_ab);
  const auto with_c = std::make_shared<r1cs::Assignment>(synthesized->assignment);
  auto without = std::make_shared<r1cs::Assignment>(synthesized->assignment);
  without->c.clear();
  without->c_from_ab = true;
  const PartitionInput carried = SynthesizedInput{with_c};
  const PartitionInput left_out = SynthesizedInput{without};
  EXPECT_TRUE(writes_c(carried));
  EXPECT_FALSE(writes_c(left_out));
  EXPECT_EQ(buffer_shape(p, carried).bytes(), (3 * domain + aux) * fr);
  EXPECT_EQ(buffer_shape(p, left_out).bytes(), (2 * domain + aux) * fr);
  EXPECT_EQ(partition_host_bytes(p, partition_extras(left_out, p, true)) - buffer_shape(p, left_out).bytes(),
            (domain + p.key->num_inputs) * fr + 3 * ((p.key->num_inputs + aux) / 8 + 64) + 4096);

  // A Filecoin partition uses a set only when synthesized witness-only: aux and a (which receives h).
  const PartitionInput filecoin = FilecoinInput{};
  EXPECT_FALSE(uses_pooled_buffers(filecoin));
  EXPECT_TRUE(uses_pooled_buffers(filecoin, /*compiled=*/true));
  EXPECT_EQ(buffer_shape(p, filecoin, /*compiled=*/true).bytes(), (domain + aux) * fr);
  // Its reservation holds a alone where the device's H stage holds a, b and c; two domain vectors
  // more (b and c, or a∘b, of the lean plan) where the devices say a worker's cannot; the host's
  // sparse product, three more.
  DeviceSet roomy_devices, lean_devices, no_rule;
  lean_devices.lean_h_stage = [&](uint64_t domain_size, uint64_t wires) {
    EXPECT_EQ(domain_size, domain);
    EXPECT_EQ(wires, p.key->num_inputs + aux);
    return true;
  };
  roomy_devices.lean_h_stage = [](uint64_t, uint64_t) { return false; };
  const auto reserved = [&](bool h_on_device, const DeviceSet* devices) {
    return partition_host_bytes(p, partition_extras(filecoin, p, h_on_device, /*compiled=*/true, devices));
  };
  const uint64_t roomy = reserved(true, &roomy_devices);
  EXPECT_EQ(reserved(true, nullptr), roomy);
  EXPECT_EQ(reserved(true, &no_rule), roomy);  // no rule: never lean
  EXPECT_EQ(reserved(true, &lean_devices) - roomy, 2 * domain * fr);
  EXPECT_EQ(reserved(false, &lean_devices) - roomy, 3 * domain * fr);
  EXPECT_EQ(reserved(false, nullptr), reserved(false, &lean_devices));
  EXPECT_FALSE(partition_extras(sample, p, true, false, &lean_devices).lean_device_h);  // not a witness

  // A synthetic sample that asks to leave c out gets a set without c, and its synthesis leaves it.
  const PartitionInput sample_without_c = SampleInput{testing::tiny_spec(), /*c_from_ab=*/true};
  EXPECT_FALSE(writes_c(sample_without_c));
  EXPECT_EQ(buffer_shape(p, sample_without_c), buffer_shape(p, left_out));
  auto leaves = synthesize_partition(sample_without_c, p, 2);
  ASSERT_TRUE(leaves.ok()) << leaves.message();
  EXPECT_TRUE(leaves->assignment.c_from_ab);
  EXPECT_TRUE(leaves->assignment.c.empty());
  EXPECT_EQ(leaves->assignment.a, synthesized->assignment.a);
  EXPECT_EQ(leaves->assignment.aux_assignment, synthesized->assignment.aux_assignment);

  // Copied into a pooled set, each keeps its form.
  for (const auto* input : {&carried, &left_out}) {
    PartitionBufferPool pool(1, {}, test_logger());
    MemoryBudget host("host", uint64_t(1) << 30, test_logger());
    auto r = host.acquire(buffer_shape(p, *input).bytes(), {}, "p", {});
    ASSERT_TRUE(r.ok()) << r.message();
    auto buffers = pool.make(buffer_shape(p, *input), *r, "p");
    ASSERT_TRUE(buffers.held());
    auto copy = synthesize_partition(*input, p, 2, std::move(buffers));
    ASSERT_TRUE(copy.ok()) << copy.message();
    EXPECT_EQ(copy->assignment.c_from_ab, input == &left_out);
    EXPECT_EQ(copy->assignment.c, input == &left_out ? std::vector<Fr>{} : with_c->c);
    EXPECT_EQ(copy->assignment.a, synthesized->assignment.a);
  }

  // A synthesized witness (its compiled circuit attached) is copied into a set of a and aux alone,
  // and nothing is allocated for b or c: the compiled circuit stands for them.
  auto circuit = r1cs::make_sample_circuit(testing::tiny_spec());
  ASSERT_TRUE(circuit.ok()) << circuit.message();
  auto compiled = r1cs::compile(**circuit);
  ASSERT_TRUE(compiled.ok()) << compiled.message();
  auto witness = std::make_shared<r1cs::Assignment>(r1cs::synthesize_witness(**circuit).value());
  ASSERT_TRUE(
      r1cs::attach_compiled(*witness, std::make_shared<const r1cs::CompiledCircuit>(std::move(*compiled)))
          .ok());
  const PartitionInput held_witness = SynthesizedInput{witness};
  const BufferShape shape = buffer_shape(p, held_witness);
  EXPECT_EQ(shape.bytes(), (domain + aux) * fr);
  PartitionBufferPool pool(1, {}, test_logger());
  MemoryBudget host("host", uint64_t(1) << 30, test_logger());
  auto r = host.acquire(shape.bytes(), {}, "p", {});
  ASSERT_TRUE(r.ok()) << r.message();
  auto copy = synthesize_partition(held_witness, p, 2, pool.make(shape, *r, "p"));
  ASSERT_TRUE(copy.ok()) << copy.message();
  EXPECT_TRUE(copy->assignment.witness_only());
  EXPECT_EQ(copy->assignment.aux_assignment, witness->aux_assignment);
  EXPECT_EQ(copy->assignment.b.capacity(), 0u);
  EXPECT_EQ(copy->assignment.c.capacity(), 0u);
}

// When the host budget, not max_partitions_ahead, is what holds synthesis back, a partition waiting
// for the budget takes the set that turns idle instead of dropping it to make a new one (which
// costs seconds of page mapping and pinning at 2^27).
TEST(PartitionBuffers, APartitionWaitingForTheBudgetTakesTheSetThatTurnsIdle) {
  EngineConfig c = testing::cpu_config(1, 1);
  c.synthesis_workers = 2;
  c.max_partitions_ahead = 8;
  c.idle_buffer_sets = 4;
  auto tiny = make_param_set("tiny", testing::key_for(testing::tiny_spec()));
  ASSERT_TRUE(tiny.ok());
  c.host_memory_budget = 2 * partition_host_bytes(**tiny) + 1024;  // two partitions at a time
  auto made = Engine::create(with_slow_device(std::move(c)));
  ASSERT_TRUE(made.ok()) << made.message();
  Engine& engine = **made;
  auto id = engine.submit(tiny_partitions(12));
  ASSERT_TRUE(id.ok()) << id.message();
  auto res = engine.await(*id, std::chrono::seconds(60));
  ASSERT_TRUE(res.ok()) << res.message();
  EXPECT_EQ(res->state, JobState::done) << res->error;
  const EngineStatus s = testing::wait_until_idle(engine);
  EXPECT_LE(s.buffer_sets_made, 2u);  // the budget never held a third
  EXPECT_EQ(s.buffer_sets_idle, s.buffer_sets_made);
}

}  // namespace
}  // namespace cuzk::engine
