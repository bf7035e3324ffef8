// Plots drawn by gnuplot (Debian's gnuplot-nox), never by SVG written here. ccbench
// hands gnuplot the data (inline datablocks) and a script, in a private mkdtemp folder
// it made (gnuplot then follows no name a user chose), and reads back the SVG and PNG
// that gnuplot drew.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ccb::report {

struct Point {
  double x = 0, y = 0;
  double low = 0, high = 0;  // the band around y, when the series has one
};

struct Series {
  std::string title;
  std::vector<Point> points;
  bool band = false;  // draw low..high as a shaded band under the line
};

struct Bar {
  std::string label;
  double value = 0;
  unsigned color = 0x7f7f7f;  // 0xRRGGBB
};

struct Plot {
  std::string name = {};       // file stem: "busbw" -> busbw.svg, busbw.png
  std::string title = {}, xlabel = {}, ylabel = {};
  bool log_x = true;           // sizes: tics at the sizes measured, labelled 64K, 1M...
  bool log_y = false;
  bool x_is_size = true;       // false: x is a plain number (a night's index)
  std::vector<Series> series = {};  // lines, or
  std::vector<Bar> bars = {};       // bars over named categories
  std::vector<Bar> bar_legend = {}; // what each bar colour means (value unused)
  std::vector<std::pair<double, std::string>> x_tics = {};  // labels of a plain x (a history's nights)
  // or a heatmap: cells[row][column] (NaN: none, as the diagonal of a scan), each
  // row and column named by cell_names; low values red, high green.
  std::vector<std::vector<double>> cells = {};
  std::vector<std::string> cell_names = {};
  std::vector<std::vector<std::string>> cell_labels = {};  // the text in each cell (default: its value)
  // When set, the colour breaks at this value: below it red (it fails), from it yellow
  // to green; the range is [0, 2 x limit].
  std::optional<double> cell_limit = {};
};

struct Drawing {
  std::string svg, png;  // the files' contents
};

bool gnuplot_available();
// The script gnuplot runs (pure, for the tests): writes svg_file and png_file.
std::string gnuplot_script(const Plot& p, const std::string& svg_file, const std::string& png_file);
// Throws kSystem naming gnuplot and the fix when it is missing or fails.
Drawing draw(const Plot& p);

}  // namespace ccb::report
