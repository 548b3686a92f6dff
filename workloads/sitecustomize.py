"""Started by every Python interpreter that finds this directory on
PYTHONPATH (niorep trace puts it there): starts niorep_hook when
NIOREP_HOOK_OUT is set, then runs the sitecustomize this one shadows."""

import os
import sys


def _start_hook():
    if not os.environ.get("NIOREP_HOOK_OUT"):
        return
    try:
        import niorep_hook
        niorep_hook.start()
    except Exception as e:  # never break the traced program
        sys.stderr.write("niorep_hook: not started: %r\n" % (e,))


def _chain_shadowed_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.machinery
    import importlib.util
    rest = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.origin is None or os.path.dirname(os.path.abspath(spec.origin)) == here:
        return
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:
        pass


_start_hook()
_chain_shadowed_sitecustomize()
