# The win32-x64 prebuild, cross-built with mingw-w64 (cmake/toolchain-x86_64-w64-mingw32.cmake).
#  - N-API: the addon imports the napi_* functions from NODE.EXE through an import library that
#    dlltool makes from node-api-headers' .def files (what cmake-js does with MSVC's lib.exe on
#    Windows), so no Node download and no network. Like node-gyp's win_delay_load_hook, the
#    import is delay-loaded and resolved against the process that loads the addon, so it also
#    works in a host that is not named node.exe (Electron).
#  - Every DLL is linked with -static: libgcc, libstdc++ and winpthread inside, importing only
#    system DLLs (scripts/test-platforms.ts checks the imports with objdump -p).
#  - Names without the "lib" prefix (khronos_simxr.dll), as Windows names DLLs.

execute_process(
  COMMAND node -p "require('node-api-headers').def_paths.js_native_api_def + ';' + require('node-api-headers').def_paths.node_api_def"
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  OUTPUT_VARIABLE KL_NODE_API_DEFS
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT CMAKE_DLLTOOL)
  find_program(CMAKE_DLLTOOL NAMES x86_64-w64-mingw32-dlltool dlltool REQUIRED)
endif()

# `dir`: where the DLL goes (a DLL is a RUNTIME output to CMake; cmake-js sets the LIBRARY one).
function(kl_windows_dll target dir)
  set_target_properties(${target} PROPERTIES PREFIX "" RUNTIME_OUTPUT_DIRECTORY ${dir})
  target_link_options(${target} PRIVATE -static -static-libgcc -static-libstdc++ -Wl,--no-undefined)
endfunction()

function(kl_windows_addon target dir)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${dir})
  set(import_libs)
  foreach(def ${KL_NODE_API_DEFS})
    get_filename_component(stem ${def} NAME_WE)
    set(lib ${CMAKE_CURRENT_BINARY_DIR}/lib${stem}_${target}_delay.a)
    add_custom_command(OUTPUT ${lib}
      COMMAND ${CMAKE_DLLTOOL} --input-def ${def} --dllname node.exe --output-delaylib ${lib}
      DEPENDS ${def}
      COMMENT "N-API delay-load import library ${stem} (node.exe)")
    list(APPEND import_libs ${lib})
  endforeach()
  add_custom_target(${target}_node_imports DEPENDS ${import_libs})
  add_dependencies(${target} ${target}_node_imports)
  target_sources(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/native/addon/windows/node_delay_load_hook.cc)
  target_link_libraries(${target} PRIVATE ${import_libs})
  target_link_options(${target} PRIVATE -static -static-libgcc -static-libstdc++ -Wl,--no-undefined)
endfunction()

# The runtime manifest beside the DLL (source checkouts; the packaged one is written by
# lib/openxr/simulated-runtime.ts when none sits beside the library).
function(kl_windows_simxr_manifest dir)
  file(READ ${CMAKE_CURRENT_SOURCE_DIR}/native/bundled/simxr/khronos_simxr.json manifest)
  string(REPLACE "./libkhronos_simxr.so" "./khronos_simxr.dll" manifest "${manifest}")
  file(WRITE ${dir}/khronos_simxr.json "${manifest}")
endfunction()
