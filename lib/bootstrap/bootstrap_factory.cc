#include "bootstrap/bootstrap_factory.h"

#include "bootstrap/store_bootstrap.h"
#include "core/error.h"
#ifdef CCB_HAVE_MPI
#include "bootstrap/mpi_bootstrap.h"
#endif

namespace ccb {

std::unique_ptr<Bootstrap> make_bootstrap(const LaunchInfo& info, std::chrono::milliseconds timeout,
                                          bootstrap::JobFingerprint fingerprint) {
  if (info.use_mpi) {
#ifdef CCB_HAVE_MPI
    return std::make_unique<MpiBootstrap>();
#else
    throw_invalid("started by mpirun but built without MPI: rebuild with -DCCB_WITH_MPI=ON, or set CCB_MASTER_ADDR");
#endif
  }
  return std::make_unique<StoreBootstrap>(info, timeout, std::move(fingerprint));
}

}  // namespace ccb
