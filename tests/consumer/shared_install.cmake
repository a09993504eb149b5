# Builds the library alone as a shared library and installs it in PREFIX:
# what a distribution's libsluice.so package holds.
#
#   cmake -DSOURCE=<sluice source> -DBINARY=<build dir> -DPREFIX=<prefix>
#         -DGENERATOR=<generator> "-DOPTIONS=<-D...;...>" -P shared_install.cmake

foreach(var SOURCE BINARY PREFIX GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "shared_install.cmake: ${var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${BINARY}" "${PREFIX}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G ${GENERATOR} ${OPTIONS}
    -DBUILD_SHARED_LIBS=ON -DSLUICE_BUILD_TESTS=OFF -DSLUICE_BUILD_BENCH=OFF
    -DSLUICE_BUILD_EXAMPLES=OFF -DSLUICE_BUILD_TOOLS=OFF
  COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY} --prefix ${PREFIX}
  COMMAND_ERROR_IS_FATAL ANY)
