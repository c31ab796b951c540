// The steps of a device MSM run (msm/msm.hpp describes the pipeline): digits counted and written,
// sorted, summed into buckets by items and rounds, and the buckets reduced; passes by points, by
// digits or by groups of bucket sets. Member functions of Msm<Affine>::State (msm/context.cuh).
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <bit>
#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "backend/cuda/msm/context.cuh"
#include "backend/cuda/msm/finish.hpp"

namespace cuzk::cuda {

// Every bucket of the layout set to infinity.
template <class Affine>
Status Msm<Affine>::State::clear_buckets(const Stream& s) {
  using namespace msm_detail;
  fill_infinity_kernel<Xyzz>
      <<<grid_for(size_t(L.KZ) * (sizeof(Xyzz) / 16), 256), 256, 0, s.get()>>>(buckets.data(), L.KZ);
  return check_launch("msm fill_infinity_kernel");
}

// Round 1's items from the bucket offsets: counts[k] = the items of bucket k (runs of at most
// L.run entries), off_items[0] = their exclusive sum (item numbers; the total at KZ).
template <class Affine>
Status Msm<Affine>::State::item_offsets(const Stream& s) {
  using namespace msm_detail;
  const uint32_t KZ = pass.KZ;
  segment_items_kernel<<<grid_for(size_t(KZ) + 1, 256), 256, 0, s.get()>>>(off_entries.data(), KZ, pass.run,
                                                                           1, counts.data());
  CUZK_TRY_STATUS(check_launch("msm segment_items_kernel"));
  size_t tmp = cub_tmp.size();
  return check(
      cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, counts.data(), off_items[0].data(), KZ + 1, s.get()),
      "cub::DeviceScan::ExclusiveSum");
}

// Round 1 of step 3: the `items` of the length-sorted schedule `ids` sum the bases that the sorted
// entries `vals` name (bucket offsets in off_entries, item offsets in off_items[0]) into part[0],
// a bucket's first item starting from the bucket.
template <class Affine>
Status Msm<Affine>::State::accumulate(const Stream& s, uint32_t items, const uint32_t* ids,
                                      const uint32_t* vals, const Affine* bases) {
  using namespace msm_detail;
  constexpr unsigned B = kSumBlock;
  if constexpr (kSharedAccumulator<Xyzz>) {
    // 48 KiB of shared memory per block, two blocks per SM: the carveout must leave room for them
    // (a function attribute of the current device, so set on every call).
    CUZK_TRY_STATUS(check(
        cudaFuncSetAttribute(segment_sum_shared_kernel<Xyzz, Affine>,
                             cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared),
        "cudaFuncSetAttribute (shared-memory carveout)"));
    segment_sum_shared_kernel<Xyzz, Affine><<<grid_for(items, B), B, 0, s.get()>>>(
        off_entries.data(), off_items[0].data(), pass.KZ, items, ids, EntrySource<Affine>{vals, bases}, true,
        pass.buckets, part[0].data());
  } else {
    segment_sum_kernel<Xyzz><<<grid_for(items, B), B, 0, s.get()>>>(
        off_entries.data(), off_items[0].data(), pass.KZ, items, ids, EntrySource<Affine>{vals, bases}, true,
        pass.buckets, part[0].data());
  }
  return check_launch("msm segment_sum_kernel (entries)");
}

