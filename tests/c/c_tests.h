/* The C tests, one list: each X(suite, name) is the function
 *   int c_<suite>_<name>(const char* dir);
 * in tests/c/<suite>_test.c, which works in the fresh directory `dir` and
 * returns 0, or 1 with the failure recorded (c_check.h). c_api_test.cpp
 * makes each one a GoogleTest test c_<suite>.<name> (c_writer.prints_numbers).
 * A new test is a function and a line here. */
#ifndef SLUICE_TEST_C_TESTS_H
#define SLUICE_TEST_C_TESTS_H

#ifdef __cplusplus
extern "C" {
#endif

#define SLUICE_C_TESTS(X)                                             \
  /* writer_test.c */                                                 \
  X(writer, puts_and_writes_inline_and_exported)                      \
  X(writer, prints_numbers)                                           \
  X(writer, printf_also_longer_than_the_buffer)                       \
  X(writer, reserve_and_commit)                                       \
  X(writer, flush_sync_and_tell)                                      \
  X(writer, buffer_size_and_preallocate_options)                      \
  X(writer, durability_options)                                       \
  X(writer, caching_options)                                          \
  X(writer, atomic_replace_option)                                    \
  X(writer, write_behind_option)                                      \
  X(writer, from_fd_borrows_a_file_and_a_pipe)                        \
  X(writer, open_failure_names_the_path)                              \
  X(writer, out_of_memory_is_enomem)                                  \
  X(writer, destroy_flushes_and_closes)                               \
  /* writer_fault_test.c */                                           \
  X(writer_fault, enospc_sticks_with_its_message)                     \
  X(writer_fault, eio_on_write_sticks)                                \
  X(writer_fault, failed_sync_poisons)                                \
  X(writer_fault, eintr_on_every_write_is_retried)                    \
  X(writer_fault, short_writes_are_continued)                         \
  X(writer_fault, destroy_tells_the_handler_what_was_lost)            \
  X(writer_fault, a_failed_close_is_returned)                         \
  /* reader_test.c */                                                 \
  X(reader, reads_lines_and_a_last_one_without_newline)               \
  X(reader, crlf_option_drops_the_carriage_return)                    \
  X(reader, too_long_a_line_is_refused_then_skipped)                  \
  X(reader, reads_bytes_exactly_and_some)                             \
  X(reader, peeks_and_consumes)                                       \
  X(reader, reads_numbers_up_to_terminators)                          \
  X(reader, number_refusals_name_text_line_and_offset)                \
  X(reader, from_fd_reads_a_pipe)                                     \
  X(reader, open_failure_names_the_path)                              \
  X(reader, caching_options)                                          \
  /* reader_fault_test.c */                                           \
  X(reader_fault, eio_names_the_offset_and_the_next_call_reads_again) \
  X(reader_fault, eintr_and_short_reads_do_not_show)                  \
  X(reader_fault, on_a_pipe)                                          \
  /* numbers_test.c */                                                \
  X(numbers, parse_whole_texts)                                       \
  X(numbers, parse_refusals_quote_the_text)                           \
  X(numbers, double_round_trip_bit_for_bit)                           \
  /* journal_test.c */                                                \
  X(journal, appends_commits_and_reads_back)                          \
  X(journal, truncate_before_drops_old_segments)                      \
  X(journal, options_are_honoured_and_checked)                        \
  X(journal, a_second_writer_is_refused)                              \
  X(journal, append_many_takes_batches_of_every_size)                 \
  X(journal, refuses_a_record_too_large)                              \
  X(journal, threads_write_at_once)                                   \
  /* journal_fault_test.c */                                          \
  X(journal_fault, failed_sync_poisons)                               \
  X(journal_fault, enospc_on_write_poisons)                           \
  X(journal_fault, eintr_and_short_writes_do_not_show)                \
  /* no_inline_test.c */                                              \
  X(no_inline, put_and_write_are_the_exported_functions)              \
  /* handles_test.c */                                                \
  X(handles, null_is_refused_by_every_call)                           \
  X(handles, null_path_is_refused)                                    \
  X(handles, close_or_init_of_null_does_nothing)                      \
  X(handles, options_of_size_zero_or_out_of_range_are_refused)        \
  X(handles, options_from_a_newer_caller_are_checked_past_their_size) \
  X(handles, last_error_is_per_thread)                                \
  X(handles, error_handler_setter_returns_the_previous)               \
  /* end */

#define SLUICE_C_TEST_DECLARATION(suite, name) int c_##suite##_##name(const char* dir);
SLUICE_C_TESTS(SLUICE_C_TEST_DECLARATION)
#undef SLUICE_C_TEST_DECLARATION

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_TEST_C_TESTS_H */
