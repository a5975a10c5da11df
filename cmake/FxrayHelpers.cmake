# Helpers shared by every CMakeLists: warnings, module libraries, one-line test registration.

# Not -Wnull-dereference: with GCC 12 at -O2 it fires inside libstdc++'s streambuf for plain ifstream reads.
set(FXRAY_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Wunused -Woverloaded-virtual -Wimplicit-fallthrough)

# GCC 12 reports -Warray-bounds / -Wstringop-overflow / -Wstringop-overread inside libstdc++'s std::string at -O2 for code that is
# fine (GCC bugs 105329, 105651); they are off for GCC 12 only.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND FXRAY_WARNINGS -Wno-array-bounds -Wno-stringop-overflow -Wno-stringop-overread -Wno-restrict)
endif()

function(fxray_warnings target)
  target_compile_options(${target} PRIVATE ${FXRAY_WARNINGS})
  if(FXRAY_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# fxray_module(<name> [DEPS ...] [PRIVATE_DEPS ...]): core/<name>/*.cpp -> static library fxray_<name>,
# alias fxray::<name>, include root core/ ("#include "graph/graph.h"").
function(fxray_module name)
  cmake_parse_arguments(M "" "" "DEPS;PRIVATE_DEPS;SOURCES" ${ARGN})
  if(NOT M_SOURCES)
    file(GLOB M_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  endif()
  add_library(fxray_${name} STATIC ${M_SOURCES})
  add_library(fxray::${name} ALIAS fxray_${name})
  set_target_properties(fxray_${name} PROPERTIES AUTOMOC OFF)  # core has no Qt
  target_include_directories(fxray_${name} PUBLIC ${PROJECT_SOURCE_DIR}/core)
  target_link_libraries(fxray_${name} PUBLIC ${M_DEPS} PRIVATE ${M_PRIVATE_DEPS})
  target_precompile_headers(fxray_${name} PRIVATE <string> <vector> <string_view> <optional> <unordered_map> <memory>)
  fxray_warnings(fxray_${name})
endfunction()

# fxray_qtest(<source.cpp> LIBS ...): one QtTest executable per file, registered with CTest, offscreen platform.
function(fxray_qtest source)
  cmake_parse_arguments(T "" "LABEL" "LIBS" ${ARGN})
  get_filename_component(name ${source} NAME_WE)
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE Qt6::Test ${T_LIBS})
  target_compile_definitions(${name} PRIVATE
    FXRAY_SOURCE_DIR="${PROJECT_SOURCE_DIR}" FXRAY_SAMPLES_DIR="${PROJECT_SOURCE_DIR}/samples"
    FXRAY_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data" FXRAY_BINARY_DIR="${PROJECT_BINARY_DIR}")
  if(T_LABEL STREQUAL "core")  # the shared PCH is built for QtCore-only tests
    target_precompile_headers(${name} REUSE_FROM fxray_qtest_pch)
  endif()
  fxray_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen" TIMEOUT 300)
  if(T_LABEL)
    set_tests_properties(${name} PROPERTIES LABELS ${T_LABEL})
  endif()
endfunction()