// Steps 2 and 3 for one chunk whose E nonzero digits are in keys[0]/vals[0]: sort, bucket offsets,
// item rounds into the buckets. Records consumed[stage] once the bases are no longer read.
template <class Affine>
Status Msm<Affine>::State::sort_and_sum(const Stream& s, uint32_t E, int stage) {
  using namespace msm_detail;
  const uint32_t KZ = pass.KZ, Lr = pass.run;
  CUZK_TRY_STATUS(mark(1, s));
  cub::DoubleBuffer<uint32_t> kb(keys[0].data(), keys[1].data()), vb(vals[0].data(), vals[1].data());
  size_t tmp = cub_tmp.size();
  CUZK_TRY_STATUS(
      check(cub::DeviceRadixSort::SortPairs(cub_tmp.data(), tmp, kb, vb, E, 0, pass.key_bits, s.get()),
            "cub::DeviceRadixSort::SortPairs"));
  CUZK_TRY_STATUS(mark(2, s));
  CUZK_TRY_STATUS(
      check(cudaMemsetAsync(off_entries.data(), 0xff, (size_t(KZ) + 1) * sizeof(uint32_t), s.get()),
            "cudaMemsetAsync (offsets)"));
  bucket_offsets_kernel<<<grid_for(size_t(E) + 1, 256), 256, 0, s.get()>>>(kb.Current(), E, KZ,
                                                                           off_entries.data());
  CUZK_TRY_STATUS(check_launch("msm bucket_offsets_kernel"));
  fill_offsets_kernel<<<grid_for(size_t(KZ) + 1, 256), 256, 0, s.get()>>>(kb.Current(), E, KZ,
                                                                          off_entries.data());
  CUZK_TRY_STATUS(check_launch("msm fill_offsets_kernel"));
  CUZK_TRY_STATUS(mark(6, s));

  // Round 1: entries -> part[0], items numbered by off_items[0].
  CUZK_TRY_STATUS(item_offsets(s));
  tmp = cub_tmp.size();
  CUZK_TRY_STATUS(
      check(cub::DeviceReduce::Max(cub_tmp.data(), tmp, counts.data(), off_items[1].data(), KZ + 1, s.get()),
            "cub::DeviceReduce::Max"));
  CUZK_TRY_STATUS(
      check(cudaMemcpyAsync(host_max, off_items[1].data(), sizeof(uint32_t), cudaMemcpyDeviceToHost, s.get()),
            "cudaMemcpyAsync (max items)"));
  CUZK_TRY_STATUS(check(cudaMemcpyAsync(host_max + 1, off_items[0].data() + KZ, sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, s.get()),
                        "cudaMemcpyAsync (item total)"));
  // The schedule: items sorted by length, longest first (the sort needs the item total on the host).
  item_lengths_kernel<<<grid_for(L.cap_a, 256), 256, 0, s.get()>>>(
      off_entries.data(), off_items[0].data(), KZ, uint32_t(L.cap_a), item_len[0].data(), item_ids[0].data());
  CUZK_TRY_STATUS(check_launch("msm item_lengths_kernel"));
  CUZK_TRY_STATUS(s.synchronize());
  const uint32_t items = host_max[1];
  cub::DoubleBuffer<uint32_t> lb(item_len[0].data(), item_len[1].data()),
      ib(item_ids[0].data(), item_ids[1].data());
  tmp = cub_tmp.size();
  CUZK_TRY_STATUS(check(cub::DeviceRadixSort::SortPairsDescending(cub_tmp.data(), tmp, lb, ib, items, 0,
                                                                  std::bit_width(Lr), s.get()),
                        "cub::DeviceRadixSort::SortPairsDescending (items)"));
  ++sorted.passes;
  sorted.items = items;
  sorted.most = *host_max;
  sorted.vals = vb.Current();
  sorted.ids = ib.Current();
  const Affine* bases = streamed ? base_stage[stage].data() : bases_dev;
  CUZK_TRY_STATUS(mark(3, s));
  CUZK_TRY_STATUS(accumulate(s, items, ib.Current(), vb.Current(), bases));
  CUZK_TRY_STATUS(check(cudaEventRecord(consumed[stage], s.get()), "cudaEventRecord"));
  CUZK_TRY_STATUS(mark(4, s));
  CUZK_TRY_STATUS(s.synchronize());
  if (profile) {
    timings.digits_ms += between(0, 1);
    timings.sort_ms += between(1, 2);
    timings.offsets_ms += between(2, 6);
    timings.schedule_ms += between(6, 3);
    timings.accumulate_ms += between(3, 4);
    ++timings.passes;
  }

  return rounds(s, *host_max);
}

