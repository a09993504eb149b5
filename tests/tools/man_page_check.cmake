# Checks a man page made by cmake/man_page.cmake against the docs page it
# came from: the title line names the tool, section 1 and the version; NAME
# holds the "<tool> - <what it does>" line that whatis and apropos read;
# every "## " section of the docs page but Performance is there, in upper
# case and in the same order; Performance is not.
#
#   cmake -DPAGE=<tool>.1 -DMARKDOWN=docs/<tool>.md -DTOOL=<tool>
#         -DVERSION=<version> -P man_page_check.cmake

foreach(var PAGE MARKDOWN TOOL VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page_check.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT EXISTS "${PAGE}")
  message(FATAL_ERROR "no man page at ${PAGE}: was it built?")
endif()
file(READ "${PAGE}" page)
file(READ "${MARKDOWN}" markdown)

string(TOUPPER "${TOOL}" title)
if(NOT page MATCHES "\n\\.TH ${title} 1 [^\n]*\"sluice ${VERSION}\"")
  message(FATAL_ERROR "${PAGE}: no title line '.TH ${title} 1 ... \"sluice ${VERSION}\"'")
endif()
if(NOT page MATCHES "\n\\.SH NAME\n\\.PP\n${TOOL} - [^\n]+")
  message(FATAL_ERROR "${PAGE}: NAME does not start with '${TOOL} - <what it does>'")
endif()

# The sections, in order: the docs page's (up to a backtick, as
# man_page.cmake upper-cases them) and the man page's.
string(REGEX MATCHALL "\n## [^`\n]*" wanted "${markdown}")
list(TRANSFORM wanted REPLACE "^\n## " "")
list(TRANSFORM wanted STRIP)
list(TRANSFORM wanted TOUPPER)
list(REMOVE_ITEM wanted PERFORMANCE)
string(REGEX MATCHALL "\n\\.SH [^\n\\\\]*" made "${page}")
list(TRANSFORM made REPLACE "^\n\\.SH " "")
list(TRANSFORM made STRIP)
if(NOT made STREQUAL wanted)
  message(FATAL_ERROR "${PAGE}: sections\n  ${made}\nexpected, from ${MARKDOWN}:\n  ${wanted}")
endif()
list(LENGTH made count)
message(STATUS "${PAGE}: ${count} sections, as ${MARKDOWN} has them")
