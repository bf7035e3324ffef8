// One rank of the multi-process collective tests (started by the local launcher).
// Runs every collective over a matrix of counts, types, operators, algorithms and
// placements on pseudo-random data, and compares with a serial reference:
//  - integers and min/max: bit-exact;
//  - floating-point sums: |got - ref| <= 2 * n * u * sum(|x_i|) + tiny, where u is the
//    unit roundoff of the type (2^-24 f32, 2^-53 f64, 2^-11 f16, 2^-8 bf16, 2^-4 f8e4m3,
//    2^-3 f8e5m2): the classic
//    bound for n-1 rounded additions in any order, doubled because the double-precision
//    reference rounds too (it matters for f64). Products: the same with |ref| in place of
//    sum(|x_i|), on inputs in [-2, 2] so they stay finite. avg adds one rounding of the
//    division. Every bound also allows the type's smallest normal number, for results
//    that underflow into the subnormal range (f16 products of 8 small factors do).
// Prints one line per failure and "N passed, M failed"; exits 1 on any failure.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "algo/collectives.h"
#include "algo/splits.h"
#include "algo/communicator.h"
#include "bootstrap/bootstrap_factory.h"
#include "bootstrap/host_layout.h"
#include "core/error.h"
#include "core/reduce.h"
#include "job/host_levels.h"
#include "reference_reduce.h"
#include "algo/data_pattern.h"
#include "runner/transport_factory.h"

using namespace ccb;

namespace {

double unit_roundoff(DataType t) {
  switch (t) {
    case DataType::kF32: return std::ldexp(1.0, -24);
    case DataType::kF64: return std::ldexp(1.0, -53);
    case DataType::kF16: return std::ldexp(1.0, -11);
    case DataType::kBF16: return std::ldexp(1.0, -8);
    case DataType::kF8E4M3: return std::ldexp(1.0, -4);
    case DataType::kF8E5M2: return std::ldexp(1.0, -3);
    default: return 0;
  }
}

double smallest_normal(DataType t) {
  switch (t) {
    case DataType::kF16: return std::ldexp(1.0, -14);
    case DataType::kF64: return std::ldexp(1.0, -1022);
    case DataType::kF8E4M3: return std::ldexp(1.0, -6);
    case DataType::kF8E5M2: return std::ldexp(1.0, -14);
    default: return std::ldexp(1.0, -126);
  }
}

struct Matrix {
  Communicator& comm;
  ChunkPolicy chunks;
  int passed = 0, failed = 0;

  // Every rank's input for one type, regenerated identically on every rank.
  std::vector<std::vector<char>> inputs(size_t count, DataType t, double scale = 50.0) const {
    std::vector<std::vector<char>> in;
    for (int r = 0; r < comm.size(); ++r) in.push_back(test::random_values(count, t, 1000u + r, scale));
    return in;
  }

  // Compares element i of `got` with the reduction of column i of `in`.
  bool element_ok(const char* got, const std::vector<std::vector<char>>& in, size_t i, DataType t, ReduceOp op) const {
    const size_t es = dtype_size(t);
    const int n = comm.size();
    if (!is_floating(t) || op == ReduceOp::kMin || op == ReduceOp::kMax) {
      std::vector<char> acc(in[0].begin() + i * es, in[0].begin() + (i + 1) * es);
      for (int r = 1; r < n; ++r) test::reference_reduce(acc.data(), acc.data(), in[r].data() + i * es, 1, t, op);
      if (op == ReduceOp::kAvg) divide(acc.data(), 1, t, n);
      return std::memcmp(acc.data(), got, es) == 0;
    }
    double ref = 0, mag = 0;
    for (int r = 0; r < n; ++r) {
      double v = load_value(in[r].data(), i, t);
      ref = op == ReduceOp::kProd ? (r == 0 ? v : ref * v) : ref + v;
      mag += std::fabs(v);
    }
    double tol = 2 * n * unit_roundoff(t) * (op == ReduceOp::kProd ? std::fabs(ref) : mag) + smallest_normal(t);
    if (op == ReduceOp::kAvg) {
      ref /= n;
      tol = tol / n + unit_roundoff(t) * std::fabs(ref);
    }
    return std::fabs(load_value(got, 0, t) - ref) <= tol;
  }

  void record(bool ok, const std::string& what) {
    if (ok) ++passed;
    else {
      ++failed;
      std::cerr << "rank " << comm.rank() << " FAILED " << what << "\n";
    }
  }

