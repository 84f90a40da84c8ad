"""TensorFlow Serving's error model: every failure is a status code and a message.

The codes are gRPC's (and absl's) canonical codes, the same numbers gRPC clients see; the REST API
maps each to the HTTP status TensorFlow Serving's HTTP server answers with and puts the message in
`{"error": ...}`. One exception class carries both so every layer (model manager, JSON decoding,
batching) raises the same thing and each API only translates it once.
"""
from __future__ import annotations

# name -> (gRPC code number, HTTP status TensorFlow Serving's REST server answers with)
CODES = {
    "OK": (0, 200),
    "CANCELLED": (1, 499),
    "UNKNOWN": (2, 500),
    "INVALID_ARGUMENT": (3, 400),
    "DEADLINE_EXCEEDED": (4, 504),
    "NOT_FOUND": (5, 404),
    "ALREADY_EXISTS": (6, 409),
    "PERMISSION_DENIED": (7, 403),
    "RESOURCE_EXHAUSTED": (8, 429),
    "FAILED_PRECONDITION": (9, 400),
    "ABORTED": (10, 409),
    "OUT_OF_RANGE": (11, 400),
    "UNIMPLEMENTED": (12, 501),
    "INTERNAL": (13, 500),
    "UNAVAILABLE": (14, 503),
    "DATA_LOSS": (15, 500),
    "UNAUTHENTICATED": (16, 401),
}


class ServingError(Exception):
    """A request that cannot be answered: `code` is a name of CODES, `message` what the client reads."""

    def __init__(self, code: str, message: str):
        if code not in CODES:
            raise ValueError(f"unknown status code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def http_status(self) -> int:
        return CODES[self.code][1]

    @property
    def grpc_code(self) -> int:
        return CODES[self.code][0]


def invalid_argument(message: str) -> ServingError:
    return ServingError("INVALID_ARGUMENT", message)


def not_found(message: str) -> ServingError:
    return ServingError("NOT_FOUND", message)
