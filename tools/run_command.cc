#include "run_command.h"

#include <iostream>
#include <sstream>

#include "algo/communicator.h"
#include "bootstrap/bootstrap_factory.h"
#include "core/error.h"
#include "core/reduce.h"
#include "core/units.h"
#include "error_report.h"
#include "runner/result_table.h"

namespace ccb::cli {

// The default list: latency, then message sizes of LLM training (DDP's first 1 MiB
// bucket and 25 MiB buckets, tensor-parallel activations of 16-64 MiB).
static const char* kLlmSizes = "8,64K,1M,4M,16M,25M,64M";

std::vector<uint64_t> RunCommand::size_list() const {
  if (!sizes.empty()) return parse_byte_list(sizes);
  if (min_bytes.empty() && max_bytes.empty()) return parse_byte_list(kLlmSizes);
  uint64_t lo = parse_bytes(min_bytes.empty() ? max_bytes : min_bytes);
  uint64_t hi = parse_bytes(max_bytes.empty() ? min_bytes : max_bytes);
  if (lo > hi) throw_invalid("-b (" + format_bytes(lo) + ") is larger than -e (" + format_bytes(hi) + ")");
  if (step_factor <= 1 && lo != hi) throw_invalid("-f must be greater than 1");
  std::vector<uint64_t> out;
  for (double s = static_cast<double>(lo); s <= static_cast<double>(hi) * 1.0000001; s *= step_factor) {
    out.push_back(static_cast<uint64_t>(s));
    if (lo == hi) break;
  }
  return out;
}

std::vector<Algorithm> RunCommand::algorithm_list() const {
  std::vector<Algorithm> out;
  std::stringstream in(algos);
  for (std::string a; std::getline(in, a, ',');) out.push_back(parse_algorithm(a));
  if (out.empty()) throw_invalid("--algo needs ring, tree or ring,tree");
  return out;
}

RunOptions RunCommand::run_options(Algorithm a) const {
  RunOptions o;
  o.collective = parse_collective(collective);
  o.algorithm = a;
  o.dtype = parse_dtype(dtype);
  o.op = parse_op(op);
  o.iters = iters;
  o.warmup = warmup;
  o.check = check != 0;
  o.in_place = in_place;
  o.chunks = ChunkPolicy{parse_bytes(chunk_bytes), slots};
  return o;
}

void RunCommand::validate(int world) const {
  if (timeout_s <= 0) throw_invalid("--timeout must be positive (seconds)");
  if (parse_bytes(chunk_bytes) < 64) throw_invalid("--chunk-bytes must be at least 64");
  auto algorithms = algorithm_list();
  RunOptions o = run_options(algorithms.front());
  for (Algorithm a : algorithms) validate_algorithm(o.collective, a);
  for (uint64_t s : size_list()) validate_size(o.collective, o.dtype, world, s);
}

static std::string title(const RunCommand& c, const RunOptions& o, const Bootstrap& b, const Transport& t) {
  std::ostringstream s;
  s << "ccbench " << collective_name(o.collective) << " algo=" << algorithm_name(o.algorithm) << " ranks=" << b.size()
    << " bootstrap=" << b.name() << " transport=[" << t.describe() << "] isa=" << isa_name(active_isa())
    << " chunk=" << c.chunk_bytes << " " << (o.in_place ? "in-place" : "out-of-place");
  return s.str();
}

int run_rank(const RunCommand& cmd) {
  LaunchInfo info = detect_launch(process_env());
  if (cmd.np_given && info.source != "single" && info.world_size != cmd.np)
    throw_invalid("--np " + std::to_string(cmd.np) + " but the launcher (" + info.source + ") started " +
                  std::to_string(info.world_size) + " ranks: drop --np or make them agree");
  cmd.validate(info.world_size);
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(cmd.timeout_s * 1000));
  auto boot = make_bootstrap(info, timeout);
  uint64_t wrong = 0;
  try {
    TransportPtr transport = make_transport(cmd.transport, boot->rank(), info.token, boot->local_address_hint());
    auto addresses = boot->allgather(transport->listen_address());
    Communicator comm(*transport, boot->rank(), boot->size(), addresses,
                      WaitPolicy{std::chrono::microseconds(cmd.spin_us), timeout});
    ResultTable table(std::cout);
    for (Algorithm a : cmd.algorithm_list()) {
      RunOptions o = cmd.run_options(a);
      CollectiveRunner runner(comm, *boot, o);
      if (boot->rank() == 0) table.header(title(cmd, o, *boot, *transport));
      for (uint64_t bytes : cmd.size_list()) {
        SizeResult r = runner.run(bytes);
        wrong += r.wrong;
        if (boot->rank() == 0) table.row(r, o);
      }
      if (boot->rank() == 0) table.footer();
    }
    boot->barrier();
  } catch (const std::exception& e) {
    int status = report_error(e);
    boot->abort_job();  // under MPI, end the job now rather than leave peers waiting
    return status;
  }
  return wrong > 0 ? 1 : 0;
}

}  // namespace ccb::cli