  void allreduce(size_t count, DataType t, ReduceOp op, Algorithm algo, bool in_place, const std::vector<std::vector<char>>& in) {
    const size_t es = dtype_size(t), bytes = std::max<size_t>(count * es, 1);
    std::vector<char> send(in[comm.rank()].begin(), in[comm.rank()].end()), recv(send.size(), 0);
    auto smr = comm.transport().register_memory(send.data(), send.size());
    auto rmr = comm.transport().register_memory(recv.data(), recv.size());
    CollectiveArgs a{{smr.get(), 0}, {rmr.get(), 0}, count, t, op};
    if (in_place) a.recv = a.send;
    describe(CollectiveKind::kAllreduce).run(comm, chunks, algo, a);
    const char* out = in_place ? send.data() : recv.data();
    size_t bad = 0;
    for (size_t i = 0; i < count; ++i) bad += !element_ok(out + i * es, in, i, t, op);
    std::ostringstream what;
    what << algorithm_name(algo) << " allreduce count=" << count << " " << dtype_name(t) << " " << op_name(op)
         << (in_place ? " in-place" : " out-of-place") << ": " << bad << " wrong of " << count << " (" << bytes << " B)";
    record(bad == 0, what.str());
  }

  void reduce_scatter(size_t count, DataType t, ReduceOp op, bool in_place, const std::vector<std::vector<char>>& in,
                      Algorithm algo = Algorithm::kRing) {
    const size_t es = dtype_size(t);
    const int r = comm.rank();
    std::vector<char> send(in[r].begin(), in[r].end()), recv(count * es + 8, 0);
    auto smr = comm.transport().register_memory(send.data(), send.size());
    auto rmr = comm.transport().register_memory(recv.data(), recv.size());
    CollectiveArgs a{{smr.get(), 0}, {rmr.get(), 0}, count, t, op};
    if (in_place) a.recv = {smr.get(), r * count * es};
    describe(CollectiveKind::kReduceScatter).run(comm, chunks, algo, a);
    const char* out = in_place ? send.data() + r * count * es : recv.data();
    size_t bad = 0;
    for (size_t i = 0; i < count; ++i) bad += !element_ok(out + i * es, in, r * count + i, t, op);
    record(bad == 0, std::string(algorithm_name(algo)) + " reduce_scatter count=" + std::to_string(count) + " " + std::string(dtype_name(t)) + " " +
                         std::string(op_name(op)) + (in_place ? " in-place" : "") + ": " + std::to_string(bad) + " wrong");
  }

  void all_gather(size_t count, DataType t, bool in_place, const std::vector<std::vector<char>>& in,
                  Algorithm algo = Algorithm::kRing) {
    const size_t es = dtype_size(t);
    const int r = comm.rank(), n = comm.size();
    std::vector<char> send(in[r].begin(), in[r].begin() + count * es + 8), recv(n * count * es + 8, 0);
    if (in_place) std::memcpy(recv.data() + r * count * es, send.data(), count * es);
    auto smr = comm.transport().register_memory(send.data(), send.size());
    auto rmr = comm.transport().register_memory(recv.data(), recv.size());
    CollectiveArgs a{{smr.get(), 0}, {rmr.get(), 0}, count, t, ReduceOp::kSum};
    if (in_place) a.send = {rmr.get(), r * count * es};
    describe(CollectiveKind::kAllGather).run(comm, chunks, algo, a);
    size_t bad = 0;
    for (int src = 0; src < n; ++src)
      bad += std::memcmp(recv.data() + src * count * es, in[src].data(), count * es) != 0;
    record(bad == 0, std::string(algorithm_name(algo)) + " all_gather count=" + std::to_string(count) + " " + std::string(dtype_name(t)) +
                         (in_place ? " in-place" : "") + ": " + std::to_string(bad) + " ranks' segments wrong");
  }

