# sluice_man_page(<tool>): builds <tool>.1 from docs/<tool>.md (man_page.cmake
# says how) into <build>/man/, and installs it in man1, when go-md2man
# (Debian's go-md2man) is installed; without it, says once that the man
# pages are not built. The docs page stays the one source of both.
# sluice_man_page_tests(): a test per page made (man_page.<tool>), checking
# it against its docs page (tests/tools/man_page_check.cmake).
find_program(SLUICE_MD2MAN go-md2man)
if(NOT SLUICE_MD2MAN)
  message(STATUS "sluice: man pages not built: they need go-md2man (apt install go-md2man)")
endif()

function(sluice_man_page tool)
  if(NOT SLUICE_MD2MAN)
    return()
  endif()
  set(markdown ${PROJECT_SOURCE_DIR}/docs/${tool}.md)
  set(page ${PROJECT_BINARY_DIR}/man/${tool}.1)
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -DMARKDOWN=${markdown} -DOUTPUT=${page}
            -DVERSION=${PROJECT_VERSION} -DMD2MAN=${SLUICE_MD2MAN}
            -P ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
    DEPENDS ${markdown} ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
    COMMENT "Man page ${tool}.1 from docs/${tool}.md" VERBATIM)
  add_custom_target(${tool}-man ALL DEPENDS ${page})
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)
  set_property(GLOBAL APPEND PROPERTY sluice_man_pages ${tool})
endfunction()

function(sluice_man_page_tests)
  get_property(tools GLOBAL PROPERTY sluice_man_pages)
  foreach(tool IN LISTS tools)
    add_test(NAME man_page.${tool}
      COMMAND ${CMAKE_COMMAND} -DPAGE=${PROJECT_BINARY_DIR}/man/${tool}.1
              -DMARKDOWN=${PROJECT_SOURCE_DIR}/docs/${tool}.md -DTOOL=${tool}
              -DVERSION=${PROJECT_VERSION}
              -P ${PROJECT_SOURCE_DIR}/tests/tools/man_page_check.cmake)
  endforeach()
endfunction()
