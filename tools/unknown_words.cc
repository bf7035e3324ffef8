#include "unknown_words.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace ccb::cli {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

std::vector<std::string> flag_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

// "ccbench model project": the root's own name is whatever argv[0] was.
std::string command_path(const CLI::App& app) {
  if (app.get_parent() == nullptr) return "ccbench";
  return command_path(*app.get_parent()) + " " + app.get_name();
}

std::string suggestion(const std::string& word, const std::vector<std::string>& known) {
  const std::optional<std::string> near = nearest_word(word, known);
  return near ? ": did you mean '" + *near + "'?" : "";
}

bool known_flag(const CLI::App& app, const std::string& flag) {
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    if (a->get_option_no_throw(flag) != nullptr) return true;
    if (!a->get_fallthrough()) break;
  }
  return false;
}

// "--sizes=1M" is the flag "--sizes"; "-b1M" the flag "-b"; "-1" and "-" are values.
std::optional<std::string> flag_of(const std::string& word) {
  if (word.size() < 2 || word[0] != '-' || std::isdigit(static_cast<unsigned char>(word[1])) || word[1] == '.') return {};
  if (word[1] != '-') return word.substr(0, 2);
  return word.substr(0, word.find('='));
}

}  // namespace

std::optional<std::string> nearest_word(const std::string& word, const std::vector<std::string>& known) {
  std::optional<std::string> best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const std::string& k : known) {
    const bool prefix = word.size() >= 4 && (k.starts_with(word) || word.starts_with(k));
    const size_t d = prefix ? 1 : edit_distance(word, k);
    if (d < best_distance) best_distance = d, best = k;
  }
  return best;
}

std::optional<std::string> unknown_word(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* current = &app;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") break;
    if (const std::optional<std::string> flag = flag_of(word)) {
      if (known_flag(*current, *flag)) continue;
      return "unknown flag '" + *flag + "' for '" + command_path(*current) + "'" + suggestion(*flag, flag_names(*current));
    }
    const std::vector<std::string> subs = subcommand_names(*current);
    if (std::find(subs.begin(), subs.end(), word) != subs.end()) {
      current = current->get_subcommand(word);
      continue;
    }
    // A word that is no subcommand where one is required: the likeliest typo of all.
    if (current == &app) return "unknown subcommand '" + word + "'" + suggestion(word, subs) + " (ccbench help lists them)";
  }
  return {};
}

std::string unexpected_words(const CLI::App& app, const std::vector<std::string>& args) {
  std::multiset<std::string> left;
  const CLI::App* where = &app;
  while (!where->get_subcommands().empty()) where = where->get_subcommands().back();
  for (const std::string& w : app.remaining(true)) left.insert(w);
  std::string words;
  for (size_t i = 1; i < args.size(); ++i) {
    auto it = left.find(args[i]);
    if (it == left.end()) continue;
    words += (words.empty() ? "" : " ") + args[i];
    left.erase(it);
  }
  return "'" + command_path(*where) + "' does not take '" + words + "'";
}

std::string short_usage(const CLI::App& app) {
  std::ostringstream out;
  out << app.get_description() << "\n\nusage: ccbench SUBCOMMAND [FLAGS]   (ccbench SUBCOMMAND --help: its flags, examples and exit codes)\n\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out << "  " << sub->get_name() << std::string(10 - std::min<size_t>(9, sub->get_name().size()), ' ')
        << sub->get_description() << "\n";
  out << "\nExit status: 0 success, 1 a failed check or a regression, 2 bad input.\n";
  return out.str();
}

}  // namespace ccb::cli
