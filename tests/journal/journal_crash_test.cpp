// Crash simulation for sluice::journal. A workload runs under recording_sys,
// which keeps every write, sync, size change, rename and unlink. For every
// point in that history, and several random choices at each, the test builds
// the files a power loss at that point could leave: writes synced before the
// point are kept; each unsynced write is dropped, kept, or torn at 512-byte
// sector boundaries with each sector new, old, zero-filled or garbage; the
// latest renames and unlinks not yet covered by a directory fsync may be
// undone, newest first. Recovery must then give exactly a run of the
// appended records, from no later than any truncate_before() allowed, that
// holds every record whose commit had returned, ends at the last one
// appended or earlier, and holds each batch (half the groups are appended
// by one append() call) whole or not at all — and after writing on from
// there and reopening, still such a run. A read-only open, in the default
// mode and in salvage, must give the same run first. And some states are
// crashed again while being recovered: their open, a few records written
// on and the close run under a recorder, and every point of that history
// is crashed and recovered as above. Size changes are treated as durable at
// once: the journal makes every one durable (fdatasync of a .tmp segment)
// before using it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <sluice/sluice.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/journal_test_support.hpp"
#include "support/recording_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;
using sluice::journal_options;

constexpr std::size_t sector = 512;

struct workload_result {
  std::vector<recorded_op> ops;
  std::vector<std::string> by_lsn;  // by_lsn[lsn] is what append(lsn) took
  // ends_batch[lsn]: the record was the last of its append() call, a batch
  // of one or more; ends_batch[0] too (nothing before lsn 1).
  std::vector<bool> ends_batch;
};

std::string record_text(std::mt19937_64& random, std::uint64_t seed) {
  std::size_t size = random() % 8 == 0 ? 1500 + random() % 4000 : random() % 400;
  return pattern(size, seed);
}

// With truncation, about one segment's worth of records (they average some
// 640 bytes framed) are kept besides the newest segment's, so that nearly
// every rotation finds a spare.
std::uint64_t kept_records(const journal_options& options) { return options.segment_size / 640; }

// Thread 0, after every `truncate_every` commits of its own (never if 0),
// truncates before its last committed lsn less `kept` records.
void maybe_truncate(journal& log, recording_sys& recorder, int truncate_every, int commits,
                    std::uint64_t last, std::uint64_t kept) {
  if (truncate_every == 0 || commits % truncate_every != 0 || last <= kept) return;
  recorder.truncate(last - kept);
  log.truncate_before(last - kept);
}

// What the workload's threads appended, by lsn, and which lsns end a batch.
struct appended_records {
  std::mutex mutex;  // lsn order and the maps agree
  std::map<std::uint64_t, std::string> by_lsn;
  std::map<std::uint64_t, bool> ends_batch;
};

// Appends `texts` as one batch (journal::append of several records) or one
// record at a time; returns the last lsn.
std::uint64_t append_group(journal& log, appended_records& appended,
                           const std::vector<std::string>& texts, bool as_batch) {
  std::vector<std::span<const std::byte>> spans;
  for (const std::string& text : texts) spans.push_back(bytes_of(text));
  std::lock_guard lock(appended.mutex);
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < spans.size(); i += as_batch ? spans.size() : 1) {
    std::size_t count = as_batch ? spans.size() : 1;
    last = log.append(std::span(spans).subspan(i, count));
    for (std::size_t k = 0; k < count; ++k) {
      appended.by_lsn[last - count + 1 + k] = texts[i + k];
      appended.ends_batch[last - count + 1 + k] = k + 1 == count;
    }
  }
  return last;
}

// `threads` threads each append `per_thread` records in groups of one to
// four, half of the groups as one batch, committing the last of each
// group; thread 0 may also truncate.
workload_result run_workload(const std::filesystem::path& dir, journal_options options, int threads,
                             int per_thread, int truncate_every, bool zero_by_disk,
                             std::uint64_t seed) {
  workload_result out;
  appended_records appended;
  recording_sys recorder(zero_by_disk);
  {
    auto log = journal::open(dir, options);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        std::mt19937_64 random(seed * 1000 + static_cast<std::uint64_t>(t));
        for (int done = 0, commits = 1; done < per_thread; ++commits) {
          int group = std::min(1 + static_cast<int>(random() % 4), per_thread - done);
          std::vector<std::string> texts;
          for (int k = 0; k < group; ++k) texts.push_back(record_text(random, random()));
          std::uint64_t last = append_group(log, appended, texts, random() % 2 == 0);
          done += group;
          log.commit(last);
          recorder.ack(last);
          if (t == 0)
            maybe_truncate(log, recorder, truncate_every, commits, last, kept_records(options));
        }
      });
    for (auto& worker : workers) worker.join();
    log.close();
  }
  out.ops = recorder.ops();
  out.by_lsn.resize(appended.by_lsn.size() + 1);
  out.ends_batch.assign(appended.by_lsn.size() + 1, true);
  for (auto& [lsn, text] : appended.by_lsn) out.by_lsn.at(lsn) = std::move(text);
  for (auto [lsn, ends] : appended.ends_batch) out.ends_batch.at(lsn) = ends;
  return out;
}

