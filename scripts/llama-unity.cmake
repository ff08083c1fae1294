# Read by CMake at each project() of the llama.cpp source (CMAKE_PROJECT_INCLUDE, set by
# scripts/llama-build-recipe.mjs). Compiles the server's C++ targets as unity builds: up to 16 of
# their files in one translation unit, so the large headers they all include (nlohmann/json, the
# chat and multimodal headers) are parsed once per batch instead of once per file. llama.cpp does
# the same for its model graphs. Measured on 2 cores: the mingw-w64 cross-build of llama-server.exe
# took 365 CPU-seconds instead of 716 (both idle), and the Linux build of the server's own sources
# (13 translation units instead of 68) 86 CPU-seconds with its fetches and smoke test, where the
# compile alone took 272 before (on a busy machine).
function(llama_tray_unity_build)
  foreach(target ggml-base llama-common-base llama-common mtmd server-context llama-server-impl vendor-hash)
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
    endif()
  endforeach()
  # Files that cannot share a translation unit: the helpers refuse mtmd's internal headers, and
  # common/json.cpp defines its own ordered_json.
  if(TARGET mtmd)
    set_source_files_properties(
      ${CMAKE_SOURCE_DIR}/tools/mtmd/mtmd-helper.cpp ${CMAKE_SOURCE_DIR}/tools/mtmd/mtmd-helper-gen.cpp
      DIRECTORY ${CMAKE_SOURCE_DIR}/tools/mtmd PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
  if(TARGET llama-common)
    set_source_files_properties(
      ${CMAKE_SOURCE_DIR}/common/json.cpp DIRECTORY ${CMAKE_SOURCE_DIR}/common PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()

# Once, when the whole source has been read and every target exists.
get_property(llama_tray_unity_scheduled GLOBAL PROPERTY LLAMA_TRAY_UNITY_SCHEDULED)
if(NOT llama_tray_unity_scheduled)
  set_property(GLOBAL PROPERTY LLAMA_TRAY_UNITY_SCHEDULED ON)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL llama_tray_unity_build)
endif()
