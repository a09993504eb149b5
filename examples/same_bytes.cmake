# Runs an example that writes one file two ways (with sluice, and with
# --stdio) and checks that both files hold the same bytes.
#
#   cmake -DPROGRAM=<example> -DDIR=<scratch directory> -P same_bytes.cmake

file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
execute_process(COMMAND ${PROGRAM} "${DIR}/sluice.bin" COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${PROGRAM} --stdio "${DIR}/stdio.bin" COMMAND_ERROR_IS_FATAL ANY)
file(SIZE "${DIR}/stdio.bin" size)
if(size EQUAL 0)
  message(FATAL_ERROR "the --stdio version wrote nothing")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${DIR}/sluice.bin" "${DIR}/stdio.bin"
  RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "${PROGRAM}: the sluice and stdio versions wrote different bytes")
endif()
message(STATUS "both versions wrote the same ${size} bytes")
file(REMOVE_RECURSE "${DIR}")