// Further rounds while some bucket still has more than one item (heavy buckets: 0/1 scalars,
// repeated scalars), each summing runs of kPartialRun partial sums of the buckets that have two or
// more, so the largest item count shrinks by kPartialRun a round. A bucket's sum goes to buckets[k]
// from the round that leaves it one item (round 1 for most), so no merge pass follows. Round 1's
// partial sums are in part[0], numbered by off_items[0]; `most` is its largest item count.
template <class Affine>
Status Msm<Affine>::State::rounds(const Stream& s, uint32_t most) {
  using namespace msm_detail;
  const uint32_t KZ = pass.KZ;
  constexpr unsigned B = kSumBlock;
  CUZK_TRY_STATUS(mark(7, s));
  int cur = 0;
  while (most > 1) {
    segment_items_kernel<<<grid_for(size_t(KZ) + 1, 256), 256, 0, s.get()>>>(off_items[cur].data(), KZ,
                                                                             kPartialRun, 2, counts.data());
    CUZK_TRY_STATUS(check_launch("msm segment_items_kernel"));
    size_t tmp = cub_tmp.size();
    CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, counts.data(),
                                                        off_items[1 - cur].data(), KZ + 1, s.get()),
                          "cub::DeviceScan::ExclusiveSum"));
    // The round's item total sizes its grid: only the heavy buckets take part, a few threads where
    // a grid for the buffer's capacity would start millions that find nothing to do.
    CUZK_TRY_STATUS(check(cudaMemcpyAsync(host_max + 3, off_items[1 - cur].data() + KZ, sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, s.get()),
                          "cudaMemcpyAsync (round items)"));
    CUZK_TRY_STATUS(s.synchronize());
    const uint32_t items = host_max[3];
    if (items > part[1 - cur].size()) return make_error("MSM: a round has more items than its buffer");
    if (items)
      segment_sum_kernel<Xyzz><<<grid_for(items, B), B, 0, s.get()>>>(
          off_items[cur].data(), off_items[1 - cur].data(), KZ, items, nullptr,
          PartialSource<Xyzz>{part[cur].data()}, false, pass.buckets, part[1 - cur].data());
    CUZK_TRY_STATUS(check_launch("msm segment_sum_kernel (partials)"));
    cur = 1 - cur;
    most = (most + kPartialRun - 1) / kPartialRun;
  }
  if (profile) {
    CUZK_TRY_STATUS(mark(5, s));
    CUZK_TRY_STATUS(s.synchronize());
    timings.rounds_ms += between(7, 5);
  }
  return Status::Ok();
}

