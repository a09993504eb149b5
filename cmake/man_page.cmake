# Makes a tool's man page from its page in docs/ (docs/<tool>.md, the one
# source of both), with go-md2man:
#
#   cmake -DMARKDOWN=docs/sluice-bench.md -DOUTPUT=sluice-bench.1
#         -DVERSION=0.1.0 -DMD2MAN=/usr/bin/go-md2man -P man_page.cmake
#
# The page's first line, "# <tool>(<section>)", becomes the man page's title
# line; its "## Name"-level headings become the sections (NAME, SYNOPSIS...,
# upper case as man pages have them, which whatis and apropos look for) and
# "###" headings their subsections. A "## Performance" section, figures
# measured on one machine, stays in docs/ only.

foreach(var MARKDOWN OUTPUT VERSION MD2MAN)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page.cmake: ${var} is not set")
  endif()
endforeach()

file(READ "${MARKDOWN}" page)
if(NOT page MATCHES "^# ([a-z0-9-]+)\\(([1-9])\\)\n")
  message(FATAL_ERROR "${MARKDOWN}: the first line should be '# <tool>(<section>)'")
endif()
string(TOUPPER "${CMAKE_MATCH_1}" title)
set(section "${CMAKE_MATCH_2}")
string(FIND "${page}" "\n" first_line_end)
string(SUBSTRING "${page}" ${first_line_end} -1 page)

# The performance section runs to the next "## " heading or to the end.
string(FIND "${page}" "\n## Performance\n" start)
if(start GREATER -1)
  string(SUBSTRING "${page}" 0 ${start} before)
  math(EXPR after_heading "${start} + 1")
  string(SUBSTRING "${page}" ${after_heading} -1 rest)
  string(FIND "${rest}" "\n## " next)
  if(next GREATER -1)
    string(SUBSTRING "${rest}" ${next} -1 rest)
  else()
    set(rest "\n")
  endif()
  set(page "${before}${rest}")
endif()

# Headings one level up, sections in upper case.
string(REGEX REPLACE "\n### " "\n#### " page "${page}")
# (words only: what is in backticks, an option's name, stays as it is)
string(REGEX MATCHALL "\n## [^`\n]*" headings "${page}")
foreach(heading IN LISTS headings)
  string(TOUPPER "${heading}" upper)
  string(REPLACE "${heading}" "${upper}" page "${page}")
endforeach()
string(REGEX REPLACE "\n## " "\n# " page "${page}")
string(REGEX REPLACE "\n#### " "\n## " page "${page}")

set(source "${OUTPUT}.md")
file(WRITE "${source}" "% ${title} ${section} \"\" \"sluice ${VERSION}\" \"sluice manual\"\n${page}")
execute_process(COMMAND "${MD2MAN}" -in "${source}" -out "${OUTPUT}" RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "go-md2man failed on ${MARKDOWN}: ${failed}")
endif()
