// The transport flags of every measuring command (ccbench run, bench_collectives), one
// set, each in the group of its transport (TCP, IPoIB, Verbs): a flag given to another
// transport is refused, never silently ignored.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "runner/transport_factory.h"

namespace ccb {

void add_transport_flags(CLI::App& app, TransportChoice& t);
// Refuses a flag of a group that `transport` does not use (IPoIB runs the TCP engine, so
// the TCP flags apply to it).
void check_transport_flags(const CLI::App& app, const std::string& transport);
// The same for a command that runs several transports (study): a flag must apply to one.
void check_transport_flags(const CLI::App& app, const std::vector<std::string>& transports);

}  // namespace ccb
