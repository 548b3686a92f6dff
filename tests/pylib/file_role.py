"""An independent implementation of docs/definitions.md, "Job files and
runtime files" (model/file_role.c scans by hand; this one by regular
expressions), for the tests that recompute the model's numbers."""
import re

_SYSTEM = re.compile(r"^/(usr|lib|lib32|lib64|libx32|bin|sbin|etc|dev/shm)/")
_PACKAGE_FOLDER = re.compile(
    r"(^|/)(site-packages|dist-packages|__pycache__|[^/]*\.dist-info|[^/]*\.egg-info|pymp-[a-z0-9_]{8})/")
_RANDOM_NAME = re.compile(r"^[a-z0-9_]{8}$")
_MODULE = re.compile(r"(\.(py|pyc|pyi|pth|so)|\.so(\.[0-9]+)+)$")


def is_runtime(path):
    """Whether a regular file's path names the job's runtime (not its data)."""
    if path is None:
        return False
    last = path.rsplit("/", 1)[-1]
    return bool(_SYSTEM.match(path) or _PACKAGE_FOLDER.search(path) or _MODULE.search(last))


def is_runtime_file(row):
    """is_runtime of a row of table files (a dict of its columns), or the
    probe of Python's tempfile: a random name of 8 characters, opened once,
    4 bytes written in one call, nothing read."""
    if is_runtime(row["path"]):
        return True
    counts = {k: int(row[k]) for k in ("bytes_read", "bytes_written", "read_calls", "write_calls", "open_calls")}
    probe = {"bytes_read": 0, "bytes_written": 4, "read_calls": 0, "write_calls": 1, "open_calls": 1}
    return counts == probe and bool(_RANDOM_NAME.match(row["path"].rsplit("/", 1)[-1]))
