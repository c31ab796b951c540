/* libcuzk: the C ABI of the cuzk proving engine (Groth16 over BLS12-381).
 *
 * For C, and for Rust and Go through their C FFI. Plain C99: opaque handles, fixed-width integers,
 * no callbacks, no global state. Every fallible call returns a cuzk_code and, when `err` is not
 * NULL, fills it with a message written for a person. Nothing here aborts the process or throws.
 * The engine is thread-safe: any call may come from any thread, and cuzk_await calls may block in
 * several threads at once.
 *
 * Typical use (see examples/c/prove_toy.c):
 *   cuzk_engine_config cfg; cuzk_engine_config_init(&cfg); cfg.journal_path = "/var/lib/cuzk/journal.db";
 *   cuzk_engine* e; cuzk_engine_create(&cfg, &e, &err);
 *   cuzk_job_id id; cuzk_submit_circom(e, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, "circuit.zkey",
 *                                      "circuit.r1cs", &wtns, 1, &id, &err);
 *   cuzk_result* r; cuzk_await(e, id, -1, &r, &err);  ... cuzk_result_proof(r, 0, bytes) ...
 *   cuzk_result_free(r); cuzk_engine_destroy(e);
 *
 * Scalars cross the ABI as 32-byte little-endian canonical integers (< r), the way snarkjs writes
 * them; proofs as bellman's 192-byte compressed encoding.
 */
#ifndef CUZK_H
#define CUZK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CUZK_API __attribute__((visibility("default")))
#else
#define CUZK_API
#endif

#define CUZK_PROOF_BYTES 192
#define CUZK_SCALAR_BYTES 32

typedef struct cuzk_engine cuzk_engine; /* an engine: workers, queues, journal */
typedef struct cuzk_result cuzk_result; /* a job's outcome, owned by the caller */
typedef uint64_t cuzk_job_id;           /* 0 is never a job */

typedef enum cuzk_code {
  CUZK_OK = 0,
  CUZK_ERR_INVALID_ARGUMENT = 1, /* a NULL pointer, a malformed request or config */
  CUZK_ERR_NOT_FOUND = 2,        /* an unknown job (or its result expired) */
  CUZK_ERR_FAILED = 3,           /* the operation failed; the message says why */
  CUZK_ERR_TIMEOUT = 4           /* cuzk_await: the job has not finished yet */
} cuzk_code;

typedef struct cuzk_error {
  int code; /* a cuzk_code */
  char message[512];
} cuzk_error;

typedef enum cuzk_job_kind {
  CUZK_KIND_POREP_C2 = 0,     /* 10 partitions, NORMAL */
  CUZK_KIND_SNAP_DEALS = 1,   /* 16 partitions, NORMAL */
  CUZK_KIND_WINDOW_POST = 2,  /* HIGH */
  CUZK_KIND_WINNING_POST = 3, /* 1 partition, CRITICAL */
  CUZK_KIND_GENERIC = 4       /* NORMAL */
} cuzk_job_kind;

typedef enum cuzk_priority {
  CUZK_PRIORITY_DEFAULT = -1, /* the kind's */
  CUZK_PRIORITY_LOW = 0,
  CUZK_PRIORITY_NORMAL = 1,
  CUZK_PRIORITY_HIGH = 2,
  CUZK_PRIORITY_CRITICAL = 3
} cuzk_priority;

typedef enum cuzk_job_state {
  CUZK_STATE_QUEUED = 0,
  CUZK_STATE_RUNNING = 1,
  CUZK_STATE_DONE = 2,
  CUZK_STATE_FAILED = 3,
  CUZK_STATE_CANCELLED = 4
} cuzk_job_state;

typedef struct cuzk_engine_config {
  const char* journal_path;           /* SQLite journal; NULL or "": none (jobs do not survive a restart) */
  uint64_t host_memory_budget;        /* bytes; 0: 3/4 of physical memory */
  uint32_t synthesis_workers;         /* partitions synthesized at once */
  uint32_t synthesis_threads;         /* threads per synthesis; 0: the hardware threads, shared by the
                                         syntheses running when one starts (the default); see
                                         synthesis_nice */
  const char* backend;                /* "cpu", or "cuda" when libcuzk was built with CUDA */
  uint32_t num_devices;               /* "cpu": logical slots; "cuda": GPUs 0 .. n-1 (0: every GPU) */
  uint32_t workers_per_device;        /* workers pinned to each device (by index) */
  uint64_t device_memory_budget;      /* bytes per device; "cuda": 0 = its free memory less 1 GiB */
  uint32_t threads_per_worker;        /* "cpu": threads each worker proves with */
  uint32_t max_attempts;              /* device-stage attempts per partition */
  uint32_t quarantine_after;          /* consecutive failures that take a device out of service */
  int trusted_params;                 /* nonzero: skip subgroup checks when loading parameter files */
  uint32_t result_ttl_seconds;        /* unfetched results are kept this long */
  const char* log_level;              /* "trace", "debug", "info", "warn", "error", "off"; NULL: "info" */
  uint32_t max_partitions_ahead;      /* synthesized ahead of the devices; 0: the engine's default */
  int32_t idle_buffer_sets;           /* pooled (pinned) partition buffer sets kept idle; -1: as many as
                                         can be in flight (the default) */
  uint32_t express_synthesis_workers; /* more synthesis workers, for HIGH and CRITICAL partitions only
                                         (default 1) */
  double shared_bases_fraction;       /* "cuda", several workers per GPU: share of its budget for one copy
                                         of the resident bases they share, where each worker keeps at
                                         least 20 GiB; 0: each keeps its own (default 0.6) */
  uint32_t express_workers_per_device; /* more workers per device for HIGH and CRITICAL partitions of at
                                          most 2^24 (a WinningPoSt never waits for a PoRep proof to end);
                                          "cuda": each in a share of at most 8 GiB (default 1) */
  uint32_t synthesis_nice;            /* nice increment of the synthesis threads, 0..19: they yield cores
                                         to the device workers' host steps (default 10; 0: none) */
} cuzk_engine_config;

