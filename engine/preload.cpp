// What the engine readies before any job asks for it: a parameter file loaded, its compiled
// circuit built or mapped (in the background), and the pooled buffer sets its partitions take
// (made now, while nothing proves: pinning them stalls every CUDA call of the process).
#include <chrono>

#include "engine/engine_impl.hpp"
#include "engine/filecoin_input.hpp"

namespace cuzk::engine {

// A Filecoin parameter file's compiled circuit is readied beside it, in the background, and its
// witnesses' buffer sets now.
Status Engine::preload_params(const std::string& name) {
  CUZK_TRY_STATUS(impl_->params->preload(name));
  if (impl_->compiled)
    if (const auto id = circuit_of_parameter_file(name)) {
      prefetch_compiled_circuit(*impl_->compiled, *id, impl_->max_synthesis_threads());
      if (auto sets = prepare_buffer_sets(name, FilecoinInput{}); !sets)
        impl_->log->warn("params={} event=buffer_sets_not_prepared error=\"{}\"", name, sets.message());
    }
  return Status::Ok();
}

Result<size_t> Engine::prepare_buffer_sets(const std::string& params, const PartitionInput& like,
                                           size_t count) {
  const bool compiled = impl_->compiled != nullptr;
  if (!uses_pooled_buffers(like, compiled)) return size_t(0);
  auto lease = impl_->params->acquire(params, WaitKey{uint8_t(Priority::normal), 0}, "prepare", {});
  if (!lease) return lease.error();
  const BufferShape shape = buffer_shape(**lease, like, compiled);
  auto& pool = *impl_->buffers;
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const size_t idle =
      pool.prepare(shape, count ? count : pool.max_idle(), *impl_->host, "prepare(" + params + ")");
  impl_->log->info("params={} event=buffer_sets_prepared idle={} bytes={} ms={:.0f}", params, idle,
                   shape.bytes(), std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  return idle;
}

}  // namespace cuzk::engine
