// How the rendezvous store scales: one bootstrap of N light simulated ranks, each a
// thread with a real StoreClient that joins (hello), all-gathers a transport address
// (as a rank publishes its own) and meets at a barrier, as every job starts. Time from
// the first rank starting to the last leaving, with the store in this process.
//
//   bench_store --benchmark_out=store.json --benchmark_out_format=json
//   bench_store --strangers 1000      # the same beside 1,000 stalled connections
#include <benchmark/benchmark.h>
#include <pthread.h>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bootstrap/store_client.h"
#include "bootstrap/store_server.h"
#include "core/error.h"
#include "core/fd.h"

namespace {

using namespace ccb;
using namespace ccb::bootstrap;

int g_strangers = 0;  // --strangers N: stalled connections opened before the ranks start

struct RankArgs {
  SockAddr store;
  int rank;
  std::atomic<int>* failures;
};

void* simulated_rank(void* p) {
  auto* a = static_cast<RankArgs*>(p);
  try {
    StoreClient c(a->store, StoreHello{1, a->rank, "", {}}, std::chrono::seconds(120));
    std::string address = "10.0." + std::to_string(a->rank / 256) + "." + std::to_string(a->rank % 256) + " 40000";
    c.gather(0, address, true);
    c.gather(1, {}, false);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", a->rank, e.what());
    ++*a->failures;
  }
  return nullptr;
}

// Thousands of threads: a small stack each (the client needs little), not 8 MiB.
std::vector<pthread_t> start_ranks(std::vector<RankArgs>& args) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 << 10);
  std::vector<pthread_t> threads(args.size());
  for (size_t r = 0; r < args.size(); ++r)
    if (pthread_create(&threads[r], &attr, simulated_rank, &args[r]) != 0) throw_errno("pthread_create");
  pthread_attr_destroy(&attr);
  return threads;
}

void BM_Bootstrap(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  raise_fd_limit();
  for (auto _ : state) {
    StoreServer server(resolve_host("127.0.0.1", 0), StoreHello{1, 0, "", {}}, n);
    std::vector<Fd> strangers;
    for (int i = 0; i < g_strangers; ++i) {
      strangers.push_back(connect_to(server.address(), Clock::now() + std::chrono::seconds(10), true));
      ::send(strangers.back().get(), "C", 1, MSG_NOSIGNAL);
    }
    std::atomic<int> failures{0};
    std::vector<RankArgs> args;
    for (int r = 0; r < n; ++r) args.push_back({server.address(), r, &failures});
    auto t0 = Clock::now();
    std::vector<pthread_t> threads = start_ranks(args);
    for (pthread_t t : threads) pthread_join(t, nullptr);
    state.SetIterationTime(seconds_since(t0));
    if (failures > 0) state.SkipWithError("some simulated ranks failed (see stderr)");
  }
  state.counters["ranks"] = n;
  state.counters["strangers"] = g_strangers;
}

}  // namespace

BENCHMARK(BM_Bootstrap)->Arg(64)->Arg(256)->Arg(1024)->Arg(4096)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--strangers") != 0 || i + 1 >= argc) continue;
    std::string_view v = argv[++i];
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), g_strangers);
    if (ec != std::errc() || end != v.data() + v.size() || g_strangers < 0 || g_strangers > 100000) {
      std::fprintf(stderr, "bench_store: error: --strangers takes a count from 0 to 100000\n");
      return 2;
    }
  }
  size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return ran > 0 ? 0 : 2;
}