  // Broadcast and reduce from `root`: broadcast's every output is the root's input; the
  // root's reduce output is the reduction, and in place the others' inputs are untouched.
  void rooted(CollectiveKind kind, size_t count, DataType t, ReduceOp op, Algorithm algo, int root, bool in_place,
              const std::vector<std::vector<char>>& in) {
    const size_t es = dtype_size(t);
    const int r = comm.rank();
    std::vector<char> send(in[r].begin(), in[r].end()), recv(send.size(), 0);
    auto smr = comm.transport().register_memory(send.data(), send.size());
    auto rmr = comm.transport().register_memory(recv.data(), recv.size());
    CollectiveArgs a{{smr.get(), 0}, {rmr.get(), 0}, count, t, op, root};
    if (in_place) a.recv = a.send;
    describe(kind).run(comm, chunks, algo, a);
    const char* out = in_place ? send.data() : recv.data();
    size_t bad = 0;
    for (size_t i = 0; i < count; ++i) {
      if (kind == CollectiveKind::kBroadcast) bad += std::memcmp(out + i * es, in[root].data() + i * es, es) != 0;
      else if (r == root) bad += !element_ok(out + i * es, in, i, t, op);
      else if (in_place) bad += std::memcmp(out + i * es, in[r].data() + i * es, es) != 0;
    }
    record(bad == 0, std::string(collective_name(kind)) + " " + std::string(algorithm_name(algo)) + " root=" +
                         std::to_string(root) + " count=" + std::to_string(count) + " " + std::string(dtype_name(t)) + " " +
                         std::string(op_name(op)) + (in_place ? " in-place" : "") + ": " + std::to_string(bad) + " wrong");
  }

  // All-to-all: part j of the output is part r of rank j's input.
  void all_to_all(size_t count, DataType t, bool in_place, const std::vector<std::vector<char>>& in) {
    const size_t part = count * dtype_size(t);
    const int r = comm.rank(), n = comm.size();
    std::vector<char> send(in[r].begin(), in[r].end()), recv(send.size(), 0);
    auto smr = comm.transport().register_memory(send.data(), send.size());
    auto rmr = comm.transport().register_memory(recv.data(), recv.size());
    CollectiveArgs a{{smr.get(), 0}, {rmr.get(), 0}, count, t, ReduceOp::kSum};
    if (in_place) a.recv = a.send;
    describe(CollectiveKind::kAllToAll).run(comm, chunks, Algorithm::kDirect, a);
    const char* out = in_place ? send.data() : recv.data();
    size_t bad = 0;
    for (int j = 0; j < n; ++j) bad += std::memcmp(out + j * part, in[j].data() + r * part, part) != 0;
    record(bad == 0, "all_to_all count=" + std::to_string(count) + " " + std::string(dtype_name(t)) +
                         (in_place ? " in-place" : "") + ": " + std::to_string(bad) + " parts wrong");
  }

  // Send/recv over `send_to` (null: r -> r+1): the output is the sender's input.
  void send_recv(size_t count, DataType t, bool in_place, const std::vector<int>* send_to,
                 const std::vector<std::vector<char>>& in) {
    const size_t bytes = count * dtype_size(t);
    const int r = comm.rank(), n = comm.size();
    int from = (r + n - 1) % n;
    if (send_to) from = static_cast<int>(std::find(send_to->begin(), send_to->end(), r) - send_to->begin());
    std::vector<char> send(in[r].begin(), in[r].end()), recv(send.size(), 0);
    auto smr = comm.transport().register_memory(send.data(), send.size());
    auto rmr = comm.transport().register_memory(recv.data(), recv.size());
    CollectiveArgs a{{smr.get(), 0}, {rmr.get(), 0}, count, t, ReduceOp::kSum, 0, send_to};
    if (in_place) a.recv = a.send;
    describe(CollectiveKind::kSendRecv).run(comm, chunks, Algorithm::kDirect, a);
    const char* out = in_place ? send.data() : recv.data();
    record(std::memcmp(out, in[from].data(), bytes) == 0,
           "send_recv count=" + std::to_string(count) + " " + std::string(dtype_name(t)) + (send_to ? " mapped" : "") +
               (in_place ? " in-place" : "") + " from rank " + std::to_string(from));
  }

  // All-to-allv: the part from rank j lands where the splits put it and equals j's part
  // for this rank.
  void all_to_allv(const SplitMatrix& splits, DataType t, const std::vector<std::vector<char>>& in, const std::string& what) {
    const size_t es = dtype_size(t);
    const int r = comm.rank(), n = comm.size();
    std::vector<char> send(in[r].begin(), in[r].end()), recv(splits.largest_recv_total() * es + 8, 0);
    auto smr = comm.transport().register_memory(send.data(), send.size());
    auto rmr = comm.transport().register_memory(recv.data(), recv.size());
    CollectiveArgs a{{smr.get(), 0}, {rmr.get(), 0}, send.size() / es, t, ReduceOp::kSum, 0, nullptr, &splits};
    describe(CollectiveKind::kAllToAllv).run(comm, chunks, Algorithm::kDirect, a);
    size_t bad = 0;
    for (int j = 0; j < n; ++j)
      bad += std::memcmp(recv.data() + splits.recv_offset(j, r) * es, in[j].data() + splits.send_offset(j, r) * es,
                         splits.at(j, r) * es) != 0;
    record(bad == 0, "all_to_allv " + what + " " + std::string(dtype_name(t)) + ": " + std::to_string(bad) + " parts wrong");
  }

