"""skiff: a small, dependency-free HTTP client.

    >>> import skiff
    >>> resp = skiff.get("https://example.org/")
    >>> resp.status
    200

Most programs want a Client, which keeps connections, default headers,
authentication and an optional cache across requests.
"""

from skiff.client import DEFAULT_USER_AGENT, Client
from skiff.errors import ConnectTimeout, DecodeError, HTTPError, SkiffError, TooManyRedirects
from skiff.response import Response

__version__ = "0.4.2"

__all__ = [
    "Client",
    "ConnectTimeout",
    "DEFAULT_USER_AGENT",
    "DecodeError",
    "HTTPError",
    "Response",
    "SkiffError",
    "TooManyRedirects",
    "get",
]


def get(url, **kwargs):
    """Send a GET request with a throwaway Client and return the Response."""
    with Client() as client:
        return client.get(url, **kwargs)