// Step 4: per set, WS(B) = Σ_j (j + 1)·B_j = WS0(B) + Σ B. Where a set has more than kHostLevel
// buckets the device runs the level (level_kernel: T sums A_t of K buckets and their weighted sums
// L_t) and the subset sums (subset_sums_kernel): WS0 = Σ L_t + K·Σ_k 2^k·(Σ_{t has bit k} A_t),
// Σ B = Σ A_t. The host (finish_sets, finish.cpp) takes each set's log2(T) + 2 sums, or its
// buckets when the device ran nothing, and combines the sets: Σ_s 2^(start_s)·R_s.
template <class Affine>
Status Msm<Affine>::State::reduce(const Stream& s, typename Msm<Affine>::Jacobian* out) {
  using namespace msm_detail;
  const uint32_t S = L.plan.sets, n = L.shape.H;
  constexpr unsigned B = 128;
  CUZK_TRY_STATUS(mark(0, s));
  const bool device_level = n > kHostLevel;
  const uint32_t K = device_level ? n / L.level0 : 0, T = L.level0;
  const SubsetPlan sp = device_level ? subset_plan(S, T) : SubsetPlan{};
  if (device_level) {
    if (K != reduce_run(S, n, kSharedAccumulator<Xyzz>))
      return make_error("MSM: the reduction's level differs from its plan");
    const Xyzz* X = buckets.data();
    if constexpr (kSharedAccumulator<Xyzz>) {
      constexpr unsigned BS = kLevelSharedBlock;
      level_shared_kernel<Xyzz>
          <<<grid_for(size_t(S) * T, BS), BS, 0, s.get()>>>(X, S, n, K, lvl_L.data(), lvl_A.data());
    } else {
      level_kernel<Xyzz>
          <<<grid_for(size_t(S) * T, B), B, 0, s.get()>>>(X, S, n, K, lvl_L.data(), lvl_A.data());
    }
    CUZK_TRY_STATUS(check_launch("msm level_kernel"));
    const unsigned blocks = S * sp.sums * sp.groups;
    Xyzz* sums = sub_sums.data();
    subset_sums_kernel<Xyzz><<<blocks, kSubsetBlock, 0, s.get()>>>(
        lvl_A.data(), lvl_L.data(), T, sp.bits, sp.span, sp.groups, sp.groups > 1 ? sub_part.data() : sums);
    CUZK_TRY_STATUS(check_launch("msm subset_sums_kernel"));
    if (sp.groups > 1) {
      const unsigned threads = std::clamp<unsigned>(std::bit_ceil(sp.groups), 32, kSubsetBlock);
      partial_sums_kernel<Xyzz><<<S * sp.sums, threads, 0, s.get()>>>(sub_part.data(), sp.groups, sums);
      CUZK_TRY_STATUS(check_launch("msm partial_sums_kernel"));
    }
  }
  // Each set's points: its subset sums, or its n buckets.
  const uint32_t per_set = device_level ? sp.sums : n;
  if (per_set > kHostPointsPerSet) return make_error("MSM: a set returns more points than its pinned room");
  CUZK_TRY_STATUS(check(cudaMemcpyAsync(host_sets, device_level ? sub_sums.data() : buckets.data(),
                                        size_t(S) * per_set * sizeof(Xyzz), cudaMemcpyDeviceToHost, s.get()),
                        "cudaMemcpyAsync (set sums)"));
  CUZK_TRY_STATUS(mark(1, s));
  CUZK_TRY_STATUS(s.synchronize());
  if (profile) timings.reduce_ms += between(0, 1);
  const auto t0 = std::chrono::steady_clock::now();
  // Set j starts at its lowest window's first bit.
  std::vector<unsigned> start(S);
  for (uint32_t j = 0; j < S; ++j) start[j] = window_start(L.shape, j * L.shape.m);
  const SetFinish f{device_level, sp.bits, device_level ? unsigned(std::bit_width(K) - 1) : 0u, per_set,
                    start};
  *out = finish_sets(host_sets, f);
  if (profile)
    timings.finish_ms +=
        std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return Status::Ok();
}

namespace msm_detail {

// The first base of each chunk of C scalars (chunks + 1 entries, the last one past the end): the
// rank of its first scalar, that is the present variables below it (host popcounts) in the density
// form, else its index. Checks that the bases number the present variables (or cover the scalars).
inline Result<std::vector<size_t>> chunk_first_bases(size_t n, size_t C, const uint64_t* density,
                                                     size_t nbases) {
  const size_t chunks = ceil_div(n, C);
  std::vector<size_t> first(chunks + 1, 0);
  if (!density) {
    if (n > nbases) return make_error("MSM: more scalars than bases");
    for (size_t k = 0; k <= chunks; ++k) first[k] = std::min(k * C, n);
    return first;
  }
  // rank(i) = present variables below i, from per-word prefix counts.
  const size_t words = ceil_div(n, 64);
  std::vector<size_t> prefix(words + 1, 0);
  for (size_t w = 0; w < words; ++w) {
    uint64_t word = density[w];
    if (w + 1 == words && n % 64) word &= (uint64_t(1) << (n % 64)) - 1;
    prefix[w + 1] = prefix[w] + size_t(std::popcount(word));
  }
  for (size_t k = 0; k <= chunks; ++k) {
    const size_t i = std::min(k * C, n);
    const uint64_t below = i % 64 ? density[i / 64] & ((uint64_t(1) << (i % 64)) - 1) : 0;
    first[k] = prefix[i / 64] + size_t(std::popcount(below));
  }
  if (first[chunks] != nbases)
    return make_error("MSM: density has " + std::to_string(first[chunks]) + " present variables for " +
                      std::to_string(nbases) + " bases");
  return first;
}

}  // namespace msm_detail

