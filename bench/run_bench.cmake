# What the bench's ctest scripts (smoke_test, recommend_test, windows_test)
# share: run the tool and fail the test if it fails.
#
#   include(${CMAKE_CURRENT_LIST_DIR}/run_bench.cmake)
#   run_bench(printed --size 1M --repeat 1 --json ${JSON})
#
# Runs ${BENCH} (a list: an emulator first, in a cross build) with the
# arguments after `out`, shows what it printed and puts it in `out`; stops
# the script with the tool's status and standard error if it is not 0.
function(run_bench out)
  execute_process(
    COMMAND ${BENCH} ${ARGN}
    RESULT_VARIABLE status
    OUTPUT_VARIABLE printed
    ERROR_VARIABLE errors)
  message(STATUS "${printed}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "sluice-bench ${ARGN} exited with ${status}:\n${errors}")
  endif()
  set(${out} "${printed}" PARENT_SCOPE)
endfunction()
