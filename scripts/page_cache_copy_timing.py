#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Can a GPU copy a file straight from the page cache? Maps FILE (already in the page cache), registers
the mapping with the CUDA runtime (cudaHostRegister, read-only), and times the registration, a copy of
the whole mapping to the device, and for comparison a copy from pageable memory and from pinned memory
(cudaHostAlloc) of the same size. The CUDA runtime is called through ctypes.

With --pieces THREADS,... it instead measures what a reader built on it would do: a fresh mapping of
FILE registered piece by piece (PIECE_MIB each, at most AHEAD pieces ahead of the copies) by THREADS
threads, while the main thread copies each registered piece to the device in order, into one of two
device buffers; for each thread count, the whole pipeline's time.

usage: page_cache_copy_timing.py FILE [LIBCUDART]
       page_cache_copy_timing.py FILE --pieces THREADS[,THREADS...] [PIECE_MIB [AHEAD [LIBCUDART]]]
Prints CSV rows: step,bytes,seconds,gb_per_s
"""
import ctypes
import mmap
import os
import sys
import threading
import time

READ_ONLY = 8  # cudaHostRegisterReadOnly
TO_DEVICE = 1  # cudaMemcpyHostToDevice


def map_file(f, size):
    """The address of a fresh read-only mapping of f (a read-only mmap exposes no writable buffer, so
    ask libc for it)."""
    libc = ctypes.CDLL(None)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    return libc, libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, f.fileno(), 0)


def pieces(path, thread_counts, piece_mib, ahead, cuda_path):
    """Registration piece by piece, ahead of in-order copies: each thread count on a fresh mapping."""
    cuda = ctypes.CDLL(cuda_path)
    cuda.cudaGetErrorString.restype = ctypes.c_char_p
    check = lambda status, what: status == 0 or sys.exit(f"{what}: {cuda.cudaGetErrorString(status).decode()}")
    check(cuda.cudaFree(None), "start")
    size = os.path.getsize(path)
    piece = piece_mib << 20
    count = (size + piece - 1) // piece
    slots = [ctypes.c_void_p(), ctypes.c_void_p()]
    for slot in slots:
        check(cuda.cudaMalloc(ctypes.byref(slot), ctypes.c_size_t(piece)), "cudaMalloc")
    stream = ctypes.c_void_p()
    check(cuda.cudaStreamCreate(ctypes.byref(stream)), "cudaStreamCreate")
    landed = [ctypes.c_void_p(), ctypes.c_void_p()]
    for event in landed:
        check(cuda.cudaEventCreate(ctypes.byref(event)), "cudaEventCreate")
    print("step,bytes,seconds,gb_per_s")
    for threads in thread_counts:
        with open(path, "rb") as f:
            libc, address = map_file(f, size)
            state = threading.Condition()
            registered = [False] * count
            progress = {"next": 0, "copied": 0}

            def register():
                while True:
                    with state:
                        i = progress["next"]
                        progress["next"] += 1
                        if i >= count:
                            return
                        state.wait_for(lambda: i < progress["copied"] + ahead)
                    length = (min(piece, size - i * piece) + 4095) & ~4095  # whole pages of the mapping
                    check(cuda.cudaHostRegister(ctypes.c_void_p(address + i * piece), ctypes.c_size_t(length),
                                                READ_ONLY), f"register piece {i}")
                    with state:
                        registered[i] = True
                        state.notify_all()

            began = time.perf_counter()
            workers = [threading.Thread(target=register) for _ in range(threads)]
            for w in workers:
                w.start()
            for i in range(count):
                with state:
                    state.wait_for(lambda: registered[i])
                if i >= 2:  # the slot's last copy has landed: one more piece may be registered
                    check(cuda.cudaEventSynchronize(landed[i % 2]), "cudaEventSynchronize")
                    with state:
                        progress["copied"] = i - 1
                        state.notify_all()
                check(cuda.cudaMemcpyAsync(slots[i % 2], ctypes.c_void_p(address + i * piece),
                                           ctypes.c_size_t(min(piece, size - i * piece)), TO_DEVICE, stream), "copy")
                check(cuda.cudaEventRecord(landed[i % 2], stream), "cudaEventRecord")
            check(cuda.cudaStreamSynchronize(stream), "cudaStreamSynchronize")
            seconds = time.perf_counter() - began
            for w in workers:
                w.join()
            step = f"register a fresh mapping in {piece_mib} MiB pieces on {threads} thread(s) and copy each"
            print(f"{step},{size},{seconds:.4f},{size / seconds / 1e9:.2f}")
            for i in range(count):
                cuda.cudaHostUnregister(ctypes.c_void_p(address + i * piece))
            libc.munmap(ctypes.c_void_p(address), ctypes.c_size_t(size))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if len(sys.argv) > 3 and sys.argv[2] == "--pieces":
        rest = sys.argv[4:]
        pieces(sys.argv[1], [int(t) for t in sys.argv[3].split(",")], int(rest[0]) if rest else 64,
               int(rest[1]) if len(rest) > 1 else 16, rest[2] if len(rest) > 2 else "/usr/local/cuda/lib64/libcudart.so")
        return
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
        _, address = map_file(f, size)
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