// The files and what a crash may still do to them, at one point of history.
struct history_point {
  struct image {
    std::string durable;
    std::vector<const recorded_op*> pending;  // writes since its last sync
  };
  // A rename or unlink that no directory fsync covers yet; an unlink keeps
  // the file it took away, which an undone unlink brings back.
  struct dir_change {
    const recorded_op* op;
    image removed;
  };
  std::map<std::string, image> files;
  std::vector<dir_change> unsynced;  // in the order they were made
  std::uint64_t acked = 0;
  std::uint64_t truncated_before = 1;  // the largest truncate_before() argument begun
  const recorded_op* first = nullptr;  // the history's first op, for op indexes

  void apply(const recorded_op& op) {
    switch (op.what) {
      case recorded_op::write: files[op.name].pending.push_back(&op); break;
      case recorded_op::sync: sync_named(op.name, op.offset); break;
      case recorded_op::dir_sync: dir_sync(op.offset); break;
      case recorded_op::grow: grow(files[op.name].durable, op.offset); break;
      case recorded_op::resize: files[op.name].durable.resize(op.offset, '\0'); break;
      case recorded_op::rename:
        files[op.target] = std::move(files[op.name]);
        files.erase(op.name);
        unsynced.push_back({&op, {}});
        break;
      case recorded_op::unlink: unlink(op); break;
      case recorded_op::ack: acked = std::max(acked, op.lsn); break;
      case recorded_op::truncate: truncated_before = std::max(truncated_before, op.lsn); break;
    }
  }
  bool uncertain() const {
    if (!unsynced.empty()) return true;
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
  bool is_covered(const recorded_op* op, std::uint64_t covered) const {
    return static_cast<std::uint64_t>(op - first) < covered;
  }
  // Makes durable the file's pending writes among the first `covered` ops.
  void sync(image& file, std::uint64_t covered) const {
    for (const recorded_op* write : file.pending)
      if (is_covered(write, covered)) put(file.durable, write->offset, write->data);
    std::erase_if(file.pending,
                  [&](const recorded_op* write) { return is_covered(write, covered); });
  }
  // A sync through a descriptor whose file was unlinked meanwhile names no
  // file: its writes stay pending in the kept image, which only makes a
  // crash that undoes the unlink lose more of them.
  void sync_named(const std::string& name, std::uint64_t covered) {
    if (auto it = files.find(name); it != files.end()) sync(it->second, covered);
  }
  // Covers the renames and unlinks among the first `covered` ops: one made
  // by another thread while the fsync ran may still be undone.
  void dir_sync(std::uint64_t covered) {
    std::erase_if(unsynced,
                  [&](const dir_change& change) { return is_covered(change.op, covered); });
  }
  void unlink(const recorded_op& op) {
    auto it = files.find(op.name);
    if (it == files.end()) return;
    unsynced.push_back({&op, std::move(it->second)});
    files.erase(it);
  }
  friend std::string crashed_content(const image&, std::mt19937_64&);
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

// The content a crash may leave of `file`: each pending write dropped, kept
// or torn.
std::string crashed_content(const history_point::image& file, std::mt19937_64& random) {
  std::string content = file.durable;
  for (const recorded_op* write : file.pending) {
    switch (random() % 3) {
      case 0: break;  // dropped
      case 1: history_point::put(content, write->offset, write->data); break;
      case 2: tear(content, *write, random); break;
    }
  }
  return content;
}

// Undoes the newest `count` unsynced renames and unlinks, newest first: the
// directory's changes reach the disk in the order they were made.
void undo_dir_changes(const history_point& point, std::size_t count,
                      std::map<std::string, std::string>& files, std::mt19937_64& random) {
  for (auto it = point.unsynced.rbegin(); count > 0; ++it, --count) {
    const recorded_op& op = *it->op;
    if (op.what == recorded_op::unlink) {
      files[op.name] = crashed_content(it->removed, random);
    } else {
      files[op.name] = std::move(files[op.target]);
      files.erase(op.target);
    }
  }
}

std::map<std::string, std::string> crash_state(const history_point& point,
                                               std::mt19937_64& random) {
  std::map<std::string, std::string> files;
  for (const auto& [name, file] : point.files) files[name] = crashed_content(file, random);
  if (!point.unsynced.empty() && random() % 2 == 0)  // some did not reach the disk
    undo_dir_changes(point, 1 + random() % point.unsynced.size(), files, random);
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
  std::filesystem::create_directories(dir);
  for (const auto& [name, content] : files) write_all(dir / name, content);
}

// Checks that `records`, read from lsn `first`, are appended records
// `first`, `first` + 1, ... up to the last one committed at least, and whole
// batches: a batch is kept whole or not at all. A crash may undo the
// unlinks of truncate_before(), so the run may start anywhere up to the
// largest lsn truncated before (a segment's first, which starts a batch).
void check_run(const std::vector<read_record>& records, std::uint64_t first,
               const workload_result& work, const history_point& point, const std::string& where) {
  ASSERT_GE(first, 1u) << where;
  ASSERT_LE(first, point.truncated_before) << where << ": records truncation kept are gone";
  std::uint64_t end = first + records.size();  // the next lsn
  ASSERT_GT(end, point.acked) << where << ": a committed record was lost";
  ASSERT_LE(end, work.by_lsn.size()) << where << ": more records than were appended";
  ASSERT_TRUE(work.ends_batch[first - 1]) << where << ": the run starts inside a batch";
  ASSERT_TRUE(work.ends_batch[end - 1]) << where << ": the run ends inside a batch, at " << end;
  for (std::size_t i = 0; i < records.size(); ++i)
    ASSERT_EQ(records[i], (read_record{first + i, work.by_lsn[first + i]})) << where;
}

// Writes three records after the recovered ones, of the same sizes as the
// records lost at these lsns, other bytes: if the journal went on writing
// among the remains of the torn tail, a stale record would line up with the
// next record boundary and be read back.
void write_on(journal& log, const workload_result& work, std::vector<read_record>& records) {
  for (int k = 0; k < 3; ++k) {
    std::uint64_t lsn = log.next_lsn();
    std::size_t size = lsn < work.by_lsn.size() ? work.by_lsn[lsn].size() : 10;
    std::string text = pattern(size, 0xC0FFEE + lsn);
    records.push_back({log.write(bytes_of(text)), text});
  }
}

// What a read-only open of `dir` in `mode` gives: its first lsn and its
// records.
std::pair<std::uint64_t, std::vector<read_record>> read_only_run(const std::filesystem::path& dir,
                                                                 journal_options options,
                                                                 sluice::recovery_mode mode) {
  options.recovery = mode;
  options.read_only = true;
  auto log = journal::open(dir, options);
  std::uint64_t first = log.first_lsn();
  return {first, read_records(log, first)};
}

// What a state's check does besides recovering it.
struct state_checks {
  bool writing_on = false;  // writes on, then recovers a second time
  bool read_only = false;   // first recovers read-only, in the default mode and in salvage
};

// Recovers the crash state in `dir` and checks it; some states also write
// on and check the result of a second recovery, and some are first opened
// read-only, in the default mode and in salvage, which must give the same
// run (a crash leaves no damage for salvage to cut) and change nothing.
void check_recovery(const std::filesystem::path& dir, journal_options options,
                    const workload_result& work, const history_point& point, state_checks checks,
                    const std::string& where) {
  std::vector<std::pair<std::uint64_t, std::vector<read_record>>> read_only;
  if (checks.read_only)
    for (auto mode : {options.recovery, sluice::recovery_mode::salvage})
      read_only.push_back(read_only_run(dir, options, mode));
  std::vector<read_record> records;
  std::uint64_t first = 0;
  {
    auto log = journal::open(dir, options);
    first = log.first_lsn();
    records = read_records(log, first);
    check_run(records, first, work, point, where);
    for (const auto& run : read_only)
      ASSERT_EQ(run, std::make_pair(first, records)) << where << ": read-only";
    if (::testing::Test::HasFatalFailure() || !checks.writing_on) return;
    write_on(log, work, records);
    log.close();
  }
  auto log = journal::open(dir, options);
  ASSERT_EQ(log.first_lsn(), first) << where << ": after writing on and reopening";
  ASSERT_EQ(read_records(log, first), records) << where << ": after writing on and reopening";
}

// Every crash state of `point`'s history from its files (which a crash
// has made), `variants` of each uncertain one, recovered and checked
// against `work`; `where` prefixes the states' names. Returns their number.
std::size_t crash_everywhere(
    history_point point, const std::vector<recorded_op>& ops, const workload_result& work,
    journal_options options, const std::filesystem::path& scratch, int variants,
    std::mt19937_64& random, const std::string& where_prefix,
    const std::function<void(const std::map<std::string, std::string>&, const history_point&,
                             std::size_t, const std::string&)>& also) {
  point.first = ops.data();
  std::size_t states = 0;
  for (std::size_t k = 0; k <= ops.size(); ++k) {
    if (k > 0) point.apply(ops[k - 1]);
    int count = point.uncertain() ? variants : 1;
    for (int v = 0; v < count; ++v) {
      auto files = crash_state(point, random);
      materialize(scratch, files);
      std::string where =
          where_prefix + "crash after op " + std::to_string(k) + " variant " + std::to_string(v);
      try {
        check_recovery(scratch, options, work, point,
                       {.writing_on = states % 3 == 0, .read_only = states % 3 == 1}, where);
        if (also && !::testing::Test::HasFailure()) also(files, point, states, where);
      } catch (const std::exception& e) {  // say which state
        ADD_FAILURE() << where << ": " << e.what();
      }
      ++states;
      if (::testing::Test::HasFailure()) return states;
    }
  }
  return states;
}

// A crash while recovering: the crash state `files` is opened, written on
// (three records, each committed) and closed under a recorder; then every
// point of that history is crashed too, a few variants each, and recovered:
// each must still give a run holding every record committed, those written
// on included, and none of the torn tail the first recovery cut. Covers what
// an open writes (the seal at a cut, a fresh segment, spares removed,
// salvage's renames). Returns the number of states.
std::size_t crash_while_recovering(const std::map<std::string, std::string>& files,
                                   const history_point& at, const workload_result& work,
                                   journal_options options, bool zero_by_disk,
                                   const std::filesystem::path& scratch, std::mt19937_64& random,
                                   const std::string& where) {
  materialize(scratch / "reopened", files);
  workload_result after = work;
  std::vector<recorded_op> ops;
  {
    recording_sys recorder(zero_by_disk);
    auto log = journal::open(scratch / "reopened", options);
    std::uint64_t next = log.next_lsn();
    after.by_lsn.resize(next);
    after.ends_batch.resize(next);
    for (int k = 0; k < 3; ++k) {
      std::string text = pattern(100 + 40 * k, 0xBEEF + next + k);
      std::uint64_t lsn = log.write(bytes_of(text));
      recorder.ack(lsn);
      after.by_lsn.push_back(text);
      after.ends_batch.push_back(true);
    }
    log.close();
    ops = recorder.ops();
  }
  sluice::detail::set_sys(&syncless_sys());  // the recorder put back the real calls
  history_point start;
  start.acked = at.acked;
  start.truncated_before = at.truncated_before;
  for (const auto& [name, content] : files) start.files[name].durable = content;
  return crash_everywhere(start, ops, after, options, scratch / "state", 4, random,
                          where + ", then while recovering: ", {});
}

struct simulated {
  std::size_t states;  // all of them
  std::size_t nested;  // of which crashed while recovering
};

// The crash states of `work`'s history (see the top of this file); every
// `nested_every`th is also crashed while recovering (crash_while_recovering).
simulated simulate(const workload_result& work, journal_options options, bool zero_by_disk,
                   const std::filesystem::path& scratch, int variants, std::uint64_t seed,
                   std::size_t nested_every) {
  std::mt19937_64 random(seed);
  syncless_scope syncless;
  std::size_t nested = 0;
  auto crash_again = [&](const std::map<std::string, std::string>& files,
                         const history_point& point, std::size_t state, const std::string& where) {
    if (state % nested_every != nested_every / 2) return;
    nested += crash_while_recovering(files, point, work, options, zero_by_disk, scratch / "nested",
                                     random, where);
  };
  std::size_t states = crash_everywhere({}, work.ops, work, options, scratch / "state", variants,
                                        random, "", crash_again);
  return {states + nested, nested};
}

// How many segments the history made from a spare: shown, as a workload
// that never reuses one would test nothing new.
std::size_t reused_segments(const workload_result& work) {
  return std::count_if(work.ops.begin(), work.ops.end(), [](const recorded_op& op) {
    return op.what == recorded_op::rename && op.name.ends_with(".spare");
  });
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
  int truncate_every = 0;     // commits of thread 0 between truncate_before() calls; 0: none
  bool zero_by_disk = false;  // new segments zeroed by the disk (recording_sys)
};

// The share of the crash simulation run on Windows: one variant of each
// uncertain crash point (Linux: 30 to 40) over histories of half the
// commits, in all about a tenth of Linux's states (at least 500, against
// 10,000 and more). Under Wine a state's recovery is hundreds of file
// operations, each a round trip to Wine's server: Linux's count had not
// ended after 11 minutes there, and a twentieth of the variants over the
// whole histories (3,663 states) took over 3 minutes, too long for CI.
#ifdef _WIN32
constexpr int variants_divisor = 40, commits_divisor = 2;
constexpr std::size_t least_states = 500;
#else
constexpr int variants_divisor = 1, commits_divisor = 1;
constexpr std::size_t least_states = 10000;
#endif

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
      {"one thread, 4 KiB segments reused after truncation",
       {.segment_size = 4096, .reuse_segments = true},
       1,
       160,
       30,
       1},
      // 8 KiB: a batch is padded with zeros only to its page end, so older
      // records of a reused segment stay behind the new ones.
      {"three threads, 8 KiB segments reused after truncation",
       {.segment_size = 8192, .reuse_segments = true},
       3,
       70,
       30,
       1},
      {"one thread, 4 KiB segments zeroed by the disk", {.segment_size = 4096}, 1, 80, 40, 0, true},
  };
  std::size_t total = 0;
  std::uint64_t seed = 1;
  for (const auto& c : cases) {
    temp_dir work_dir;
    temp_dir scratch(fast_scratch_base());
    auto work = run_workload(work_dir / "log", c.options, c.threads, c.per_thread / commits_divisor,
                             c.truncate_every, c.zero_by_disk, seed);
    simulated run = simulate(work, c.options, c.zero_by_disk, scratch.path(),
                             std::max(1, c.variants / variants_divisor), seed, 150);
    std::cout << "[ crash    ] " << c.name << ": " << work.ops.size() << " operations ("
              << reused_segments(work) << " segments reused), " << run.states
              << " crash states recovered and checked (" << run.nested
              << " of them crashes while recovering)\n";
    total += run.states;
    ++seed;
    if (HasFailure()) return;
  }
  std::cout << "[ crash    ] " << total << " crash states in all\n";
  RecordProperty("crash_states", static_cast<int>(total));
  EXPECT_GE(total, least_states);
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

// A crash cuts a torn tail: its later records, intact but never committed,
// stay in the file behind the cut, with lsns the journal gives out again.
// Once that segment is truncated into a spare and reused, those records
// must not come back as the records of the new lsns, even where the new
// records end exactly where a stale one begins (a page end, so no padding
// covers it).
TEST(journal_crash, a_reused_spare_never_gives_back_the_records_of_a_cut_tail) {
  temp_dir dir;
  std::filesystem::path journal_dir = dir.path() / "log";
  journal_options options{.segment_size = 8192, .reuse_segments = true};
  {
    auto log = journal::open(journal_dir, options);
    log.write(bytes_of(pattern(1000, 1)));   // at 64
    log.append(bytes_of(pattern(1000, 2)));  // at 1088: torn below
    log.append(bytes_of(pattern(1960, 3)));  // at 2112
    for (std::uint64_t i = 4; i <= 6; ++i) log.append(bytes_of(pattern(500, i)));  // from 4096
    log.commit(6);  // durable marks 2: nothing proves record 2 was durable
    log.close();
  }
  damage(journal_dir / "0000000000000001.journal", 1088, 24, '\0');
  std::vector<read_record> expected;
  {
    auto log = journal::open(journal_dir, options);
    ASSERT_EQ(log.next_lsn(), 2u);
    std::string second = pattern(7000, 20), third = pattern(4008, 30);  // 64 + 4032 = 4096
    expected = {{log.write(bytes_of(second)), second}};
    log.truncate_before(2);  // segment 1, with records 3 to 6 of the cut tail, becomes the spare
    expected.push_back({log.write(bytes_of(third)), third});  // segment 3, made from it
    log.close();
  }
  auto log = journal::open(journal_dir, options);
  EXPECT_EQ(read_records(log, log.first_lsn()), expected);
}

}  // namespace
