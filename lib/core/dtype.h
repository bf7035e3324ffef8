// Element types and reduce operators, named as nccl-tests names them.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ccb {

enum class DataType { kF32, kF64, kF16, kBF16, kI32, kI64, kU8 };
enum class ReduceOp { kSum, kProd, kMin, kMax, kAvg };

size_t dtype_size(DataType t);
bool is_floating(DataType t);
std::string_view dtype_name(DataType t);  // "float", "double", "half", "bfloat16", ...
std::string_view op_name(ReduceOp op);    // "sum", "prod", "min", "max", "avg"

// Accept nccl-tests' names and the short ones (f32, bf16, i64...). Throws kInvalidArgument.
DataType parse_dtype(std::string_view s);
ReduceOp parse_op(std::string_view s);

const std::vector<DataType>& all_dtypes();
const std::vector<ReduceOp>& all_ops();

}  // namespace ccb
