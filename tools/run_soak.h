// `ccbench run --duration` and `ccbench p2p --duration`: the soak (runner/soak.h) as a
// command shows it: a progress line on a terminal (a line per --interval otherwise),
// the first wrong element at once, the record rewritten every interval, and the table
// of each size's whole soak at the end.
#pragma once
#include "algo/communicator.h"
#include "bootstrap/bootstrap.h"
#include "run_command.h"
#include "runner/result_record.h"
#include "runner/result_table.h"

namespace ccb::cli {

// Every rank runs it; rank 0 passes its table and record, the others null. Returns the
// wrong elements of the soak; `stopped_by` gets "duration", "SIGINT" or "SIGTERM".
uint64_t run_soak_sweep(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, ResultTable* table,
                        ResultRecord* record, std::string& stopped_by);

}  // namespace ccb::cli
