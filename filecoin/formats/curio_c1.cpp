#include "filecoin/formats/curio_c1.hpp"

#include "filecoin/formats/base64.hpp"
#include "filecoin/formats/json_reader.hpp"

namespace cuzk::filecoin {
namespace {

using json::Field;
using json::Scalar;

Status read_phase1_out(CurioC1Wrapper& w, const Scalar& v) {
  if (v.type != Scalar::Type::string)
    return make_input_error("expected a base64 string, got " + v.describe());
  auto bytes = base64_decode(v.text);
  if (!bytes) return bytes.error();
  w.c1_json.assign(bytes->begin(), bytes->end());
  return {};
}

const Field<CurioC1Wrapper> kWrapperFields[] = {
    {"SectorNum", [](CurioC1Wrapper& w, const Scalar& v) { return json::read_u64(w.sector_num, v); },
     nullptr},
    {"Phase1Out", read_phase1_out, nullptr},
    {"SectorSize", [](CurioC1Wrapper& w, const Scalar& v) { return json::read_u64(w.sector_size, v); },
     nullptr},
};

// The first key of a top-level object, or nothing when the text does not start like one.
std::optional<std::string_view> first_key(std::string_view s) {
  size_t i = 0;
  auto skip_ws = [&] {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  };
  skip_ws();
  if (i == s.size() || s[i] != '{') return std::nullopt;
  ++i;
  skip_ws();
  if (i == s.size() || s[i] != '"') return std::nullopt;
  const size_t start = ++i;
  while (i < s.size() && s[i] != '"' && s[i] != '\\') ++i;
  if (i == s.size() || s[i] != '"') return std::nullopt;
  return s.substr(start, i - start);
}

}  // namespace

Result<CurioC1Wrapper> parse_curio_c1_wrapper(std::string_view text) {
  CurioC1Wrapper w;
  CUZK_TRY_STATUS(json::parse(text, "Curio C1 wrapper", [&w](bool o) -> Result<std::unique_ptr<json::Node>> {
    CUZK_TRY_STATUS(json::expect_container(o, true));
    return std::unique_ptr<json::Node>(new json::ObjectNode<CurioC1Wrapper>(w, kWrapperFields));
  }));
  return w;
}

std::string write_curio_c1_wrapper(const CurioC1Wrapper& w) {
  const auto* data = reinterpret_cast<const uint8_t*>(w.c1_json.data());
  return "{\"SectorNum\":" + std::to_string(w.sector_num) + ",\"Phase1Out\":\"" +
         base64_encode({data, w.c1_json.size()}) + "\",\"SectorSize\":" + std::to_string(w.sector_size) + "}";
}

Result<PorepVanillaInput> unwrap_porep_vanilla_input(std::string_view bytes) {
  const auto key = first_key(bytes);
  const bool wrapped = key && (*key == "SectorNum" || *key == "Phase1Out" || *key == "SectorSize");
  PorepVanillaInput in;
  if (!wrapped) {
    in.c1_json.assign(bytes);
    return in;
  }
  auto w = parse_curio_c1_wrapper(bytes);
  if (!w) return w.error();
  in.c1_json = std::move(w->c1_json);
  in.sector_num = w->sector_num;
  in.sector_size = w->sector_size;
  return in;
}

}  // namespace cuzk::filecoin