  // Gather and scatter around `root`, parts of `count` elements: gather's root ends
  // with every rank's input in rank order; scatter's rank r with part r of the root's.
  void gather_scatter(CollectiveKind kind, size_t count, DataType t, int root, bool in_place,
                      const std::vector<std::vector<char>>& in) {
    const size_t part = count * dtype_size(t);
    const int r = comm.rank(), n = comm.size();
    const bool gather = kind == CollectiveKind::kGather;
    std::vector<char> whole(in[r].begin(), in[r].end()), one(part + 8, 0);  // in[r]: n parts
    auto wmr = comm.transport().register_memory(whole.data(), whole.size());
    auto omr = comm.transport().register_memory(one.data(), one.size());
    // Gather sends part 0 of in[r] (in `one`), or in place its own slot r of `whole`.
    if (gather && !in_place) std::memcpy(one.data(), in[r].data(), part);
    CollectiveArgs a = gather ? CollectiveArgs{{omr.get(), 0}, {wmr.get(), 0}, count, t, ReduceOp::kSum, root}
                              : CollectiveArgs{{wmr.get(), 0}, {omr.get(), 0}, count, t, ReduceOp::kSum, root};
    if (in_place) describe(kind).place_in_place(a, r);
    describe(kind).run(comm, chunks, Algorithm::kDirect, a);
    size_t bad = 0;
    if (gather && r == root)
      for (int j = 0; j < n; ++j) bad += std::memcmp(whole.data() + j * part, in[j].data() + (in_place ? j * part : 0), part) != 0;
    if (!gather) bad += std::memcmp(a.recv.data(), in[root].data() + r * part, part) != 0;
    record(bad == 0, std::string(collective_name(kind)) + " root=" + std::to_string(root) + " count=" + std::to_string(count) +
                         " " + std::string(dtype_name(t)) + (in_place ? " in-place" : "") + ": " + std::to_string(bad) + " parts wrong");
  }
};

// `large` is the odd count that spans many chunks: 1048579 normally; smaller where
// every cycle is emulated (the verbs tests run inside a VM without KVM).
// Every algorithm the registry lists for AllReduce is tested, a new one included.
const std::vector<Algorithm>& kAllreduceAlgorithms = describe(CollectiveKind::kAllreduce).algorithms;

// Broadcast and reduce from roots 0, the last rank and one in the middle, over both
// shapes; send/recv to r+1 and over a permutation with fixed points (r -> n-1-r).
void rooted_and_point_to_point(Matrix& m, DataType t, size_t large) {
  const int n = m.comm.size();
  std::vector<int> reversed;
  for (int r = 0; r < n; ++r) reversed.push_back(n - 1 - r);
  bool in_place = false;
  for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{1023}, large / 16 + 1}) {
    auto in = m.inputs(count, t);
    for (int root : {0, n - 1, n / 2})
      for (Algorithm algo : describe(CollectiveKind::kBroadcast).algorithms) {
        m.rooted(CollectiveKind::kBroadcast, count, t, ReduceOp::kSum, algo, root, in_place = !in_place, in);
        for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax})
          m.rooted(CollectiveKind::kReduce, count, t, op, algo, root, in_place, in);
      }
    for (bool place : {false, true}) {
      m.send_recv(count, t, place, nullptr, in);
      m.send_recv(count, t, place, &reversed, in);
    }
    auto parts = m.inputs(count * static_cast<size_t>(n), t);
    for (int root : {0, n - 1})
      for (bool place : {false, true}) {
        m.gather_scatter(CollectiveKind::kGather, count, t, root, place, parts);
        m.gather_scatter(CollectiveKind::kScatter, count, t, root, place, parts);
      }
  }
}

// The types nccl-tests added later (int8, uint32, uint64, fp8) run the pipelines of the
// types of their width; a smaller large count for them keeps the matrix within CI's time.
bool added_type(DataType t) { return static_cast<size_t>(t) >= static_cast<size_t>(DataType::kI8); }

