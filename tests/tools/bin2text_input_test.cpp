// sluice-bin2text's input and its standard output by name. A stream (a
// FIFO, a pipe on standard input or /dev/stdin, /dev/zero) converts to the
// very text the same records give from a file, on any number of threads; a
// stream that ends inside a record names it and leaves an -o file as it
// was, or standard output with whole records and no tail; a directory is
// refused before anything is written; -o /dev/stdout is standard output.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bin2text/convert.hpp"
#include "common/schema.hpp"
#include "common/text_format.hpp"
#include "support/child_process.hpp"
#include "support/test_support.hpp"
#include "tool_run.hpp"

namespace {

using namespace sluice_test;

using bin2text_input = dir_test;

constexpr const char* schema = "id:i32,ts:i64,x:f32,y:f64,flags:u16";
constexpr std::size_t record = 26;
constexpr const char* xml_tail = "</records>\n";

bin2text::job make_job(const std::filesystem::path& input, const std::filesystem::path& output,
                       sluice_tools::format format = sluice_tools::format::xml) {
  bin2text::job work;
  work.input = input.native();
  work.output = output.native();
  work.layout = sluice_tools::parse_schema(schema);
  work.format = format;
  return work;
}

// What the conversion of `bytes`, read from a file, gives.
std::string converted_from_file(const temp_dir& dir, const std::string& bytes,
                                sluice_tools::format format = sluice_tools::format::xml) {
  write_all(dir / "model.bin", bytes);
  bin2text::run(make_job(dir / "model.bin", dir / "model.out", format));
  return read_all(dir / "model.out");
}

// A FIFO at `path`, and a sender of `bytes` into it in odd pieces; the
// sender's open waits for the reader's.
std::filesystem::path make_fifo(const std::filesystem::path& path) {
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
  return path;
}
std::unique_ptr<sender> send_to_fifo(const std::filesystem::path& fifo, const std::string& bytes) {
  return std::make_unique<sender>([fifo] { return ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC); },
                                  bytes, 10007);
}

// Opens the FIFO for reading without waiting and closes it again: a sender
// still waiting in its open (the conversion failed before it opened the
// FIFO) goes on, finds no reader and ends.
void release(const std::filesystem::path& fifo) {
  int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0) ::close(fd);
}

// The names in `dir`.
std::set<std::string> names_in(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.insert(entry.path().filename());
  return names;
}

TEST_F(bin2text_input, a_fifo_gives_the_text_of_the_same_records_in_a_file) {
  std::string bytes = pattern(record * 60000, 3);  // 1.56 MB: several chunks
  auto fifo = make_fifo(dir / "fifo");
  for (auto format :
       {sluice_tools::format::xml, sluice_tools::format::csv, sluice_tools::format::jsonl}) {
    std::string from_file = converted_from_file(dir, bytes, format);
    for (unsigned threads : {1u, 2u, 5u}) {
      auto sending = send_to_fifo(fifo, bytes);
      auto work = make_job(fifo, dir / "out", format);
      work.threads = threads;
      EXPECT_NO_THROW(bin2text::run(work));
      release(fifo);
      sending->join();
      EXPECT_TRUE(read_all(dir / "out") == from_file) << threads << " threads: the texts differ";
    }
  }
}

TEST_F(bin2text_input, an_empty_stream_is_an_empty_document) {
  auto fifo = make_fifo(dir / "fifo");
  auto sending = send_to_fifo(fifo, "");
  EXPECT_NO_THROW(bin2text::run(make_job(fifo, dir / "out")));
  release(fifo);
  sending->join();
  EXPECT_EQ(read_all(dir / "out"), converted_from_file(dir, ""));
}

TEST_F(bin2text_input, a_stream_ending_inside_a_record_names_it_and_keeps_the_old_output) {
  // 5.2 MB of whole records, written to the temporary before the end shows.
  std::string bytes = pattern(record * 200000 + 5, 8);
  auto fifo = make_fifo(dir / "fifo");
  write_all(dir / "out", "previous content");
  auto sending = send_to_fifo(fifo, bytes);
  auto error = thrown<std::runtime_error>([&] { bin2text::run(make_job(fifo, dir / "out")); });
  release(fifo);
  sending->join();
  ASSERT_TRUE(error);
  std::string what = error->what();
  EXPECT_NE(what.find("fifo' ended after 5200005 bytes"), std::string::npos) << what;
  EXPECT_NE(what.find("record at offset 5200000 is truncated (5 bytes)"), std::string::npos)
      << what;
  EXPECT_EQ(read_all(dir / "out"), "previous content");
  EXPECT_EQ(names_in(dir.path()), (std::set<std::string>{"fifo", "out"})) << "a temporary is left";
}

TEST_F(bin2text_input, a_directory_is_refused_and_the_old_output_kept) {
  write_all(dir / "out", "previous content");
  std::filesystem::create_directory(dir / "records");
  auto error =
      thrown<std::runtime_error>([&] { bin2text::run(make_job(dir / "records", dir / "out")); });
  ASSERT_TRUE(error);
  EXPECT_NE(std::string(error->what()).find("records' is a directory"), std::string::npos)
      << error->what();
  EXPECT_EQ(read_all(dir / "out"), "previous content");
}

