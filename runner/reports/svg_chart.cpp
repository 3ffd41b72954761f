#include "runner/reports/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "runner/reports/xml_text.h"

namespace jsched::runner {

namespace {

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                         "#9467bd", "#8c564b", "#e377c2", "#17becf"};
constexpr double W = 420, H = 260, L = 56, R = 12, T = 30, B = 44;

std::string num(double v) {
  char buf[32];
  if (std::fabs(v) >= 1000 || v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.2g", v);
  }
  return buf;
}

// A round step so the axis gets about `n` ticks; at least 1 for whole-number axes.
double nice_step(double range, int n, bool counts) {
  double raw = range / n, mag = std::pow(10, std::floor(std::log10(raw)));
  double step = 10 * mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * mag) {
      step = m * mag;
      break;
    }
  }
  return counts ? std::max(step, 1.0) : step;
}

// `extra`: height added below the plot (the legend's rows).
std::string frame(const std::string& title, const std::string& x_label, const std::string& y_label,
                  double extra = 0) {
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H + extra
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" "
       "fill=\"white\"/>\n"
    << "<text x=\"" << W / 2
    << "\" y=\"16\" text-anchor=\"middle\" font-weight=\"bold\" font-size=\"13\">"
    << xml_text(title) << "</text>\n<text x=\"" << L + (W - L - R) / 2 << "\" y=\"" << H - 6
    << "\" text-anchor=\"middle\">" << xml_text(x_label)
    << "</text>\n<text transform=\"translate(13," << T + (H - T - B) / 2
    << ") rotate(-90)\" text-anchor=\"middle\">" << xml_text(y_label) << "</text>\n";
  return o.str();
}

}  // namespace

std::string bar_chart(const std::string& title, const std::string& y_label,
                      const std::vector<Bar>& bars) {
  std::ostringstream o;
  o << frame(title, "", y_label);
  double top = 1;
  for (const Bar& b : bars) {
    if (b.present) top = std::max(top, b.value + b.error);
  }
  double step = nice_step(top, 4, true);
  top = std::ceil(top / step) * step;
  auto y = [&](double v) { return T + (H - T - B) * (1 - v / top); };
  for (double v = 0; v <= top + 1e-9; v += step) {
    o << "<line x1=\"" << L << "\" x2=\"" << W - R << "\" y1=\"" << y(v) << "\" y2=\"" << y(v)
      << "\" stroke=\"#eee\"/><text x=\"" << L - 4 << "\" y=\"" << y(v) + 4
      << "\" text-anchor=\"end\">" << num(v) << "</text>\n";
  }
  double slot = (W - L - R) / std::max<size_t>(bars.size(), 1);
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    double x = L + slot * double(i) + slot * 0.2, w = slot * 0.6;
    const char* color = kColors[i % 8];
    if (b.present) {
      o << "<rect x=\"" << x << "\" y=\"" << y(b.value) << "\" width=\"" << w << "\" height=\""
        << y(0) - y(b.value) << "\" fill=\"" << color << "\"><title>" << xml_text(b.label) << ": "
        << num(b.value) << "</title></rect>\n";
      if (b.error > 0) {
        double cx = x + w / 2;
        o << "<line x1=\"" << cx << "\" x2=\"" << cx << "\" y1=\"" << y(b.value + b.error)
          << "\" y2=\"" << y(std::max(0.0, b.value - b.error)) << "\" stroke=\"black\"/>\n";
      }
      o << "<text x=\"" << x + w / 2 << "\" y=\"" << y(b.value) - 3 << "\" text-anchor=\"middle\">"
        << num(b.value) << "</text>\n";
    } else if (b.none_expected) {
      o << "<text x=\"" << x + w / 2 << "\" y=\"" << y(0) - 4
        << "\" text-anchor=\"middle\" fill=\"#777\">none (as expected)</text>\n";
    } else {
      o << "<text x=\"" << x + w / 2 << "\" y=\"" << y(0) - 4
        << "\" text-anchor=\"middle\" fill=\"#a00\">not found</text>\n";
    }
    o << "<text x=\"" << x + w / 2 << "\" y=\"" << H - B + 14 << "\" text-anchor=\"middle\">"
      << xml_text(b.label) << "</text>\n";
  }
  o << "<line x1=\"" << L << "\" x2=\"" << W - R << "\" y1=\"" << y(0) << "\" y2=\"" << y(0)
    << "\" stroke=\"black\"/>\n";
  return o.str() + "</svg>\n";
}

