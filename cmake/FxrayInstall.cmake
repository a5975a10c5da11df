# Install rules and CPack packages. One layout for `cmake --install`, `pip install` (pyproject.toml installs into
# the environment's prefix) and the .deb / .tar.gz:
#   bin/fxray, bin/fxray-layout, bin/fxray-gui        programs; each finds the others beside itself
#   lib/fxray/libfxray_cli_torch.so                    the LibTorch commands, dlopened by fxray (torch_loader.cpp)
#   share/fxray/runtime/run_output_code.py             the output_code stage's runner (output_code_stage.cpp)
#   share/fxray/samples/                               what fxray-gui opens on first start (samples/cpu)
#   share/applications/fxray.desktop, share/icons/hicolor/scalable/apps/fxray.svg
# Built without Qt, bin/fxray-gui is a script that says how to get the GUI (packaging/fxray-gui-missing.sh).

# The LibTorch module finds torch's libraries through its RPATH: inside the environment it was built against (the
# pip case: <prefix>/lib/fxray -> <prefix>/lib/pythonX.Y/site-packages/torch/lib, relative, so the environment may
# move), else at the absolute path it was linked with (cmake --install, a package on the build machine). Elsewhere:
# LD_LIBRARY_PATH=<site-packages>/torch/lib, of the same torch version (`fxray --version` names it).
if(TARGET fxray_cli_torch)
  set(module_rpath "")
  if(FXRAY_TORCH_LIB_FROM_PREFIX)
    list(APPEND module_rpath "$ORIGIN/../../${FXRAY_TORCH_LIB_FROM_PREFIX}")
  endif()
  if(FXRAY_TORCH_LIB_DIR)
    list(APPEND module_rpath "${FXRAY_TORCH_LIB_DIR}")
  endif()
  # The CUDA runtime of a CUDA torch: its nvidia/<pkg>/lib, relative to the prefix as torch/lib is, and absolute.
  foreach(dir ${FXRAY_TORCH_CUDART_DIRS})
    file(RELATIVE_PATH rel "${FXRAY_TORCH_LIB_DIR}" "${dir}")
    if(FXRAY_TORCH_LIB_FROM_PREFIX)
      list(APPEND module_rpath "$ORIGIN/../../${FXRAY_TORCH_LIB_FROM_PREFIX}/${rel}")
    endif()
    list(APPEND module_rpath "${dir}")
  endforeach()
  set_target_properties(fxray_cli_torch PROPERTIES INSTALL_RPATH "${module_rpath}")
  set_property(TARGET fxray_cli_torch APPEND PROPERTY BUILD_RPATH ${FXRAY_TORCH_CUDART_DIRS})
  install(TARGETS fxray_cli_torch LIBRARY DESTINATION lib/fxray COMPONENT fxray)
endif()

install(TARGETS fxray fxray-layout RUNTIME DESTINATION bin COMPONENT fxray)
if(TARGET fxray-gui)
  install(TARGETS fxray-gui RUNTIME DESTINATION bin COMPONENT fxray)
else()
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/packaging/fxray-gui-missing.sh DESTINATION bin RENAME fxray-gui COMPONENT fxray)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/tools/runtime/run_output_code.py DESTINATION share/fxray/runtime COMPONENT fxray)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/samples/cpu/ DESTINATION share/fxray/samples COMPONENT fxray)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/fxray.desktop DESTINATION share/applications COMPONENT fxray)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/fxray.svg DESTINATION share/icons/hicolor/scalable/apps COMPONENT fxray)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/fxray
        COMPONENT fxray)

# CPack: `cpack -G DEB` / `cpack -G TGZ` in the build folder (or `cmake --build build --target package`).
set(CPACK_PACKAGE_NAME fxray)
set(CPACK_PACKAGE_VENDOR fxray)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Look at, replay, diff and minimize torch.compile graph dumps")
set(CPACK_PACKAGE_CONTACT "fxray maintainers <fxray@localhost>")
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_PACKAGE_FILE_NAME "fxray-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")
if(FXRAY_TORCH_VERSION)
  # A package's LibTorch module works with one torch: say which in the file name.
  string(REGEX REPLACE "[^A-Za-z0-9.]" "_" torch_tag "${FXRAY_TORCH_VERSION}")
  string(APPEND CPACK_PACKAGE_FILE_NAME "-torch${torch_tag}")
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_SET_DESTDIR OFF)
set(CPACK_STRIP_FILES ON)  # RelWithDebInfo builds: ~270 MB of debug info otherwise
# Debian 12's runtime packages of what is linked (dpkg-shlibdeps cannot resolve LibTorch, which lives in a venv).
set(deb_depends "libc6, libstdc++6")
if(FXRAY_HAVE_QT)
  string(APPEND deb_depends ", libqt6core6, libqt6gui6, libqt6widgets6, libqt6svg6, libqt6concurrent6")
endif()
if(FXRAY_HAVE_GRAPHVIZ)
  string(APPEND deb_depends ", libgvc6, libcgraph6")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${deb_depends}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3")
include(CPack)
