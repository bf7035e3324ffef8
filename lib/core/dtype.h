// Element types and reduce operators, named as nccl-tests names them.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ccb {

// nccl-tests' twelve types. The order is the kernels' table index: append only.
enum class DataType { kF32, kF64, kF16, kBF16, kI32, kI64, kU8, kI8, kU32, kU64, kF8E4M3, kF8E5M2 };
inline constexpr size_t kDataTypeCount = 12;
enum class ReduceOp { kSum, kProd, kMin, kMax, kAvg };

size_t dtype_size(DataType t);
bool is_floating(DataType t);
bool is_fp8(DataType t);
bool is_signed(DataType t);  // the floating types and int8/32/64
std::string_view dtype_name(DataType t);  // "float", "double", "half", "bfloat16", "f8e4m3", ...
std::string_view op_name(ReduceOp op);    // "sum", "prod", "min", "max", "avg"

// Accept nccl-tests' names and the short ones (f32, bf16, i64...). Throws kInvalidArgument.
DataType parse_dtype(std::string_view s);
ReduceOp parse_op(std::string_view s);

const std::vector<DataType>& all_dtypes();
const std::vector<ReduceOp>& all_ops();

}  // namespace ccb
