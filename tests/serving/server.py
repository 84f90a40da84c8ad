"""Start `eagerflow serve` in a subprocess on free loopback ports and talk HTTP to it (urllib: the
tests need no HTTP client package). The server is stopped with SIGTERM, as a process manager stops it."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, *flags, cwd, grpc=False, startup_seconds=120, env=None):
        self.port = free_port()
        self.grpc_port = free_port() if grpc else 0
        env = dict(os.environ, **(env or {}),
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        self.log = open(Path(cwd) / f"server-{self.port}.log", "w+")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "eagerflow", "serve", f"--rest_api_port={self.port}", f"--port={self.grpc_port}", *flags],
            cwd=cwd, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + startup_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.output()}")
            try:
                for port in filter(None, (self.grpc_port, self.port)):  # REST opens last
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                        pass
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start in {startup_seconds} s:\n{self.output()}")

    def output(self) -> str:
        if self.log.closed:
            return self.final_output
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def request(self, path, body=None, method=None, raw=None, timeout=60):
        """(HTTP status, decoded JSON or text) of one request; `body` is sent as JSON, `raw` as bytes."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url(path), data=data, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def stop(self, timeout=30):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not self.log.closed:
            self.final_output = self.output()
            self.log.close()
        return self.process.returncode
