# Finds LibTorch inside the torch wheel: torch.utils.cmake_prefix_path of FXRAY_PYTHON (default: python3).
# A CUDA wheel wants a CUDA toolkit at configure time; /usr/local/cuda is used when present.
if(NOT FXRAY_PYTHON)
  set(FXRAY_PYTHON python3)
endif()
execute_process(COMMAND ${FXRAY_PYTHON} -c "import torch.utils; print(torch.utils.cmake_prefix_path)"
  OUTPUT_VARIABLE FXRAY_TORCH_PREFIX OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
if(rc EQUAL 0 AND FXRAY_TORCH_PREFIX)
  list(APPEND CMAKE_PREFIX_PATH ${FXRAY_TORCH_PREFIX})
  if(EXISTS /usr/local/cuda/bin/nvcc AND NOT CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
    set(CUDAToolkit_ROOT /usr/local/cuda)
  endif()
  # Torch's CUDA config otherwise compiles a GPU-detection program (with our C++20 as CUDA20, which CMake 3.25
  # cannot pass to nvcc) and needs no GPU to know what to target: name the arch (Hopper, the test machines).
  if(NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
    set(ENV{TORCH_CUDA_ARCH_LIST} "9.0")
  endif()
  set(CMAKE_CUDA_STANDARD 17)
  find_package(Torch QUIET)
  if(Torch_FOUND)
    set(FXRAY_HAVE_TORCH ON)
    # What `fxray --version` says it was built against (app/cli/build_info.h), and where torch's libraries sit
    # relative to the environment's prefix: an install into that environment finds them from $ORIGIN (FxrayInstall).
    execute_process(COMMAND ${FXRAY_PYTHON} -c
      "import os, sys, torch; print(torch.__version__); print(torch.version.cuda or ''); print(getattr(torch.version, 'git_version', '') or ''); print(os.path.relpath(os.path.join(os.path.dirname(torch.__file__), 'lib'), sys.prefix)); print(sys.executable); import glob; print(';'.join(sorted({os.path.dirname(p) for p in glob.glob(os.path.join(os.path.dirname(os.path.dirname(torch.__file__)), 'nvidia', '**', 'libcudart.so*'), recursive=True)})))"
      OUTPUT_VARIABLE torch_info OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    # One line each: version, CUDA, git, torch/lib from sys.prefix, python, the CUDA runtime's folders (';'-joined).
    string(REPLACE ";" "|" torch_info "${torch_info}")
    string(REPLACE "\n" ";" torch_info "${torch_info}")
    list(LENGTH torch_info n)
    if(n GREATER_EQUAL 5)
      list(GET torch_info 0 FXRAY_TORCH_VERSION)
      list(GET torch_info 1 FXRAY_TORCH_CUDA)
      list(GET torch_info 2 FXRAY_TORCH_GIT)
      list(GET torch_info 3 FXRAY_TORCH_LIB_FROM_PREFIX)
      list(GET torch_info 4 FXRAY_TORCH_PYTHON)
      # The module links libcudart.so.N (CUDA graphs), which the environment has in nvidia/<pkg>/lib: its RPATH
      # must name that folder, or it loads only where a CUDA toolkit is on the loader's path.
      set(FXRAY_TORCH_CUDART_DIRS "")
      if(n GREATER 5)
        list(GET torch_info 5 cudart)
        string(REPLACE "|" ";" FXRAY_TORCH_CUDART_DIRS "${cudart}")
      endif()
    else()
      set(FXRAY_TORCH_VERSION "${Torch_VERSION}")
    endif()
    set(FXRAY_TORCH_LIB_DIR "${FXRAY_TORCH_PREFIX}/../../lib")
    get_filename_component(FXRAY_TORCH_LIB_DIR "${FXRAY_TORCH_LIB_DIR}" ABSOLUTE)
  endif()
else()
  message(STATUS "fxray: no torch in ${FXRAY_PYTHON}; LibTorch parts are off")
endif()
