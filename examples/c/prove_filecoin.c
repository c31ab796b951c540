/* libcuzk from C: Filecoin proofs from the files a storage provider holds, written as the bytes
 * filecoin-ffi returns (192 bytes per partition, in partition order).
 *
 * Usage:
 *   cuzk_example_filecoin porep OUT C1_FILE [PROVER_ID_HEX SECTOR_ID]
 *   cuzk_example_filecoin window|winning OUT POST_PROOF_ID RANDOMNESS_HEX VANILLA_FILE...
 *
 * Parameters are found by their official names in $FIL_PROOFS_PARAMETER_CACHE (`cuzk setup
 * --filecoin porep-2k` makes test ones). Every proof the engine returns has been checked with a
 * pairing against the public inputs the verifier computes; `cuzk verify-porep|verify-post` checks
 * the written file again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk.h"

/* A whole file in memory (free it); NULL on error. */
static uint8_t* read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  uint8_t* data = NULL;
  long size;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    data = malloc((size_t)size + 1);
    if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
      free(data);
      data = NULL;
    }
    *len = (size_t)size;
  }
  fclose(f);
  return data;
}

static int parse_hex32(const char* hex, uint8_t out[32]) {
  int i;
  if (strncmp(hex, "0x", 2) == 0) hex += 2;
  if (strlen(hex) != 64) return 0;
  for (i = 0; i < 32; ++i) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return 0;
    out[i] = (uint8_t)v;
  }
  return 1;
}

/* Waits for the job and writes its partition proofs, concatenated, to `out_path`. */
static int write_proofs(cuzk_engine* engine, cuzk_job_id id, const char* out_path) {
  cuzk_error err;
  cuzk_result* result = NULL;
  size_t i, n;
  FILE* out;
  int ok = 1;
  if (cuzk_await(engine, id, -1, &result, &err) != CUZK_OK) {
    fprintf(stderr, "await: %s\n", err.message);
    return 0;
  }
  if (cuzk_result_state(result) != CUZK_STATE_DONE) {
    fprintf(stderr, "job %llu failed: %s\n", (unsigned long long)id, cuzk_result_error(result));
    cuzk_result_free(result);
    return 0;
  }
  n = cuzk_result_num_proofs(result);
  out = fopen(out_path, "wb");
  for (i = 0; ok && out && i < n; ++i) {
    uint8_t proof[CUZK_PROOF_BYTES];
    ok = cuzk_result_proof(result, i, proof) == CUZK_OK && fwrite(proof, 1, sizeof proof, out) == sizeof proof;
  }
  ok = ok && out && fclose(out) == 0;
  if (ok) printf("%zu partition proof(s), %.1f ms in all -> %s\n", n, cuzk_result_timings(result).total_ms, out_path);
  cuzk_result_free(result);
  return ok;
}

int main(int argc, char** argv) {
  cuzk_engine_config config;
  cuzk_engine* engine = NULL;
  cuzk_error err;
  cuzk_job_id id = 0;
  cuzk_code code;
  int ok = 0, i;
  if (argc < 4 || (strcmp(argv[1], "porep") != 0 && argc < 6)) {
    fprintf(stderr,
            "usage: %s porep OUT C1_FILE [PROVER_ID_HEX SECTOR_ID]\n"
            "       %s window|winning OUT POST_PROOF_ID RANDOMNESS_HEX VANILLA_FILE...\n",
            argv[0], argv[0]);
    return 2;
  }
  cuzk_engine_config_init(&config);
  config.log_level = "warn";
  /* Curve checks only when loading the parameters: a subgroup check of each of the millions of points
   * takes minutes, and every proof is pairing-checked before the engine returns it anyway. */
  config.trusted_params = 1;
  if (cuzk_engine_create(&config, &engine, &err) != CUZK_OK) {
    fprintf(stderr, "engine: %s\n", err.message);
    return 1;
  }
  if (strcmp(argv[1], "porep") == 0) {
    size_t len = 0;
    uint8_t prover_id[32];
    const int with_ids = argc > 5 && parse_hex32(argv[4], prover_id);
    uint8_t* c1 = read_file(argv[3], &len);
    if (!c1) {
      fprintf(stderr, "cannot read %s\n", argv[3]);
    } else {
      code = cuzk_submit_porep_c2(engine, CUZK_PRIORITY_DEFAULT, c1, len, with_ids ? prover_id : NULL,
                                  with_ids ? strtoull(argv[5], NULL, 10) : CUZK_SECTOR_ID_NONE, NULL, &id, &err);
      free(c1);
      if (code != CUZK_OK)
        fprintf(stderr, "submit: %s\n", err.message);
      else
        ok = write_proofs(engine, id, argv[2]);
    }
  } else {
    const size_t n = (size_t)(argc - 5);
    uint8_t randomness[32];
    uint8_t** blobs = calloc(n, sizeof *blobs);
    size_t* lens = calloc(n, sizeof *lens);
    int read_all = blobs && lens && parse_hex32(argv[4], randomness);
    for (i = 0; read_all && (size_t)i < n; ++i) read_all = (blobs[i] = read_file(argv[5 + i], &lens[i])) != NULL;
    if (!read_all) {
      fprintf(stderr, "cannot read the randomness or a vanilla proof\n");
    } else {
      const cuzk_job_kind kind = strcmp(argv[1], "winning") == 0 ? CUZK_KIND_WINNING_POST : CUZK_KIND_WINDOW_POST;
      code = cuzk_submit_post(engine, kind, CUZK_PRIORITY_DEFAULT, strtoull(argv[3], NULL, 10), randomness,
                              (const uint8_t* const*)blobs, lens, n, 0, NULL, &id, &err);
      if (code != CUZK_OK)
        fprintf(stderr, "submit: %s\n", err.message);
      else
        ok = write_proofs(engine, id, argv[2]);
    }
    for (i = 0; blobs && (size_t)i < n; ++i) free(blobs[i]);
    free(blobs);
    free(lens);
  }
  cuzk_engine_destroy(engine);
  if (ok) printf("ok\n");
  return ok ? 0 : 1;
}
