#include "report/plot.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "core/fd.h"
#include "core/files.h"
#include "core/units.h"

namespace ccb::report {
namespace {

constexpr auto kGnuplotLimit = std::chrono::seconds(60);
constexpr uint64_t kMaxPlotFileBytes = 64ull << 20;

// A gnuplot single-quoted string: only '' needs escaping, and no text is interpreted
// (the terminals run noenhanced).
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "''";
    else if (c != '\n' && c != '\r') out += c;
  }
  return out + "'";
}

std::string number(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

std::string size_tics(const Plot& p) {
  std::set<double> xs;
  for (const Series& s : p.series)
    for (const Point& pt : s.points) xs.insert(pt.x);
  // Sizes closer than 1.4x on a log axis (a profile's buckets) would print over each
  // other: those keep a tic mark without a label.
  std::string tics;
  double labelled = 0;
  for (double x : xs) {
    const bool label = !p.log_x || labelled == 0 || x >= labelled * 1.4;
    if (label) labelled = x;
    if (!tics.empty()) tics += ", ";
    tics += (label ? quoted(short_bytes(static_cast<uint64_t>(x))) : std::string("''")) + " " + number(x);
  }
  // Room on both sides (a log axis), so the first and last sizes keep their labels.
  const std::string range = xs.empty() ? "" : "set xrange [" + number(*xs.begin() / 1.5) + ":" + number(*xs.rbegin() * 1.5) + "]\n";
  return range + "set xtics (" + tics + ") rotate by -30\n";
}

std::string lines(const Plot& p) {
  std::ostringstream s;
  for (size_t i = 0; i < p.series.size(); ++i) {
    s << "$d" << i << " << EOD\n";
    for (const Point& pt : p.series[i].points)
      s << number(pt.x) << " " << number(pt.y) << " " << number(pt.low) << " " << number(pt.high) << "\n";
    s << "EOD\n";
  }
  if (p.x_is_size) s << size_tics(p);
  if (!p.x_is_size && !p.x_tics.empty()) {
    std::string tics;
    for (const auto& [x, label] : p.x_tics) tics += (tics.empty() ? "" : ", ") + quoted(label) + " " + number(x);
    s << "set xtics (" << tics << ") rotate by -30\nset xrange [" << number(p.x_tics.front().first - 0.5) << ":"
      << number(p.x_tics.back().first + 0.5) << "]\n";
  }
  s << "plot ";
  for (size_t i = 0; i < p.series.size(); ++i) {
    const std::string color = " lc " + std::to_string(i + 1);
    if (p.series[i].band)
      s << "$d" << i << " using 1:3:4 with filledcurves fs transparent solid 0.2 noborder" << color << " notitle, ";
    s << "$d" << i << " using 1:2 with linespoints pt 7 ps 0.6 lw 2" << color << " title " << quoted(p.series[i].title)
      << (i + 1 < p.series.size() ? ", " : "\n");
  }
  return s.str();
}

// A label in a datablock: gnuplot reads double-quoted strings there (a label holds spaces).
std::string data_label(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"' || c == '\\' || c == '\n') ? '\'' : c;
  return out + "\"";
}

std::string bars(const Plot& p) {
  std::ostringstream s;
  s << "$bars << EOD\n";
  for (const Bar& b : p.bars) s << data_label(b.label) << " " << number(b.value) << " " << b.color << "\n";
  double low = 0, high = 0;  // bars grow from 0, whichever way they go
  for (const Bar& b : p.bars) low = std::min(low, b.value), high = std::max(high, b.value);
  const double pad = std::max(1.0, (high - low) * 0.1);
  // Every bar 0 (a run against itself): a range around 0, since gnuplot refuses an
  // empty one and draws nothing.
  const double bottom = low < 0 || high == 0 ? low - pad : 0, top = high > 0 || low == 0 ? high + pad : 0;
  s << "EOD\nset boxwidth 0.7\nset style fill solid 0.85\nset xtics rotate by -30\n"
    << (p.bar_legend.empty() ? "unset key\n" : "set key outside top center horizontal\n")
    << "set xzeroaxis lt -1\nset yrange [" << number(bottom) << ":" << number(top) << "]\n"
    << "plot $bars using 0:2:3:xtic(1) with boxes lc rgb variable notitle";
  // A legend entry is an empty series in the colour it names.
  for (const Bar& entry : p.bar_legend) {
    char colour[16];
    std::snprintf(colour, sizeof colour, "#%06x", entry.color & 0xffffffu);
    s << ", NaN with boxes lc rgb '" << colour << "' title " << quoted(entry.label);
  }
  s << "\n";
  return s.str();
}

std::string heatmap(const Plot& p) {
  std::ostringstream s;
  s << "$cells << EOD\n";
  for (size_t row = 0; row < p.cells.size(); ++row)
    for (size_t col = 0; col < p.cells[row].size(); ++col)
      s << col << ' ' << row << ' ' << (std::isfinite(p.cells[row][col]) ? number(p.cells[row][col]) : "NaN") << ' '
        << data_label(row < p.cell_labels.size() && col < p.cell_labels[row].size() ? p.cell_labels[row][col] : "") << "\n";
  s << "EOD\n";
  std::string tics;
  for (size_t i = 0; i < p.cell_names.size(); ++i) tics += (tics.empty() ? "" : ", ") + quoted(p.cell_names[i]) + " " + std::to_string(i);
  const double edge = static_cast<double>(p.cells.size()) - 0.5;
  s << "unset grid\nunset ylabel\nset xrange [-0.5:" << number(edge) << "]\nset yrange [" << number(edge) << ":-0.5]\n"
    << "set xtics (" << tics << ") rotate by -30\nset ytics (" << tics << ")\n"
    << (p.cell_limit ? "set cbrange [0:" + number(2 * *p.cell_limit) + "]\n"
                     : "set cbrange [0:*]\n")  // from zero: red means slow, not merely the slowest of equals
    << (p.cell_limit ? "set palette defined (0 '#a50026', 0.4999 '#f46d43', 0.5 '#fee08b', 1 '#1a9850')\n"
                     : "set palette defined (0 '#d7301f', 0.5 '#fee08b', 1 '#1a9850')\n")
    << "set cblabel " << quoted(p.ylabel) << "\n"
    // pixels: one flat square per pair (an SVG image is otherwise smoothed across
    // cells); the diagonal (a host with itself, NaN) is left blank and unlabelled.
    << "unset key\nplot $cells using 1:2:3 with image pixels notitle, "
    << (p.cell_labels.empty() ? "$cells using 1:2:($1 == $2 ? '' : sprintf('%.3g', $3)) with labels notitle\n"
                              : "$cells using 1:2:4 with labels notitle\n");
  return s.str();
}

// Runs gnuplot in `dir` with the script on its standard input, within a time limit.
// ": LINE", the last line gnuplot wrote to its error file; "" when there is none.
std::string last_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last.empty() ? "" : ": " + last;
}