std::string line_chart(const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<Series>& series, bool log_y,
                       bool counts) {
  constexpr double kLegendRow = 14;
  std::ostringstream o;
  o << frame(title, x_label, y_label,
             kLegendRow * double(series.size()) + (series.empty() ? 0 : 12));
  double xmax = 1, ymax = 1, ymin = log_y ? 1 : 0;
  for (const Series& s : series) {
    for (auto [x, v] : s.points) {
      xmax = std::max(xmax, x);
      ymax = std::max(ymax, v);
    }
  }
  auto fx = [&](double x) { return L + (W - L - R) * (xmax <= 1 ? 0.5 : (x - 1) / (xmax - 1)); };
  auto fy = [&](double v) {
    double t = log_y ? std::log10(std::max(v, 1.0)) / std::max(std::log10(ymax), 1e-9)
                     : (v - ymin) / (ymax - ymin);
    return T + (H - T - B) * (1 - t);
  };
  if (log_y) {
    std::vector<double> ticks;
    for (double p = 1; p <= ymax * 1.0001; p *= 10) {
      for (double m : {1.0, 2.0, 5.0}) {
        if (p * m <= ymax * 1.0001) ticks.push_back(p * m);
      }
    }
    if (ticks.size() > 7) {  // decades only when there are many
      ticks.erase(
          std::remove_if(
              ticks.begin(), ticks.end(),
              [](double v) { return std::fabs(std::log10(v) - std::round(std::log10(v))) > 1e-9; }),
          ticks.end());
    }
    for (double v : ticks) {
      o << "<line x1=\"" << L << "\" x2=\"" << W - R << "\" y1=\"" << fy(v) << "\" y2=\"" << fy(v)
        << "\" stroke=\"#eee\"/><text x=\"" << L - 4 << "\" y=\"" << fy(v) + 4
        << "\" text-anchor=\"end\">" << num(v) << "</text>\n";
    }
  } else {
    double step = nice_step(ymax - ymin, 4, counts);
    ymax = ymin + std::ceil((ymax - ymin) / step) * step;
    for (double v = ymin; v <= ymax + 1e-9; v += step) {
      o << "<line x1=\"" << L << "\" x2=\"" << W - R << "\" y1=\"" << fy(v) << "\" y2=\"" << fy(v)
        << "\" stroke=\"#eee\"/><text x=\"" << L - 4 << "\" y=\"" << fy(v) + 4
        << "\" text-anchor=\"end\">" << num(v) << "</text>\n";
    }
  }
  o << "<text x=\"" << L << "\" y=\"" << H - B + 14 << "\">1</text><text x=\"" << W - R << "\" y=\""
    << H - B + 14 << "\" text-anchor=\"end\">" << num(xmax) << "</text>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    const char* color = kColors[i % 8];
    o << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"1.6\" points=\"";
    for (auto [x, v] : s.points) o << fx(x) << "," << fy(v) << " ";
    o << "\"><title>" << xml_text(s.name) << "</title></polyline>\n";
    if (s.points.size() < 60) {
      for (auto [x, v] : s.points) {
        o << "<circle cx=\"" << fx(x) << "\" cy=\"" << fy(v) << "\" r=\"2.2\" fill=\"" << color
          << "\"/>\n";
      }
    }
    const double row = H + 10 + kLegendRow * double(i);  // below the x axis' label
    o << "<rect x=\"" << L << "\" y=\"" << row - 9 << "\" width=\"10\" height=\"10\" fill=\""
      << color << "\"/><text x=\"" << L + 14 << "\" y=\"" << row << "\">" << xml_text(s.name)
      << " (" << s.points.size() << ")</text>\n";
  }
  o << "<line x1=\"" << L << "\" x2=\"" << L << "\" y1=\"" << T << "\" y2=\"" << H - B
    << "\" stroke=\"black\"/>"
    << "<line x1=\"" << L << "\" x2=\"" << W - R << "\" y1=\"" << H - B << "\" y2=\"" << H - B
    << "\" stroke=\"black\"/>\n";
  return o.str() + "</svg>\n";
}

}  // namespace jsched::runner
