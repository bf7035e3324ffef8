// `ccbench run ... --rules RULES`: the run judged by its rules at its end, on rank 0,
// from the very record it writes (the result file is the contract). With --retries K
// the sizes that fail are measured again, by every rank in step, up to K times, before
// a rule fails: one stall on a shared link is not a failed NIC.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "core/files.h"
#include "judge/rules.h"
#include "runner/result_record.h"

namespace ccb::cli {

struct RunRules {
  std::string path;
  std::vector<judge::Rule> rules;
  std::optional<judge::ResultFile> baseline;
  int retries = 0;
  std::optional<OutputTarget> junit;
};

// Loads and checks everything before any rank starts; nullopt without --rules.
std::optional<RunRules> load_run_rules(const std::string& rules, const std::string& baseline, int retries,
                                       const std::string& junit);

// Every rank calls this. `record` is rank 0's (null elsewhere); `remeasure` runs one
// size again with one algorithm, on every rank. Returns 1 when a rule failed, else 0.
int judge_run(const RunRules& r, Bootstrap& boot, ResultRecord* record,
              const std::function<void(const std::string& algorithm, uint64_t bytes)>& remeasure);

}  // namespace ccb::cli
