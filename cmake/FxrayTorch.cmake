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
  endif()
else()
  message(STATUS "fxray: no torch in ${FXRAY_PYTHON}; LibTorch parts are off")
endif()
