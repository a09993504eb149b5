// Crash simulation for sluice::journal. A workload runs under recording_sys,
// which keeps every write, sync, size change and rename. For every point in
// that history, and several random choices at each, the test builds the
// files a power loss at that point could leave: writes synced before the
// point are kept; each unsynced write is dropped, kept, or torn at 512-byte
// sector boundaries with each sector new, old, zero-filled or garbage; renames
// not yet followed by a directory fsync may be undone. Recovery must then
// give exactly a prefix of the appended records that holds every record whose
// commit had returned — and after writing on from there and reopening, still
// a clean prefix. Size changes are treated as durable at once: the journal
// makes every one durable (fdatasync of a .tmp segment) before using it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <sluice/sluice.hpp>
#include <string>
#include <thread>
#include <vector>

#include "journal_test_support.hpp"
#include "recording_sys.hpp"
#include "test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;
using sluice::journal_options;

constexpr std::size_t sector = 512;

struct workload_result {
  std::vector<recorded_op> ops;
  std::vector<std::string> by_lsn;  // by_lsn[lsn] is what append(lsn) took
};

std::string record_text(std::mt19937_64& random, std::uint64_t seed) {
  std::size_t size = random() % 8 == 0 ? 1500 + random() % 4000 : random() % 400;
  return pattern(size, seed);
}

// `threads` threads each append `per_thread` records in groups of one to
// four, committing the last of each group.
workload_result run_workload(const std::filesystem::path& dir, journal_options options, int threads,
                             int per_thread, std::uint64_t seed) {
  workload_result out;
  std::mutex mutex;
  std::map<std::uint64_t, std::string> appended;
  recording_sys recorder;
  {
    auto log = journal::open(dir, options);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        std::mt19937_64 random(seed * 1000 + static_cast<std::uint64_t>(t));
        for (int done = 0; done < per_thread;) {
          int group = 1 + static_cast<int>(random() % 4);
          std::uint64_t last = 0;
          for (int k = 0; k < group && done < per_thread; ++k, ++done) {
            std::string text = record_text(random, random());
            std::lock_guard lock(mutex);  // lsn order and the map agree
            last = log.append(bytes_of(text));
            appended[last] = std::move(text);
          }
          log.commit(last);
          recorder.ack(last);
        }
      });
    for (auto& worker : workers) worker.join();
    log.close();
  }
  out.ops = recorder.ops();
  out.by_lsn.resize(appended.size() + 1);
  for (auto& [lsn, text] : appended) out.by_lsn.at(lsn) = std::move(text);
  return out;
}

// The files and what a crash may still do to them, at one point of history.
struct history_point {
  struct image {
    std::string durable;
    std::vector<const recorded_op*> pending;  // writes since its last sync
  };
  std::map<std::string, image> files;
  std::vector<std::pair<std::string, std::string>> unsynced_renames;
  std::uint64_t acked = 0;
  const recorded_op* first = nullptr;  // the history's first op, for op indexes

  void apply(const recorded_op& op) {
    switch (op.what) {
      case recorded_op::write: files[op.name].pending.push_back(&op); break;
      case recorded_op::sync: sync(files[op.name], op.offset); break;
      case recorded_op::dir_sync: unsynced_renames.clear(); break;
      case recorded_op::grow: grow(files[op.name].durable, op.offset); break;
      case recorded_op::resize: files[op.name].durable.resize(op.offset, '\0'); break;
      case recorded_op::rename:
        files[op.target] = std::move(files[op.name]);
        files.erase(op.name);
        unsynced_renames.emplace_back(op.name, op.target);
        break;
      case recorded_op::ack: acked = std::max(acked, op.lsn); break;
    }
  }
  bool uncertain() const {
    if (!unsynced_renames.empty()) return true;
    for (const auto& [name, file] : files)
      if (!file.pending.empty()) return true;
    return false;
  }

