"""niorep_hook: the semantic layer of niorep (docs/hook-format.md).

Records phases and Python-level I/O of a training job as JSON lines, one
object per line, into the file named by the environment variable
NIOREP_HOOK_OUT. Without that variable every call here is a cheap no-op, so
workloads may use the API unconditionally.

    import niorep_hook
    with niorep_hook.phase("train"):
        ...
    @niorep_hook.phase("eval")
    def evaluate(): ...
    @niorep_hook.phase("data_prep")     # a generator: in the phase while it
    def samples(): yield ...             # runs, not while its items are used
    niorep_hook.mark("epoch", n=3)
    for x, y in niorep_hook.batches(loader):   # each wait for the next batch
        ...                                    # is recorded (a `wait` line)

Standard library only; Python 3.9+.
"""

import atexit
import builtins
import contextlib
import functools
import inspect
import io
import json
import json.encoder
import os
import signal
import sys
import threading
import time
import weakref

FORMAT_VERSION = 1
ENV_OUT = "NIOREP_HOOK_OUT"

__all__ = ["phase", "mark", "batches", "start", "stop", "active", "FORMAT_VERSION"]

# Flush policy: the buffer is written when it holds this many bytes, when
# this many seconds passed since the last write (checked on each record),
# at every phase boundary, before fork and at exit.
_FLUSH_BYTES = 64 * 1024
_FLUSH_SECONDS = 1.0

_state = None          # _Writer when active, else None
_tls = threading.local()
_pid = os.getpid()
ENV_PHASE = "NIOREP_HOOK_IN_PHASE"  # "1" while a phase is in effect: what a spawned child inherits
_inherited = False     # a phase was in effect in the parent when this process was forked or spawned
_open_phases = 0       # phases open in all threads of this process
_open_lock = threading.Lock()
_cwd = None            # the process's cwd, followed through os.chdir: relative paths are recorded against it
_original_open = builtins.open
_original_chdir = os.chdir
_original_fchdir = os.fchdir
_perf = time.perf_counter


class _Writer:
    """Buffered, append-only writer of whole lines (O_APPEND: each os.write
    lands at the end of the file, so lines of several processes never mix)."""

    def __init__(self, path):
        self.path = path
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        self.lock = threading.Lock()
        self.parts = []
        self.size = 0
        self.last_flush = time.time()
        self.deferred_signal = None  # a signal whose handler found the lock held (_on_term)

    def emit(self, record):
        self.emit_line(json.dumps(record, separators=(",", ":"), default=str) + "\n", record.get("ts", 0.0))

    def emit_line(self, line, now):
        with self.lock:
            self.parts.append(line)
            self.size += len(line)
            if self.size >= _FLUSH_BYTES or now - self.last_flush >= _FLUSH_SECONDS:
                self._flush_locked()
        if self.deferred_signal is not None:  # checked inline: this runs for every line
            self._raise_deferred_signal()

    def flush(self):
        with self.lock:
            self._flush_locked()
        if self.deferred_signal is not None:
            self._raise_deferred_signal()

    def _raise_deferred_signal(self):
        """After a release: raises again the signal whose handler ran while
        the lock was held, so that it runs now that it is free."""
        signum, self.deferred_signal = self.deferred_signal, None
        if signum is not None:
            os.kill(os.getpid(), signum)

    def _flush_locked(self):
        if not self.parts:
            return
        data = "".join(self.parts).encode("utf-8", "surrogateescape")
        self.parts = []
        self.size = 0
        self.last_flush = time.time()
        # One write of whole lines; a short write (disk full) is completed
        # with further writes rather than dropped.
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.fd, view)
            except InterruptedError:
                continue
            except OSError:
                return
            view = view[n:]

    def after_fork_in_child(self):
        self.lock = threading.Lock()
        self.parts = []
        self.size = 0
        self.deferred_signal = None

    def close(self):
        self.flush()
        try:
            os.close(self.fd)
        except OSError:
            pass


