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
  // All ranks on one host talk over loopback; otherwise the host name's address.
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  try {
    return resolve_host(host, 0).ip();
  } catch (const Error&) {
    return "127.0.0.1";
  }
}

void MpiBootstrap::abort_job(const std::string&) noexcept { MPI_Abort(MPI_COMM_WORLD, 1); }

}  // namespace ccb