/* Per-job timings in milliseconds; stage times are summed over partitions. */
typedef struct cuzk_timings {
  double queue_wait_ms, param_load_ms, synthesis_ms, gpu_ms, verify_ms, total_ms;
} cuzk_timings;

/* A sample circuit: kind "merkle" (size = tree depth), "sha256" (size = message bytes) or
 * "synthetic" (size = log2 of the domain); the seed picks the witness. */
typedef struct cuzk_sample {
  const char* kind;
  uint64_t size;
  uint64_t seed;
} cuzk_sample;

/* A partition synthesized by the caller: what the prover consumes. Scalars are CUZK_SCALAR_BYTES
 * each. Densities are bitmaps (bit i in bit i%64 of word i/64) over aux wires (a_aux, b_aux) and
 * input wires (b_input); NULL means every bit set. The engine copies everything before
 * cuzk_submit_synthesized returns. */
typedef struct cuzk_partition {
  const uint8_t* a;
  const uint8_t* b;
  /* NULL: c is left to the prover, which forms c_j = a_j·b_j (on the GPU where it computes H).
   * That holds for every row of a satisfied circuit and saves copying c; a witness that does not
   * satisfy the circuit then gives a proof that fails the engine's pairing check. */
  const uint8_t* c;
  size_t num_constraints; /* entries of a, b and c */
  const uint8_t* inputs;  /* public wires, ONE first */
  size_t num_inputs;
  const uint8_t* aux;
  size_t num_aux;
  const uint64_t* a_aux_density;
  const uint64_t* b_input_density;
  const uint64_t* b_aux_density;
} cuzk_partition;

CUZK_API const char* cuzk_version(void);

/* Fills `config` with the defaults: one CPU device with one worker, 2 synthesis workers. */
CUZK_API void cuzk_engine_config_init(cuzk_engine_config* config);
/* Starts an engine and resumes the unfinished jobs of its journal. */
CUZK_API cuzk_code cuzk_engine_create(const cuzk_engine_config* config, cuzk_engine** out, cuzk_error* err);
/* Stops the workers; unfinished jobs stay in the journal. NULL is ignored. */
CUZK_API void cuzk_engine_destroy(cuzk_engine* engine);

/* `params` names the parameter set: a bellman .params or snarkjs .zkey file path. A single input
 * for PoRep C2 / SnapDeals is replicated to the kind's partition count. */
CUZK_API cuzk_code cuzk_submit_sample(cuzk_engine* engine, cuzk_job_kind kind, cuzk_priority priority,
                                      const char* params, const cuzk_sample* partitions,
                                      size_t num_partitions, cuzk_job_id* out, cuzk_error* err);
/* One partition per witness file, all of the circuit `r1cs_path` (which may be NULL with a .zkey). */
CUZK_API cuzk_code cuzk_submit_circom(cuzk_engine* engine, cuzk_job_kind kind, cuzk_priority priority,
                                      const char* params, const char* r1cs_path,
                                      const char* const* wtns_paths, size_t num_partitions, cuzk_job_id* out,
                                      cuzk_error* err);
/* Already-synthesized partitions. They are kept in memory only: after a restart such a job fails. */
CUZK_API cuzk_code cuzk_submit_synthesized(cuzk_engine* engine, cuzk_job_kind kind, cuzk_priority priority,
                                           const char* params, const cuzk_partition* partitions,
                                           size_t num_partitions, cuzk_job_id* out, cuzk_error* err);

