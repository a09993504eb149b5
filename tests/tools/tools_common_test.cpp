// What the sluice tools share (tools/common/): the schema language and the
// format names of the command line, each mistake named.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/schema.hpp"
#include "common/text_format.hpp"

namespace {

// The message of the std::invalid_argument parse_schema(text) throws.
std::string schema_error(const char* text) {
  try {
    sluice_tools::parse_schema(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(tools_common, schema_gives_offsets_and_sizes) {
  auto layout = sluice_tools::parse_schema("id:i32,ts:i64,x:f32,y:f64,flags:u16");
  ASSERT_EQ(layout.fields.size(), 5u);
  EXPECT_EQ(layout.record_size, 26u);
  EXPECT_EQ(layout.fields[1].name, "ts");
  EXPECT_EQ(layout.fields[1].offset, 4u);
  EXPECT_EQ(layout.fields[4].offset, 24u);
  EXPECT_EQ(layout.fields[4].size, 2u);
}

TEST(tools_common, bad_schemas_are_named) {
  EXPECT_NE(schema_error("").find("empty"), std::string::npos);
  EXPECT_NE(schema_error("id").find("'id' is not name:type"), std::string::npos);
  EXPECT_NE(schema_error("id:i3").find("unknown type 'i3'"), std::string::npos);
  EXPECT_NE(schema_error("id:i32,").find("'' is not name:type"), std::string::npos);
  EXPECT_NE(schema_error("1d:i32").find("'1d' is not a name"), std::string::npos);
  EXPECT_NE(schema_error("a\"b:i32").find("is not a name"), std::string::npos);
  EXPECT_NE(schema_error("a:i32,a:u8").find("'a' appears twice"), std::string::npos);
  EXPECT_THROW(sluice_tools::parse_format("yaml"), std::invalid_argument);
}

}  // namespace
