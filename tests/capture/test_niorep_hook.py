"""Unit tests of workloads/niorep_hook, run by ctest with /usr/bin/python3.

Each case runs a small program in a fresh interpreter with the hook
activated the way `niorep trace` does it (PYTHONPATH holds workloads/ with
its sitecustomize.py, NIOREP_HOOK_OUT names the output), then checks the
JSON lines it wrote against what the program did."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "workloads")


def run_hooked(code, env_extra=None, hook=True):
    """Runs code; returns (records, stdout, hook file text)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "hook.jsonl")
        env = dict(os.environ)
        env["PYTHONPATH"] = WORKLOADS
        env.pop("NIOREP_HOOK_OUT", None)
        if hook:
            env["NIOREP_HOOK_OUT"] = out
        env.update(env_extra or {})
        script = os.path.join(tmp, "prog.py")
        with open(script, "w") as f:
            f.write(textwrap.dedent(code))
        proc = subprocess.run([sys.executable, script], cwd=tmp, env=env, capture_output=True, text=True,
                              timeout=120)
        if proc.returncode != 0:
            raise AssertionError("program failed (%d):\n%s" % (proc.returncode, proc.stderr))
        text = ""
        if os.path.exists(out):
            with open(out) as f:
                text = f.read()
        run_dir = os.path.realpath(tmp) + "/"
    records = [json.loads(line) for line in text.splitlines()]
    for r in records:  # paths are absolute: the tests name them relative to the program's directory
        if isinstance(r.get("path"), str) and r["path"].startswith(run_dir):
            r["path"] = r["path"][len(run_dir):]
    return records, proc.stdout, text


def events(records, kind, **match):
    return [r for r in records if r["event"] == kind and all(r.get(k) == v for k, v in match.items())]


def has_module(name):
    return subprocess.run([sys.executable, "-c", "import " + name], capture_output=True).returncode == 0


