// Small inline SVG charts for the HTML report (no scripts, no external resources).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace jsched::runner {

struct Bar {
  std::string label;
  double value, error;
  bool present;  // false: nothing to show (e.g. never found), drawn as a marked gap
  // With present false: nothing was expected either (a correct program), not drawn as a miss.
  bool none_expected = false;
};

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;
};

// Bars of counts: the y axis has whole-number ticks.
std::string bar_chart(const std::string& title, const std::string& y_label,
                      const std::vector<Bar>& bars);
// `log_y`: logarithmic y axis (frequencies spanning orders of magnitude); `counts`: y values are
// whole numbers (ticks too). The legend goes below the plot, never over the lines.
std::string line_chart(const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<Series>& series, bool log_y,
                       bool counts = true);

}  // namespace jsched::runner