def active():
    """True when the hook is recording."""
    return _state is not None


def _tid():
    tid = getattr(_tls, "tid", None)
    if tid is None or getattr(_tls, "pid", None) != _pid:
        tid = threading.get_native_id()
        _tls.tid = tid
        _tls.pid = _pid
    return tid


def _phase_stack():
    stack = getattr(_tls, "stack", None)
    if stack is None or getattr(_tls, "stack_pid", None) != _pid:
        stack = []
        _tls.stack = stack
        _tls.stack_pid = _pid
    return stack


def _emit(event, **fields):
    w = _state
    if w is None:
        return
    record = {"ts": time.time(), "pid": _pid, "tid": _tid(), "event": event}
    record.update(fields)
    w.emit(record)


# Code points that show nothing, inclusive ranges: controls, white space,
# the invisible format characters and fillers; ingest's table is the same
# (common/nr_utf8.c, blank_ranges; docs/hook-format.md, "Names").
_BLANK_RANGES = ((0x0000, 0x0020), (0x007F, 0x00A0), (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C),
                 (0x115F, 0x1160), (0x1680, 0x1680), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2000, 0x200F),
                 (0x2028, 0x202F), (0x205F, 0x206F), (0x2800, 0x2800), (0x3000, 0x3000), (0x3164, 0x3164),
                 (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                 (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
_BLANK = "".join(chr(c) for lo, hi in _BLANK_RANGES for c in range(lo, hi + 1))


def _name(what, name):
    """name as text; a ValueError when it shows nothing ("", "  ", "\\t"):
    the report would show a blank name.
    Raised whether or not the hook is active: a program traced behaves as
    it does untraced."""
    text = str(name)
    if not text.strip(_BLANK):
        raise ValueError("niorep_hook.%s: the name %r is blank (empty, white space or controls only)" % (what, text))
    return text


class phase(contextlib.ContextDecorator):
    """A named phase: a context manager and a decorator. Phases nest per
    thread; the innermost open phase is the one that counts. A name that
    shows no character ("", white space, controls) is a ValueError."""

    def __init__(self, name, **attrs):
        self.name = _name("phase", name)
        self.attrs = attrs

    def __enter__(self):
        if _state is None:
            return self
        stack = _phase_stack()
        fields = {"phase": self.name, "depth": len(stack)}
        if self.attrs:
            fields["attrs"] = self.attrs
        _emit("phase_begin", **fields)
        stack.append(self.name)
        _count_open(1)
        _state.flush()
        return self

    def __exit__(self, exc_type, exc, tb):
        if _state is None:
            return False
        stack = _phase_stack()
        # the innermost open phase of this name, as ingest ends it: a stray
        # end (of a phase never begun in this thread) leaves the stack alone
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] == self.name:
                del stack[i]
                _count_open(-1)
                break
        fields = {"phase": self.name, "depth": len(stack)}
        if exc_type is not None:
            fields["error"] = exc_type.__name__
        _emit("phase_end", **fields)
        _state.flush()
        return False

    def __call__(self, func):
        # ContextDecorator would open the phase only around the call, which
        # for a generator or coroutine function returns at once: its body
        # runs later, outside the phase (an empty phase, silently)
        if inspect.isasyncgenfunction(func):
            return self._decorate_async_generator(func)
        if inspect.isgeneratorfunction(func):
            return self._decorate_generator(func)
        if inspect.iscoroutinefunction(func):
            return self._decorate_coroutine(func)
        return super().__call__(func)

    def _decorate_generator(self, func):
        """The phase is open while the generator's own code runs, from each
        resumption to its next yield; the consumer's code between items
        runs in the consumer's phase."""
        @functools.wraps(func)
        def generator(*args, **kwargs):
            inner = func(*args, **kwargs)
            sent, thrown = None, None
            while True:
                with self:
                    try:
                        item = inner.throw(thrown) if thrown is not None else inner.send(sent)
                    except StopIteration as stop:  # the end, not an error of the phase
                        finished = stop
                    else:
                        finished = None
                if finished is not None:
                    return finished.value
                sent, thrown = None, None
                try:
                    sent = yield item
                except GeneratorExit:
                    with self:  # its finally blocks may still do I/O
                        inner.close()
                    raise
                except BaseException as exc:  # noqa: B036 - passed on into the generator, as yield from does
                    thrown = exc
        return generator

    def _decorate_async_generator(self, func):
        """As _decorate_generator: the phase is open from each resumption to
        the next yield (awaits in between included)."""
        @functools.wraps(func)
        async def generator(*args, **kwargs):
            inner = func(*args, **kwargs)
            sent, thrown = None, None
            while True:
                with self:
                    try:
                        item = await (inner.athrow(thrown) if thrown is not None else inner.asend(sent))
                    except StopAsyncIteration:
                        return
                sent, thrown = None, None
                try:
                    sent = yield item
                except GeneratorExit:
                    with self:
                        await inner.aclose()
                    raise
                except BaseException as exc:  # noqa: B036
                    thrown = exc
        return generator

    def _decorate_coroutine(self, func):
        """The phase is open from the coroutine's start to its end, awaits
        included, as a `with phase(...)` around its body would be."""
        @functools.wraps(func)
        async def coroutine(*args, **kwargs):
            with self:
                return await func(*args, **kwargs)
        return coroutine


def _count_open(delta):
    global _open_phases
    with _open_lock:
        _open_phases += delta
        _export_in_phase()


def _export_in_phase():
    """Tells children spawned from now on whether a phase is in effect
    here (os.environ: putenv, no system call)."""
    value = "1" if _open_phases > 0 or _inherited else "0"
    if os.environ.get(ENV_PHASE) != value:
        os.environ[ENV_PHASE] = value


def _no_phase_in_effect():
    """No phase is open in any thread of this process, and none was in
    effect in the parent that forked or spawned it (a worker takes its
    parent's phase at ingest)."""
    return not _inherited and _open_phases == 0


def current_phase():
    """The innermost phase open in this thread, or None."""
    stack = _phase_stack()
    return stack[-1] if stack else None


def mark(name, **attrs):
    """Records an instant event (an epoch boundary, a step count, ...). A
    name that shows no character is a ValueError, as for phase."""
    text = _name("mark", name)
    if _state is None:
        return
    fields = {"name": text}
    if attrs:
        fields["attrs"] = attrs
    _emit("mark", **fields)


def _wait_record(what, ts, dur, first):
    """The wait line of one item: formatted directly, as it runs once per
    batch of a training loop."""
    w = _state
    if w is None:
        return
    line = ('{"ts":%r,"pid":%d,"tid":%d,"event":"wait","what":%s,"dur":%.9f%s}\n'
            % (ts, _pid, _tid(), _json_str(what), dur, ',"first":true' if first else ''))
    w.emit_line(line, ts)


def batches(iterable, what="batch"):
    """Yields the items of iterable (a DataLoader) and records, for each, how
    long the loop waited for it: the time inside next(), from which the model
    tells how much of a phase the loop spent waiting for its data
    (docs/hook-format.md, "wait records"). With DataLoader workers that is
    the wait on their queue, which no traced file call shows; without
    workers it is the loading itself. The first item's wait is marked first
    and begins before iter(iterable), which a DataLoader's workers start
    in: the loader's start, which the model keeps apart from the steady
    state. A next() that raises is not recorded. A `what` that shows no
    character is a ValueError, as for phase."""
    return _timed_items(iterable, _name("batches", what))


def _timed_items(iterable, what):
    ts = time.time()
    t0 = _perf()
    it = iter(iterable)
    first = True
    while True:
        try:
            item = next(it)
        except StopIteration:
            return
        _wait_record(what, ts, _perf() - t0, first)
        first = False
        yield item
        ts = time.time()
        t0 = _perf()


# ---------------------------------------------------------------- io records

def _in_library_call():
    return getattr(_tls, "lib_depth", 0) > 0


def _io_record(op, path, nbytes, dur, ts, **extra):
    fields = {"op": op, "path": path, "bytes": nbytes, "dur": round(dur, 9)}
    fields.update(extra)
    w = _state
    if w is None:
        return
    record = {"ts": ts, "pid": _pid, "tid": _tid(), "event": "io"}
    record.update(fields)
    w.emit(record)


def _path_text(file):
    if isinstance(file, bytes):
        return os.fsdecode(file)
    if isinstance(file, str):
        return file
    try:
        return os.fsdecode(os.fspath(file))
    except TypeError:
        name = getattr(file, "name", None)
        return name if isinstance(name, str) else ""


def _record_path(file):
    """The path a record names: absolute, a relative one joined to the cwd
    at the call (the hook follows os.chdir), so that records match
    strace's paths and two files of one name in two directories stay two.
    Until session 45 the path as given: ./y.bin and ../A/y.bin matched
    nothing, and x.bin opened in two directories read as one file."""
    text = _path_text(file)
    if text and not text.startswith("/") and _cwd:
        return os.path.normpath(os.path.join(_cwd, text))
    return text


def _getcwd():
    """The kernel's cwd (symlinks resolved, as strace shows paths), or None."""
    try:
        return os.getcwd()
    except OSError:
        return None


def _traced_chdir(path):
    global _cwd
    _original_chdir(path)
    _cwd = _getcwd()


def _traced_fchdir(fd):
    """os.fchdir followed as os.chdir is (until session 48 it was not:
    later relative paths were joined to the cwd before it)."""
    global _cwd
    _original_fchdir(fd)
    _cwd = _getcwd()


_json_str = json.encoder.encode_basestring_ascii  # C-accelerated JSON string quoting


def _file_record(op, path, ts, nbytes, dur, calls, open_dur):
    """The io line of one file object, formatted directly: this runs once
    per file the program opens, so it avoids json.dumps and dicts."""
    w = _state
    if w is None:
        return
    line = ('{"ts":%r,"pid":%d,"tid":%d,"event":"io","op":"%s","path":%s,"bytes":%d,'
            '"dur":%.9f,"calls":%d,"open_dur":%.9f}\n'
            % (ts, _pid, _tid(), op, _json_str(path), nbytes, dur, calls, open_dur))
    w.emit_line(line, ts)


# The traced files not yet reported: a file still open when the process
# ends is reported then (_report_open_files), not lost with the process.
_live_files = weakref.WeakSet()


class _TracedFileIO(io.FileIO):
    """A FileIO that sums the bytes and time of its reads and writes and
    reports them when closed: one "read" and/or "write" record per file
    object ("open" when it did neither), not one per call, which keeps the
    overhead low. Reads and writes made inside a wrapped library call
    (torch.save(obj, f) on a file the program opened) are that call's
    record's, not counted again here."""

    # Class-level zeros: an instance gets its own counter on first use.
    _nr_rbytes = _nr_rcalls = _nr_wbytes = _nr_wcalls = 0
    _nr_rdur = _nr_wdur = 0.0
    _nr_inherited = False  # opened by the parent of this forked process

    def __init__(self, file, mode, closefd=True, opener=None):
        t0 = time.time()
        super().__init__(file, mode, closefd, opener)
        self._nr_t0 = t0
        self._nr_open_dur = time.time() - t0
        self._nr_quiet = getattr(_tls, "lib_depth", 0) > 0
        if not self._nr_quiet:  # a library call's file is its record's: no path of its own to keep
            self._nr_file = _record_path(file)
            _live_files.add(self)

    def readinto(self, b):
        if _in_library_call():
            return super().readinto(b)
        t0 = _perf()
        n = super().readinto(b)
        self._nr_rdur += _perf() - t0
        self._nr_rcalls += 1
        if n:
            self._nr_rbytes += n
        return n

    def read(self, size=-1):
        if _in_library_call():
            return super().read(size)
        t0 = _perf()
        data = super().read(size)
        self._nr_rdur += _perf() - t0
        self._nr_rcalls += 1
        if data:
            self._nr_rbytes += len(data)
        return data

    def readall(self):
        if _in_library_call():
            return super().readall()
        t0 = _perf()
        data = super().readall()
        self._nr_rdur += _perf() - t0
        self._nr_rcalls += 1
        self._nr_rbytes += len(data)
        return data

    def write(self, b):
        if _in_library_call():
            return super().write(b)
        t0 = _perf()
        n = super().write(b)
        self._nr_wdur += _perf() - t0
        self._nr_wcalls += 1
        if n:
            self._nr_wbytes += n
        return n

    def close(self):
        if self.closed:
            return super().close()
        try:
            super().close()
        finally:
            self._nr_report()

    def _nr_inherit(self):
        """In a forked child: the object's counts so far are the parent's
        (it reports them); the child's record, if it reads or writes,
        starts at the fork with no open time of its own. Until session 45
        the child dropped such objects (a worker's reads through a file
        its parent opened were never reported) or, when it closed one,
        reported the parent's bytes again."""
        self._nr_rbytes = self._nr_rcalls = self._nr_wbytes = self._nr_wcalls = 0
        self._nr_rdur = self._nr_wdur = 0.0
        self._nr_t0 = time.time()
        self._nr_open_dur = 0.0
        self._nr_inherited = True

    def _nr_report(self):
        if self._nr_quiet or _state is None:
            return
        self._nr_quiet = True  # once
        _live_files.discard(self)
        if self._nr_inherited and not self._nr_rcalls and not self._nr_wcalls:
            return  # the parent's file, untouched here: no record of an open the child did not make
        try:
            path, ts, od = self._nr_file, self._nr_t0, self._nr_open_dur
            if self._nr_rcalls:
                _file_record("read", path, ts, self._nr_rbytes, self._nr_rdur, self._nr_rcalls, od)
            if self._nr_wcalls:
                _file_record("write", path, ts, self._nr_wbytes, self._nr_wdur, self._nr_wcalls, od)
            if not self._nr_rcalls and not self._nr_wcalls:
                _file_record("open", path, ts, -1, od, 0, od)
        except Exception:
            pass


_OPEN_MODE_CHARS = frozenset("rwxabt+")
_mode_cache = {}  # mode string -> (raw mode, binary, buffer class) or None


def _parse_mode(mode):
    """What io.open makes of mode, or None for modes left to the real open
    (unusual or invalid ones: it raises the proper error)."""
    if not isinstance(mode, str):
        return None
    parsed = _mode_cache.get(mode)
    if parsed is None and mode not in _mode_cache:
        chars = set(mode)
        if chars <= _OPEN_MODE_CHARS and len(chars) == len(mode) and not ("b" in chars and "t" in chars) \
                and len(chars & set("rwxa")) == 1:
            raw_mode = "".join(c for c in mode if c in "rwxa+")
            if "+" in chars:
                buffer_class = io.BufferedRandom
            elif chars & set("wxa"):
                buffer_class = io.BufferedWriter
            else:
                buffer_class = io.BufferedReader
            parsed = (raw_mode, "b" in chars, buffer_class)
        if len(_mode_cache) < 64:
            _mode_cache[mode] = parsed
    return parsed


def _traced_open(file, mode="r", buffering=-1, encoding=None, errors=None,
                 newline=None, closefd=True, opener=None):
    """builtins.open with a _TracedFileIO underneath; the layering follows
    io.open (Lib/_pyio.py open()), so the returned objects are the usual
    BufferedReader/Writer/Random and TextIOWrapper types."""
    parsed = _parse_mode(mode) if _state is not None and not isinstance(file, int) else None
    if parsed is None:
        return _original_open(file, mode, buffering, encoding, errors, newline, closefd, opener)
    raw_mode, binary, buffer_class = parsed
    if binary and (encoding is not None or errors is not None or newline is not None):
        return _original_open(file, mode, buffering, encoding, errors, newline, closefd, opener)
    raw = _TracedFileIO(file, raw_mode, closefd, opener)
    try:
        line_buffering = False
        if buffering == 1 or (buffering < 0 and raw.isatty()):
            buffering = -1
            line_buffering = True
        if buffering < 0:
            buffering = getattr(raw, "_blksize", 0)
            if buffering <= 1:
                buffering = io.DEFAULT_BUFFER_SIZE
        if buffering == 0:
            if binary:
                return raw
            raise ValueError("can't have unbuffered text I/O")
        buffer = buffer_class(raw, buffering)
        if binary:
            return buffer
        if sys.version_info >= (3, 10) and encoding is None:
            encoding = io.text_encoding(encoding)
        text = io.TextIOWrapper(buffer, encoding, errors, newline, line_buffering)
        text.mode = mode
        return text
    except BaseException:
        raw.close()
        raise


# ------------------------------------------- torch / numpy, patched lazily

def _file_size(target):
    try:
        if isinstance(target, (str, bytes, os.PathLike)):
            return os.stat(target).st_size
    except OSError:
        pass
    return -1


def _flush_written(target):
    """Flushes a writable file object a library call wrote into, so that
    its buffered bytes reach the file inside the call (close would flush
    them anyway)."""
    try:
        if target.writable():
            target.flush()
    except Exception:
        pass


def _library_io(op, target, auto_phase, fn, args, kwargs, size_before):
    """Runs fn as one Python-level I/O operation of op on target; opens
    auto_phase around it when the rule says so."""
    path = _record_path(target) if target is not None else ""
    stack = _phase_stack()
    opened = None
    if auto_phase == "checkpoint" and (not stack or stack[-1] != "checkpoint"):
        opened = phase("checkpoint", auto=op)
    elif auto_phase == "model_load" and not stack and _no_phase_in_effect():
        opened = phase("model_load", auto=op)
    if opened is not None:
        opened.__enter__()
    tell0 = None
    if not isinstance(target, (str, bytes, os.PathLike)) and hasattr(target, "tell"):
        try:
            tell0 = target.tell()
        except Exception:
            tell0 = None
    _tls.lib_depth = getattr(_tls, "lib_depth", 0) + 1
    ts = time.time()
    t0 = time.perf_counter()
    ok = False
    try:
        result = fn(*args, **kwargs)
        ok = True
        return result
    finally:
        if tell0 is not None:
            _flush_written(target)  # its buffered bytes are this call's, not the file object's
        dur = time.perf_counter() - t0
        _tls.lib_depth -= 1
        nbytes = -1
        if tell0 is not None:
            try:
                nbytes = abs(target.tell() - tell0)
            except Exception:
                nbytes = -1
        elif ok:
            nbytes = _file_size(target) if size_before is None else size_before
        extra = {} if ok else {"error": True}
        _io_record(op, path, nbytes, dur, ts, **extra)
        if opened is not None:
            opened.__exit__(None if ok else Exception, None, None)


def _npy_name(target):
    """The file numpy.save writes for target: a path without the .npy
    suffix gets it (numpy adds it), so its size and name are the file's."""
    if isinstance(target, (str, os.PathLike)):
        path = os.fspath(target)
        if isinstance(path, str) and not path.endswith(".npy"):
            return path + ".npy"
    return target


def _wrap(module, attr, op, arg_index, arg_name, auto_phase, size_before_call, written_to=None):
    fn = getattr(module, attr, None)
    if fn is None or getattr(fn, "_niorep_wrapped", False):
        return

    def wrapper(*args, **kwargs):
        if _state is None or _in_library_call():
            return fn(*args, **kwargs)
        target = args[arg_index] if len(args) > arg_index else kwargs.get(arg_name)
        if written_to is not None:
            target = written_to(target)
        # For loads the size is known before the call (the file exists).
        size_before = _file_size(target) if size_before_call else None
        return _library_io(op, target, auto_phase, fn, args, kwargs, size_before)

    wrapper._niorep_wrapped = True
    wrapper.__wrapped__ = fn
    wrapper.__name__ = getattr(fn, "__name__", attr)
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    setattr(module, attr, wrapper)


def _patch_torch(torch):
    _wrap(torch, "save", "torch.save", 1, "f", "checkpoint", False)
    _wrap(torch, "load", "torch.load", 0, "f", "model_load", True)


def _patch_numpy(numpy):
    _wrap(numpy, "save", "numpy.save", 0, "file", None, False, _npy_name)
    _wrap(numpy, "load", "numpy.load", 0, "file", None, True)


def _patch_mp_queues(queues):
    """A worker writes its buffer before each put and get on a
    multiprocessing queue: before its result can tell the parent that the
    task is done, and before it waits for the next one, where the parent's
    terminate() finds it. A worker has no SIGTERM handler to write it then
    (see _on_term)."""
    for cls in (queues.SimpleQueue, queues.Queue):  # JoinableQueue is a Queue
        for name in ("put", "get"):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, "_niorep_wrapped", False):
                setattr(cls, name, _flushing_first(fn))


