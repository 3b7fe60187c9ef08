#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How long CUDA takes to make the primary contexts of several GPUs: one after another on one thread,
and side by side on a thread each (as job::start_devices does). Each way runs in a fresh process, so
that every context is made from nothing; the CUDA runtime is called through ctypes.

usage: context_start_timing.py [RUNS] [LIBCUDART]    (default: 5 runs, /usr/local/cuda/lib64/libcudart.so)
Prints CSV rows: way,gpus,runs,median_s,min_s,max_s (from the first runtime call to the last context made).
"""
import ctypes
import statistics
import subprocess
import sys
import threading
import time


def start(lib_path, gpus, side_by_side):
    cuda = ctypes.CDLL(lib_path)
    count = ctypes.c_int(0)
    began = time.perf_counter()
    if cuda.cudaGetDeviceCount(ctypes.byref(count)) != 0 or count.value < gpus:
        sys.exit(f"context_start_timing: fewer than {gpus} GPUs")

    def make(device):
        cuda.cudaSetDevice(device)
        if cuda.cudaFree(None) != 0:
            sys.exit(f"context_start_timing: GPU {device} did not start")

    if side_by_side:
        threads = [threading.Thread(target=make, args=(g,)) for g in range(gpus)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        for g in range(gpus):
            make(g)
    print(time.perf_counter() - began)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        start(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1")
        return
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    lib = sys.argv[2] if len(sys.argv) > 2 else "/usr/local/cuda/lib64/libcudart.so"
    print("way,gpus,runs,median_s,min_s,max_s")
    for gpus, side_by_side in ((1, False), (2, False), (2, True)):
        times = []
        for _ in range(runs):
            out = subprocess.run([sys.executable, __file__, "--child", lib, str(gpus), "1" if side_by_side else "0"],
                                 capture_output=True, text=True, check=True)
            times.append(float(out.stdout))
        way = "side by side" if side_by_side else "one after another"
        print(f"{way},{gpus},{runs},{statistics.median(times):.3f},{min(times):.3f},{max(times):.3f}")


if __name__ == "__main__":
    main()