template <class Affine>
Result<typename Msm<Affine>::Jacobian> Msm<Affine>::State::run(const Fr* scalars, size_t n,
                                                               const uint64_t* density_host, Memory where,
                                                               ScalarForm form, const Stream& s) {
  using namespace msm_detail;
  using J = typename Msm<Affine>::Jacobian;
  if (s.device() != device) return make_error("MSM: stream of another device");
  if (!have_bases) return make_error("MSM: set_bases first");
  if (n > L.max_points) return make_error("MSM: more scalars than the context was created for");
  if (n > 0 && !scalars) return make_error("MSM: null scalars");
  const size_t C = L.plan.chunk_points;
  const size_t chunks = ceil_div(n, C);
  auto first_base = msm_detail::chunk_first_bases(n, C, density_host, nbases);
  if (!first_base) return first_base.error();
  timings = MsmTimings{};
  if (n == 0) return J::infinity();
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  workspace->touch();
  sorted = Sorted{};
  whole_pass();

  if (density_host) {
    const size_t words = ceil_div(n, 64);
    CUZK_TRY_STATUS(density.upload(density_host, words, s));
    popcount_kernel<<<grid_for(words, 256), 256, 0, s.get()>>>(density.data(), words, word_rank.data());
    CUZK_TRY_STATUS(check_launch("msm popcount_kernel"));
    size_t tmp = cub_tmp.size();
    CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, word_rank.data(),
                                                        word_rank.data(), uint32_t(words), s.get()),
                          "cub::DeviceScan::ExclusiveSum (density)"));
  }
  CUZK_TRY_STATUS(clear_buckets(s));

  const bool stage_scalars = where == Memory::host;
  const bool staging = stage_scalars || streamed;
  // Chunk k's inputs go to stage k % 2 on the copy stream, after the compute stream is done with
  // chunk k - 2's (consumed[]); the compute stream waits for them (copied[]).
  const auto upload = [&](void* dst, const void* src, size_t bytes) -> Status {
    return stager ? stager->to_device(dst, src, bytes, copy)
                  : detail::copy_async(dst, src, bytes, cudaMemcpyHostToDevice, copy);
  };
  auto issue_copy = [&](size_t k) -> Status {
    auto dg = DeviceGuard::enter(device);
    if (!dg) return dg.error();
    const int b = int(k % 2);
    const size_t i0 = k * C, len = std::min(C, n - i0);
    if (k >= 2)
      CUZK_TRY_STATUS(check(cudaStreamWaitEvent(copy.get(), consumed[b], 0), "cudaStreamWaitEvent"));
    if (stage_scalars) CUZK_TRY_STATUS(upload(scalar_stage[b].data(), scalars + i0, len * sizeof(Fr)));
    if (streamed) {
      const size_t b0 = (*first_base)[k], nb = (*first_base)[k + 1] - (*first_base)[k];
      if (nb) CUZK_TRY_STATUS(upload(base_stage[b].data(), bases_host + b0, nb * sizeof(Affine)));
    }
    return check(cudaEventRecord(copied[b], copy.get()), "cudaEventRecord");
  };
  if (staging) {
    // Earlier work of the caller on s (and of the last run) comes before the first copy.
    CUZK_TRY_STATUS(check(cudaEventRecord(consumed[1], s.get()), "cudaEventRecord"));
    CUZK_TRY_STATUS(check(cudaStreamWaitEvent(copy.get(), consumed[1], 0), "cudaStreamWaitEvent"));
    CUZK_TRY_STATUS(issue_copy(0));
  }
  const bool mont = form == ScalarForm::montgomery;
  const uint64_t* dens = density_host ? density.data() : nullptr;
  // Scalars already on the device and bases that stay: the digits of every scalar are counted at
  // once, and passes may be cut by digits (digit_passes), so a witness vector (mostly 0 and 1)
  // takes one pass where it took n / C.
  const bool counted_once = !staging && chunks > 1 && msm_digits_per_pass(C, L.shape.W) &&
                            size_t(n) * L.shape.W < (size_t(1) << 32) - 1;
  if (counted_once) {
    CUZK_TRY_STATUS(digit_passes(scalars, n, mont, dens, s));
    J out;
    CUZK_TRY_STATUS(reduce(s, &out));
    sorted.stamp = workspace->uses();
    return out;
  }
  // With a stager the host does the copying, so chunk k + 1's copy runs on its own host thread
  // while this one drives chunk k (declared last: on an early return it is joined first).
  std::future<Status> next_copy;
  for (size_t k = 0; k < chunks; ++k) {
    const int b = int(k % 2);
    const size_t i0 = k * C, len = std::min(C, n - i0);
    if (next_copy.valid()) CUZK_TRY_STATUS(next_copy.get());  // chunk k's copy
    if (staging && k + 1 < chunks) {
      if (stager)
        next_copy = std::async(std::launch::async, issue_copy, k + 1);
      else
        CUZK_TRY_STATUS(issue_copy(k + 1));  // queued; the driver overlaps it for pinned memory
    }
    if (staging) CUZK_TRY_STATUS(check(cudaStreamWaitEvent(s.get(), copied[b], 0), "cudaStreamWaitEvent"));
    const Fr* sc = stage_scalars ? scalar_stage[b].data() : scalars + i0;
    CUZK_TRY_STATUS(mark(0, s));
    // Only nonzero digits are sorted: count them per block, scan, then write each block's at its
    // offset. Witness vectors are mostly 0 and 1 (one digit, or none, instead of W).
    auto counted = count_digits(sc, len, i0, mont, dens, s, L.set_passes);
    if (!counted) return counted.error();
    const unsigned blocks = *counted;
    if (L.set_passes) {
      CUZK_TRY_STATUS(
          set_group_passes(sc, len, i0, streamed ? (*first_base)[k] : 0, b, mont, dens, blocks, s));
      continue;
    }
    CUZK_TRY_STATUS(s.synchronize());  // the stage's size and the sort need the counts on the host
    digits_kernel_for(ceil_div(host_max[4], kDigitBlock))<<<blocks, kDigitBlock, 0, s.get()>>>(
        sc, uint32_t(len), i0, mont, dens, word_rank.data(), streamed ? (*first_base)[k] : 0, L.shape,
        block_nnz.data(), 0, keys[0].data(), vals[0].data());
    CUZK_TRY_STATUS(check_launch("msm digits_kernel"));
    CUZK_TRY_STATUS(sort_and_sum(s, host_max[2], b));
  }
  J out;
  CUZK_TRY_STATUS(reduce(s, &out));
  sorted.stamp = workspace->uses();
  return out;
}