def _flushing_first(fn):
    def method(self, *args, **kwargs):
        w = _state
        if w is not None and w.parts and not _term_handlers_here:
            w.flush()
        return fn(self, *args, **kwargs)

    method._niorep_wrapped = True
    method.__wrapped__ = fn
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


_PATCHERS = {"torch": _patch_torch, "numpy": _patch_numpy, "multiprocessing.queues": _patch_mp_queues}


class _PatchOnImport:
    """A sys.meta_path finder that lets the real finders find torch and
    numpy, then patches the module right after it has executed. The hook
    never imports them itself."""

    def find_spec(self, name, path=None, target=None):
        if name not in _PATCHERS:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        original_exec = loader.exec_module

        def exec_module(module, _original=original_exec, _name=name):
            _original(module)
            try:
                _PATCHERS[_name](module)
            except Exception:
                pass

        try:
            loader.exec_module = exec_module
        except AttributeError:
            return spec
        return spec


_finder = _PatchOnImport()


def _install_patches():
    builtins.open = _traced_open
    os._exit = _flushing_exit
    os.chdir = _traced_chdir
    os.fchdir = _traced_fchdir
    for name, patcher in _PATCHERS.items():
        module = sys.modules.get(name)
        if module is not None:
            patcher(module)
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


# ------------------------------------------------------ processes, threads