// Uneven splits: rank 0 sends only to itself, rank 2 sends nothing, nobody sends to
// rank 1 (an empty row and an empty column); then the routing model, steep enough to
// leave experts empty, at a small and a large count; then nothing at all.
void uneven(Matrix& m, DataType t, size_t large) {
  const int n = m.comm.size();
  SplitMatrix shaped{n, {}};
  for (int from = 0; from < n; ++from)
    for (int to = 0; to < n; ++to)
      shaped.elements.push_back(from == 0 ? (to == 0 ? 7 : 0) : from == 2 || to == 1 ? 0 : static_cast<uint64_t>(3 * (from + to) + 1));
  uint64_t widest = 0;
  for (int from = 0; from < n; ++from) widest = std::max(widest, shaped.send_offset(from, n));
  m.all_to_allv(shaped, t, m.inputs(widest, t), "empty row and column");
  for (size_t count : {size_t{1023}, large / 16 + 1}) {
    const SplitMatrix routed = make_splits(parse_split_spec("moe:skew=1.5,seed=5"), n, t, count);
    m.all_to_allv(routed, t, m.inputs(count, t), "routed count=" + std::to_string(count));
  }
  m.all_to_allv(make_splits(parse_split_spec("moe"), n, t, 0), t, m.inputs(0, t), "count=0");
}

// The collectives that run in two levels, on the hierarchy that is attached: small and
// odd counts, in and out of place, roots on every host; `full`: every type and operator
// and ReduceScatter and AllGather too (whose leg across hosts is always a ring, so a
// run per --inter-algo would repeat them).
void hier_collectives(Matrix& m, bool full) {
  const int n = m.comm.size();
  const std::vector<DataType> types = full ? std::vector<DataType>{DataType::kF32, DataType::kI32, DataType::kBF16, DataType::kF64}
                                           : std::vector<DataType>{DataType::kI32};
  for (DataType t : types)
    for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{1023}, size_t{262147}}) {
      auto in = m.inputs(count, t);
      // Parts of n x count elements: a smaller large count keeps the inputs' making short.
      const size_t part = count > 1023 ? 32771 : count;
      auto parts = full ? m.inputs(part * static_cast<size_t>(n), t) : std::vector<std::vector<char>>{};
      for (bool in_place : {false, true}) {
        m.allreduce(count, t, ReduceOp::kSum, Algorithm::kHier, in_place, in);
        for (int root : {0, n - 1, n / 2})
          m.rooted(CollectiveKind::kBroadcast, count, t, ReduceOp::kSum, Algorithm::kHier, root, in_place, in);
        if (!full) continue;
        m.reduce_scatter(part, t, ReduceOp::kSum, in_place, parts, Algorithm::kHier);
        m.all_gather(part, t, in_place, parts, Algorithm::kHier);
      }
    }
  if (!full) return;
  for (ReduceOp op : {ReduceOp::kMax, ReduceOp::kMin, ReduceOp::kAvg, ReduceOp::kProd}) {
    const double scale = op == ReduceOp::kProd ? 2.0 : 50.0;
    auto in = m.inputs(1023, DataType::kF32, scale);
    m.allreduce(1023, DataType::kF32, op, Algorithm::kHier, op == ReduceOp::kAvg, in);
    m.reduce_scatter(1023, DataType::kF32, op, op == ReduceOp::kAvg, m.inputs(1023 * static_cast<size_t>(n), DataType::kF32, scale),
                     Algorithm::kHier);
  }
}

// --algo hier over a made-up split of the ranks into hosts of `per_host` (host keys the
// layout tells apart; every process is on this machine, so shm joins each host's ranks):
// the world's communicator carries nothing, the two levels everything. Hosts of
// consecutive ranks with every algorithm across them; then hosts whose ranks interleave
// (rank r on host r mod hosts), so that world order is not host order.
void hier_matrix(Matrix& m, Bootstrap& boot, int per_host, uint64_t token) {
  const int n = m.comm.size(), hosts = n / per_host;
  for (bool interleaved : {false, true}) {
    std::vector<RankPlace> places;
    for (int r = 0; r < n; ++r) places.push_back({"host-" + std::to_string(interleaved ? r % hosts : r / per_host), "host", "lo"});
    const HostLayout layout = layout_of(places);
    const std::vector<Algorithm> across = interleaved ? std::vector<Algorithm>{Algorithm::kAuto}
                                                      : std::vector<Algorithm>{Algorithm::kAuto, Algorithm::kRing, Algorithm::kTree,
                                                                               Algorithm::kRecursiveDoubling};
    for (Algorithm a : across) {
      TransportChoice intra, inter;
      intra.name = "shm";
      HostLevels levels(boot, layout, HostLevelsPlan{intra, inter, a, token, WaitPolicy{}}, nullptr);
      HierarchyAttached attached(m.comm, &levels);
      hier_collectives(m, a == Algorithm::kAuto);
      boot.barrier();  // every rank done with these levels before any closes them
    }
  }
}

