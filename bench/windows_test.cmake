# sluice-bench on Windows (cross-built, run under an emulator: Wine), run by
# ctest as
#   cmake "-DBENCH=<emulator>;<sluice-bench.exe>" -DJSON=<report.json> -P windows_test.cmake
# Runs the bytes scenario at 1 MiB once and checks that the table has the
# UCRT's `_fwrite_nolock` row and that every row posted a figure: the tool
# exits 0, no row says "failed", and the JSON report gives each method a
# positive median. A few seconds; the Linux build's smoke_test.cmake runs
# every scenario.
cmake_minimum_required(VERSION 3.19)  # string(JSON)

file(REMOVE ${JSON})
include(${CMAKE_CURRENT_LIST_DIR}/run_bench.cmake)
run_bench(table --scenario bytes --size 1M --repeat 1 --json ${JSON})
if(NOT table MATCHES "\n  _fwrite_nolock \\(UCRT\\), 256 KiB setvbuf +[0-9.]+ ")
  message(FATAL_ERROR "the bytes table has no _fwrite_nolock row with a figure")
endif()
if(table MATCHES " failed: ")
  message(FATAL_ERROR "a row of the bytes table failed")
endif()

file(READ ${JSON} report)
string(JSON method_count LENGTH "${report}" cases 0 methods)
math(EXPR last_method "${method_count} - 1")
foreach(m RANGE ${last_method})
  string(JSON name GET "${report}" cases 0 methods ${m} name)
  string(JSON median GET "${report}" cases 0 methods ${m} median_mb_per_s)
  if(NOT median GREATER 0)
    string(JSON error GET "${report}" cases 0 methods ${m} error)
    message(FATAL_ERROR "bytes: '${name}' posted no figure (${median}): ${error}")
  endif()
endforeach()
message(STATUS "sluice-bench under the emulator: ${method_count} rows, _fwrite_nolock's among them")
