#include "core/html_report.hpp"

#include <sluice/escape.hpp>

#include "core/chart.hpp"
#include "core/svg_chart.hpp"

namespace sluice::bench {
namespace {

void write_head(sluice::writer& out, const machine_info& m) {
  out.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
  sluice::write_xml_text(out, "sluice-bench, " + m.date + ", " + m.cpu);
  out.write(
      "</title>\n<style>\n"
      "body { font-family: sans-serif; color: #212529; max-width: 920px; margin: 1.5em auto; "
      "padding: 0 1em; }\n"
      "h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }\n"
      "code, pre { font-family: monospace; font-size: 12px; }\n"
      "pre { background: #f8f9fa; padding: 1em; overflow-x: auto; }\n"
      ".case { margin: 1.5em 0; }\n"
      ".not-run { font-size: 13px; color: #495057; }\n"
      "</style>\n</head>\n<body>\n");
}

void write_run(sluice::writer& out, const html_page& page) {
  const machine_info& m = page.run.machine;
  out.write("<h1>sluice-bench</h1>\n<p class=\"machine\">");
  sluice::write_xml_text(out, m.cpu + ", " + std::to_string(m.cores) + " cores, " + m.kernel +
                                  ", " + m.date + "; in " + page.run.dir + " (" + m.filesystem +
                                  ")");
  out.write("</p>\n<p>Command: <code class=\"command\">");
  sluice::write_xml_text(out, page.command);
  out.write("</code></p>\n");
}

void write_not_run(sluice::writer& out, const chart& c) {
  if (c.not_run.empty()) return;
  out.write("<p class=\"not-run\">Not run:</p>\n<ul class=\"not-run\">\n");
  for (const std::string& note : c.not_run) {
    out.write("<li>");
    sluice::write_xml_text(out, note);
    out.write("</li>\n");
  }
  out.write("</ul>\n");
}

void write_case(sluice::writer& out, const case_summary& summary) {
  chart c = chart_of(summary);
  out.write("<section class=\"case\">\n");
  write_svg_chart(out, c, not_run_rows::left_out);
  write_not_run(out, c);
  out.write("</section>\n");
}

}  // namespace

void write_html_report(sluice::writer& out, const html_page& page) {
  write_head(out, page.run.machine);
  write_run(out, page);
  out.write("<h2>Charts</h2>\n");
  for (const case_summary& summary : page.cases) write_case(out, summary);
  out.write("<h2>Tables</h2>\n<pre class=\"tables\">");
  sluice::write_xml_text(out, page.text);
  out.write("</pre>\n</body>\n</html>\n");
}

}  // namespace sluice::bench