void full_matrix(Matrix& m, size_t large_count) {
  const int n = m.comm.size();
  for (DataType t : all_dtypes()) {
    const size_t large = added_type(t) ? large_count / 8 + 1 : large_count;
    for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{1023}, large}) {
      auto in = m.inputs(count, t);
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax})
        for (Algorithm algo : kAllreduceAlgorithms)
          for (bool in_place : {false, true}) m.allreduce(count, t, op, algo, in_place, in);
    }
    for (ReduceOp op : {ReduceOp::kProd, ReduceOp::kMin, ReduceOp::kAvg}) {
      auto in = m.inputs(1023, t, op == ReduceOp::kProd ? 2.0 : 50.0);
      bool in_place = false;
      for (Algorithm algo : kAllreduceAlgorithms) m.allreduce(1023, t, op, algo, in_place = !in_place, in);
    }
    for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{1023}, large / 16 + 1}) {
      auto in = m.inputs(count * n, t);
      for (bool in_place : {false, true}) {
        m.reduce_scatter(count, t, ReduceOp::kSum, in_place, in);
        m.all_gather(count, t, in_place, in);
        m.all_to_all(count, t, in_place, in);
      }
    }
    rooted_and_point_to_point(m, t, large);
    uneven(m, t, large);
  }
}

}  // namespace

int main(int argc, char** argv) {
  size_t chunk_bytes = argc > 1 ? std::stoul(argv[1]) : (64 << 10);
  const std::string mode = argc > 2 ? argv[2] : "full";
  const int slots = argc > 3 ? std::stoi(argv[3]) : 4;
  try {
    LaunchInfo info = detect_launch(process_env());
    auto boot = make_bootstrap(info, std::chrono::seconds(120));
    TransportChoice choice;  // the verbs tests pick the backend through the environment
    if (const char* t = std::getenv("CCB_WORKER_TRANSPORT")) choice.name = t;
    if (const char* q = std::getenv("CCB_WORKER_QPS")) choice.verbs.qps = std::stoi(q);
    TransportPtr transport = make_transport(choice, boot->rank(), info.token, boot->local_address_hint());
    auto addresses = boot->allgather(transport->listen_address());
    Communicator comm(*transport, boot->rank(), boot->size(), addresses, WaitPolicy{std::chrono::microseconds(20), std::chrono::seconds(120)});
    Matrix m{comm, ChunkPolicy{chunk_bytes, slots}};
    if (mode == "quick") {
      // Many ranks on few cores: small counts around the world size, two types.
      for (DataType t : {DataType::kF32, DataType::kI32})
        for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{63}, size_t{64}, size_t{65}, size_t{1023}}) {
          auto in = m.inputs(count, t);
          for (Algorithm algo : kAllreduceAlgorithms)
            for (bool in_place : {false, true}) m.allreduce(count, t, ReduceOp::kSum, algo, in_place, in);
          auto rs = m.inputs(count * comm.size(), t);
          m.reduce_scatter(count, t, ReduceOp::kSum, false, rs);
          m.all_gather(count, t, true, rs);
          if (comm.size() <= 16) m.all_to_all(count, t, count % 2 == 1, rs);  // 64 ranks: 4032 connections
          m.rooted(CollectiveKind::kBroadcast, count, t, ReduceOp::kSum, Algorithm::kTree, comm.size() - 1, false, in);
          m.rooted(CollectiveKind::kReduce, count, t, ReduceOp::kSum, Algorithm::kRing, comm.size() / 2, true, in);
          m.send_recv(count, t, false, nullptr, in);
          if (comm.size() <= 16)
            m.all_to_allv(make_splits(parse_split_spec("moe:skew=1"), comm.size(), t, count), t, in, "routed");
        }
    } else if (mode.rfind("hier:", 0) == 0) {
      hier_matrix(m, *boot, std::stoi(mode.substr(5)), info.token);
    } else {
      full_matrix(m, mode == "medium" ? 65539 : 1048579);
    }
    boot->barrier();
    std::cout << "rank " << comm.rank() << ": " << m.passed << " passed, " << m.failed << " failed\n";
    return m.failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "collective_worker: error: " << e.what() << "\n";
    return 1;
  }
}