def _before_fork():
    if _state is not None:
        _state.flush()


def _after_fork_in_child():
    global _pid, _inherited, _open_phases, _open_lock
    _pid = os.getpid()
    _inherited = _inherited or _open_phases > 0  # as the parent was at the fork
    _open_phases = 0
    _open_lock = threading.Lock()  # another thread may have held it at the fork
    _export_in_phase()
    for f in list(_live_files):
        f._nr_inherit()  # the parent reports what it did with them; the child, what it does
    _remove_term_handlers()  # a worker: see _on_term
    if _state is None:
        return
    _state.after_fork_in_child()
    _emit("fork", ppid=os.getppid())


_original_exit = os._exit


def _flushing_exit(code):
    """os._exit that writes the buffer first: forked workers (multiprocessing,
    DataLoader) leave through os._exit, which skips atexit."""
    _flush_quietly()
    _original_exit(code)


def _report_open_files():
    """Reports every traced file still open: the process is ending, and
    garbage collection at shutdown comes after the last flush."""
    for f in list(_live_files):
        f._nr_report()


def _flush_quietly():
    w = _state
    if w is not None:
        _report_open_files()
        try:
            w.flush()
        except Exception:
            pass


_fork_hooks_registered = False
_term_signals = ("SIGTERM", "SIGHUP")
_term_installed = []  # the signals whose handler start() installed
_term_handlers_here = False  # this process catches them (not a worker)
# Long enough for another thread's write of one buffer, short enough not to
# delay a death the interrupted code itself holds up.
_TERM_LOCK_WAIT_SECONDS = 0.2