 private:
  static void grow(std::string& content, std::uint64_t size) {
    if (content.size() < size) content.resize(size, '\0');
  }
  static void put(std::string& content, std::uint64_t offset, std::string_view bytes) {
    grow(content, offset + bytes.size());
    std::copy(bytes.begin(), bytes.end(), content.begin() + static_cast<std::ptrdiff_t>(offset));
  }
  // Makes durable the file's pending writes among the first `covered` ops.
  void sync(image& file, std::uint64_t covered) const {
    auto is_covered = [&](const recorded_op* write) {
      return static_cast<std::uint64_t>(write - first) < covered;
    };
    for (const recorded_op* write : file.pending)
      if (is_covered(write)) put(file.durable, write->offset, write->data);
    std::erase_if(file.pending, is_covered);
  }
  friend std::map<std::string, std::string> crash_state(const history_point&, std::mt19937_64&);
};

// One unsynced write as a crash may leave it: each 512-byte sector it touches
// new, old, zero-filled or garbage.
void tear(std::string& content, const recorded_op& write, std::mt19937_64& random) {
  std::uint64_t end = write.offset + write.data.size();
  if (content.size() < end) content.resize(end, '\0');
  for (std::uint64_t at = write.offset; at < end;) {
    std::uint64_t next = std::min(end, (at / sector + 1) * sector);
    auto first = content.begin() + static_cast<std::ptrdiff_t>(at);
    auto n = static_cast<std::ptrdiff_t>(next - at);
    switch (random() % 4) {
      case 0:
        std::copy_n(write.data.begin() + static_cast<std::ptrdiff_t>(at - write.offset), n, first);
        break;
      case 1: break;  // the old bytes stay
      case 2: std::fill_n(first, n, '\0'); break;
      case 3: std::generate_n(first, n, [&] { return static_cast<char>(random()); }); break;
    }
    at = next;
  }
}

std::map<std::string, std::string> crash_state(const history_point& point,
                                               std::mt19937_64& random) {
  std::map<std::string, std::string> files;
  for (const auto& [name, file] : point.files) {
    std::string content = file.durable;
    for (const recorded_op* write : file.pending) {
      switch (random() % 3) {
        case 0: break;  // dropped
        case 1: history_point::put(content, write->offset, write->data); break;
        case 2: tear(content, *write, random); break;
      }
    }
    files[name] = std::move(content);
  }
  if (random() % 2 == 0)  // the directory entries did not reach the disk
    for (auto it = point.unsynced_renames.rbegin(); it != point.unsynced_renames.rend(); ++it) {
      files[it->first] = std::move(files[it->second]);
      files.erase(it->second);
    }
  return files;
}

// Installs syncless_sys() for its lifetime.
struct syncless_scope {
  syncless_scope() { sluice::detail::set_sys(&syncless_sys()); }
  ~syncless_scope() { sluice::detail::set_sys(nullptr); }
};

void materialize(const std::filesystem::path& dir,
                 const std::map<std::string, std::string>& files) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  for (const auto& [name, content] : files) write_all(dir / name, content);
}

// Recovers the crash state in `dir` and checks it; every few states also
// writes on and checks the result of a second recovery.
void check_recovery(const std::filesystem::path& dir, journal_options options,
                    const workload_result& work, std::uint64_t acked, bool write_on,
                    const std::string& where) {
  std::vector<read_record> records;
  {
    auto log = journal::open(dir, options);
    records = read_records(log);
    ASSERT_GE(records.size(), acked) << where << ": a committed record was lost";
    ASSERT_LT(records.size(), work.by_lsn.size()) << where;
    for (std::size_t i = 0; i < records.size(); ++i)
      ASSERT_EQ(records[i], (read_record{i + 1, work.by_lsn[i + 1]})) << where;
    if (!write_on) return;
    // The same sizes as the records lost at these lsns, other bytes: if the
    // journal went on writing among the remains of the torn tail, a stale
    // record would line up with the next record boundary and be read back.
    for (int k = 0; k < 3; ++k) {
      std::size_t lsn = records.size() + 1;
      std::size_t size = lsn < work.by_lsn.size() ? work.by_lsn[lsn].size() : 10;
      std::string text = pattern(size, 0xC0FFEE + lsn);
      records.push_back({log.write(bytes_of(text)), text});
    }
    log.close();
  }
  auto log = journal::open(dir, options);
  ASSERT_EQ(read_records(log), records) << where << ": after writing on and reopening";
}

