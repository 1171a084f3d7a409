"""The Response a Client returns: status, headers and the body, read whole."""

import json

from skiff.errors import DecodeError, HTTPError
from skiff.headers import Headers, parse_content_type


class Response:
    """An HTTP response whose body has been read into memory."""

    def __init__(self, status, reason, headers, body, url, elapsed=0.0):
        self.status = status
        self.reason = reason
        self.headers = headers if isinstance(headers, Headers) else Headers(headers)
        self.body = body
        self.url = url
        self.elapsed = elapsed  # seconds from sending the request to the last byte

    @property
    def ok(self):
        """True for 1xx, 2xx and 3xx statuses."""
        return self.status < 400

    @property
    def encoding(self):
        """The charset of the body from Content-Type; UTF-8 when none is given."""
        _, params = parse_content_type(self.headers.get("Content-Type", ""))
        return params.get("charset", "utf-8")

    @property
    def text(self):
        """The body decoded with its charset, undecodable bytes replaced."""
        return self.body.decode(self.encoding, errors="replace")

    def json(self):
        """Decode the body as JSON.

        Raises DecodeError when the body is not valid JSON.
        """
        try:
            return json.loads(self.body.decode(self.encoding))
        except ValueError as exc:
            raise DecodeError(f"response from {self.url} is not JSON: {exc}") from exc

    def raise_for_status(self):
        """Raise HTTPError for a 4xx or 5xx status; return the Response otherwise."""
        if self.status >= 400:
            raise HTTPError(self)
        return self

    def __repr__(self):
        return f"<Response [{self.status}] {self.url}>"
