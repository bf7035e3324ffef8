#include "run_soak.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "core/error.h"
#include "core/units.h"
#include "runner/soak.h"

namespace ccb::cli {
namespace {

ResultRow soak_row(const CollectiveRunner& runner, int ranks, const SoakState& st, const SoakSize& s) {
  SizeResult r = soak_result(runner, ranks, s);
  r.soak->elapsed_s = st.elapsed_s;
  r.soak->stopped_by = st.stopped_by;
  if (st.first_wrong) r.soak->first_wrong = describe(*st.first_wrong);
  RunOptions o = runner.options();
  o.algorithm = s.algorithm;
  return ResultRow{o, r, "", "", 0, "", false};
}

void record_rows(ResultRecord& record, const CollectiveRunner& runner, int ranks, const SoakState& st) {
  for (const SoakSize& s : st.sizes)
    if (s.calls > 0) record.replace(soak_row(runner, ranks, st, s));
}

std::string progress(const RunCommand& cmd, const SoakState& st) {
  double now = 0, worst = 0;
  uint64_t calls = 0;
  for (const SoakSize& s : st.sizes) {
    calls += s.calls;
    if (s.calls == 0) continue;
    now = s.busbw_last_gbps;
    worst = worst == 0 ? s.busbw_worst_gbps : std::min(worst, s.busbw_worst_gbps);
  }
  char line[256];
  std::snprintf(line, sizeof line, "# soak %s of %s: %llu calls, busbw %.3f GB/s now, %.3f worst, %llu wrong",
                format_duration(st.elapsed_s).c_str(), format_duration(parse_duration_s(cmd.duration, "--duration")).c_str(),
                static_cast<unsigned long long>(calls), now, worst, static_cast<unsigned long long>(st.wrong()));
  return line;
}

}  // namespace

uint64_t run_soak_sweep(const RunCommand& cmd, Communicator& comm, Bootstrap& boot, ResultTable* table,
                        ResultRecord* record, std::string& stopped_by) {
  RunOptions o = cmd.run_options(cmd.algorithm_list().front());
  CollectiveRunner runner(comm, boot, o);
  const bool root = record != nullptr, tty = root && isatty(STDOUT_FILENO);
  double next_interval = cmd.interval_s;
  bool first_told = false;
  SoakOptions options;
  options.duration_s = parse_duration_s(cmd.duration, "--duration");
  const SoakState st = run_soak(runner, boot, cmd.size_list(), options, [&](const SoakState& s) {
    if (!root) return;
    if (s.first_wrong && !first_told) {
      if (tty) std::cout << "\n";
      print_line_to_stderr("soak: first wrong element: " + describe(*s.first_wrong) + "; the soak goes on counting");
      first_told = true;
    }
    const bool interval = s.elapsed_s >= next_interval || !s.stopped_by.empty();
    if (tty) std::cout << "\r" << progress(cmd, s) << "   " << std::flush;
    if (!interval) return;
    if (!tty) std::cout << progress(cmd, s) << "\n" << std::flush;
    record_rows(*record, runner, boot.size(), s);
    while (next_interval <= s.elapsed_s) next_interval += cmd.interval_s;
  });
  stopped_by = st.stopped_by;
  if (root) {
    if (tty) std::cout << "\n";
    table->header("ccbench soak " + std::string(collective_name(o.collective)) + ": " + format_duration(st.elapsed_s) +
                  ", stopped by " + st.stopped_by + "; every call checked", false, false, describe(o.collective).columns);
    for (const SoakSize& s : st.sizes)
      if (s.calls > 0) {
        const ResultRow row = soak_row(runner, boot.size(), st, s);
        table->row(row.result, row.options);
      }
    table->footer();
    if (st.first_wrong) std::cout << "# first wrong element: " << describe(*st.first_wrong) << "\n" << std::flush;
  }
  return st.wrong();
}

}  // namespace ccb::cli