class HookTests(unittest.TestCase):
    def test_header_first_and_every_line_complete(self):
        records, _, text = run_hooked("import niorep_hook\nprint(niorep_hook.active())\n")
        self.assertTrue(text.endswith("\n"))
        self.assertEqual(records[0]["event"], "header")
        self.assertEqual(records[0]["version"], 1)
        self.assertEqual(records[0]["clock"], "time.time")
        for key in ("ts", "pid", "tid", "out"):
            self.assertIn(key, records[0])

    def test_inactive_without_environment(self):
        _, out, text = run_hooked("""
            import builtins, io, niorep_hook
            with niorep_hook.phase("train"):
                niorep_hook.mark("x")
            print(niorep_hook.active(), builtins.open is io.open)
            """, hook=False)
        self.assertEqual(out.split(), ["False", "True"])
        self.assertEqual(text, "")

    def test_phases_nest_and_decorator(self):
        records, out, _ = run_hooked("""
            import os, niorep_hook
            @niorep_hook.phase("eval")
            def evaluate():
                return niorep_hook.current_phase()
            with niorep_hook.phase("train", epoch=1):
                with niorep_hook.phase("checkpoint"):
                    pass
                print(evaluate())
            try:
                with niorep_hook.phase("data_prep"):
                    raise KeyError
            except KeyError:
                pass
            niorep_hook.mark("done", n=3)
            print(os.getpid())
            """)
        inner, pid = out.split()
        self.assertEqual(inner, "eval")
        seq = [(r["event"], r["phase"], r["depth"]) for r in records if r["event"].startswith("phase_")]
        self.assertEqual(seq, [("phase_begin", "train", 0), ("phase_begin", "checkpoint", 1),
                               ("phase_end", "checkpoint", 1), ("phase_begin", "eval", 1),
                               ("phase_end", "eval", 1), ("phase_end", "train", 0),
                               ("phase_begin", "data_prep", 0), ("phase_end", "data_prep", 0)])
        self.assertEqual(events(records, "phase_begin", phase="train")[0]["attrs"], {"epoch": 1})
        self.assertEqual(events(records, "phase_end", phase="data_prep")[0]["error"], "KeyError")
        self.assertEqual(events(records, "mark")[0]["attrs"], {"n": 3})
        self.assertTrue(all(r["pid"] == int(pid) for r in records))
        ts = [r["ts"] for r in records if r["event"] != "io"]
        self.assertEqual(ts, sorted(ts))

    def test_batches_records_each_wait_for_an_item(self):
        # the waits are what the loop spent inside next(): the sleeps of the
        # source (20 ms before items 0 and 2), not the loop's own 30 ms
        records, out, _ = run_hooked("""
            import time, niorep_hook
            def loader():
                for i in range(3):
                    if i != 1:
                        time.sleep(0.02)
                    yield i
            got = []
            with niorep_hook.phase("train"):
                for x in niorep_hook.batches(loader()):
                    got.append(x)
                    time.sleep(0.03)
            for x in niorep_hook.batches([7], what="eval batch"):
                got.append(x)
            try:
                niorep_hook.batches([], what=" ")
            except ValueError:
                got.append("blank")
            print(got)
            """)
        self.assertEqual(out.strip(), "[0, 1, 2, 7, 'blank']")
        waits = events(records, "wait")
        self.assertEqual([w["what"] for w in waits], ["batch", "batch", "batch", "eval batch"])
        durs = [w["dur"] for w in waits]
        self.assertGreaterEqual(durs[0], 0.02)
        self.assertLess(durs[1], 0.02)
        self.assertGreaterEqual(durs[2], 0.02)
        self.assertLess(durs[2], 0.03 + 0.02)
        train = events(records, "phase_begin", phase="train")[0]["ts"]
        end = events(records, "phase_end", phase="train")[0]["ts"]
        self.assertTrue(all(train <= w["ts"] <= end for w in waits[:3]))
        self.assertGreaterEqual(waits[1]["ts"] - waits[0]["ts"], 0.02 + 0.03)
        self.assertEqual([w.get("first", False) for w in waits], [True, False, False, True])

    def test_batches_first_wait_includes_the_loaders_start(self):
        """The first item's wait begins before iter(), where a DataLoader
        starts its workers; iter() runs at the loop's first next(), not at
        the call of batches."""
        records, out, _ = run_hooked("""
            import time, niorep_hook
            class Loader:
                def __iter__(self):
                    time.sleep(0.05)  # workers starting
                    return iter(range(3))
            wrapped = niorep_hook.batches(Loader())
            time.sleep(0.04)  # the loop's own work before it starts: no wait
            for epoch in range(2):
                print(list(niorep_hook.batches(Loader()) if epoch else wrapped))
            """)
        self.assertEqual(out.split("\n")[:2], ["[0, 1, 2]", "[0, 1, 2]"])
        waits = events(records, "wait")
        self.assertEqual([w.get("first", False) for w in waits], [True, False, False] * 2)
        for w in waits[0], waits[3]:
            self.assertGreaterEqual(w["dur"], 0.05)
            self.assertLess(w["dur"], 0.05 + 0.04)
        self.assertTrue(all(w["dur"] < 0.04 for i, w in enumerate(waits) if i % 3))

    def test_batches_without_the_hook_only_iterates(self):
        _, out, text = run_hooked("""
            import niorep_hook
            print(list(niorep_hook.batches(range(4))))
            """, hook=False)
        self.assertEqual(out.strip(), "[0, 1, 2, 3]")
        self.assertEqual(text, "")

    def test_decorated_generator_is_in_its_phase_while_its_code_runs(self):
        # before session 50 the decorator opened the phase around the call
        # only, which returns the generator at once: an empty phase, and the
        # generator's reads counted in the consumer's phase
        records, out, _ = run_hooked("""
            import niorep_hook
            @niorep_hook.phase("data_prep")
            def batches(n):
                try:
                    for i in range(n):
                        got = yield niorep_hook.current_phase()
                        if got:
                            print("sent", got, niorep_hook.current_phase())
                finally:
                    print("finally", niorep_hook.current_phase())
                return "all"
            def consume():
                result = yield from batches(2)
                print("result", result)
            with niorep_hook.phase("train"):
                for inside in consume():
                    print("item", inside, "consumer", niorep_hook.current_phase())
                g = batches(3)
                next(g)
                g.send("x")
                g.close()
                g = batches(3)
                next(g)
                try:
                    g.throw(KeyError)
                except KeyError:
                    print("raised")
            """)
        self.assertEqual(out.splitlines(), [
            "item data_prep consumer train", "item data_prep consumer train", "finally data_prep", "result all",
            "sent x data_prep", "finally data_prep", "finally data_prep", "raised"])
        seq = [(r["event"], r["phase"], r["depth"], r.get("error")) for r in records if r["event"].startswith("phase_")]
        self.assertEqual(seq[0], ("phase_begin", "train", 0, None))
        self.assertEqual(seq[-1], ("phase_end", "train", 0, None))
        pairs = seq[1:-1]
        # one begin/end pair per resumption: 3 (two items and the end) + 3 (next, send, close) + 2 (next, throw)
        self.assertEqual(len(pairs), 16)
        self.assertEqual(pairs[0::2], [("phase_begin", "data_prep", 1, None)] * 8)
        self.assertEqual(pairs[1::2], [("phase_end", "data_prep", 1, None)] * 7 + [("phase_end", "data_prep", 1, "KeyError")])

    def test_decorated_coroutine_and_async_generator_are_in_their_phase(self):
        records, out, _ = run_hooked("""
            import asyncio, niorep_hook
            @niorep_hook.phase("eval")
            async def evaluate():
                await asyncio.sleep(0)
                return niorep_hook.current_phase()
            @niorep_hook.phase("data_prep")
            async def batches(n):
                for _ in range(n):
                    await asyncio.sleep(0)
                    yield niorep_hook.current_phase()
            async def main():
                with niorep_hook.phase("train"):
                    print(await evaluate())
                    async for inside in batches(2):
                        print(inside, niorep_hook.current_phase())
            asyncio.run(main())
            """)
        self.assertEqual(out.splitlines(), ["eval", "data_prep train", "data_prep train"])
        names = [(r["event"], r["phase"]) for r in records if r["event"].startswith("phase_")]
        self.assertEqual(names, [("phase_begin", "train"), ("phase_begin", "eval"), ("phase_end", "eval")]
                         + [("phase_begin", "data_prep"), ("phase_end", "data_prep")] * 3 + [("phase_end", "train")])

    def test_threads_have_own_stacks_and_tids(self):
        records, out, _ = run_hooked("""
            import threading, niorep_hook
            tids = []
            def work(name):
                tids.append(threading.get_native_id())
                with niorep_hook.phase(name):
                    assert niorep_hook.current_phase() == name
            with niorep_hook.phase("train"):
                ts = [threading.Thread(target=work, args=("w%d" % i,)) for i in range(3)]
                [t.start() for t in ts]
                [t.join() for t in ts]
                assert niorep_hook.current_phase() == "train"
            print(" ".join(map(str, [threading.get_native_id()] + tids)))
            """)
        main_tid, *worker_tids = map(int, out.split())
        self.assertEqual(events(records, "phase_begin", phase="train")[0]["tid"], main_tid)
        got = sorted(r["tid"] for r in events(records, "phase_begin") if r["phase"].startswith("w"))
        self.assertEqual(got, sorted(worker_tids))
        for r in events(records, "phase_begin"):
            if r["phase"].startswith("w"):
                self.assertEqual(r["depth"], 0)  # a thread's stack starts empty

    def test_io_records_of_open_read_write(self):
        records, _, _ = run_hooked("""
            with open("a.bin", "wb") as f:
                f.write(b"x" * 10000)
                f.write(b"y" * 2345)
            with open("a.bin", "rb") as f:
                assert len(f.read()) == 12345
            with open("t.txt", "w") as f:
                f.write("hello\\n" * 3)
            with open("t.txt") as f:
                assert f.readlines() == ["hello\\n"] * 3
            with open("a.bin", "rb", buffering=0) as f:
                f.seek(100)
                assert len(f.read(50)) == 50
            open("t.txt").close()
            """)
        io = [(r["op"], r["path"], r["bytes"]) for r in events(records, "io")]
        self.assertEqual(io, [("write", "a.bin", 12345), ("read", "a.bin", 12345),
                              ("write", "t.txt", 18), ("read", "t.txt", 18),
                              ("read", "a.bin", 50), ("open", "t.txt", -1)])
        for r in events(records, "io"):
            self.assertGreaterEqual(r["dur"], 0)
            self.assertGreaterEqual(r["open_dur"], 0)

    def test_file_with_reads_and_writes_gives_both_records(self):
        records, _, _ = run_hooked("""
            with open("u.bin", "wb") as f:
                f.write(b"0123456789")
            with open("u.bin", "r+b", buffering=0) as f:
                f.write(b"ab")
                f.read(3)
            """)
        io = [(r["op"], r["bytes"], r["calls"]) for r in events(records, "io") if r["ts"] >= 0][1:]
        self.assertEqual(io, [("read", 3, 1), ("write", 2, 1)])

    def test_open_keeps_its_types_and_errors(self):
        _, out, _ = run_hooked("""
            import io
            with open("f", "w+b") as f:
                print(type(f).__name__, isinstance(f, io.BufferedRandom))
            with open("f", "r", encoding="utf-8") as f:
                print(type(f).__name__, f.mode)
            try:
                open("missing/file")
            except FileNotFoundError:
                print("FileNotFoundError")
            """)
        self.assertEqual(out.split(), ["BufferedRandom", "True", "TextIOWrapper", "r", "FileNotFoundError"])

    def test_fork_workers_write_valid_lines(self):
        records, out, text = run_hooked("""
            import multiprocessing as mp, os, niorep_hook
            def work(i):
                with niorep_hook.phase("worker"):
                    for k in range(200):
                        with open("f%d_%d" % (i, k), "w") as f:
                            f.write("z" * (k + 1))
                return os.getpid()
            if __name__ == "__main__":
                with niorep_hook.phase("train"):
                    with mp.get_context("fork").Pool(2) as pool:
                        pids = set(pool.map(work, range(4)))
                print(" ".join(map(str, sorted(pids))))
            """)
        pids = set(map(int, out.split()))
        self.assertTrue(pids)
        self.assertEqual(len(text.splitlines()), len(records))
        writes = [r for r in events(records, "io", op="write") if r["pid"] in pids]
        self.assertEqual(len(writes), 800)
        self.assertEqual(sum(r["bytes"] for r in writes), 4 * sum(range(1, 201)))
        self.assertEqual(len(events(records, "phase_begin", phase="worker")), 4)
        for pid in pids:
            self.assertEqual(len(events(records, "fork", pid=pid)), 1)
        self.assertEqual(len(events(records, "header")), 1)  # forks share the parent's header

    def test_pool_workers_terminated_keep_their_records(self):
        """Workers, forked or spawned, leave SIGTERM at its default (a handler
        there can lose the signal that terminate() sends a worker waiting
        for its next task: CI hung on 5064970) and write their lines before
        each wait on the task queue, so that terminate() loses none; the
        process the program started keeps its handler."""
        for method in ("fork", "spawn"):
            with self.subTest(method=method):
                records, out, _ = run_hooked("""
                    import multiprocessing as mp, os, signal, niorep_hook
                    def work(i):
                        with open("w%d" % i, "wb") as f:
                            f.write(b"y" * (i + 1))
                        return os.getpid(), signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
                    if __name__ == "__main__":
                        pool = mp.get_context("METHOD").Pool(2)
                        results = pool.map(work, range(6))
                        pool.terminate()
                        pool.join()
                        print(signal.getsignal(signal.SIGTERM) != signal.SIG_DFL, all(d for _, d in results))
                        print(" ".join(sorted({str(p) for p, _ in results})))
                    """.replace("METHOD", method))
                lines = out.splitlines()
                self.assertEqual(lines[0], "True True")
                pids = set(map(int, lines[1].split()))
                writes = {r["path"]: r["bytes"] for r in events(records, "io", op="write") if r["pid"] in pids}
                self.assertEqual(writes, {"w%d" % i: i + 1 for i in range(6)})

    def test_spawn_workers_start_their_own_hook(self):
        records, out, _ = run_hooked("""
            import multiprocessing as mp, os, niorep_hook
            def work(i):
                with niorep_hook.phase("spawned"):
                    with open("s%d" % i, "wb") as f:
                        f.write(b"q" * 1000)
                return os.getpid()
            if __name__ == "__main__":
                with niorep_hook.phase("train"):
                    with mp.get_context("spawn").Pool(2) as pool:
                        pids = set(pool.map(work, range(2)))
                print(" ".join(map(str, sorted(pids))))
            """)
        pids = set(map(int, out.split()))
        headers = {r["pid"] for r in events(records, "header")}
        self.assertTrue(pids <= headers)
        self.assertEqual(sum(r["bytes"] for r in events(records, "io", op="write") if r["pid"] in pids), 2000)
        self.assertEqual({r["pid"] for r in events(records, "phase_end", phase="spawned")} - pids, set())

    def test_concurrent_processes_never_mix_lines(self):
        records, _, text = run_hooked("""
            import os, niorep_hook
            kids = []
            for i in range(4):
                pid = os.fork()
                if pid == 0:
                    for k in range(3000):
                        niorep_hook.mark("m", payload="p" * (k % 300))
                    os._exit(0)
                kids.append(pid)
            for pid in kids:
                os.waitpid(pid, 0)
            """)
        self.assertEqual(len(events(records, "mark")), 12000)

    @unittest.skipUnless(has_module("numpy"), "numpy not installed")
    def test_numpy_save_and_load(self):
        records, _, _ = run_hooked("""
            import numpy as np
            np.save("a.npy", np.zeros(1000, dtype=np.float64))
            assert np.load("a.npy").shape == (1000,)
            """)
        save = events(records, "io", op="numpy.save")
        load = events(records, "io", op="numpy.load")
        self.assertEqual([(r["path"], r["bytes"]) for r in save], [("a.npy", 8128)])
        self.assertEqual([(r["path"], r["bytes"]) for r in load], [("a.npy", 8128)])
        # The file-level records inside numpy's calls are not repeated.
        self.assertEqual(events(records, "io", path="a.npy", op="read"), [])

    @unittest.skipUnless(has_module("numpy"), "numpy not installed")
    def test_library_call_on_an_open_file_is_counted_once(self):
        """np.save / np.load on a file object the program opened: one
        library record with the bytes; the file object's own record
        carries none of them (before, a 'write' record repeated numpy's
        header bytes, and torch.save's whole file). Bytes written
        outside the call are still the file object's."""
        records, _, _ = run_hooked("""
            import numpy as np
            with open("b.npy", "wb") as f:
                np.save(f, np.zeros(1000, dtype=np.float64))
                f.write(b"tail")
            with open("b.npy", "rb") as f:
                assert np.load(f).shape == (1000,)
            """)
        self.assertEqual([r["bytes"] for r in events(records, "io", op="numpy.save")], [8128])
        self.assertEqual([r["bytes"] for r in events(records, "io", op="numpy.load")], [8128])
        self.assertEqual([r["bytes"] for r in events(records, "io", path="b.npy", op="write")], [4])
        self.assertEqual(events(records, "io", path="b.npy", op="read"), [])

    def test_file_open_at_exit_is_reported(self):
        """A file still open when the program ends is reported at exit,
        once."""
        records, _, _ = run_hooked("""
            g = open("left.bin", "wb")
            g.write(b"x" * 100)
            g.flush()
            """)
        self.assertEqual([r["bytes"] for r in events(records, "io", path="left.bin", op="write")], [100])

    def test_sigterm_reports_open_files_and_dies_of_it(self):
        """A program killed by SIGTERM (left at its default) reports the
        files it still has open and dies of the signal; until session 46
        their records were lost."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "hook.jsonl")
            env = dict(os.environ, PYTHONPATH=WORKLOADS, NIOREP_HOOK_OUT=out)
            code = ("import os, signal, sys, time\n"
                    "f = open('data.bin', 'wb'); f.write(b'x' * 300); f.flush()\n"
                    "print('ready', flush=True)\n"
                    "time.sleep(60)\n")
            proc = subprocess.Popen([sys.executable, "-c", code], cwd=tmp, env=env, stdout=subprocess.PIPE,
                                    text=True)
            self.assertEqual(proc.stdout.readline().strip(), "ready")
            proc.terminate()
            self.assertEqual(proc.wait(timeout=60), -15)
            proc.stdout.close()
            with open(out) as f:
                records = [json.loads(line) for line in f]
            path = os.path.join(os.path.realpath(tmp), "data.bin")
        self.assertEqual([r["bytes"] for r in events(records, "io", path=path, op="write")], [300])

    def test_sigterm_while_the_writer_is_busy_is_not_a_deadlock(self):
        """SIGTERM whose handler runs while the interrupted code holds the
        writer's lock (a flush in progress): the handler leaves the lock to
        its holder, which writes its lines and then dies of the signal.
        Until session 63 the handler waited for the lock its own thread
        held, forever (found with the hang of CI on 5064970, whose cause
        was another: test_pool_workers_terminated_keep_their_records)."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "hook.jsonl")
            env = dict(os.environ, PYTHONPATH=WORKLOADS, NIOREP_HOOK_OUT=out)
            code = ("import os, signal, niorep_hook\n"
                    "real_write = os.write\n"
                    "def write_after_sigterm(fd, data):\n"
                    "    os.write = real_write\n"
                    "    os.kill(os.getpid(), signal.SIGTERM)  # its handler runs here, the lock held\n"
                    "    return real_write(fd, data)\n"
                    "f = open('data.bin', 'wb'); f.write(b'x' * 300); f.flush()\n"
                    "os.write = write_after_sigterm\n"
                    "with niorep_hook.phase('busy'):  # its begin flushes\n"
                    "    pass\n"
                    "print('survived', flush=True)\n")
            proc = subprocess.run([sys.executable, "-c", code], cwd=tmp, env=env, capture_output=True, text=True,
                                  timeout=60)
            self.assertEqual((proc.returncode, proc.stdout), (-15, ""))
            with open(out) as f:
                records = [json.loads(line) for line in f]
            path = os.path.join(os.path.realpath(tmp), "data.bin")
        self.assertEqual(len(events(records, "phase_begin", phase="busy")), 1)
        self.assertEqual([r["bytes"] for r in events(records, "io", path=path, op="write")], [300])

    @unittest.skipUnless(has_module("torch"), "torch not installed")
    def test_torch_save_is_checkpoint_and_load_is_model_load(self):
        records, _, _ = run_hooked("""
            import os, torch, niorep_hook
            t = torch.zeros(256)
            torch.save(t, "w.pt")
            torch.load("w.pt")
            with niorep_hook.phase("train"):
                torch.load("w.pt")
                with niorep_hook.phase("checkpoint"):
                    torch.save(t, "c.pt")
            print(os.path.getsize("w.pt"))
            """)
        seq = [(r["event"], r["phase"]) for r in records if r["event"].startswith("phase_")]
        self.assertEqual(seq, [("phase_begin", "checkpoint"), ("phase_end", "checkpoint"),
                               ("phase_begin", "model_load"), ("phase_end", "model_load"),
                               ("phase_begin", "train"), ("phase_begin", "checkpoint"),
                               ("phase_end", "checkpoint"), ("phase_end", "train")])
        self.assertEqual(events(records, "phase_begin", phase="model_load")[0]["attrs"], {"auto": "torch.load"})
        saves = events(records, "io", op="torch.save")
        self.assertEqual([r["path"] for r in saves], ["w.pt", "c.pt"])
        self.assertGreater(saves[0]["bytes"], 1024)
        self.assertEqual(len(events(records, "io", op="torch.load")), 2)


    def test_stray_phase_end_keeps_the_enclosing_phase(self):
        """A phase_end of a phase not open in the thread leaves the stack
        alone (review 45: it popped train, and the hook thought no phase
        was open); an end removes the innermost phase of its name."""
        records, out, _ = run_hooked("""
            import niorep_hook as nh
            with nh.phase("train"):
                nh.phase("ghost").__exit__(None, None, None)
                print(nh.current_phase())
                a, b = nh.phase("a"), nh.phase("b")
                a.__enter__(); b.__enter__()
                a.__exit__(None, None, None)   # ended out of order
                print(nh.current_phase())
                b.__exit__(None, None, None)
                print(nh.current_phase())
            print(nh.current_phase())
            """)
        self.assertEqual(out.split(), ["train", "b", "train", "None"])

    def test_blank_names_are_refused_at_the_call(self):
        """A phase or mark name that shows no character ("", white space,
        controls, a zero-width space, variation selectors, tags, the braille
        blank) is a ValueError where it is given, traced or not, and writes
        nothing; the report would show it blank (until session 54 it was
        written as given; review 54 found the last five accepted)."""
        code = """
            import niorep_hook as nh
            blanks = ["", " ", "\\t\\n", "\\x01", "\\u200b", "\\u3000 ", "\\ufe0f", "\\U000e0020\\u2800",
                      "\\u180b\\u17b4", "\\ufff0", "\\U0001d173"]
            refused = []
            for name in blanks:
                for make in (nh.phase, nh.mark):
                    try:
                        make(name)
                    except ValueError as exc:
                        refused.append(str(exc).startswith("niorep_hook.%s: " % make.__name__))
            with nh.phase(" x "):
                nh.mark("0")
            print(len(refused), all(refused))
            """
        records, out, _ = run_hooked(code)
        self.assertEqual(out.split(), ["22", "True"])
        self.assertEqual([r.get("phase", r.get("name")) for r in records if r["event"] != "header"],
                         [" x ", "0", " x "])
        _, out, text = run_hooked(code, hook=False)
        self.assertEqual(out.split(), ["22", "True"])
        self.assertEqual(text, "")

    def test_blank_code_points_are_the_ingests(self):
        """The hook refuses the names the ingest takes as "(unnamed)": its
        table of blank code points is common/nr_utf8.c's, range for range
        (docs/hook-format.md, "Names")."""
        import ast
        import re
        with open(os.path.join(WORKLOADS, "niorep_hook", "__init__.py")) as f:
            hook = ast.parse(f.read())
        hook_ranges = [ast.literal_eval(node.value) for node in hook.body if isinstance(node, ast.Assign)
                       and any(getattr(t, "id", None) == "_BLANK_RANGES" for t in node.targets)]
        with open(os.path.join(os.path.dirname(WORKLOADS), "common", "nr_utf8.c")) as f:
            text = f.read()
        table = text[text.index("blank_ranges[] = {"):]
        table = table[:table.index("};")]
        ranges = tuple((int(lo, 16), int(hi, 16))
                       for lo, hi in re.findall(r"\{0x([0-9A-Fa-f]+), 0x([0-9A-Fa-f]+)\}", table))
        self.assertGreater(len(ranges), 10)
        self.assertEqual(hook_ranges, [ranges])

    def test_forked_child_reports_its_own_use_of_inherited_files(self):
        """A file object opened before fork: each process reports the
        bytes it moved through it, once (review 45: workers' reads were
        lost, a child that closed it repeated the parent's)."""
        records, out, _ = run_hooked("""
            import os
            with open("big", "wb") as f:
                f.write(b"z" * 100000)
            f = open("big", "rb", buffering=0)
            f.read(10000)
            pid = os.fork()
            if pid == 0:
                f.read(20000)
                os._exit(0)             # a worker's way out: no close
            os.waitpid(pid, 0)
            pid2 = os.fork()
            if pid2 == 0:
                f.read(5000)
                f.close()
                os._exit(0)
            os.waitpid(pid2, 0)
            idle = os.fork()
            if idle == 0:
                os._exit(0)             # never touched it: no record
            os.waitpid(idle, 0)
            f.read(30000)
            f.close()
            print(pid, pid2, idle, os.getpid())
            """)
        child, child2, idle, parent = map(int, out.split())
        reads = {(r["pid"], r["bytes"]) for r in events(records, "io", path="big", op="read")}
        self.assertEqual(reads, {(child, 20000), (child2, 5000), (parent, 40000)})
        self.assertEqual([r for r in events(records, "io", path="big") if r["pid"] == idle], [])

    @unittest.skipUnless(has_module("torch"), "torch not installed")
    def test_model_load_is_automatic_only_where_no_phase_is_in_effect(self):
        """torch.load opens model_load only while no phase is in effect: none
        open in any thread of the process, none in effect in the parent when
        it forked or spawned the process. A forked worker's, a spawned
        child's or a helper thread's load during train belongs to train
        (review 45: every DataLoader sample loaded with torch.load read as
        model_load); a child spawned outside every phase (a torchrun
        worker) opens its own."""
        records, out, _ = run_hooked("""
            import os, subprocess, sys, threading, torch, niorep_hook
            torch.save(torch.zeros(16), "s.pt")
            child = [sys.executable, "-c", "import os, torch; torch.load('s.pt'); print(os.getpid())"]
            with niorep_hook.phase("train"):
                pid = os.fork()
                if pid == 0:
                    torch.load("s.pt")
                    os._exit(0)
                os.waitpid(pid, 0)
                t = threading.Thread(target=lambda: torch.load("s.pt"))
                t.start(); t.join()
                in_train = subprocess.run(child, capture_output=True, text=True).stdout.strip()
            outside = subprocess.run(child, capture_output=True, text=True).stdout.strip()
            torch.load("s.pt")
            print(in_train, outside, os.getpid())
            """)
        in_train, outside, main = map(int, out.split())
        begins = [(r["pid"], r["phase"]) for r in events(records, "phase_begin")]
        self.assertEqual(begins, [(main, "checkpoint"), (main, "train"), (outside, "model_load"),
                                  (main, "model_load")])
        self.assertEqual(len(events(records, "io", op="torch.load")), 5)
        self.assertEqual(len(events(records, "io", op="torch.load", pid=in_train)), 1)

    def test_paths_are_absolute_against_the_cwd_of_the_open(self):
        """Relative paths are recorded absolute, joined to the cwd at the
        open (os.chdir followed): ./y and ../A/y are one file, x in A and
        x in B two (review 45: they matched nothing, or one)."""
        records, out, _ = run_hooked("""
            import os
            os.makedirs("A"); os.makedirs("B")
            os.chdir("A")
            open("x", "w").write("1" * 10)
            open("./y", "w").write("2" * 20)
            f = open("x")
            os.chdir("../B")
            f.read(); f.close()             # reported after the chdir, named at the open
            open("x", "w").write("3" * 30)
            open("../A/y").read()
            fd = os.open("../A", os.O_RDONLY)
            os.fchdir(fd)                   # followed too (until session 48 it was not)
            os.close(fd)
            open("z", "w").write("4" * 40)
            """)
        # run_hooked names the records' absolute paths relative to the program's directory
        recs = sorted((r["path"], r["op"], r["bytes"]) for r in events(records, "io"))
        self.assertEqual(recs, sorted([("A/x", "write", 10), ("A/y", "write", 20), ("A/x", "read", 10),
                                       ("B/x", "write", 30), ("A/y", "read", 20), ("A/z", "write", 40)]))

    @unittest.skipUnless(has_module("numpy"), "numpy not installed")
    def test_numpy_save_names_the_file_it_writes(self):
        """np.save("arr", a) writes arr.npy: the record names it, with its
        size (review 45: path arr, bytes -1)."""
        records, _, _ = run_hooked("""
            import numpy as np
            np.save("arr", np.zeros(1000, dtype=np.uint8))
            """)
        self.assertEqual([(r["path"], r["bytes"]) for r in events(records, "io", op="numpy.save")],
                         [("arr.npy", 1128)])


if __name__ == "__main__":
    unittest.main()
