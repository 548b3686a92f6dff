# Compiles templates/ (report.html, compare.html, report.css) into nr_render,
# so that the binary needs no file at run time, and declares the arrays in the
# generated nr_templates.h (on nr_render's public include path). Included by
# render/CMakeLists.txt.
file(GLOB NR_TEMPLATE_FILES RELATIVE ${PROJECT_SOURCE_DIR}/templates
     CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/templates/*.html ${PROJECT_SOURCE_DIR}/templates/*.css)
set(NR_TEMPLATE_DEPS)
foreach(f ${NR_TEMPLATE_FILES})
  list(APPEND NR_TEMPLATE_DEPS ${PROJECT_SOURCE_DIR}/templates/${f})
endforeach()
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/nr_templates.c ${CMAKE_CURRENT_BINARY_DIR}/nr_templates.h
  COMMAND ${CMAKE_COMMAND} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/nr_templates.c
          -DHEADER=${CMAKE_CURRENT_BINARY_DIR}/nr_templates.h
          -DDIR=${PROJECT_SOURCE_DIR}/templates "-DFILES=${NR_TEMPLATE_FILES}"
          -P ${PROJECT_SOURCE_DIR}/templates/embed.cmake
  DEPENDS ${NR_TEMPLATE_DEPS} ${PROJECT_SOURCE_DIR}/templates/embed.cmake
  VERBATIM)
target_sources(nr_render PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/nr_templates.c
                                 ${CMAKE_CURRENT_BINARY_DIR}/nr_templates.h)
target_include_directories(nr_render PUBLIC ${CMAKE_CURRENT_BINARY_DIR})