// run_sorted_by: round 1 over the source's sorted digits with this context's bases (the bucket
// offsets are still in off_entries; the item offsets, which later rounds overwrite, are counted
// again from them), then the rounds and the reduction as in a run.
template <class Affine>
template <class SourceAffine>
Result<typename Msm<Affine>::Jacobian> Msm<Affine>::State::run_sorted(
    const typename Msm<SourceAffine>::State& source, const Stream& s) {
  using namespace msm_detail;
  using J = typename Msm<Affine>::Jacobian;
  if (s.device() != device) return make_error("MSM: stream of another device");
  if (!have_bases) return make_error("MSM: set_bases first");
  const auto src = source.sorted;
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  timings = MsmTimings{};
  workspace->touch();
  sorted = Sorted{};
  whole_pass();
  CUZK_TRY_STATUS(clear_buckets(s));
  CUZK_TRY_STATUS(item_offsets(s));
  CUZK_TRY_STATUS(mark(3, s));
  CUZK_TRY_STATUS(accumulate(s, src.items, src.ids, src.vals, bases_dev));
  CUZK_TRY_STATUS(mark(4, s));
  if (profile) {
    CUZK_TRY_STATUS(s.synchronize());
    timings.accumulate_ms += between(3, 4);
    ++timings.passes;
  }
  CUZK_TRY_STATUS(rounds(s, src.most));
  J out;
  CUZK_TRY_STATUS(reduce(s, &out));
  return out;
}

