#include "bootstrap/mpi_bootstrap.h"

// Only the C API: the C++ bindings would need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <unistd.h>

#include <numeric>

#include "core/error.h"
#include "net/socket_util.h"

namespace ccb {

static void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw Error(ErrorKind::kSystem, std::string("MPI call failed: ") + what);
}

MpiBootstrap::MpiBootstrap() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    check(MPI_Init(nullptr, nullptr), "MPI_Init");
    we_initialized_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  // The ranks MPI places on this node: all of them, and the data stays on loopback.
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int here = 0;
  MPI_Comm_size(node, &here);
  MPI_Comm_free(&node);
  int everyone_here = here == size_ ? 1 : 0, all = 0;
  check(MPI_Allreduce(&everyone_here, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  all_on_one_node_ = all == 1;
}

MpiBootstrap::~MpiBootstrap() {
  if (we_initialized_) MPI_Finalize();
}

std::vector<std::string> MpiBootstrap::allgather(const std::string& mine) {
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(size_), offsets(size_);
  check(MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  std::exclusive_scan(lens.begin(), lens.end(), offsets.begin(), 0);
  std::string all(static_cast<size_t>(offsets.back() + lens.back()), '\0');
  check(MPI_Allgatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  std::vector<std::string> out(size_);
  for (int r = 0; r < size_; ++r) out[r] = all.substr(offsets[r], lens[r]);
  return out;
}

void MpiBootstrap::barrier() { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

std::string MpiBootstrap::local_address_hint() const {
  // Every rank on this node: loopback, listening on nothing another host can reach.
  // Otherwise the host name's address, unless that is loopback (Debian maps the host
  // name to 127.0.1.1) or does not resolve (a node known only to Slurm): then the first
  // routable interface's (net/socket_util.h), so ranks on other hosts reach this one.
  if (all_on_one_node_) return "127.0.0.1";
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  try {
    const std::string ip = resolve_host(host, 0).ip();
    if (!ip.starts_with("127.") && ip != "::1") return ip;
  } catch (const Error&) {
  }
  const std::string routable = routable_ipv4();
  return routable.empty() ? "127.0.0.1" : routable;
}

void MpiBootstrap::abort_job(const std::string&) noexcept { MPI_Abort(MPI_COMM_WORLD, 1); }

}  // namespace ccb
