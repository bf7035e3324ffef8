#include "transport_sweep.h"

#include <regex>
#include <sstream>

#include "core/error.h"
#include "core/memory_space.h"

namespace ccb::cli {

TransportSweep parse_transport_sweep(const std::string& text, const std::string& transport) {
  std::smatch m;
  if (!std::regex_match(text, m, std::regex(R"((qps|streams)=(\d{1,2}(,\d{1,2}){0,15}))")))
    throw_invalid("--sweep '" + text + "' must be qps=1,2,4 (verbs) or streams=1,2,4 (tcp, ipoib)");
  TransportSweep s{m[1], {}};
  if (s.knob == "qps" && transport != "verbs") throw_invalid("--sweep qps= needs --transport verbs: use streams= for " + transport);
  if (s.knob == "streams" && transport == "verbs") throw_invalid("--sweep streams= is for tcp and ipoib: use qps= for verbs");
  std::stringstream in(m[2].str());
  const int most = s.knob == "qps" ? 15 : 64;
  for (std::string v; std::getline(in, v, ',');) {
    const int n = std::stoi(v);
    if (n < 1 || n > most) throw_invalid("--sweep " + s.knob + "=" + v + ": give 1 to " + std::to_string(most));
    s.values.push_back(n);
  }
  return s;
}

namespace {

TransportChoice with_setting(TransportChoice t, const std::string& knob, int value) {
  if (knob == "qps") t.verbs.qps = value;
  else t.tcp.streams = value;
  return t;
}

// A transport of its own per setting: its hellos carry a token of their own, so a
// connection of one setting can never be taken for another's.
uint64_t setting_token(uint64_t job_token, int index) { return job_token ^ (0xc2b2ae3d27d4eb4full * static_cast<uint64_t>(index + 1)); }

}  // namespace

uint64_t run_transport_sweep(const RunCommand& cmd, RankContext& rank, ResultTable* table, ResultRecord* record) {
  const TransportSweep sweep = parse_transport_sweep(cmd.sweep, cmd.transport.name);
  uint64_t wrong = 0;
  const WaitPolicy policy = rank.settings.wait_policy();
  for (size_t i = 0; i < sweep.values.size(); ++i) {
    const std::string variant = sweep.knob + "=" + std::to_string(sweep.values[i]);
    TransportPtr t = make_transport(with_setting(rank.settings.transport, sweep.knob, sweep.values[i]), rank.boot.rank(),
                                    setting_token(rank.info.token, static_cast<int>(i)), rank.boot.local_address_hint());
    AbortList::Entry on_abort(rank.aborts, *t);
    Communicator comm(*t, rank.boot.rank(), rank.boot.size(), rank.boot.allgather(t->listen_address()), policy,
                      memory_space(rank.settings.transport.memory));
    RunOptions o = cmd.run_options(cmd.algorithm_list().front());
    o.variant = variant;
    CollectiveRunner runner(comm, rank.boot, o);
    if (table) table->header("ccbench " + std::string(collective_name(o.collective)) + " " + variant + " transport=[" + t->describe() + "]",
                             false, false, describe(o.collective).columns);
    for (uint64_t bytes : cmd.size_list()) {
      SizeResult r = runner.run(bytes);
      wrong += r.wrong;
      RunOptions ran = o;
      ran.algorithm = r.algorithm;
      if (table) table->row(r, ran);
      if (record) record->add(ResultRow{ran, r, "", "", 0, "", false});
    }
    if (table) table->footer();
    rank.boot.barrier();  // every rank done with this transport before any closes it
  }
  return wrong;
}

}  // namespace ccb::cli
