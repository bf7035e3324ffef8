// libFuzzer target: the text a user hands ccbench (a collective trace, a model file)
// parsed from arbitrary bytes. Anything but a result or a ccb::Error is a bug.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/error.h"
#include "profiles/profile.h"
#include "profiles/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    std::istringstream in(text);
    ccb::parse_trace(in, "fuzz.jsonl");
  } catch (const ccb::Error&) {
  }
  try {
    ccb::ModelConfig m = ccb::model_from_json(text, "fuzz.json");
    // Derive only models of sane size: a fuzzed 2^60-layer model is valid input that
    // would just take forever.
    if (m.layers + m.decoder_layers <= 256 && m.hidden <= 65536 && m.vocab <= 1'000'000)
      for (auto mode : {ccb::ParallelMode::kDdp, ccb::ParallelMode::kTensorParallel, ccb::ParallelMode::kFsdp})
        ccb::derive_profile(m, mode);
  } catch (const ccb::Error&) {
  }
  return 0;
}
