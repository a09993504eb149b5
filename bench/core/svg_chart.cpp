#include "core/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <sluice/escape.hpp>
#include <sluice/format.hpp>
#include <string_view>

namespace sluice::bench {
namespace {

// The layout, in SVG user units (pixels at 100%).
constexpr double width = 880;
constexpr double margin = 10;
constexpr double char_width = 7.3;       // of 12px monospace, the labels' font
constexpr std::size_t label_chars = 46;  // longer names are cut, whole in the tooltip
constexpr double bars_top = 62;
constexpr double row_height = 22;
constexpr double bar_height = 14;
constexpr double value_room = 64;   // right of the longest bar, for its figure
constexpr double line_height = 16;  // of the notes below the axis

void number(sluice::writer& out, double value) { out.print(value, sluice::fixed(1)); }

void attribute(sluice::writer& out, std::string_view name, double value) {
  out.put(' ');
  out.write(name);
  out.write("=\"");
  number(out, value);
  out.put('"');
}

void attribute(sluice::writer& out, std::string_view name, std::string_view text) {
  out.put(' ');
  out.write(name);
  out.write("=\"");
  sluice::write_xml_attribute(out, text);
  out.put('"');
}

// <text x y class>content</text>, `content` escaped.
void text_at(sluice::writer& out, double x, double y, std::string_view cls,
             std::string_view content) {
  out.write("<text");
  attribute(out, "x", x);
  attribute(out, "y", y);
  attribute(out, "class", cls);
  out.put('>');
  sluice::write_xml_text(out, content);
  out.write("</text>\n");
}

// <`tag` class="`cls`" name="value".../>, the values in user units.
void element(sluice::writer& out, std::string_view tag, std::string_view cls,
             std::initializer_list<std::pair<std::string_view, double>> values) {
  out.put('<');
  out.write(tag);
  attribute(out, "class", cls);
  for (const auto& [name, value] : values) attribute(out, name, value);
  out.write("/>\n");
}

void line(sluice::writer& out, std::string_view cls, double x1, double y1, double x2, double y2) {
  element(out, "line", cls, {{"x1", x1}, {"y1", y1}, {"x2", x2}, {"y2", y2}});
}

bool starts_char(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

// `text`, cut to `most` characters (UTF-8 sequences kept whole, `most` at
// least 4), "..." standing for the rest.
std::string cut(std::string_view text, std::size_t most) {
  if (static_cast<std::size_t>(std::count_if(text.begin(), text.end(), starts_char)) <= most)
    return std::string(text);
  std::size_t chars = 0, end = 0;
  for (; end < text.size(); ++end)
    if (starts_char(text[end]) && ++chars > most - 3) break;
  return std::string(text.substr(0, end)) + "...";
}

// A round step for about five ticks up to `top`: 1, 2 or 5 times a power of 10.
double tick_step(double top) {
  double raw = top / 5;
  double power = std::pow(10, std::floor(std::log10(raw)));
  double r = raw / power;
  return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * power;
}

// Where MB/s values go across the plot.
struct scale {
  double x0;     // 0 MB/s
  double width;  // of the plot
  double top;    // MB/s at its right end: a whole number of ticks
  double step;   // between ticks

  double x(double mb_per_s) const { return x0 + mb_per_s / top * width; }
};

scale scale_of(const chart& c) {
  double most = c.limit.value_or(0);
  std::size_t longest = 6;
  for (const chart_bar& b : c.bars) {
    most = std::max({most, b.median, b.high});
    longest = std::max(longest, std::min(b.name.size(), label_chars));
  }
  double x0 = margin + static_cast<double>(longest) * char_width + 10;
  double step = most > 0 ? tick_step(most) : 1;
  return {x0, width - margin - value_room - x0, std::max(step, std::ceil(most / step) * step),
          step};
}

std::string figure(double mb_per_s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", mb_per_s);
  return text;
}

void write_style(sluice::writer& out) {
  out.write(
      "<style>\n"
      "text { font-family: sans-serif; font-size: 12px; fill: #212529; }\n"
      ".title { font-size: 15px; font-weight: bold; }\n"
      ".name, .value { font-family: monospace; }\n"
      ".tick, .caption, .note { font-size: 11px; fill: #495057; }\n"
      ".sluice { fill: #e8590c; } .peer { fill: #adb5bd; } .limit { fill: #1c7ed6; }\n"
      ".grid { stroke: #e9ecef; } .axis { stroke: #868e96; }\n"
      ".whisker, .cap { stroke: #212529; stroke-width: 1.2; }\n"
      "line.limit { stroke: #1c7ed6; stroke-width: 2; stroke-dasharray: 6 4; }\n"
      "</style>\n");
}

void write_legend(sluice::writer& out) {
  const std::pair<role, const char*> entries[] = {
      {role::sluice, "sluice"}, {role::peer, "peers"}, {role::limit, "raw system calls [limit]"}};
  double x = margin;
  for (const auto& [kind, label] : entries) {
    element(out, "rect", role_name(kind), {{"x", x}, {"y", 36}, {"width", 12}, {"height", 12}});
    text_at(out, x + 17, 46, "legend", label);
    x += 17 + static_cast<double>(std::string_view(label).size()) * 7 + 22;
  }
  line(out, "limit key", x, 42, x + 24, 42);
  text_at(out, x + 30, 46, "legend", "fastest limit");
}

void write_axis(sluice::writer& out, const scale& s, double bottom) {
  for (double tick = 0; tick <= s.top + s.step / 2; tick += s.step) {
    line(out, tick == 0 ? "axis" : "grid", s.x(tick), bars_top - 4, s.x(tick), bottom);
    out.write("<text");
    attribute(out, "x", s.x(tick));
    attribute(out, "y", bottom + 14);
    out.write(" class=\"tick\" text-anchor=\"middle\">");
    out.print(tick, sluice::general(6));
    out.write("</text>\n");
  }
}

void write_bar(sluice::writer& out, const chart_bar& b, const scale& s, double y) {
  double middle = y + row_height / 2;
  out.write("<g class=\"method\"><title>");
  sluice::write_xml_text(out, b.name + ": " + figure(b.median) + " MB/s, runs " + figure(b.low) +
                                  " to " + figure(b.high));
  out.write("</title>\n");
  text_at(out, margin, middle + 4, "name", cut(b.name, label_chars));
  out.write("<rect");
  attribute(out, "class", std::string("bar ") + role_name(b.kind));
  attribute(out, "data-mb-per-s", figure(b.median));
  attribute(out, "x", s.x0);
  attribute(out, "y", middle - bar_height / 2);
  attribute(out, "width", s.x(b.median) - s.x0);
  attribute(out, "height", bar_height);
  out.write("/>\n");
  if (b.runs > 1) {
    line(out, "whisker", s.x(b.low), middle, s.x(b.high), middle);
    line(out, "cap", s.x(b.low), middle - 4, s.x(b.low), middle + 4);
    line(out, "cap", s.x(b.high), middle - 4, s.x(b.high), middle + 4);
  }
  text_at(out, std::max(s.x(b.median), s.x(b.high)) + 5, middle + 4, "value", figure(b.median));
  out.write("</g>\n");
}

// The caption under the axis from `y` down, then what did not run: a line
// each, as notes_height() counts them.
void write_notes(sluice::writer& out, const chart& c, not_run_rows not_run, double y) {
  if (!c.bars.empty()) {
    text_at(out, margin, y, "caption",
            "MB/s (10^6 bytes per second) of the median run; whiskers: the slowest and the "
            "fastest run");
    y += line_height + 4;
  }
  if (not_run == not_run_rows::left_out || c.not_run.empty()) return;
  text_at(out, margin, y, "note", "Not run:");
  for (const std::string& note : c.not_run) {
    y += line_height;
    text_at(out, margin + 10, y, "note not-run", cut(note, 140));
  }
}

// The height write_notes takes.
double notes_height(const chart& c, not_run_rows not_run) {
  double caption = c.bars.empty() ? 0 : line_height + 4;
  if (not_run == not_run_rows::left_out || c.not_run.empty()) return caption;
  return caption + static_cast<double>(c.not_run.size() + 1) * line_height;
}

}  // namespace

void write_svg_chart(sluice::writer& out, const chart& c, not_run_rows not_run) {
  scale s = scale_of(c);
  double bottom = bars_top + static_cast<double>(c.bars.size()) * row_height;
  double notes_top = c.bars.empty() ? bars_top : bottom + 36;
  double height = notes_top + notes_height(c, not_run) + 4;
  out.write("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\"");
  attribute(out, "width", width);
  attribute(out, "height", height);
  out.write(" viewBox=\"0 0 ");
  number(out, width);
  out.put(' ');
  number(out, height);
  out.write("\" role=\"img\">\n<title>");
  sluice::write_xml_text(out, c.title);
  out.write("</title>\n");
  write_style(out);
  text_at(out, margin, 22, "title", c.title);
  write_legend(out);
  if (!c.bars.empty()) write_axis(out, s, bottom);
  for (std::size_t i = 0; i < c.bars.size(); ++i)
    write_bar(out, c.bars[i], s, bars_top + static_cast<double>(i) * row_height);
  if (c.limit) line(out, "limit", s.x(*c.limit), bars_top - 8, s.x(*c.limit), bottom + 2);
  write_notes(out, c, not_run, notes_top);
  out.write("</svg>\n");
}

std::vector<std::string> chart_file_names(const std::vector<std::string>& scenario_of_case) {
  std::map<std::string, int> cases, seen;
  for (const std::string& s : scenario_of_case) ++cases[s];
  std::vector<std::string> names;
  for (const std::string& s : scenario_of_case) {
    int n = ++seen[s];
    names.push_back(cases[s] == 1 ? s + ".svg" : s + "-" + std::to_string(n) + ".svg");
  }
  return names;
}

}  // namespace sluice::bench
