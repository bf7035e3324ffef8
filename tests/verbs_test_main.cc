// Main of the verbs tests: they need an RDMA device, which this machine's kernel
// cannot have; without one they are skipped (ctest exit 77) with the reason, and the
// ctest case verbs_in_vm runs them inside the soft-RoCE VM instead.
#define CATCH_CONFIG_RUNNER
#include <infiniband/verbs.h>

#include <catch2/catch.hpp>
#include <iostream>

int main(int argc, char** argv) {
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (list) ibv_free_device_list(list);
  if (n == 0) {
    std::cout << "verbs tests skipped: no RDMA device on this host (no RDMA NIC, or a kernel without InfiniBand). "
                 "They run inside the soft-RoCE VM: tools/rxe-vm/rxe-run build/tests/verbs_tests (ctest -R verbs_in_vm)\n";
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
