"""A TensorFlow process that has imported `tensorflow` and forks a fresh child for every script `run_tf` hands it.

This file is a script for TensorFlow's own environment (conftest.py starts it with `python -c`, so its
sys.path is a `python -c` one), never imported by the tests.

Why: importing TensorFlow costs about 5 s of CPU, more than most interop scripts spend on their own work,
and the interop stage ran about sixty of them. A fork of a process that has only imported TensorFlow (no op
run yet, so no TensorFlow thread or device exists; the one other thread is OpenBLAS's pool, which handles
fork itself) is what a fresh `python -c script` is after its `import tensorflow` line: each script still runs
in its own process, in its test's folder, with its own `__main__`, environment and exit, so no state (Keras'
layer-name counters, eager/graph mode, random seeds, registered callbacks) passes from one script to the next.

Protocol: one JSON request per line on stdin ({"script", "cwd", "env", "stdout", "stderr", "timeout"}); the
child writes the script's output to the two files named; one JSON reply per line on stdout
({"returncode", "timed_out"}), the return code as `subprocess` reports it (negative: killed by that signal).
"""
import builtins
import json
import os
import signal
import sys
import time
import types


def _become_the_script(request):
    """In the child: stdin from /dev/null, stdout/stderr to the files named, then the script as `python -c`
    runs it. Never returns: the script's end (or its SystemExit or exception) ends the child's interpreter."""
    for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, request["stdout"], os.O_WRONLY | os.O_TRUNC),
                            (2, request["stderr"], os.O_WRONLY | os.O_TRUNC)):
        opened = os.open(path, flags)
        os.dup2(opened, fd)
        os.close(opened)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["-c"]
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    code = compile(request["script"], "<string>", "exec")
    exec(code, main.__dict__)  # noqa: S102 - the test's own script, as `python -c` would run it
    sys.exit(0)


def _wait(pid, timeout):
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), False
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status), True
        time.sleep(0.01)


def serve():
    import tensorflow  # noqa: F401 - the point of this process: every child starts with it imported

    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _become_the_script(request)
        returncode, timed_out = _wait(pid, request["timeout"])
        sys.stdout.write(json.dumps({"returncode": returncode, "timed_out": timed_out}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
