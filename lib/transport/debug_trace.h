// --debug (or CCB_DEBUG): a per-rank trace of connections, posts and failed requests,
// for the failure that a one-line error does not explain. CCB_DEBUG=1 writes to stderr;
// CCB_DEBUG=PATH writes rank R's lines to PATH.R, a new file (never one that exists,
// never through a link). Every backend is traced the same way: the communicator wraps
// each connection it opens.
#pragma once
#include <string>

#include "transport/transport.h"

namespace ccb {

bool debug_trace_on();  // read once per process
// One line, in one write: "ccbench debug: rank R: LINE".
void debug_trace(int rank, const std::string& line);
// `c`, with its posts and failures traced under `rank`'s name.
ConnectionPtr traced_connection(ConnectionPtr c, int rank, const std::string& transport);

}  // namespace ccb
