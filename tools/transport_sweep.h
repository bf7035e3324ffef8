// `ccbench p2p --sweep qps=1,2,4` (verbs) or `--sweep streams=1,2,4` (TCP, IPoIB): the
// sizes measured once per setting, each on a transport of its own (its own listening
// socket or verbs context, its own connections), opened beside the job's and closed
// before the next. Each row carries its setting ("variant": "qps=2"), so records keep
// the settings apart and compare matches them.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "job/rank_job.h"
#include "run_command.h"
#include "runner/result_record.h"
#include "runner/result_table.h"

namespace ccb::cli {

struct TransportSweep {
  std::string knob;         // "qps" or "streams"
  std::vector<int> values;
};

// Throws kInvalidArgument naming the form and the transport it needs.
TransportSweep parse_transport_sweep(const std::string& text, const std::string& transport);

// Every rank runs it; rank 0 passes its table and record. Returns the wrong elements.
uint64_t run_transport_sweep(const RunCommand& cmd, RankContext& rank, ResultTable* table, ResultRecord* record);

}  // namespace ccb::cli