/* Filecoin proofs from the bytes storage providers hold. `params`: a .params path, or NULL to take
 * the file of the circuit's official name (v28-…) in $FIL_PROOFS_PARAMETER_CACHE (default
 * /var/tmp/filecoin-proof-parameters/); `cuzk setup --filecoin <circuit id>` makes test ones. The
 * request is checked before it is queued (a malformed or inconsistent vanilla proof is
 * CUZK_ERR_INVALID_ARGUMENT with a message naming what is wrong) and expanded to the proof type's
 * partitions; each partition's result is its 192-byte proof, and the C2 / PoSt output that
 * filecoin-ffi returns is their concatenation in partition order. The bytes are copied before the
 * call returns (and journaled, so the job survives a restart). */

/* PoRep C2 from a commit-phase-1 output: `c1` is the C1 JSON (lotus' Commit1Out) or Curio's
 * wrapper around it. With `prover_id` (32 bytes) the replica_id is checked against it and
 * `sector_id` (CUZK_SECTOR_ID_NONE: the Curio wrapper's SectorNum). Kind CUZK_KIND_POREP_C2. */
#define CUZK_SECTOR_ID_NONE UINT64_MAX
CUZK_API cuzk_code cuzk_submit_porep_c2(cuzk_engine* engine, cuzk_priority priority, const uint8_t* c1,
                                        size_t c1_len, const uint8_t* prover_id, uint64_t sector_id,
                                        const char* params, cuzk_job_id* out, cuzk_error* err);

/* WindowPoSt (kind CUZK_KIND_WINDOW_POST) or WinningPoSt (CUZK_KIND_WINNING_POST) from vanilla proofs:
 * `vanilla[i]` (`vanilla_lens[i]` bytes) is sector i's bincode FallbackPoStSectorProof, in deadline
 * order (WinningPoSt: one, of 66 inclusion proofs). `post_proof_id`: the registered PoSt type
 * (StackedDrgWindow32GiBV1_2 is 13); `randomness`: 32 bytes, top two bits cleared here;
 * `first_partition`: WindowPoSt, the first partition's index in the deadline. */
CUZK_API cuzk_code cuzk_submit_post(cuzk_engine* engine, cuzk_job_kind kind, cuzk_priority priority,
                                    uint64_t post_proof_id, const uint8_t* randomness,
                                    const uint8_t* const* vanilla, const size_t* vanilla_lens, size_t num_vanilla,
                                    uint64_t first_partition, const char* params, cuzk_job_id* out,
                                    cuzk_error* err);

/* Synthesizes a circom witness under `params` on the calling thread, for callers that synthesize
 * apart from proving: `view` receives the partition (valid until cuzk_synthesis_free), ready for
 * cuzk_submit_synthesized. */
typedef struct cuzk_synthesis cuzk_synthesis;
CUZK_API cuzk_code cuzk_synthesize_circom(cuzk_engine* engine, const char* params, const char* r1cs_path,
                                          const char* wtns_path, cuzk_synthesis** out, cuzk_partition* view,
                                          cuzk_error* err);
CUZK_API void cuzk_synthesis_free(cuzk_synthesis* synthesis);

/* Waits up to timeout_ms (negative: forever) for the job. CUZK_OK with *out set when it finished
 * (done, failed or cancelled: see cuzk_result_state); CUZK_ERR_TIMEOUT when not yet. */
CUZK_API cuzk_code cuzk_await(cuzk_engine* engine, cuzk_job_id id, int64_t timeout_ms, cuzk_result** out,
                              cuzk_error* err);
CUZK_API cuzk_code cuzk_cancel(cuzk_engine* engine, cuzk_job_id id, cuzk_error* err);

CUZK_API cuzk_job_state cuzk_result_state(const cuzk_result* result);
CUZK_API const char* cuzk_result_error(const cuzk_result* result); /* "" when done */
CUZK_API size_t cuzk_result_num_proofs(const cuzk_result* result);
/* Writes proof `index` (CUZK_PROOF_BYTES); CUZK_ERR_INVALID_ARGUMENT when out of range. */
CUZK_API cuzk_code cuzk_result_proof(const cuzk_result* result, size_t index, uint8_t* out);
CUZK_API size_t cuzk_result_num_public_inputs(const cuzk_result* result, size_t proof_index);
CUZK_API cuzk_code cuzk_result_public_input(const cuzk_result* result, size_t proof_index, size_t input_index,
                                            uint8_t* out);
CUZK_API cuzk_timings cuzk_result_timings(const cuzk_result* result);
CUZK_API uint32_t cuzk_result_retries(const cuzk_result* result);
CUZK_API void cuzk_result_free(cuzk_result* result);

/* The engine's status as JSON (queues, memory, devices, parameter sets); free with cuzk_string_free. */
CUZK_API cuzk_code cuzk_status_json(cuzk_engine* engine, char** out, cuzk_error* err);
CUZK_API void cuzk_string_free(char* s);

CUZK_API cuzk_code cuzk_preload_params(cuzk_engine* engine, const char* params, cuzk_error* err);
CUZK_API cuzk_code cuzk_evict_params(cuzk_engine* engine, const char* params, cuzk_error* err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_H */
