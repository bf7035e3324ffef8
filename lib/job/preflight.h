// What can be judged on this host before any rank starts, so that bad input is one
// line and exit 2 at once, not a timeout later: the transport's flags against this
// host, the descriptors the job will hold, the memory its buffers will take.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "runner/transport_factory.h"

namespace ccb {

// The interface, address, device and congestion control the flags name exist here,
// and no flag is given to a transport it does not apply to.
void check_transport_here(const TransportChoice& t);

// Raises the descriptor limit to its hard limit, then refuses a job that would still
// run out: "ulimit -n is 1024, world size 512 needs about 1,100".
void check_fd_budget(const TransportChoice& t, int world_size);

// --bind-numa: the CPUs of the NUMA node that `nic` (a netdev, or an RDMA device with
// its port) is on. Throws kInvalidArgument, naming the fix, when the machine does not
// say which node that is.
std::vector<int> cpus_near_nic(const std::string& root, const std::string& nic);
// The same, for the NIC the local launcher's ranks will use, where the flags tell it
// before any rank starts: they reach each other over 127.0.0.1 unless --iface or
// --bind says otherwise. Verbs picks its device only when it opens it: then the rank
// checks.
void check_bind_numa_here(const TransportChoice& t);
// Runs this process on those CPUs only.
void bind_near_nic(const std::string& nic);

// Refuses a job whose send and receive buffers (`largest_bytes` each, or a receive
// buffer of `largest_recv_bytes` where it differs: all_to_allv's hottest rank), on each
// of `ranks_here` ranks, would not fit in this host's available memory.
void check_memory_fits(uint64_t largest_bytes, int ranks_here, uint64_t largest_recv_bytes = 0);

}  // namespace ccb
