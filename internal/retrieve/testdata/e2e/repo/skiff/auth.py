"""Authentication: callables that add credentials to a request's headers.

A Client calls its auth with the Headers of every request it sends.
"""

import base64
import netrc
import os


def encode_basic(username, password):
    """Return the value of an Authorization header for HTTP Basic auth."""
    token = f"{username}:{password}".encode("latin-1")
    return "Basic " + base64.b64encode(token).decode("ascii")


class BasicAuth:
    """HTTP Basic authentication with a username and a password."""

    def __init__(self, username, password):
        self.username = username
        self.password = password

    def __call__(self, headers):
        headers["Authorization"] = encode_basic(self.username, self.password)
        return headers


class BearerAuth:
    """A bearer token, as OAuth 2 access tokens are sent."""

    def __init__(self, token):
        self.token = token

    def __call__(self, headers):
        headers["Authorization"] = f"Bearer {self.token}"
        return headers


def from_netrc(host, path=None):
    """Return BasicAuth for host from a .netrc file, or None if it has no entry."""
    path = path or os.path.join(os.path.expanduser("~"), ".netrc")
    try:
        entry = netrc.netrc(path).authenticators(host)
    except (FileNotFoundError, netrc.NetrcParseError):
        return None
    if entry is None:
        return None
    login, _, password = entry
    return BasicAuth(login, password)
