#include "core/dtype.h"

#include <array>
#include <utility>

#include "core/error.h"

namespace ccb {
namespace {

struct DtypeInfo {
  DataType type;
  size_t size;
  bool floating;
  std::string_view name;
  std::string_view alias;
};

constexpr std::array<DtypeInfo, 7> kDtypes{{
    {DataType::kF32, 4, true, "float", "f32"},
    {DataType::kF64, 8, true, "double", "f64"},
    {DataType::kF16, 2, true, "half", "f16"},
    {DataType::kBF16, 2, true, "bfloat16", "bf16"},
    {DataType::kI32, 4, false, "int32", "i32"},
    {DataType::kI64, 8, false, "int64", "i64"},
    {DataType::kU8, 1, false, "uint8", "u8"},
}};

constexpr std::array<std::pair<ReduceOp, std::string_view>, 5> kOps{{
    {ReduceOp::kSum, "sum"},
    {ReduceOp::kProd, "prod"},
    {ReduceOp::kMin, "min"},
    {ReduceOp::kMax, "max"},
    {ReduceOp::kAvg, "avg"},
}};

const DtypeInfo& info(DataType t) { return kDtypes[static_cast<size_t>(t)]; }

}  // namespace

size_t dtype_size(DataType t) { return info(t).size; }
bool is_floating(DataType t) { return info(t).floating; }
std::string_view dtype_name(DataType t) { return info(t).name; }
std::string_view op_name(ReduceOp op) { return kOps[static_cast<size_t>(op)].second; }

DataType parse_dtype(std::string_view s) {
  for (const auto& d : kDtypes)
    if (s == d.name || s == d.alias) return d.type;
  // nccl-tests spellings that differ from ours.
  if (s == "float32") return DataType::kF32;
  if (s == "float64") return DataType::kF64;
  if (s == "float16") return DataType::kF16;
  if (s == "int8" || s == "uint8_t") return DataType::kU8;
  throw_invalid("unknown data type '" + std::string(s) +
                "': use one of float, double, half, bfloat16, int32, int64, uint8");
}

ReduceOp parse_op(std::string_view s) {
  for (const auto& [op, name] : kOps)
    if (s == name) return op;
  throw_invalid("unknown reduce op '" + std::string(s) + "': use one of sum, prod, min, max, avg");
}

const std::vector<DataType>& all_dtypes() {
  static const std::vector<DataType> v{DataType::kF32, DataType::kF64, DataType::kF16,
                                       DataType::kBF16, DataType::kI32, DataType::kI64,
                                       DataType::kU8};
  return v;
}

const std::vector<ReduceOp>& all_ops() {
  static const std::vector<ReduceOp> v{ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMin,
                                       ReduceOp::kMax, ReduceOp::kAvg};
  return v;
}

}  // namespace ccb
