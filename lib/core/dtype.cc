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

constexpr std::array<DtypeInfo, kDataTypeCount> kDtypes{{
    {DataType::kF32, 4, true, "float", "f32"},
    {DataType::kF64, 8, true, "double", "f64"},
    {DataType::kF16, 2, true, "half", "f16"},
    {DataType::kBF16, 2, true, "bfloat16", "bf16"},
    {DataType::kI32, 4, false, "int32", "i32"},
    {DataType::kI64, 8, false, "int64", "i64"},
    {DataType::kU8, 1, false, "uint8", "u8"},
    {DataType::kI8, 1, false, "int8", "i8"},
    {DataType::kU32, 4, false, "uint32", "u32"},
    {DataType::kU64, 8, false, "uint64", "u64"},
    {DataType::kF8E4M3, 1, true, "f8e4m3", "fp8_e4m3"},
    {DataType::kF8E5M2, 1, true, "f8e5m2", "fp8_e5m2"},
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
bool is_fp8(DataType t) { return t == DataType::kF8E4M3 || t == DataType::kF8E5M2; }
bool is_signed(DataType t) { return t != DataType::kU8 && t != DataType::kU32 && t != DataType::kU64; }
std::string_view dtype_name(DataType t) { return info(t).name; }
std::string_view op_name(ReduceOp op) { return kOps[static_cast<size_t>(op)].second; }

DataType parse_dtype(std::string_view s) {
  for (const auto& d : kDtypes)
    if (s == d.name || s == d.alias) return d.type;
  // nccl-tests spellings that differ from ours.
  if (s == "float32") return DataType::kF32;
  if (s == "float64") return DataType::kF64;
  if (s == "float16") return DataType::kF16;
  std::string known;
  for (const auto& d : kDtypes) known += (known.empty() ? "" : ", ") + std::string(d.name);
  throw_invalid("unknown data type '" + std::string(s) + "': use one of " + known);
}

ReduceOp parse_op(std::string_view s) {
  for (const auto& [op, name] : kOps)
    if (s == name) return op;
  throw_invalid("unknown reduce op '" + std::string(s) + "': use one of sum, prod, min, max, avg");
}

const std::vector<DataType>& all_dtypes() {
  static const std::vector<DataType> v = [] {
    std::vector<DataType> all;
    for (const auto& d : kDtypes) all.push_back(d.type);
    return all;
  }();
  return v;
}

const std::vector<ReduceOp>& all_ops() {
  static const std::vector<ReduceOp> v{ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMin,
                                       ReduceOp::kMax, ReduceOp::kAvg};
  return v;
}

}  // namespace ccb
