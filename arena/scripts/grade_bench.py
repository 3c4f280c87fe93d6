#!/usr/bin/env python3
"""Grading wall time, local against Slurm (docs/benchmarks.md, "Grading
through Slurm", has its output). From the workspace root:

    python3 arena/scripts/grade_bench.py EXECUTOR SLOTS LIB...

starts a fresh `arena serve` (round robin off, --grading-slots SLOTS,
--executor EXECUTOR), adds one student per LIB (target/debug/libLIB.so),
uploads them all at once, polls each submission every 20 ms, and prints
the wall time from the first upload to the last grade, and each
submission's time to its grade. With slurm, each job's submission, start
and end as `scontrol` tells them (whole seconds), from the server's `jobs`
table. The data folder is a temporary one: on a real cluster, run it
where that is shared (TMPDIR)."""
import json, os, sqlite3, subprocess, sys, tempfile, threading, time, urllib.request

executor, slots, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
arena = os.path.abspath("target/debug/arena")
data = tempfile.mkdtemp()
tokens = [subprocess.run([arena, "serve", "add-student", f"s{i}", "--data", data], capture_output=True,
                         text=True, check=True).stdout.strip() for i in range(len(libs))]
server = subprocess.Popen([arena, "serve", "--data", data, "--listen", "127.0.0.1:0", "--round-robin", "off",
                           "--grading-slots", slots, "--executor", executor], stdout=subprocess.PIPE, text=True)
url = server.stdout.readline().split()[2]

def get(path, token):
    request = urllib.request.Request(url + path, headers={"Authorization": f"Bearer {token}"})
    return json.load(urllib.request.urlopen(request))

results = {}
def grade(i, lib):
    started = time.time()
    out = subprocess.run([arena, "submit", f"target/debug/lib{lib}.so", "--server", url, "--token", tokens[i]],
                         capture_output=True, text=True, check=True).stdout
    sid = int(out.split()[1].rstrip(":"))
    while True:
        s = get(f"/api/submissions/{sid}", tokens[i])
        if s["status"] in ("done", "failed"):
            break
        time.sleep(0.02)
    levels = " ".join(f"{l['level']} {l['wins']}/{l['draws']}/{l['losses']}" for l in (s["grade"] or {}).get("levels", []))
    results[lib] = (time.time() - started, sid, s["status"], levels)

start = time.time()
threads = [threading.Thread(target=grade, args=(i, lib)) for i, lib in enumerate(libs)]
for t in threads: t.start()
for t in threads: t.join()
total = time.time() - start
server.kill()
print(f"{executor} slots={slots}: {len(libs)} submissions graded in {total:.2f} s")
for lib in libs:
    took, sid, status, levels = results[lib]
    print(f"  {lib}: {took:.2f} s, {status}: {levels}")
if executor == "slurm":
    db = sqlite3.connect(os.path.join(data, "arena.db"))
    for (sid, job) in db.execute("SELECT submission, slurm_id FROM jobs ORDER BY id"):
        line = subprocess.run(["scontrol", "show", "job", "-o", job], capture_output=True, text=True).stdout
        f = dict(w.split("=", 1) for w in line.split() if "=" in w)
        print(f"  job {job} (submission {sid}): submit {f['SubmitTime'][11:]} start {f['StartTime'][11:]} end {f['EndTime'][11:]} {f['JobState']}")
