"""Exceptions raised by skiff. All of them derive from SkiffError."""

from skiff.headers import parse_retry_after


class SkiffError(Exception):
    """Base class of every error skiff raises."""


class ConnectTimeout(SkiffError):
    """The connection could not be opened within the timeout."""

    def __init__(self, host, timeout):
        super().__init__(f"connecting to {host} timed out after {timeout:g}s")
        self.host = host
        self.timeout = timeout


class HTTPError(SkiffError):
    """The server answered with a 4xx or 5xx status."""

    def __init__(self, response):
        super().__init__(f"{response.status} {response.reason} for {response.url}")
        self.response = response

    @property
    def retry_after(self):
        """Seconds the server asked us to wait before trying again, or None."""
        value = self.response.headers.get("Retry-After")
        if value is None:
            return None
        return parse_retry_after(value)


class DecodeError(SkiffError):
    """The response body could not be decoded (bad JSON, unknown charset)."""


class TooManyRedirects(SkiffError):
    """A request was redirected more often than Client.max_redirects allows."""

    def __init__(self, url, limit):
        super().__init__(f"more than {limit} redirects, last to {url}")
        self.url = url
        self.limit = limit