def _on_term(signum, frame):
    """SIGTERM or SIGHUP left at its default (the scheduler's time limit,
    what `niorep trace` forwards): reports the files still open and writes
    the buffer, which the default death skips (atexit does not run), then
    dies of the signal as it would have. Until session 46 a job killed so
    lost the record of every file it still had open (review 46).

    Only in a process the program started itself, not in its forked
    children or multiprocessing's spawned workers. CPython runs the handler
    at the main thread's next bytecode: a signal that lands just before a
    blocking wait runs it only when the wait ends. A Pool worker waiting
    on the task queue's lock, which terminate() holds while it signals the
    workers, waits forever (session 63: CI hung on 5064970; without a
    handler the kernel ends the worker). A worker writes its buffer before
    each put and get on a multiprocessing queue instead (_patch_mp_queues).

    Python runs the handler between two bytecodes of the main thread, which
    may hold the writer's lock (a flush, a record being added): waiting for
    it would wait forever. The handler then leaves the signal to the
    holder, which raises it again once it lets go (session 63: it waited
    forever)."""
    w = _state
    if w is not None:
        if not w.lock.acquire(timeout=_TERM_LOCK_WAIT_SECONDS):
            w.deferred_signal = signum
            return
        w.lock.release()
    _flush_quietly()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _install_term_handlers():
    """Only where the program left the default, only from the main thread
    (signal.signal's rule), and not in a multiprocessing worker (see
    _on_term); a handler the program sets later wins."""
    global _term_handlers_here
    if "--multiprocessing-fork" in sys.argv:  # spawn_main's child
        return
    for name in _term_signals:
        sig = getattr(signal, name, None)
        try:
            if sig is not None and signal.getsignal(sig) == signal.SIG_DFL:
                signal.signal(sig, _on_term)
                _term_installed.append(sig)
        except (ValueError, OSError):
            pass
    _term_handlers_here = bool(_term_installed)


