#include "runner/parallel_runner.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "core/units.h"
#include "runner/step_runner.h"

namespace ccb {

namespace {

// What this rank measured of one lane.
struct LaneTimes {
  std::vector<double> alone_us, together_us;
};

// An error inside a group names the group's local ranks; the user knows world ranks.
Error in_world_terms(const Error& e, const GroupLane& lane) {
  ErrorContext c = e.context();
  auto world = [&lane](int local) {
    return local >= 0 && local < static_cast<int>(lane.members.size()) ? lane.members[static_cast<size_t>(local)] : local;
  };
  c.rank = world(c.rank);
  c.peer = world(c.peer);
  c.phase = std::string(group_kind_name(lane.kind)) + " group: " + c.phase;
  return Error(e.kind(), e.message(), c);
}

// Runs `body(lane index)` for the given lanes, each in its own thread. The first
// failure aborts every lane's transport (their waits end at once) and is rethrown.
template <typename Body>
void run_lanes(std::vector<GroupLane>& lanes, const std::vector<size_t>& which, Body body) {
  std::mutex mu;
  std::optional<Error> first;
  std::string first_other;
  auto run_one = [&](size_t i) {
    try {
      body(i);
    } catch (const std::exception& e) {
      std::lock_guard lock(mu);
      if (first || !first_other.empty()) return;  // the abort's own echoes
      if (const auto* err = dynamic_cast<const Error*>(&e)) first = in_world_terms(*err, lanes[i]);
      else first_other = e.what();
      const std::string why = std::string(group_kind_name(lanes[i].kind)) + " group failed on this rank: " + e.what();
      for (GroupLane& l : lanes) l.comm.transport().abort(why);
    }
  };
  if (which.size() == 1) {
    run_one(which.front());
  } else {
    std::vector<std::thread> threads;
    for (size_t i : which) threads.emplace_back(run_one, i);
    for (auto& t : threads) t.join();
  }
  if (first) throw *first;
  if (!first_other.empty()) throw Error(ErrorKind::kSystem, first_other);
}

std::string encode(const std::vector<GroupLane>& lanes, const std::vector<StepReplay*>& replays,
                   const std::vector<LaneTimes>& times, const std::vector<double>& wall_us, uint64_t wrong) {
  std::ostringstream out;
  out.precision(17);
  out << wrong << ' ' << wall_us.size();
  for (double w : wall_us) out << ' ' << w;
  for (size_t i = 0; i < lanes.size(); ++i) {
    out << ' ' << replays[i]->calls() << ' ' << replays[i]->bytes();
    for (double v : times[i].alone_us) out << ' ' << v;
    for (double v : times[i].together_us) out << ' ' << v;
  }
  return out.str();
}

// Every rank's figures: per pass the slowest rank, then the summaries.
ParallelStepResult combine(const std::vector<GroupLane>& lanes, const std::vector<std::string>& ranks, int passes) {
  ParallelStepResult res;
  std::vector<double> wall(static_cast<size_t>(passes), 0.0);
  std::vector<std::vector<double>> alone(lanes.size(), wall), together(lanes.size(), wall);
  for (const auto& lane : lanes) res.groups.push_back(GroupTiming{lane.kind, static_cast<int>(lane.members.size()), 0, 0, {}, {}});
  for (const std::string& text : ranks) {
    std::istringstream in(text);
    uint64_t wrong = 0;
    size_t n = 0;
    if (!(in >> wrong >> n) || n != wall.size()) throw Error(ErrorKind::kProtocol, "a rank's --parallel figures are malformed");
    res.wrong += wrong;
    auto take_max = [&in](std::vector<double>& into) {
      for (double& v : into) {
        double x = 0;
        if (!(in >> x)) throw Error(ErrorKind::kProtocol, "a rank's --parallel figures are cut short");
        v = std::max(v, x);
      }
    };
    take_max(wall);
    for (size_t i = 0; i < lanes.size(); ++i) {
      size_t calls = 0;
      uint64_t bytes = 0;
      if (!(in >> calls >> bytes)) throw Error(ErrorKind::kProtocol, "a rank's --parallel figures are cut short");
      res.groups[i].calls = std::max(res.groups[i].calls, calls);
      res.groups[i].bytes = std::max(res.groups[i].bytes, bytes);
      take_max(alone[i]);
      take_max(together[i]);
    }
  }
  for (size_t i = 0; i < lanes.size(); ++i) {
    res.groups[i].alone_us = summarize_latency(alone[i]);
    res.groups[i].together_us = summarize_latency(together[i]);
    res.alone_step_us += res.groups[i].alone_us.p50;
  }
  res.together_step_us = summarize_latency(wall);
  return res;
}

}  // namespace

ParallelStepResult run_parallel_step(Bootstrap& world, std::vector<GroupLane>& lanes, const RunOptions& base,
                                     int passes) {
  std::vector<std::unique_ptr<StepReplay>> owned;
  std::vector<StepReplay*> replays;
  for (GroupLane& lane : lanes) {
    owned.push_back(std::make_unique<StepReplay>(lane.comm, lane.boot, lane.calls, base));
    replays.push_back(owned.back().get());
  }
  std::vector<size_t> every(lanes.size());
  for (size_t i = 0; i < lanes.size(); ++i) every[i] = i;

  std::vector<uint64_t> wrong(lanes.size(), 0);
  run_lanes(lanes, every, [&](size_t i) { wrong[i] = replays[i]->prepare(); });  // connects and checks every group

  std::vector<LaneTimes> times(lanes.size());
  for (size_t i = 0; i < lanes.size(); ++i)
    for (int pass = 0; pass < passes; ++pass) {
      world.barrier();
      run_lanes(lanes, {i}, [&](size_t l) { times[l].alone_us.push_back(replays[l]->pass_seconds() * 1e6); });
    }
  std::vector<double> wall_us;
  for (int pass = 0; pass < passes; ++pass) {
    world.barrier();
    const auto t0 = Clock::now();
    run_lanes(lanes, every, [&](size_t l) { times[l].together_us.push_back(replays[l]->pass_seconds() * 1e6); });
    wall_us.push_back(seconds_since(t0) * 1e6);
  }
  uint64_t my_wrong = 0;
  for (uint64_t w : wrong) my_wrong += w;
  return combine(lanes, world.allgather(encode(lanes, replays, times, wall_us, my_wrong)), passes);
}

}  // namespace ccb
