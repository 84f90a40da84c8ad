"""The REST API as an ASGI application (Starlette's Request and Response): TensorFlow Serving's URLs,
bodies, status codes and `{"error": ...}` messages. A small :predict request is decoded and encoded on
the event loop (a thread hop costs more than decoding a few kilobytes of JSON) and its model
call is awaited: the batcher's queue holds no thread while it waits, and the direct runner runs only
calls measured short inline (runners.py). Larger bodies, :classify and :regress run whole in worker
threads (Starlette's pool), so a slow request never blocks the event loop. Request bodies above the
size limit are refused with 413 before they are read whole.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from urllib.parse import unquote

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import rest_examples, rest_predict
from .errors import ServingError, invalid_argument
from .metadata import metadata_json, status_json
from .runners import DirectRunner, bounded, run_in_thread

log = logging.getLogger("eagerflow.serving")
_PREDICT = re.compile(r"/v1/models/([^/:]+)(?:/versions/(\d+)|/labels/([^/:]+))?:(classify|regress|predict)",
                      re.IGNORECASE)
INLINE_BODY_BYTES = 64 << 10  # :predict bodies up to this size are decoded on the event loop (~1 ms at most)
# TensorFlow Serving's CORS headers (--rest_api_enable_cors_support); a preflight needs an http(s) Origin
CORS_HEADERS = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST, GET",
                "Access-Control-Allow-Headers": "Content-Type"}
_HTTP_ORIGIN = re.compile(r"https?://")
_STATUS = re.compile(r"/v1/models(?:/([^/:]+))?(?:/versions/(\d+)|/labels/([^/:]+))?(?:/(metadata))?",
                     re.IGNORECASE)


class _JSON(JSONResponse):
    """JSON with NaN and Infinity written as TensorFlow Serving writes them."""

    def render(self, content) -> bytes:
        return json.dumps(content, separators=(",", ":"), allow_nan=True).encode("utf-8")


def _error(err: ServingError) -> Response:
    return _JSON({"error": err.message}, status_code=err.http_status)


class _TooLarge(Exception):
    pass


async def _body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _TooLarge()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _TooLarge()
        chunks.append(chunk)
    return b"".join(chunks)


def _version(text):
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise invalid_argument(f"Failed to convert version: {text} to numeric.") from None
    if value >= 2**63:
        raise invalid_argument(f"Failed to convert version: {text} to numeric.")
    return value


class RestApi:
    """The handlers; `runner.run(model_name, servable, signature, arrays)` runs a signature (called in a
    worker thread: the direct call, or the batcher's queue)."""

    def __init__(self, manager, runner, metrics=None, max_body_bytes=64 << 20, timeout_seconds=None,
                 enable_cors=False):
        self.timeout_seconds = timeout_seconds
        self.enable_cors = enable_cors
        self.manager = manager
        self.runner = runner
        self.metrics = metrics
        self.max_body_bytes = max_body_bytes

    async def dispatch(self, request: Request) -> Response:
        response = await self._respond(request)
        if self.enable_cors:  # --rest_api_enable_cors_support: on every answer of the API, errors included
            response.headers.update(CORS_HEADERS)
        return response

    async def _respond(self, request: Request) -> Response:
        started = time.perf_counter()
        path = request.scope.get("raw_path", b"").decode("latin-1").split("?", 1)[0] or request.url.path
        if request.method == "OPTIONS" and path.lower().startswith("/v1/"):  # a CORS preflight: answered with or without the flag, as TF Serving does
            return Response(status_code=200 if _HTTP_ORIGIN.search(request.headers.get("origin", "")) else 400)
        names = {"model": "", "api": "unknown"}  # filled in by _route, for the metrics
        try:
            result = await self._route(request, request.method, path, names)
        except _TooLarge:
            self._count(names, "RESOURCE_EXHAUSTED", started)
            return _JSON({"error": f"Request body is larger than the server's limit of {self.max_body_bytes} bytes"},
                         status_code=413)
        except ServingError as err:
            self._count(names, err.code, started)
            return _error(err)
        except Exception as err:  # a defect, not the request's fault: logged, answered as INTERNAL, server lives on
            log.exception("%s %s failed", request.method, path)
            self._count(names, "INTERNAL", started)
            return _error(ServingError("INTERNAL", f"{type(err).__name__}: {err}"))
        self._count(names, "OK", started)
        return _JSON(result)

    async def _route(self, request, method, path, names):
        if method == "POST" and (match := _PREDICT.fullmatch(path)):
            names["model"], names["api"] = unquote(match.group(1)), match.group(4).lower()
            body = await _body(request, self.max_body_bytes)
            where = (names["model"], _version(match.group(2)), _label(match.group(3)))
            timeout = self.timeout_seconds
            try:
                if names["api"] == "predict" and len(body) <= INLINE_BODY_BYTES:
                    # decoded here; only a wait (a worker thread, the batch queue) is bounded by the timeout,
                    # with what is left of it: a call run inline never waits, so it needs no timer or task
                    deadline = None if timeout is None else time.monotonic() + timeout
                    return await self._predict_small(*where, body, deadline)
                return await bounded(run_in_thread(self._post, names["api"], *where, body), timeout)  # all there
            except asyncio.TimeoutError:  # a thread finishes on its own; the client is answered now
                raise ServingError("DEADLINE_EXCEEDED", "Deadline Exceeded") from None
        if method == "GET" and (match := _STATUS.fullmatch(path)):
            names["model"] = unquote(match.group(1) or "")
            names["api"] = "metadata" if match.group(4) else "status"
            return self._get(names["api"], names["model"], _version(match.group(2)), _label(match.group(3)))
        raise invalid_argument(f"Malformed request: {method} {path}")

    def _count(self, names, code, started):
        if self.metrics is not None:
            self.metrics.record_request(names["model"], names["api"], code, time.perf_counter() - started)

    def _get(self, api, model_name, version, label):
        if api == "status":
            return status_json(self.manager.status(model_name, version, label))
        if not model_name:
            raise invalid_argument("Missing model name in request.")
        return metadata_json(model_name, self.manager.servable(model_name, version, label))

    async def _predict_small(self, model_name, version, label, body, deadline=None):
        servable = self.manager.servable(model_name, version, label)
        document = rest_predict.parse_json(body)
        signature = servable.signature(rest_predict.signature_name(document), "predict_rest")
        arrays, form = rest_predict.decode_predict(document, signature, b"true" in body or b"false" in body)
        timeout = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        outputs = await self.runner.run_async(model_name, servable, signature, arrays, timeout=timeout)
        return rest_predict.encode_predict(outputs, form)

    def _post(self, api, model_name, version, label, body):
        servable = self.manager.servable(model_name, version, label)
        document = rest_predict.parse_json(body)
        signature = servable.signature(rest_predict.signature_name(document),
                                       "predict_rest" if api == "predict" else "examples")
        if api == "predict":
            arrays, form = rest_predict.decode_predict(document, signature, b"true" in body or b"false" in body)
            outputs = self.runner.run(model_name, servable, signature, arrays)
            return rest_predict.encode_predict(outputs, form)
        check = rest_examples.check_classify_signature if api == "classify" else rest_examples.check_regress_signature
        check(signature)
        examples = rest_examples.serialized_examples(document, api)
        outputs = self.runner.run(model_name, servable, signature, {rest_examples.CLASSIFY_INPUTS: examples})
        if api == "classify":
            return {"results": rest_examples.classification_results(outputs, len(examples))}
        return {"results": rest_examples.regression_values(outputs, len(examples))}


def _label(text):
    return None if text is None else unquote(text)


class RestApp:
    """The ASGI application: the metrics page and the API, with Starlette's Request and Response but
    without its router and middleware stack (every error is already an answer of `RestApi.dispatch`,
    and those layers cost about as much as decoding a small request)."""

    def __init__(self, api: RestApi, metrics_path=None, metrics=None, num_threads=0):
        self.api = api
        self.metrics_path = metrics_path if metrics is not None else None
        self.metrics = metrics
        self.num_threads = num_threads

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            if scope["path"] == self.metrics_path and scope["method"] in ("GET", "HEAD"):
                response = Response(self.metrics.prometheus_text(), media_type="text/plain; version=0.0.4")
            else:
                response = await self.api.dispatch(Request(scope, receive))
            await response(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self._lifespan(receive, send)

    async def _lifespan(self, receive, send):
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self.num_threads > 0:  # how many worker threads run requests at once
                    anyio.to_thread.current_default_thread_limiter().total_tokens = self.num_threads
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


def build_app(api: RestApi, metrics_path=None, metrics=None, num_threads=0) -> RestApp:
    """The application; `num_threads` (> 0) sets how many worker threads run requests at once."""
    return RestApp(api, metrics_path, metrics, num_threads)