def start(path=None):
    """Starts recording into path (default: $NIOREP_HOOK_OUT). Idempotent.
    Returns True when recording."""
    global _state, _pid, _inherited, _cwd, _fork_hooks_registered
    if _state is not None:
        return True
    path = path or os.environ.get(ENV_OUT)
    if not path:
        return False
    try:
        _state = _Writer(path)
    except OSError as e:
        sys.stderr.write("niorep_hook: cannot open %s: %s\n" % (path, e))
        return False
    _pid = os.getpid()
    _inherited = os.environ.get(ENV_PHASE) == "1"  # set by a parent in a phase when it spawned this one
    _cwd = _getcwd()
    _emit("header", version=FORMAT_VERSION, tool="niorep_hook", clock="time.time", out=os.path.abspath(path),
          ppid=os.getppid(), python=sys.version.split()[0],
          argv=list(sys.argv) if hasattr(sys, "argv") else [])
    _install_patches()
    if not _fork_hooks_registered:
        os.register_at_fork(before=_before_fork, after_in_child=_after_fork_in_child)
        _fork_hooks_registered = True
    atexit.register(_flush_quietly)
    _install_term_handlers()
    _state.flush()
    return True


def _remove_term_handlers():
    """Back to the default for the signals whose handler is still ours."""
    global _term_handlers_here
    _term_handlers_here = False
    while _term_installed:
        sig = _term_installed.pop()
        try:
            if signal.getsignal(sig) is _on_term:
                signal.signal(sig, signal.SIG_DFL)
        except (ValueError, OSError):
            pass


def stop():
    """Stops recording and restores builtins.open (used by tests)."""
    global _state
    w = _state
    if w is None:
        return
    _state = None
    builtins.open = _original_open
    os._exit = _original_exit
    os.chdir = _original_chdir
    os.fchdir = _original_fchdir
    _remove_term_handlers()
    try:
        sys.meta_path.remove(_finder)
    except ValueError:
        pass
    w.close()
