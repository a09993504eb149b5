// The escaping writers (<sluice/escape.hpp>), read back by independent
// parsers: nlohmann-json for JSON, Python's json, csv and xml.etree modules.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using escape_test = dir_test;

// Inputs chosen to break escaping: every special character of each format,
// control bytes, "]]>", and ill-formed UTF-8 of every kind.
std::vector<std::string> adversarial_inputs() {
  std::vector<std::string> inputs = {
      "",
      "plain text",
      "a,b",
      "a;b",
      "\"",
      "\"\"",
      "say \"hi\"",
      "line\nbreak",
      "cr\rlf\r\n",
      "\r",
      "tab\there",
      "<tag attr='x'>&amp;</tag>",
      "]]>",
      "a]]>b]]]]>",
      "back\\slash\\",
      "\\u0041",
      std::string("nul\0byte", 8),
      "\x01\x02\x1f\x7f",
      "\b\f\v\x1b[0m",
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80",  // é € 😀
      "\xE2\x80\xA8\xE2\x80\xA9",                   // U+2028 U+2029
      "\xEF\xBF\xBE\xEF\xBF\xBF",                   // U+FFFE U+FFFF
      "\xEF\xBF\xBD",                               // U+FFFD itself
      "\xFF",
      "\xC0\xAF",          // overlong '/'
      "\xE0\x80\xAF",      // overlong, three bytes
      "\xED\xA0\x80",      // a surrogate
      "\xF4\x90\x80\x80",  // above U+10FFFF
      "\xF8\x88\x80\x80\x80",
      "\xC3",          // truncated at the end
      "\xE2\x82",      // truncated at the end
      "\xE2\x82x",     // truncated in the middle
      "\xF0\x9F\x98",  // truncated four bytes
      "\x80\x80\xBF",  // lone continuations
      "ok\xC3\xA9\xFFok\xE2\x82\xACok",
      "'single' \"double\"",
      "  spaces  ",
      "#comment,\"q\"\n\r,",
  };
  // Random strings over an alphabet rich in what needs escaping.
  std::mt19937 random(5);
  const std::string alphabet =
      "ab,;\"'<>&]\n\r\t\\\x01\x7f\x80\xBF\xC3\xA9\xE2\x82\xAC\xED\xF0\x9F\xFF";
  for (int i = 0; i < 2000; ++i) {
    std::string text(random() % 12, ' ');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    inputs.push_back(text);
  }
  return inputs;
}

// What the escaping writer `write` makes of `text`.
template <class Write>
std::string escaped(const std::filesystem::path& path, std::string_view text, Write write) {
  {
    writer out(path, {.buffer_size = 4});
    write(out, text);
    out.close();
  }
  return read_all(path);
}

