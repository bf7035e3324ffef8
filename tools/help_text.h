// What --help says that must not drift from the code: the lists of types, ops, modes
// and collectives come from their registries, enumerated flags show their names only,
// and every subcommand's help ends with two examples and its exit codes.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace ccb::cli {

std::string dtype_names();       // "int8, uint8, ..., f8e5m2"
std::string op_names();          // "sum, prod, min, max, avg"
std::string mode_names();        // "ddp|tp|fsdp|..."
std::string collective_names();  // "allreduce, reduce_scatter, ..."

// Adds the examples and exit codes to `app`'s subcommands (and theirs), by their path.
void add_help_footers(CLI::App& app);

}  // namespace ccb::cli
