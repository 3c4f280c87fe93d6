#!/usr/bin/env python3
"""`finalize` wall time, local against Slurm (docs/benchmarks.md, "Grading
through Slurm", has its output). From the workspace root:

    python3 arena/scripts/finalize_bench.py SHARDS[,SHARDS...] LIB...

grades one student per LIB (target/debug/libLIB.so) on a fresh `arena
serve` (round robin off, local), stops it, then times `arena serve
finalize` on that data folder: locally, then with `--executor slurm
--shards N` for each N, each from scratch (final/ removed before each),
and checks that every run wrote the same grades.csv. The data folder is a
temporary one: on a real cluster, run it where that is shared (TMPDIR)."""
import os, shutil, subprocess, sys, tempfile, time

shards, libs = [int(n) for n in sys.argv[1].split(",")], sys.argv[2:]
arena = os.path.abspath("target/debug/arena")
data = tempfile.mkdtemp()
tokens = [subprocess.run([arena, "serve", "add-student", f"s{i}", "--data", data], capture_output=True,
                         text=True, check=True).stdout.strip() for i in range(len(libs))]
server = subprocess.Popen([arena, "serve", "--data", data, "--listen", "127.0.0.1:0", "--round-robin", "off"],
                          stdout=subprocess.PIPE, text=True)
url = server.stdout.readline().split()[2]
for lib, token in zip(libs, tokens):
    subprocess.run([arena, "submit", f"target/debug/lib{lib}.so", "--server", url, "--token", token, "--wait"],
                   capture_output=True, text=True, check=True)
server.kill()
server.wait()

grades = None
for name, extra in [("local", [])] + [(f"slurm, --shards {n}", ["--executor", "slurm", "--shards", str(n)])
                                      for n in shards]:
    shutil.rmtree(os.path.join(data, "final"), ignore_errors=True)
    started = time.time()
    subprocess.run([arena, "serve", "finalize", "--data", data] + extra, capture_output=True, check=True)
    took = time.time() - started
    csv = open(os.path.join(data, "final", "grades.csv")).read()
    assert grades in (None, csv), f"{name}: other grades:\n{csv}"
    grades = csv
    print(f"{name}: {took:.2f} s")
shutil.rmtree(data)
