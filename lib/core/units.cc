#include "core/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/error.h"

namespace ccb {

uint64_t parse_bytes(std::string_view s) {
  std::string_view in = s;
  uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr == s.data())
    throw_invalid("bad size '" + std::string(in) + "': expected a number such as 8, 64K, 25M or 1G");
  s.remove_prefix(static_cast<size_t>(ptr - s.data()));
  uint64_t mult = 1;
  if (!s.empty()) {
    switch (std::toupper(static_cast<unsigned char>(s.front()))) {
      case 'K': mult = 1ull << 10; break;
      case 'M': mult = 1ull << 20; break;
      case 'G': mult = 1ull << 30; break;
      case 'B': mult = 1; break;
      default:
        throw_invalid("bad size suffix in '" + std::string(in) + "': use K, M or G");
    }
    s.remove_prefix(1);
    if (s == "iB" || s == "ib" || s == "B" || s == "b") s = {};
    if (!s.empty()) throw_invalid("bad size '" + std::string(in) + "': trailing '" + std::string(s) + "'");
  }
  if (value > (UINT64_MAX / mult)) throw_invalid("size '" + std::string(in) + "' is too large");
  return value * mult;
}

std::vector<uint64_t> parse_byte_list(std::string_view csv) {
  std::vector<uint64_t> out;
  while (!csv.empty()) {
    size_t comma = csv.find(',');
    std::string_view item = csv.substr(0, comma);
    if (item.empty()) throw_invalid("empty entry in size list: write e.g. 1M,25M,64M");
    out.push_back(parse_bytes(item));
    if (comma == std::string_view::npos) break;
    csv.remove_prefix(comma + 1);
    if (csv.empty()) throw_invalid("size list ends with a comma");
  }
  return out;
}

// The largest binary unit (0: bytes, 1: Ki, 2: Mi, 3: Gi) that divides `bytes` exactly.
static std::pair<uint64_t, int> exact_unit(uint64_t bytes) {
  int u = 0;
  while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return {bytes, u};
}

std::string format_bytes(uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int top = 0;  // the largest unit the size reaches: 1024016 KiB reads as 1000.0 MiB
  while (top < 3 && bytes >= (1ull << (10 * (top + 1)))) ++top;
  auto [n, u] = exact_unit(bytes);
  if (u == top) return std::to_string(n) + " " + units[u];
  const double v = static_cast<double>(bytes) / static_cast<double>(1ull << (10 * top));
  char text[48];
  std::snprintf(text, sizeof text, v >= 100 ? "%.1f %s" : v >= 10 ? "%.2f %s" : "%.3f %s", v, units[top]);
  return text;  // the decimal point says it is rounded
}

std::string short_bytes(uint64_t bytes) {
  static const char* units[] = {"", "K", "M", "G"};
  auto [n, u] = exact_unit(bytes);
  return std::to_string(n) + units[u];
}

double parse_duration_s(std::string_view s, std::string_view flag) {
  constexpr double kMaxSeconds = 30 * 86400.0;
  const std::string text(s);
  auto refuse = [&] {
    throw_invalid(std::string(flag) + " '" + text + "' must be a length of time up to 30 days: 90, 90s, 30m, 8h or 2d");
  };
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 9 || text.size() > digits + 1) refuse();
  const double n = std::stod(text.substr(0, digits));
  const char unit = digits < text.size() ? text[digits] : 's';
  const double per = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 0;
  if (per == 0 || n * per <= 0 || n * per > kMaxSeconds) refuse();
  return n * per;
}

LeadingNumber leading_number(const std::string& text) {
  LeadingNumber n;
  try {
    n.value = std::stod(text, &n.used);
  } catch (const std::exception&) {
    n = {};
  }
  return n;
}

double parse_latency_us(std::string_view s, std::string_view flag) {
  const std::string text(s);
  const auto [v, used] = leading_number(text);
  const std::string unit = text.substr(used);
  const double per = unit.empty() || unit == "us" ? 1 : unit == "ns" ? 1e-3 : unit == "ms" ? 1e3 : unit == "s" ? 1e6 : -1;
  const double us = v * per;
  if (used == 0 || per < 0 || !(us >= 0) || us > 1e7)
    throw_invalid(std::string(flag) + " '" + text + "' must be a latency up to 10 s: 800ns, 2us, 1.5ms");
  return us;
}

std::string format_duration(double seconds) {
  const auto total = static_cast<long long>(seconds < 0 ? 0 : seconds);
  char b[48];
  const long long days = total / 86400, h = total % 86400 / 3600, m = total % 3600 / 60, sec = total % 60;
  if (days > 0) std::snprintf(b, sizeof b, "%lldd %02lld:%02lld:%02lld", days, h, m, sec);
  else std::snprintf(b, sizeof b, "%02lld:%02lld:%02lld", h, m, sec);
  return b;
}

double parse_line_rate(std::string_view s, std::string_view flag) {
  std::string str(s);
  const auto [v, used] = leading_number(str);
  std::string suffix = str.substr(used);
  for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!suffix.empty() && suffix.back() == 'B') throw_invalid(std::string(flag) + " '" + str + "' is in bits per second: write 100G, not 100GB");
  double scale = suffix.empty() ? 1e-9 : suffix == "K" ? 1e-6 : suffix == "M" ? 1e-3 : suffix == "G" ? 1 : suffix == "T" ? 1e3 : -1;
  // 1 Pbit/s is beyond any link; inf, nan and 1e300 are typing mistakes.
  if (used == 0 || scale < 0 || !(v > 0) || !std::isfinite(v) || v * scale > 1e6)
    throw_invalid("bad " + std::string(flag) + " '" + str + "': give bits per second, e.g. 100G, 2.5G or 400M");
  return v * scale;
}

}  // namespace ccb
