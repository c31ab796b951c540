#include "io/checksum.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "common/parallel_ranges.hpp"

namespace cuzk::io {

namespace {

// One EVP context per thread, SHA-256 fetched once.
class Hasher {
 public:
  static Hasher& local() {
    thread_local Hasher h;
    return h;
  }
  // False only when OpenSSL cannot allocate.
  bool begin() { return md_ && ctx_ && EVP_DigestInit_ex2(ctx_, md_, nullptr) == 1; }
  void update(std::span<const uint8_t> b) {
    if (!b.empty()) EVP_DigestUpdate(ctx_, b.data(), b.size());
  }
  Sha256Digest finish() {
    Sha256Digest out{};
    unsigned len = 0;
    EVP_DigestFinal_ex(ctx_, out.data(), &len);
    return out;
  }
  ~Hasher() {
    EVP_MD_CTX_free(ctx_);
    EVP_MD_free(md_);
  }

 private:
  Hasher() : md_(EVP_MD_fetch(nullptr, "SHA256", nullptr)), ctx_(EVP_MD_CTX_new()) {}
  EVP_MD* md_;
  EVP_MD_CTX* ctx_;
};

// The digest of bytes [lo, hi) of the concatenation of `parts`, whose starting offsets are
// `starts` (one per part, ascending). An allocation failure in OpenSSL gives an all-zero digest,
// which no stored checksum matches.
Sha256Digest hash_range(std::span<const std::span<const uint8_t>> parts, const std::vector<size_t>& starts,
                        size_t lo, size_t hi) {
  Hasher& h = Hasher::local();
  if (!h.begin()) return {};
  // The last part starting at or before lo.
  size_t p = size_t(std::upper_bound(starts.begin(), starts.end(), lo) - starts.begin()) - 1;
  for (size_t at = lo; at < hi && p < parts.size(); ++p) {
    const size_t begin = at - starts[p];
    if (begin >= parts[p].size()) continue;  // an empty part
    const size_t take = std::min(parts[p].size() - begin, hi - at);
    h.update(parts[p].subspan(begin, take));
    at += take;
  }
  return h.finish();
}

}  // namespace

Sha256Digest sha256(std::span<const std::span<const uint8_t>> parts) {
  Hasher& h = Hasher::local();
  if (!h.begin()) return {};
  for (auto p : parts) h.update(p);
  return h.finish();
}

Sha256Digest sha256(std::span<const uint8_t> bytes) { return sha256(std::span(&bytes, 1)); }

Sha256Digest chunked_sha256(std::span<const uint8_t> prefix, std::span<const std::span<const uint8_t>> parts,
                            size_t chunk_bytes, size_t max_threads) {
  std::vector<size_t> starts;
  size_t total = 0;
  for (auto p : parts) {
    starts.push_back(total);
    total += p.size();
  }
  chunk_bytes = std::max<size_t>(chunk_bytes, 1);
  const size_t chunks = (total + chunk_bytes - 1) / chunk_bytes;
  std::vector<Sha256Digest> digests(chunks);
  // Hashing cannot fail (see hash_range), so the status is always Ok.
  (void)parallel_ranges(
      chunks, 1,
      [&](size_t begin, size_t end) {
        for (size_t c = begin; c < end; ++c)
          digests[c] = hash_range(parts, starts, c * chunk_bytes, std::min(total, (c + 1) * chunk_bytes));
        return Status::Ok();
      },
      max_threads);
  Hasher& h = Hasher::local();
  if (!h.begin()) return {};
  h.update(prefix);
  for (const auto& d : digests) h.update(d);
  return h.finish();
}

}  // namespace cuzk::io
