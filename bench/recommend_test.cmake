# sluice-bench --recommend, run by ctest as
#   cmake -DBENCH=<sluice-bench> -DJSON=<report.json> -P recommend_test.cmake
# Runs --recommend small (the journal and tune scenarios alone, as no
# --scenario is given) and checks that only their tables were measured and
# that the printout ends with a verdict on every option they measure: an
# initializer per struct, each option either set in it or listed as left at
# its default. Which options win is the disk's business, not checked here.
cmake_minimum_required(VERSION 3.19)

include(${CMAKE_CURRENT_LIST_DIR}/run_bench.cmake)
run_bench(printed --recommend --size 1M --repeat 2 --json ${JSON})

file(READ ${JSON} report)
string(JSON case_count LENGTH "${report}" cases)
math(EXPR last_case "${case_count} - 1")
set(measured)
foreach(c RANGE ${last_case})
  string(JSON title GET "${report}" cases ${c} title)
  string(REGEX REPLACE ":.*" "" title "${title}")
  list(APPEND measured "${title}")
endforeach()
set(expected "journal;tune buffer_size;tune preallocate;tune caching;tune write_behind")
if(NOT measured STREQUAL expected)
  message(FATAL_ERROR "tables measured: '${measured}', expected '${expected}'")
endif()

string(FIND "${printed}" "\nRecommended on this disk" start)
if(start EQUAL -1)
  message(FATAL_ERROR "no recommendation at the end")
endif()
string(SUBSTRING "${printed}" ${start} -1 advice)
foreach(options writer_options journal_options)
  if(NOT advice MATCHES "\n  sluice::${options} ${options}{")
    message(FATAL_ERROR "no sluice::${options} initializer in:\n${advice}")
  endif()
endforeach()
foreach(option writer_options::buffer_size writer_options::preallocate writer_options::caching
        writer_options::write_behind journal_options::concurrent_syncs
        journal_options::reuse_segments)
  string(REGEX REPLACE "^.*::" "" field "${option}")
  if(NOT advice MATCHES "\n      \\.${field} = " AND NOT advice MATCHES "\n    ${option}: ")
    message(FATAL_ERROR "no verdict on ${option} in:\n${advice}")
  endif()
endforeach()
