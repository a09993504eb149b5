# sluice-bench smoke test, run by ctest as
#   cmake -DBENCH=<sluice-bench> -DJSON=<report.json> -P smoke_test.cmake
# Runs every scenario at 1 MiB once and checks the JSON report: each
# scenario has a case, and every method of every case posted a positive
# median (a failed method has a null one: in a reading case, also one that
# computed another result than the first), the methods of large and
# fragment an "after close" observation, the reading cases say where their
# input was, and read has a cold case. A table whose every row was left out
# (its libraries missing at build time) has nothing to check. The run ends
# with the journal's recommended options (core/recommend.hpp). Needs no
# interpreter but CMake.
cmake_minimum_required(VERSION 3.19)  # string(JSON)

set(scenarios bytes text convert bin2text text2bin gather patch large fragment durable journal
  read lines numbers scatter)
file(REMOVE ${JSON})
include(${CMAKE_CURRENT_LIST_DIR}/run_bench.cmake)
run_bench(table --size 1M --repeat 1 --json ${JSON})

file(READ ${JSON} report)
string(JSON case_count LENGTH "${report}" cases)
set(reading read lines numbers scatter)
set(seen "")
set(cold_read FALSE)
math(EXPR last_case "${case_count} - 1")
foreach(c RANGE ${last_case})
  string(JSON scenario GET "${report}" cases ${c} scenario)
  list(APPEND seen ${scenario})
  string(JSON input TYPE "${report}" cases ${c} input)
  if(scenario IN_LIST reading AND NOT input STREQUAL "OBJECT")
    message(FATAL_ERROR "${scenario}: a reading case without its input's state")
  endif()
  if(scenario STREQUAL "read")
    string(JSON cache GET "${report}" cases ${c} input cache)
    if(cache STREQUAL "cold")
      set(cold_read TRUE)
    endif()
  endif()
  string(JSON method_count LENGTH "${report}" cases ${c} methods)
  if(method_count EQUAL 0)
    continue()  # every row skipped: its libraries were not found (text2bin's XML)
  endif()
  math(EXPR last_method "${method_count} - 1")
  foreach(m RANGE ${last_method})
    string(JSON name GET "${report}" cases ${c} methods ${m} name)
    string(JSON median GET "${report}" cases ${c} methods ${m} median_mb_per_s)
    if(NOT median GREATER 0)
      string(JSON error GET "${report}" cases ${c} methods ${m} error)
      message(FATAL_ERROR "${scenario}: '${name}' posted no figure (${median}): ${error}")
    endif()
    # large and fragment say what each run left behind: cached MiB, extents.
    string(JSON after TYPE "${report}" cases ${c} methods ${m} after_close)
    if(scenario MATCHES "^(large|fragment)$" AND NOT after STREQUAL "STRING")
      message(FATAL_ERROR "${scenario}: '${name}' has no 'after close' observation")
    endif()
  endforeach()
endforeach()
foreach(scenario ${scenarios})
  if(NOT scenario IN_LIST seen)
    message(FATAL_ERROR "the report has no '${scenario}' case")
  endif()
endforeach()
if(NOT cold_read)
  message(FATAL_ERROR "the report has no cold read case")
endif()
# Every run that measures a tuning table ends with what it recommends: the
# default set's journal table, its journal_options.
if(NOT table MATCHES "\nRecommended on this disk[^\n]*\n.*  sluice::journal_options journal_options")
  message(FATAL_ERROR "the run ends without its journal_options recommendation")
endif()
message(STATUS "sluice-bench: ${case_count} cases, every method with a figure")
