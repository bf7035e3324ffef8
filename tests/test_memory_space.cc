// The memory-space seam: every collective buffer is allocated by a space and then
// registered; the registry names the spaces; a registration never outlives its pages;
// a space that host code cannot touch is refused by name.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdint>
#include <set>
#include <vector>

#include "algo/communicator.h"
#include "core/error.h"
#include "core/memory_space.h"
#include "transport/registered_buffer.h"

using namespace ccb;

namespace {

// Records whether its pages were freed, so a region can tell it was unregistered first.
struct Ledger {
  int allocations = 0;
  int frees = 0;
  int registrations = 0;
  int unregistered_after_free = 0;
  std::set<const char*> live;  // the allocations not yet freed
};

class LedgerSpace final : public MemorySpace {
 public:
  LedgerSpace(Ledger& l, bool host_accessible) : ledger_(l), host_accessible_(host_accessible) {}
  std::string_view name() const override { return "ledger"; }
  std::string_view description() const override { return "host memory that counts"; }
  bool host_accessible() const override { return host_accessible_; }
  SpaceBuffer allocate(size_t bytes) const override {
    ++ledger_.allocations;
    return SpaceBuffer(std::make_unique<Allocation>(ledger_, bytes));
  }

 private:
  class Allocation final : public SpaceBuffer::Allocation {
   public:
    Allocation(Ledger& l, size_t bytes) : ledger_(l), memory_(bytes) { ledger_.live.insert(memory_.data()); }
    ~Allocation() override {
      ++ledger_.frees;
      ledger_.live.erase(memory_.data());
    }
    char* data() const override { return const_cast<char*>(memory_.data()); }
    size_t size() const override { return memory_.size(); }

   private:
    Ledger& ledger_;
    std::vector<char> memory_;
  };
  Ledger& ledger_;
  bool host_accessible_;
};

class LedgerRegion final : public MemoryRegion {
 public:
  LedgerRegion(Ledger& l, void* base, size_t bytes) : MemoryRegion(base, bytes), ledger_(l) {}
  ~LedgerRegion() override {
    if (ledger_.live.count(base()) == 0) ++ledger_.unregistered_after_free;
  }

 private:
  Ledger& ledger_;
};

// Registers and nothing else: the seam's side of a transport.
class RegisteringTransport final : public Transport {
 public:
  explicit RegisteringTransport(Ledger& l) : ledger_(l) {}
  std::string_view name() const override { return "registering"; }
  int rank() const override { return 0; }
  std::string listen_address() override { return ""; }
  ConnectionPtr connect(int, const std::string&, Deadline) override { throw_invalid("no peers"); }
  ConnectionPtr accept(int, Deadline) override { throw_invalid("no peers"); }
  MemoryRegionPtr register_memory(void* base, size_t bytes) override {
    ++ledger_.registrations;
    return std::make_unique<LedgerRegion>(ledger_, base, bytes);
  }
  void wait_for_progress(std::chrono::microseconds) override {}
  void abort(const std::string&) override {}
  std::string describe() const override { return "registering"; }
  LinkInfo link() const override { return {}; }

 private:
  Ledger& ledger_;
};

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the registry names host, and an unknown space is refused with the list", "[memory]") {
  CHECK(memory_space_names() == std::vector<std::string>{"host"});
  CHECK(&memory_space("host") == &host_memory());
  CHECK(host_memory().host_accessible());
  const std::string why = refusal([] { memory_space("cuda"); });
  CHECK_THAT(why, Catch::Contains("unknown memory space 'cuda'") && Catch::Contains("this build has host"));
}

TEST_CASE("host memory is zeroed, page-aligned and owned by one buffer", "[memory]") {
  SpaceBuffer b = host_memory().allocate(3 * 4096 + 5);
  REQUIRE(b.size() == 3 * 4096 + 5);
  CHECK(reinterpret_cast<uintptr_t>(b.data()) % static_cast<uintptr_t>(sysconf(_SC_PAGESIZE)) == 0);
  bool zero = true;
  for (size_t i = 0; i < b.size(); ++i) zero = zero && b.data()[i] == 0;
  CHECK(zero);
  char* const at = b.data();
  SpaceBuffer moved = std::move(b);
  CHECK(moved.data() == at);
  CHECK_FALSE(b);  // NOLINT(bugprone-use-after-move): the moved-from buffer owns nothing
}

TEST_CASE("a registered buffer is unregistered before its memory goes, also when replaced", "[memory]") {
  Ledger ledger;
  LedgerSpace space(ledger, true);
  RegisteringTransport transport(ledger);
  {
    RegisteredBuffer b(space, transport, 4096);
    CHECK(b.region().base() == b.data());
    CHECK(b.region().size() == 4096);
    b = RegisteredBuffer(space, transport, 8192);  // the runner's growth path
    CHECK(b.size() == 8192);
  }
  CHECK(ledger.allocations == 2);
  CHECK(ledger.registrations == 2);
  CHECK(ledger.frees == 2);
  CHECK(ledger.unregistered_after_free == 0);
}

TEST_CASE("a communicator takes its scratch from its space, and refuses one host code cannot touch", "[memory]") {
  Ledger ledger;
  RegisteringTransport transport(ledger);
  LedgerSpace space(ledger, true);
  Communicator comm(transport, 0, 1, {""}, WaitPolicy{}, space);
  CHECK(&comm.memory() == &space);
  CHECK(comm.scratch(1000).size() >= 1000);
  CHECK(comm.scratch(500).size() >= 1000);  // reused, not reallocated
  CHECK(ledger.allocations == 1);

  LedgerSpace device(ledger, false);
  const std::string why = refusal([&] { Communicator c(transport, 0, 1, {""}, WaitPolicy{}, device); });
  CHECK_THAT(why, Catch::Contains("memory space 'ledger' is not mapped for the host") && Catch::Contains("--memory host"));
}
