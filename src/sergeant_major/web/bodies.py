"""Reading an HTTP request's body with a size limit, and its JSON (the app's and the account API's posts)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from sergeant_major.web.protocol import MAX_BODY, not_json_reason, read_json

__all__ = ["request_body", "request_json"]


async def request_body(request: Request) -> bytes | Response:
    """The request's body, or HTTP 413 for one over :data:`MAX_BODY` bytes: refused by its Content-Length before any of it
    is read, else (no length, or a false one) as soon as the bytes read pass the limit; never held whole in memory."""
    def refused(size: str) -> Response:
        return JSONResponse({"error": f"a request body of {size} is refused (at most {MAX_BODY} bytes)", "code": "too_large"},
                            status_code=413)

    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        return refused(f"{int(length)} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return refused(f"more than {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def request_json(request: Request, hint: str = "") -> Any:
    """The request's body parsed as JSON (any JSON value), or the refusal as a :class:`Response`: 413 from
    :func:`request_body`, 400 ``{"error", "code": "json"}`` quoting why it is not JSON (then ``hint``, e.g. what to send)."""
    raw = await request_body(request)
    if isinstance(raw, Response):
        return raw
    try:
        return read_json(raw)
    except ValueError as e:
        return JSONResponse({"error": f"the request body is not JSON{not_json_reason(e)}{hint}", "code": "json"}, status_code=400)
