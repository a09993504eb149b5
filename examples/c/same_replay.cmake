# Runs the C journal example both ways (with sluice, and with --posix) twice
# into fresh directories, 50 transfers a run, and checks that the two print
# the same replay each time: the first run's 50 transfers, then 100, the
# second run adding to what the first left.
#
#   cmake -DPROGRAM=<sluice-example-c-journal> -DDIR=<scratch directory> -P same_replay.cmake

file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
foreach(expected 50 100)
  execute_process(COMMAND ${PROGRAM} "${DIR}/sluice" 50 OUTPUT_VARIABLE sluice
    COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${PROGRAM} --posix "${DIR}/posix" 50 OUTPUT_VARIABLE posix
    COMMAND_ERROR_IS_FATAL ANY)
  if(NOT sluice MATCHES "^${expected} transfers replayed; balances:")
    message(FATAL_ERROR "expected ${expected} transfers replayed, the sluice version printed: ${sluice}")
  endif()
  if(NOT sluice STREQUAL posix)
    message(FATAL_ERROR "the two versions replayed different transfers:\n"
      "sluice: ${sluice}write(2) + fdatasync: ${posix}")
  endif()
  message(STATUS "both versions: ${sluice}")
endforeach()
file(REMOVE_RECURSE "${DIR}")
