#include "scenarios/record_text.hpp"

#include <charconv>
#include <cstring>
#include <vector>

#include "core/io.hpp"

namespace sluice::bench {
namespace {

constexpr std::size_t chunk_size = 1024 * 1024;

char* copy(char* out, std::string_view text) {
  std::memcpy(out, text.data(), text.size());
  return out + text.size();
}

// `before`, then `value` in its shortest form.
template <class T>
char* field(char* out, std::string_view before, T value) {
  out = copy(out, before);
  return std::to_chars(out, out + 32, value).ptr;
}

char* write_fields(char* out, const record& r, const std::string_view (&before)[5]) {
  out = field(out, before[0], r.id);
  out = field(out, before[1], r.ts);
  out = field(out, before[2], r.x);
  out = field(out, before[3], r.y);
  return field(out, before[4], r.flags);
}

constexpr std::string_view csv_fields[5] = {"", ",", ",", ",", ","};
constexpr std::string_view jsonl_fields[5] = {
    "{\"id\":", ",\"ts\":", ",\"x\":", ",\"y\":", ",\"flags\":"};
constexpr std::string_view xml_fields[5] = {"<record id=\"", "\" ts=\"", "\" x=\"", "\" y=\"",
                                            "\" flags=\""};

}  // namespace

std::string_view form_name(text_form form) {
  switch (form) {
    case text_form::csv: return "CSV";
    case text_form::jsonl: return "JSON Lines";
    case text_form::xml: return "XML";
  }
  return "";
}

std::string_view text_head(text_form form) {
  switch (form) {
    case text_form::csv: return "id,ts,x,y,flags\n";
    case text_form::jsonl: return "";
    case text_form::xml: return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records>\n";
  }
  return "";
}

std::string_view text_tail(text_form form) { return form == text_form::xml ? "</records>\n" : ""; }

char* write_record_text(char* out, text_form form, const record& r) {
  switch (form) {
    case text_form::csv: return copy(write_fields(out, r, csv_fields), "\n");
    case text_form::jsonl: return copy(write_fields(out, r, jsonl_fields), "}\n");
    case text_form::xml: return copy(write_fields(out, r, xml_fields), "\"/>\n");
  }
  return out;
}

record_text_size size_record_text(text_form form, std::uint64_t requested) {
  record_text_size size{0, text_head(form).size() + text_tail(form).size()};
  char line[record_text_room];
  do {
    size.bytes += static_cast<std::uint64_t>(
        write_record_text(line, form, varied_record(size.records)) - line);
    ++size.records;
  } while (size.bytes < requested);
  return size;
}

input_maker record_text_input(text_form form, std::uint64_t records) {
  return make_input_maker([form, records](const char* path) {
    std::vector<char> chunk(chunk_size + record_text_room);
    raw_file out(path);
    char* end = copy(chunk.data(), text_head(form));
    for (std::uint64_t i = 0; i < records; ++i) {
      end = write_record_text(end, form, varied_record(i));
      if (end >= chunk.data() + chunk_size) {
        out.write_all(chunk.data(), static_cast<std::size_t>(end - chunk.data()));
        end = chunk.data();
      }
    }
    end = copy(end, text_tail(form));
    out.write_all(chunk.data(), static_cast<std::size_t>(end - chunk.data()));
    out.finish(false);
  });
}

}  // namespace sluice::bench
