// The command line's first reader: before CLI11 parses, a subcommand or a flag that no
// one defines is named in one line with its nearest known spelling. CLI11 alone says
// "A subcommand is required" for a typo and lists unexpected words in reverse.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ccb::cli {

// The nearest of `known` to `word` when it is close enough to be a typo of it.
std::optional<std::string> nearest_word(const std::string& word, const std::vector<std::string>& known);

// The first unknown subcommand or flag in `args` (argv, the program first), as the one
// line to print; nullopt when every word is known to `app`.
std::optional<std::string> unknown_word(const CLI::App& app, const std::vector<std::string>& args);

// CLI11's "arguments were not expected" rebuilt with the words in the order typed.
std::string unexpected_words(const CLI::App& app, const std::vector<std::string>& args);

// The short usage: what ccbench is, its subcommands one line each, where help is.
std::string short_usage(const CLI::App& app);

}  // namespace ccb::cli