TEST_F(escape_test, documented_forms) {
  auto csv_comma = [](writer& w, std::string_view t) { sluice::write_csv_field(w, t); };
  auto path = dir / "e";
  EXPECT_EQ(escaped(path, "a<b>&c]]>\r\n\t", sluice::write_xml_text),
            "a&lt;b&gt;&amp;c]]&gt;&#13;\n\t");
  EXPECT_EQ(escaped(path, "\"'\t\n\r<", sluice::write_xml_attribute),
            "&quot;&apos;&#9;&#10;&#13;&lt;");
  EXPECT_EQ(escaped(path, std::string("\x01\0x", 3), sluice::write_xml_text),
            "\xEF\xBF\xBD\xEF\xBF\xBDx");
  EXPECT_EQ(escaped(path, "\"\\\b\f\n\r\t\x01\x1f\x7f/", sluice::write_json_string),
            "\"\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\x7f/\"");
  EXPECT_EQ(escaped(path, "\xC3\xA9\xFF\xE2\x82", sluice::write_json_string),
            "\"\xC3\xA9\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(escaped(path, "\xF4\x90\x80", sluice::write_json_string),
            "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // F4 90 is not a maximal subpart
  EXPECT_EQ(escaped(path, "plain", csv_comma), "plain");
  EXPECT_EQ(escaped(path, "", csv_comma), "");
  EXPECT_EQ(escaped(path, "a \"b\",c", csv_comma), "\"a \"\"b\"\",c\"");
  EXPECT_EQ(escaped(path, "a\nb", csv_comma), "\"a\nb\"");
  EXPECT_EQ(escaped(path, "a,b",
                    [](writer& w, std::string_view t) { sluice::write_csv_field(w, t, ';'); }),
            "a,b");
  EXPECT_EQ(escaped(path, std::string("\xFF\0z", 3), csv_comma), std::string("\xFF\0z", 3));
}

// True if nlohmann-json accepts `text` as UTF-8 (its dump() refuses invalid).
bool is_valid_utf8(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

TEST_F(escape_test, json_strings_parse_back_with_nlohmann) {
  auto inputs = adversarial_inputs();
  auto path = dir / "json";
  {
    writer out(path, {.buffer_size = 7});
    for (const auto& text : inputs) {
      sluice::write_json_string(out, text);
      out.put('\n');
    }
    out.close();
  }
  std::string all = read_all(path);
  std::size_t line_start = 0, valid = 0;
  for (const auto& text : inputs) {
    std::size_t line_end = all.find('\n', line_start);
    ASSERT_NE(line_end, std::string::npos);
    std::string line = all.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    nlohmann::json parsed = nlohmann::json::parse(line);  // throws (fails) if not JSON
    ASSERT_TRUE(parsed.is_string()) << line;
    auto back = parsed.get<std::string>();
    EXPECT_TRUE(is_valid_utf8(back)) << line;
    if (is_valid_utf8(text)) {
      ++valid;
      EXPECT_EQ(back, text) << line;
    } else {
      EXPECT_NE(back.find("\xEF\xBF\xBD"), std::string::npos) << line;
    }
  }
  EXPECT_EQ(line_start, all.size());
  EXPECT_GT(valid, 100u);  // both kinds were exercised
}

#ifdef SLUICE_TEST_PYTHON3
// Writes the inputs, one "x<hex>" per line, for escape_check.py.
void write_inputs(const std::filesystem::path& path, const std::vector<std::string>& inputs) {
  std::string lines;
  for (const auto& text : inputs) {
    lines += 'x';
    for (unsigned char c : text) {
      lines += "0123456789abcdef"[c >> 4];
      lines += "0123456789abcdef"[c & 0xF];
    }
    lines += '\n';
  }
  write_all(path, lines);
}

// Runs escape_check.py on `output`; returns its verdict and what it printed.
std::string python_check(const temp_dir& dir, const char* kind,
                         const std::vector<std::string>& inputs) {
  write_inputs(dir / "inputs", inputs);
  std::string command = std::string("'") + SLUICE_TEST_PYTHON3 + "' '" + SLUICE_TEST_SOURCE_DIR +
                        "/text/escape_check.py' " + kind + " '" + (dir / "output").native() +
                        "' '" + (dir / "inputs").native() + "' > '" + (dir / "said").native() +
                        "' 2>&1";
  int status = std::system(command.c_str());
  std::string said = read_all(dir / "said");
  return status == 0 ? "" : "python says: " + said + " (status " + std::to_string(status) + ")";
}

TEST_F(escape_test, json_strings_parse_back_with_python) {
  auto inputs = adversarial_inputs();
  {
    writer out(dir / "output", {.buffer_size = 5});
    for (const auto& text : inputs) {
      sluice::write_json_string(out, text);
      out.put('\n');
    }
    out.close();
  }
  EXPECT_EQ(python_check(dir, "json", inputs), "");
}

TEST_F(escape_test, xml_text_and_attributes_parse_back_with_python) {
  auto inputs = adversarial_inputs();
  {
    writer out(dir / "output", {.buffer_size = 5});
    out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>\n");
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      out.write(i % 2 ? "<e a=\"" : "<e a='");
      sluice::write_xml_attribute(out, inputs[i]);
      out.write(i % 2 ? "\">" : "'>");
      sluice::write_xml_text(out, inputs[i]);
      out.write("</e>\n");
    }
    out.write("</doc>\n");
    out.close();
  }
  EXPECT_EQ(python_check(dir, "xml", inputs), "");
}

TEST_F(escape_test, csv_fields_parse_back_with_python) {
  auto inputs = adversarial_inputs();
  {
    writer out(dir / "output", {.buffer_size = 5});
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      out.print(i);
      out.put(',');
      sluice::write_csv_field(out, inputs[i]);
      out.write(",end\r\n");
    }
    out.close();
  }
  EXPECT_EQ(python_check(dir, "csv", inputs), "");
}
#else
TEST(escape, python_checks_need_python3) {
  GTEST_SKIP() << "python3 was not found at configure time (or the build is a cross build): "
                  "JSON, XML and CSV are not read back by Python";
}
#endif

}  // namespace
