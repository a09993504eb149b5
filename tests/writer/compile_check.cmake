# One writer_compile.* test: compiles writer_compile_check.cpp with case
# CASE's right spelling, which must compile, then with its wrong one
# (SLUICE_REFUSE), which must fail on a deleted overload of writer's. The
# two differ in that one call only, so the refusal is the call's.
#
#   cmake -DCXX=<compiler> -DINCLUDE=<include dir> -DSOURCE=<file> [-DCASE=<NAME>]
#         -P compile_check.cmake
#
# Without CASE: the spellings that must keep compiling, alone.

set(compile ${CXX} -std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I${INCLUDE} ${SOURCE})
if(DEFINED CASE)
  list(APPEND compile -DSLUICE_CASE_${CASE})
endif()
execute_process(COMMAND ${compile} RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the right spelling does not compile:\n${errors}")
endif()
if(NOT DEFINED CASE)
  return()
endif()
execute_process(COMMAND ${compile} -DSLUICE_REFUSE RESULT_VARIABLE status ERROR_VARIABLE errors)
if(status EQUAL 0)
  message(FATAL_ERROR "${CASE}: the wrong spelling compiles")
endif()
# GCC: "use of deleted function", Clang: "call to deleted member function".
if(NOT errors MATCHES "(use of|call to) deleted (member )?function")
  message(FATAL_ERROR "${CASE}: refused, but not as a deleted overload:\n${errors}")
endif()
message(STATUS "${CASE}: refused as a deleted overload")