#ifdef SLUICE_BIN2TEXT
// Runs sluice-bin2text with `args` and its standard input on `in`.
program_output run_bin2text(const std::vector<std::string>& args, int in) {
  return run_program(SLUICE_BIN2TEXT, args, in);
}

// Runs sluice-bin2text with `args`, `bytes` sent to its standard input
// through a pipe.
program_output run_bin2text_on_pipe(const std::vector<std::string>& args,
                                    const std::string& bytes) {
  pipe_ends in;
  sender sending([&] { return in.take_write_end(); }, bytes, 10007);
  program_output result = run_bin2text(args, in.read_end());
  in.close_read();
  sending.join();
  return result;
}

TEST_F(bin2text_input, standard_input_and_dev_stdin_as_a_pipe_convert_every_record) {
  std::string bytes = pattern(record * 60000, 5);
  std::string from_file = converted_from_file(dir, bytes);
  for (const char* input : {"-", "/dev/stdin"}) {
    write_all(dir / "prev.xml", "previous content");
    auto run =
        run_bin2text_on_pipe({"--schema", schema, "-o", (dir / "prev.xml").native(), input}, bytes);
    EXPECT_TRUE(exited_with(run.status, 0)) << input << ": " << run.err;
    EXPECT_TRUE(read_all(dir / "prev.xml") == from_file) << input << ": the texts differ";
  }
}

TEST_F(bin2text_input, standard_input_from_a_file_is_read_from_its_offset) {
  std::string bytes = pattern(record * 1000, 6);
  write_all(dir / "in.bin", bytes);
  int fd = ::open((dir / "in.bin").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, record * 10, SEEK_SET), static_cast<off_t>(record * 10));
  auto run = run_bin2text({"--schema", schema, "-"}, fd);
  ::close(fd);
  EXPECT_TRUE(exited_with(run.status, 0)) << run.err;
  EXPECT_TRUE(run.out == converted_from_file(dir, bytes.substr(record * 10)));
}

TEST_F(bin2text_input, a_directory_writes_nothing_to_standard_output) {
  int directory = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(directory, 0);
  for (const std::string& input : {dir.path().native(), std::string("-")}) {
    auto run = run_bin2text({"--schema", "v:u64", input}, directory);  // 4096 bytes of 8
    EXPECT_TRUE(exited_with(run.status, 1)) << input << ": status " << run.status;
    EXPECT_EQ(run.out, "") << input;
    EXPECT_NE(run.err.find("' is a directory"), std::string::npos) << run.err;
  }
  ::close(directory);
}

TEST_F(bin2text_input, dev_stdout_and_dev_fd_1_are_standard_output) {
  std::string bytes = pattern(record * 3000, 7);
  write_all(dir / "in.bin", bytes);
  std::string from_file = converted_from_file(dir, bytes);
  for (const char* output : {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    auto run =
        run_bin2text({"--schema", schema, "-o", output, (dir / "in.bin").native()}, STDIN_FILENO);
    EXPECT_TRUE(exited_with(run.status, 0)) << output << ": " << run.err;
    EXPECT_TRUE(run.out == from_file) << output << ": the texts differ";
  }
}

TEST_F(bin2text_input, a_truncated_stream_leaves_whole_records_and_no_tail_on_standard_output) {
  std::string whole = pattern(record * 200000, 9);  // several chunks
  auto run = run_bin2text_on_pipe({"--schema", schema, "-"}, whole + "12345");
  EXPECT_TRUE(exited_with(run.status, 1)) << "status " << run.status;
  std::string from_file = converted_from_file(dir, whole);
  std::string unterminated = from_file.substr(0, from_file.size() - std::strlen(xml_tail));
  EXPECT_EQ(run.out.size(), unterminated.size());
  EXPECT_TRUE(run.out == unterminated) << "not every whole record, or a tail";
  EXPECT_NE(run.err.find("'standard input' ended after 5200005 bytes"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("record at offset 5200000 is truncated (5 bytes)"), std::string::npos)
      << run.err;
}

TEST_F(bin2text_input, dev_zero_converts_until_stopped_like_cat) {
  pipe_ends out;
  pid_t child = spawn(SLUICE_BIN2TEXT, {"--schema", schema, "/dev/zero"}, STDIN_FILENO,
                      out.write_end(), STDERR_FILENO);
  out.close_write();
  std::string text = read_to_end(out.read_end(), 1 << 20);
  out.close_read();  // as `| head` does: the tool's next write ends it (SIGPIPE)
  int status = wait_for(child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) << "status " << status;
  std::string zero = "<record id=\"0\" ts=\"0\" x=\"0\" y=\"0\" flags=\"0\"/>\n";
  std::string head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records>\n";
  ASSERT_EQ(text.size(), 1u << 20);
  EXPECT_EQ(text.substr(0, head.size()), head);
  EXPECT_EQ(text.substr(head.size(), 3 * zero.size()), zero + zero + zero);
}
#endif

}  // namespace