std::size_t simulate(const workload_result& work, journal_options options,
                     const std::filesystem::path& scratch, int variants, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  syncless_scope syncless;
  history_point point;
  point.first = work.ops.data();
  std::size_t states = 0;
  for (std::size_t k = 0; k <= work.ops.size(); ++k) {
    if (k > 0) point.apply(work.ops[k - 1]);
    int count = point.uncertain() ? variants : 1;
    for (int v = 0; v < count; ++v) {
      materialize(scratch, crash_state(point, random));
      std::string where = "crash after op " + std::to_string(k) + " variant " + std::to_string(v);
      check_recovery(scratch, options, work, point.acked, states % 3 == 0, where);
      ++states;
      if (::testing::Test::HasFatalFailure()) return states;
    }
  }
  return states;
}

// Crash states are written and thrown away by the thousand: on a tmpfs when
// there is one, as their durability does not matter.
std::filesystem::path fast_scratch_base() {
  std::error_code error;
  if (std::filesystem::is_directory("/dev/shm", error) && ::access("/dev/shm", W_OK) == 0)
    return "/dev/shm";
  return std::filesystem::temp_directory_path();
}

struct crash_case {
  const char* name;
  journal_options options;
  int threads;
  int per_thread;
  int variants;
};

TEST(journal_crash, recovery_gives_a_prefix_holding_every_committed_record) {
  const crash_case cases[] = {
      {"one thread, 4 KiB segments", {.segment_size = 4096}, 1, 160, 40},
      {"one thread, 64 KiB segments", {.segment_size = 64 * 1024}, 1, 160, 40},
      {"one thread, 4 KiB zero-filled segments",
       {.segment_size = 4096, .zero_fill = true},
       1,
       60,
       40},
      {"three threads, 8 KiB segments", {.segment_size = 8192}, 3, 80, 40},
      {"three threads, two syncs at once",
       {.segment_size = 8192, .concurrent_syncs = 2},
       3,
       60,
       40},
  };
  std::size_t total = 0;
  std::uint64_t seed = 1;
  for (const auto& c : cases) {
    temp_dir work_dir;
    temp_dir scratch(fast_scratch_base());
    auto work = run_workload(work_dir / "log", c.options, c.threads, c.per_thread, seed);
    std::size_t states = simulate(work, c.options, scratch / "state", c.variants, seed);
    std::cout << "[ crash    ] " << c.name << ": " << work.ops.size() << " operations, " << states
              << " crash states recovered and checked\n";
    total += states;
    ++seed;
    if (HasFatalFailure()) return;
  }
  std::cout << "[ crash    ] " << total << " crash states in all\n";
  RecordProperty("crash_states", static_cast<int>(total));
  EXPECT_GE(total, 10000u);
}

// A process may die between renaming a new segment into place and syncing
// the directory. The next open sees the name (the kernel caches it) and
// continues in that segment: its directory, and the directory's parent,
// must be durable before a commit into it returns, or a power loss could
// undo the rename and take acknowledged records with it.
TEST(journal_crash, reopening_makes_the_directories_durable_before_writing) {
  temp_dir dir;
  std::filesystem::path journal_dir = dir.path() / "log";
  journal::open(journal_dir).close();
  recording_sys recorder;
  auto log = journal::open(journal_dir);
  log.write(bytes_of("after reopening"));
  std::vector<recorded_op> ops = recorder.ops();
  auto first_write = std::find_if(
      ops.begin(), ops.end(), [](const recorded_op& op) { return op.what == recorded_op::write; });
  ASSERT_NE(first_write, ops.end());
  EXPECT_EQ(std::count_if(ops.begin(), first_write,
                          [](const recorded_op& op) { return op.what == recorded_op::dir_sync; }),
            2);  // the journal's directory and its parent
}

}  // namespace
