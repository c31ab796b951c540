/* libcuzk from C: prove a circom circuit with a snarkjs .zkey, three ways.
 *
 *   1. submit a witness file and await the proof;
 *   2. synthesize the witness here, then submit the already-synthesized partition;
 *   3. submit a job and cancel it before it runs.
 *
 * Usage: cuzk_example_c circuit.zkey circuit.r1cs witness.wtns [journal.db]
 * Every proof the engine returns has already been checked with a pairing.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk.h"

static int check(cuzk_code code, const cuzk_error* err, const char* what) {
  if (code != CUZK_OK) fprintf(stderr, "%s: %s (code %d)\n", what, err->message, (int)code);
  return code == CUZK_OK;
}

static void print_proof(const char* label, const cuzk_result* result) {
  uint8_t proof[CUZK_PROOF_BYTES];
  cuzk_timings t = cuzk_result_timings(result);
  if (cuzk_result_proof(result, 0, proof) != CUZK_OK) return;
  printf("%s: %zu proof(s), first bytes ", label, cuzk_result_num_proofs(result));
  for (int i = 0; i < 8; ++i) printf("%02x", proof[i]);
  printf("..., %zu public inputs; synthesis %.1f ms, prove %.1f ms, verify %.1f ms, total %.1f ms\n",
         cuzk_result_num_public_inputs(result, 0), t.synthesis_ms, t.gpu_ms, t.verify_ms, t.total_ms);
}

static int await_done(cuzk_engine* engine, cuzk_job_id id, const char* label) {
  cuzk_error err;
  cuzk_result* result = NULL;
  if (!check(cuzk_await(engine, id, 600000, &result, &err), &err, "await")) return 0;
  int ok = cuzk_result_state(result) == CUZK_STATE_DONE;
  if (ok)
    print_proof(label, result);
  else
    fprintf(stderr, "%s: job %llu did not finish: %s\n", label, (unsigned long long)id,
            cuzk_result_error(result));
  cuzk_result_free(result);
  return ok;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s circuit.zkey circuit.r1cs witness.wtns [journal.db]\n", argv[0]);
    return 2;
  }
  const char* zkey = argv[1];
  const char* r1cs = argv[2];
  const char* wtns = argv[3];
  printf("%s\n", cuzk_version());

  cuzk_engine_config config;
  cuzk_engine_config_init(&config);
  config.journal_path = argc > 4 ? argv[4] : NULL;
  config.threads_per_worker = 1;
  config.log_level = "warn";
  cuzk_error err;
  cuzk_engine* engine = NULL;
  if (!check(cuzk_engine_create(&config, &engine, &err), &err, "create")) return 1;
  int ok = check(cuzk_preload_params(engine, zkey, &err), &err, "preload");

  /* 1. A witness file. */
  cuzk_job_id id = 0;
  ok = ok && check(cuzk_submit_circom(engine, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, zkey, r1cs, &wtns, 1,
                                      &id, &err),
                   &err, "submit (witness file)");
  ok = ok && await_done(engine, id, "witness file");

  /* 2. Already synthesized: here by the library, but any a, b, c and assignment will do. */
  cuzk_synthesis* synthesis = NULL;
  cuzk_partition partition;
  ok = ok && check(cuzk_synthesize_circom(engine, zkey, r1cs, wtns, &synthesis, &partition, &err), &err,
                   "synthesize");
  if (ok) {
    printf("synthesized: %zu constraints, %zu inputs, %zu aux\n", partition.num_constraints,
           partition.num_inputs, partition.num_aux);
    ok = check(cuzk_submit_synthesized(engine, CUZK_KIND_WINNING_POST, CUZK_PRIORITY_DEFAULT, zkey,
                                       &partition, 1, &id, &err),
               &err, "submit (synthesized)");
    cuzk_synthesis_free(synthesis); /* the engine has its own copy */
    ok = ok && await_done(engine, id, "synthesized");
  }

  /* 3. Cancel: a job may be cancelled while queued or running; cancelling a finished one is an
   *    error that says so. Either way its await returns. */
  if (ok) {
    ok = check(
        cuzk_submit_circom(engine, CUZK_KIND_SNAP_DEALS, CUZK_PRIORITY_LOW, zkey, r1cs, &wtns, 1, &id, &err),
        &err, "submit (to cancel)");
    cuzk_code cancelled = cuzk_cancel(engine, id, &err);
    cuzk_result* result = NULL;
    if (ok && check(cuzk_await(engine, id, 600000, &result, &err), &err, "await (cancelled)")) {
      printf("cancel: %s; job state %d (%s)\n", cancelled == CUZK_OK ? "accepted" : err.message,
             (int)cuzk_result_state(result), cuzk_result_error(result));
      cuzk_result_free(result);
    }
  }

  /* Errors are values: an unknown job, a bad parameter set. */
  cuzk_result* none = NULL;
  if (cuzk_await(engine, 987654321, 0, &none, &err) != CUZK_ERR_NOT_FOUND) ok = 0;
  if (cuzk_submit_circom(engine, 42, CUZK_PRIORITY_DEFAULT, zkey, r1cs, &wtns, 1, &id, &err) == CUZK_OK)
    ok = 0;

  char* status = NULL;
  if (check(cuzk_status_json(engine, &status, &err), &err, "status")) {
    printf("status: %.160s...\n", status);
    cuzk_string_free(status);
  }
  cuzk_engine_destroy(engine);
  printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
