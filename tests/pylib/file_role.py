"""An independent implementation of docs/definitions.md, "Job files and
runtime files" (model/file_role.c scans by hand; this one by regular
expressions), for the tests that recompute the model's numbers."""
import re

_SYSTEM = re.compile(r"^/(usr|lib|lib32|lib64|libx32|bin|sbin|etc|dev/shm)/")
_PACKAGE_FOLDER = re.compile(r"(^|/)(site-packages|dist-packages|__pycache__|[^/]*\.dist-info|[^/]*\.egg-info)/")
_MODULE = re.compile(r"(\.(py|pyc|pyi|pth|so)|\.so(\.[0-9]+)+)$")


def is_runtime(path):
    """Whether a regular file's path names the job's runtime (not its data)."""
    if path is None:
        return False
    last = path.rsplit("/", 1)[-1]
    return bool(_SYSTEM.match(path) or _PACKAGE_FOLDER.search(path) or _MODULE.search(last))