void run_gnuplot(const std::string& dir, const std::string& script) {
  // A socket, not a pipe: send() with MSG_NOSIGNAL cannot raise SIGPIPE when gnuplot is
  // missing and exits before reading, in a process that does not ignore the signal.
  int in[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) throw_errno("socket pair for gnuplot");
  pid_t pid = fork();
  if (pid < 0) throw_errno("fork gnuplot");
  if (pid == 0) {
    dup2(in[0], 0);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 1);
    if (chdir(dir.c_str()) != 0) _exit(126);
    // gnuplot's warnings ("empty y range" for a single point) are no user's business;
    // a failure's last line goes into the error.
    int err = open("stderr.txt", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (err >= 0) dup2(err, 2);
    execlp("gnuplot", "gnuplot", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  Fd to_gnuplot(in[1]);
  for (size_t done = 0; done < script.size();) {  // an early exit of gnuplot is reported below
    ssize_t n = ::send(to_gnuplot.get(), script.data() + done, script.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  to_gnuplot.reset();
  int status = 0;
  for (auto until = Clock::now() + kGnuplotLimit; waitpid(pid, &status, WNOHANG) == 0;) {
    if (Clock::now() > until) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      throw Error(ErrorKind::kSystem, "gnuplot did not finish a plot within 60 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    throw Error(ErrorKind::kSystem, "gnuplot is not installed: apt-get install gnuplot-nox (tools/install-deps.sh does)");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw Error(ErrorKind::kSystem, "gnuplot failed to draw a plot (status " + std::to_string(WEXITSTATUS(status)) + ")" +
                                        last_line_of(dir + "/stderr.txt"));
}

}  // namespace

bool gnuplot_available() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((dir + "/gnuplot").c_str(), X_OK) == 0) return true;
  return false;
}

std::string gnuplot_script(const Plot& p, const std::string& svg_file, const std::string& png_file) {
  std::ostringstream s;
  s << "set terminal svg size 900,540 noenhanced font 'DejaVu Sans,11' background rgb 'white'\n"
    << "set output " << quoted(svg_file) << "\n"
    << "set title " << quoted(p.title) << "\nset xlabel " << quoted(p.xlabel) << "\nset ylabel " << quoted(p.ylabel) << "\n"
    << "set grid\nset key below box opaque\nset bmargin 7\nset colorsequence classic\n";
  if (p.log_x && p.bars.empty() && p.cells.empty()) s << "set logscale x 2\n";
  if (p.log_y) s << "set logscale y 10\n";
  const std::string body = !p.cells.empty() ? heatmap(p) : p.bars.empty() ? lines(p) : bars(p);
  s << body << "set terminal pngcairo size 900,540 noenhanced font 'DejaVu Sans,10' background rgb 'white'\n"
    << "set output " << quoted(png_file) << "\nreplot\nunset output\n";
  return s.str();
}

Drawing draw(const Plot& p) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "ccbench-plot-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw_errno("cannot make a folder for gnuplot");
  const std::string dir = tmpl;
  Drawing d;
  try {
    run_gnuplot(dir, gnuplot_script(p, "plot.svg", "plot.png"));
    d.svg = read_regular_file(dir + "/plot.svg", kMaxPlotFileBytes, "gnuplot's SVG");
    d.png = read_regular_file(dir + "/plot.png", kMaxPlotFileBytes, "gnuplot's PNG");
  } catch (...) {
    std::filesystem::remove_all(dir);
    throw;
  }
  std::filesystem::remove_all(dir);
  return d;
}

}  // namespace ccb::report
