// A model's parameter tensors in the order model.parameters() yields them in the
// Hugging Face implementation. DDP buckets follow this order; FSDP wraps each block.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "profiles/model_config.h"

namespace ccb {

struct ParameterTensor {
  std::string name;
  uint64_t elements = 0;
  int block = -1;  // transformer block (T5: decoder blocks follow the encoder's); -1 outside
  bool replicated = false;  // a norm: Megatron keeps a whole copy on every tensor-parallel rank
};

std::vector<ParameterTensor> parameter_tensors(const ModelConfig& m);
uint64_t parameter_count(const ModelConfig& m);

}  // namespace ccb