// Nonzero digits of each kDigitBlock scalars of sc[0, len) (scalar i0 of the input first); returns
// the blocks. Without `groups`, scanned into offsets in block_nnz (the total last, also copied to
// host_max[2]; the most in one block to host_max[4]). With `groups`, the counts of the layout's set
// groups follow row 0, unscanned (digit_counts_kernel), for set_group_passes.
template <class Affine>
Result<unsigned> Msm<Affine>::State::count_digits(const Fr* sc, size_t len, size_t i0, bool mont,
                                                  const uint64_t* dens, const Stream& s, uint32_t groups) {
  using namespace msm_detail;
  const unsigned blocks = grid_for(len, kDigitBlock);
  digit_counts_kernel<<<blocks, kDigitBlock, 0, s.get()>>>(
      sc, uint32_t(len), i0, mont, dens, word_rank.data(), L.shape, groups, L.set_group, block_nnz.data());
  CUZK_TRY_STATUS(check_launch("msm digit_counts_kernel"));
  // With set groups, set_group_passes scans the groups' rows; row 0 (every digit) is not read.
  if (groups) return blocks;
  // The block with the most digits sizes digits_kernel's stage (digits_kernel_for).
  size_t tmp = cub_tmp.size();
  uint32_t* most = block_nnz.data() + block_nnz.size() - 1;
  CUZK_TRY_STATUS(check(cub::DeviceReduce::Max(cub_tmp.data(), tmp, block_nnz.data(), most, blocks, s.get()),
                        "cub::DeviceReduce::Max (digits a block)"));
  CUZK_TRY_STATUS(
      check(cudaMemcpyAsync(host_max + 4, most, sizeof(uint32_t), cudaMemcpyDeviceToHost, s.get()),
            "cudaMemcpyAsync (digits a block)"));
  tmp = cub_tmp.size();
  CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, block_nnz.data(), block_nnz.data(),
                                                      blocks + 1, s.get()),
                        "cub::DeviceScan::ExclusiveSum (digits)"));
  CUZK_TRY_STATUS(check(cudaMemcpyAsync(host_max + 2, block_nnz.data() + blocks, sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, s.get()),
                        "cudaMemcpyAsync (digit total)"));
  return blocks;
}

// Steps 1-3 over device scalars and bases that stay: every scalar's nonzero digits are counted
// once, then the input is cut into passes of as many points (C) or, when that makes fewer passes, of
// as many digits: pass j takes the blocks whose digits start from j·T on, T = entries - one block's
// most digits, so each pass fits the work buffers. A witness (mostly 0 and 1, a quarter of the
// digits of uniform scalars) then takes one pass where it took n / C, sorting into and merging all
// buckets once.
template <class Affine>
Status Msm<Affine>::State::digit_passes(const Fr* scalars, size_t n, bool mont, const uint64_t* dens,
                                        const Stream& s) {
  using namespace msm_detail;
  CUZK_TRY_STATUS(mark(0, s));
  auto counted = count_digits(scalars, n, 0, mont, dens, s, L.set_passes);
  if (!counted) return counted.error();
  const unsigned blocks = *counted;
  if (L.set_passes) return set_group_passes(scalars, n, 0, 0, 0, mont, dens, blocks, s);
  CUZK_TRY_STATUS(s.synchronize());
  const size_t total = host_max[2];
  const uint32_t per_thread = uint32_t(ceil_div(host_max[4], kDigitBlock));
  const size_t target = msm_digits_per_pass(L.plan.chunk_points, L.shape.W);
  const size_t stride = L.plan.chunk_points / kDigitBlock;  // blocks per pass of C points
  const size_t by_points = ceil_div(blocks, stride), by_digits = std::max<size_t>(1, ceil_div(total, target));
  const bool digits = by_digits < by_points;
  const uint32_t passes = uint32_t(digits ? by_digits : by_points);
  if (passes > L.max_passes)
    return make_error("MSM: " + std::to_string(passes) + " passes for a layout of " +
                      std::to_string(L.max_passes));
  uint32_t* first_block = pass_bounds.data();
  uint32_t* first_digit = pass_bounds.data() + passes + 1;
  pass_bounds_kernel<<<grid_for(passes + 1, 64), 64, 0, s.get()>>>(
      block_nnz.data(), blocks, digits ? 0 : uint32_t(stride), uint32_t(target), passes, first_block,
      first_digit);
  CUZK_TRY_STATUS(check_launch("msm pass_bounds_kernel"));
  CUZK_TRY_STATUS(pass_bounds.download(host_passes, 2 * (size_t(passes) + 1), s));
  CUZK_TRY_STATUS(s.synchronize());
  const uint32_t* hb = host_passes;
  const uint32_t* hd = host_passes + passes + 1;
  for (uint32_t j = 0; j < passes; ++j) {
    const uint32_t E = hd[j + 1] - hd[j];
    if (E == 0) continue;
    if (E > L.entries) return make_error("MSM: a pass of " + std::to_string(E) + " digits overflows");
    const size_t i0 = size_t(hb[j]) * kDigitBlock, i1 = std::min(n, size_t(hb[j + 1]) * kDigitBlock);
    if (j > 0) CUZK_TRY_STATUS(mark(0, s));
    digits_kernel_for(per_thread)<<<hb[j + 1] - hb[j], kDigitBlock, 0, s.get()>>>(
        scalars + i0, uint32_t(i1 - i0), i0, mont, dens, word_rank.data(), 0, L.shape,
        block_nnz.data() + hb[j], hd[j], keys[0].data(), vals[0].data());
    CUZK_TRY_STATUS(check_launch("msm digits_kernel"));
    CUZK_TRY_STATUS(sort_and_sum(s, E, 0));
  }
  return Status::Ok();
}

