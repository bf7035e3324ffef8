#include "judge/history.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/files.h"
#include "judge/statistics.h"

namespace ccb::judge {
namespace {

// Results and what is not (a compare's JSON beside them); what does not parse counts
// as a result, so its reader names what is wrong with it.
bool is_result(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return true;
  if (j.contains("schema") && j["schema"].is_string())
    return j["schema"].get<std::string>().starts_with("ccbench.result/");
  return j.contains("benchmarks") && j.contains("context");
}

}  // namespace

bool History::latest_regressed() const {
  if (nights.empty()) return false;
  for (const auto* c : {&vs_previous.back(), &vs_baseline.back()})
    if (*c && (*c)->count(Verdict::kRegression) > 0) return true;
  return false;
}

std::optional<double> History::busbw(size_t night, const std::string& key) const {
  for (const Measured& m : nights[night].results)
    if (m.key == key && !m.busbw_gbps.empty()) return summarize_median(m.busbw_gbps).median;
  return std::nullopt;
}

History read_history(const std::string& dir, const ResultFile* baseline, const CompareOptions& o, bool allow_incomplete) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) throw_invalid("history: '" + dir + "' is not a folder");
  History h;
  h.dir = dir;
  std::vector<std::string> paths;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json" && e.is_regular_file() && !e.is_symlink()) paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  for (const std::string& p : paths) {
    std::string text = read_regular_file(p, kMaxResultFileBytes, "result file");
    if (!is_result(text)) h.skipped.push_back(p);
    else h.nights.push_back(parse_result_text(text, p, allow_incomplete));
  }
  if (h.nights.empty()) throw_invalid("history: '" + dir + "' holds no result file (*.json of ccbench run --json)");
  std::stable_sort(h.nights.begin(), h.nights.end(),
                   [](const ResultFile& a, const ResultFile& b) { return a.started_utc < b.started_utc; });
  for (size_t i = 0; i < h.nights.size(); ++i) {
    for (const Measured& m : h.nights[i].results)
      if (std::find(h.keys.begin(), h.keys.end(), m.key) == h.keys.end()) h.keys.push_back(m.key);
    h.vs_previous.push_back(i ? std::optional(compare(h.nights[i - 1], h.nights[i], o)) : std::nullopt);
    h.vs_baseline.push_back(baseline ? std::optional(compare(*baseline, h.nights[i], o)) : std::nullopt);
  }
  return h;
}

}  // namespace ccb::judge
