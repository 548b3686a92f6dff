# Turns each template file into a C byte array, declared in a header:
#   cmake -DOUT=file.c -DHEADER=file.h -DDIR=dir -DFILES="a;b" -P embed.cmake
# Symbol of "report.html" is nr_tmpl_report_html (+ _len); the arrays end with a NUL not counted in _len.
get_filename_component(header_name ${HEADER} NAME)
set(banner "/* generated from templates/ by templates/embed.cmake: do not edit */\n")
set(code "${banner}#include \"${header_name}\"\n")
set(decls "${banner}#ifndef NR_TEMPLATES_H\n#define NR_TEMPLATES_H\n#include <stddef.h>\n")
foreach(f ${FILES})
  file(READ ${DIR}/${f} hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR len "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(MAKE_C_IDENTIFIER "${f}" id)
  string(APPEND code "const unsigned char nr_tmpl_${id}[] = {${bytes}0x00};\nconst size_t nr_tmpl_${id}_len = ${len};\n")
  string(APPEND decls "/* templates/${f} */\nextern const unsigned char nr_tmpl_${id}[];\nextern const size_t nr_tmpl_${id}_len;\n")
endforeach()
string(APPEND decls "#endif\n")
file(WRITE ${OUT} "${code}")
file(WRITE ${HEADER} "${decls}")
