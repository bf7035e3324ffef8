#include "help_text.h"

#include <map>

#include "algo/collectives.h"
#include "core/dtype.h"
#include "profiles/profile.h"

namespace ccb::cli {
namespace {

template <typename List, typename Name>
std::string joined(const List& items, Name name, const std::string& between) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : between) + std::string(name(item));
  return out;
}

struct Footer {
  const char* example1;
  const char* example2;
  const char* exit_codes;
};

constexpr const char* kMeasuring = "0 every check passed; 1 wrong results, a failed rule or a lost peer; 2 bad input (before any rank starts)";
constexpr const char* kJudging = "0 pass; 1 a regression, a failed rule, or nothing could be judged (the last line says why); 2 bad input";

const std::map<std::string, Footer>& footers() {
  static const std::map<std::string, Footer> table{
      {"run", {"ccbench run --np 4 -b 1M -e 64M -f 2 --algo ring,tree --json r.json",
               "ccbench run --np 4 --profile llama2-7b:ddp --repeat 5 --json night.json", kMeasuring}},
      {"p2p", {"ccbench p2p --test bw --sizes 1M,8M --json bw.json", "ccbench p2p --test lat --transport verbs --ib-dev mlx5_0",
               kMeasuring}},
      {"scan", {"ccbench scan --topology fabric.yaml --plan leaf-first --json scan.json   (under srun or mpirun, one rank per host)",
                "ccbench scan --plan leaf-first --dry-run --hosts 1024 --leaves 32 --spines 4",
                "0 no slow host, pair or element (--dry-run: the plan printed); 1 a slow host, pair or element, or wrong data; 2 bad input"}},
      {"qualify", {"ccbench qualify --spec specs/tcp.yaml --line-rate 100G --report report/ --junit verdict.xml",
                   "ccbench qualify --spec specs/roce-100g.yaml --json battery.json", "0 pass; 1 a check failed; 2 a bad spec or flag"}},
      {"study", {"ccbench study --np 4 --transports tcp,verbs --profile bert-large:ddp --out study/",
                 "ccbench study --from a.json --label 100G --from b.json --label 10G --out study/", kMeasuring}},
      {"launch", {"ccbench launch --np 4 -- python3 train.py", "ccbench launch --np 2 --timeout 10 -- ./my_bench",
                  "0 when every rank exits 0; otherwise the first failing rank's status"}},
      {"compare", {"ccbench compare base.json night.json", "ccbench compare base.json night.json --min-change 3% --junit compare.xml",
                   kJudging}},
      {"baseline", {"ccbench baseline --out base.json nights/*.json", "ccbench baseline --out base.json host-a.json host-b.json",
                    "0 written; 2 bad input"}},
      {"check", {"ccbench check night.json --rules rules.yaml", "ccbench check night.json --rules rules.yaml --baseline base.json --junit rules.xml",
                 kJudging}},
      {"report", {"ccbench report night.json --out report/", "ccbench report night.json --baseline base.json --rules rules.yaml --out report/",
                  "0 written and passing; 1 a regression or failed rule; 2 bad input"}},
      {"history", {"ccbench history nights/", "ccbench history nights/ --baseline base.json --out trend/", kJudging}},
      {"model", {"ccbench model fit sweep-*.json --out fit.json", "ccbench model project --fit fit.json --ranks 8,64,512 --profile llama2-7b:ddp",
                 "0 done; 2 bad input or a fit not to be trusted"}},
      {"model fit", {"ccbench model fit allreduce.json all_gather.json --out fit.json --plot fit.svg",
                     "ccbench model fit sweeps/*.json --ranks 2,4", "0 fitted (a POOR FIT line flags one not to project from); 2 bad input"}},
      {"model project", {"ccbench model project --fit fit.json --ranks 8,64,512 --gpus-per-node 8",
                         "ccbench model project --alpha 2us --bandwidth 100G --ranks 64,1024 --what-if",
                         "0 projected; 2 bad input, or a poor fit without --accept-poor-fit"}},
      {"fabric", {"ccbench fabric simulate --hosts 1024 --leaves 32 --spines 4 --fault leaf7->spine2:0.5",
                  "ccbench fabric simulate --topology fabric.yaml --plan leaf-first --fault h3:0.5 --json sim.json",
                  "0 nothing slow; 1 a finding; 2 bad input"}},
      {"fabric simulate", {"ccbench fabric simulate --hosts 1024 --leaves 32 --spines 4 --fault spine3:0.5 --plan full",
                           "ccbench fabric simulate --topology fabric.yaml --noise 0.02 --seed 7 --json sim.json",
                           "0 nothing slow; 1 a finding; 2 bad input"}},
      {"model validate", {"ccbench model validate sweeps/*.json --fit-ranks 2,3,4", "ccbench model validate sweeps/*.json --fit-ranks 2,4 --json v.json",
                          "0 validated; 2 bad input"}},
  };
  return table;
}

void add_footers(CLI::App& app, const std::string& path) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    const std::string here = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    const auto it = footers().find(here);
    if (it != footers().end())
      sub->footer(std::string("\nExamples:\n  ") + it->second.example1 + "\n  " + it->second.example2 + "\n\nExit status: " +
                  it->second.exit_codes + "\n");
    add_footers(*sub, here);
  }
}

}  // namespace

std::string dtype_names() { return joined(all_dtypes(), dtype_name, ", "); }
std::string op_names() { return joined(all_ops(), op_name, ", "); }
std::string mode_names() { return joined(all_modes(), mode_name, "|"); }
std::string collective_names() {
  std::vector<std::string_view> names;
  for (const CollectiveDescriptor* d : all_collectives())
    if (d->columns == TableColumns::kCollective) names.push_back(d->name);  // p2p's tests are p2p --test
  return joined(names, [](std::string_view n) { return n; }, ", ");
}

void add_help_footers(CLI::App& app) { add_footers(app, ""); }

}  // namespace ccb::cli
