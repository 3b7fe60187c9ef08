#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Can a GPU copy a file straight from the page cache? Maps FILE (already in the page cache), registers
the mapping with the CUDA runtime (cudaHostRegister, read-only), and times the registration, a copy of
the whole mapping to the device, and for comparison a copy from pageable memory and from pinned memory
(cudaHostAlloc) of the same size. The CUDA runtime is called through ctypes.

usage: page_cache_copy_timing.py FILE [LIBCUDART]
Prints CSV rows: step,bytes,seconds,gb_per_s
"""
import ctypes
import mmap
import os
import sys
import time

READ_ONLY = 8  # cudaHostRegisterReadOnly
TO_DEVICE = 1  # cudaMemcpyHostToDevice


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    cuda = ctypes.CDLL(sys.argv[2] if len(sys.argv) > 2 else "/usr/local/cuda/lib64/libcudart.so")
    cuda.cudaGetErrorString.restype = ctypes.c_char_p
    size = os.path.getsize(path)
    check = lambda status, what: status == 0 or sys.exit(f"{what}: {cuda.cudaGetErrorString(status).decode()}")
    check(cuda.cudaFree(None), "start")
    device = ctypes.c_void_p()
    check(cuda.cudaMalloc(ctypes.byref(device), ctypes.c_size_t(size)), "cudaMalloc")
    print("step,bytes,seconds,gb_per_s")

    def row(step, seconds):
        print(f"{step},{size},{seconds:.4f},{size / seconds / 1e9:.2f}")

    def copy_from(address, step):
        cuda.cudaDeviceSynchronize()
        began = time.perf_counter()
        check(cuda.cudaMemcpy(device, ctypes.c_void_p(address), ctypes.c_size_t(size), TO_DEVICE), step)
        cuda.cudaDeviceSynchronize()
        row(step, time.perf_counter() - began)

    with open(path, "rb") as f:
        # The mapping's address: a read-only mmap exposes no writable buffer, so ask libc for it.
        libc = ctypes.CDLL(None)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        address = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, f.fileno(), 0)
        copy_from(address, "copy from the mapping, pageable (first touch of the mapping)")
        copy_from(address, "copy from the mapping, pageable")
        began = time.perf_counter()
        status = cuda.cudaHostRegister(ctypes.c_void_p(address), ctypes.c_size_t(size), READ_ONLY)
        if status != 0:
            print(f"register the mapping,{size},nan,nan  # {cuda.cudaGetErrorString(status).decode()}")
        else:
            row("register the mapping (read-only)", time.perf_counter() - began)
            copy_from(address, "copy from the registered mapping")
            copy_from(address, "copy from the registered mapping, again")
            began = time.perf_counter()
            cuda.cudaHostUnregister(ctypes.c_void_p(address))
            row("unregister the mapping", time.perf_counter() - began)
    pinned = ctypes.c_void_p()
    began = time.perf_counter()
    check(cuda.cudaHostAlloc(ctypes.byref(pinned), ctypes.c_size_t(size), 0), "cudaHostAlloc")
    row("cudaHostAlloc", time.perf_counter() - began)
    copy_from(pinned.value, "copy from pinned memory")


if __name__ == "__main__":
    main()