// Passes of set groups over sc[0, len) (scalar i0 of the input first; its bases from base_first in
// stage `stage` when streamed): pass r takes these scalars' digits in sets [r·g, (r + 1)·g), at most
// len·m·g <= entries, sorted into and summed over that group's buckets only. count_digits counted
// every group's digits (its `groups` rows); one scan over the rows places each block's digits in
// its pass, and each pass reads the scalars again.
template <class Affine>
Status Msm<Affine>::State::set_group_passes(const Fr* sc, size_t len, size_t i0, size_t base_first, int stage,
                                            bool mont, const uint64_t* dens, unsigned blocks,
                                            const Stream& s) {
  using namespace msm_detail;
  const uint32_t G = L.set_passes, g = L.set_group, S = L.plan.sets;
  const size_t row = size_t(blocks) + 1;
  uint32_t* rows = block_nnz.data() + row;  // row r + 1 of digit_counts_kernel: group r
  size_t tmp = cub_tmp.size();
  CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, rows, rows, G * row + 1, s.get()),
                        "cub::DeviceScan::ExclusiveSum (set groups)"));
  // Group r's first digit opens its row; the last row's end is the grand total.
  CUZK_TRY_STATUS(check(cudaMemcpy2DAsync(host_passes, sizeof(uint32_t), rows, row * sizeof(uint32_t),
                                          sizeof(uint32_t), G + 1, cudaMemcpyDeviceToHost, s.get()),
                        "cudaMemcpy2DAsync (set group offsets)"));
  CUZK_TRY_STATUS(s.synchronize());
  const uint32_t* first = host_passes;
  for (uint32_t r = 0; r < G; ++r) {
    const uint32_t E = first[r + 1] - first[r];
    if (E == 0) continue;
    if (E > L.entries) return make_error("MSM: a pass of " + std::to_string(E) + " digits overflows");
    const uint32_t lo = r * g, hi = std::min(S, lo + g);
    DigitShape sh = L.shape;
    sh.set_lo = lo;
    sh.set_hi = hi;
    carry_bound_of(sh, std::min(lo * sh.m, sh.W), sh.carry_bound);
    set_group_pass(lo, hi, E);
    if (r > 0) CUZK_TRY_STATUS(mark(0, s));
    // A thread has at most g·m digits here.
    digits_kernel_for(g * sh.m)<<<blocks, kDigitBlock, 0, s.get()>>>(
        sc, uint32_t(len), i0, mont, dens, word_rank.data(), base_first, sh, rows + r * row, first[r],
        keys[0].data(), vals[0].data());
    CUZK_TRY_STATUS(check_launch("msm digits_kernel (set group)"));
    CUZK_TRY_STATUS(sort_and_sum(s, E, stage));
  }
  whole_pass();
  return Status::Ok();
}

}  // namespace cuzk::cuda
