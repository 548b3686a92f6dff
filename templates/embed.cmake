# Turns each template file into a C byte array: cmake -DOUT=file.c -DDIR=dir -DFILES="a;b" -P embed.cmake
# Symbol of "report.html" is nr_tmpl_report_html (+ _len); the arrays end with a NUL not counted in _len.
set(code "/* generated from templates/ by templates/embed.cmake: do not edit */\n#include <stddef.h>\n")
foreach(f ${FILES})
  file(READ ${DIR}/${f} hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR len "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(MAKE_C_IDENTIFIER "${f}" id)
  string(APPEND code "const unsigned char nr_tmpl_${id}[] = {${bytes}0x00};\nconst size_t nr_tmpl_${id}_len = ${len};\n")
endforeach()
file(WRITE ${OUT} "${code}")
