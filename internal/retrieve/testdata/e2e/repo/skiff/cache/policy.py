"""HTTP caching rules (RFC 9111, the parts a private client cache needs)."""

import email.utils
import hashlib
import time


def parse_cache_control(value):
    """Parse a Cache-Control header into a dict of directives.

    Directives without a value map to True; numeric values stay strings:
    "no-cache, max-age=60" gives {"no-cache": True, "max-age": "60"}.
    """
    directives = {}
    for part in value.split(","):
        name, sep, arg = part.strip().partition("=")
        if not name:
            continue
        directives[name.lower()] = arg.strip('"') if sep else True
    return directives


def cacheable(response):
    """Whether a response may be stored at all."""
    if response.status not in (200, 203, 300, 301, 404, 410):
        return False
    directives = parse_cache_control(response.headers.get("Cache-Control", ""))
    return "no-store" not in directives


def is_fresh(response, now=None):
    """Whether a stored response may still be served without asking the server.

    max-age wins over Expires; a response with neither is stale.
    """
    if now is None:
        now = time.time()
    directives = parse_cache_control(response.headers.get("Cache-Control", ""))
    if "no-cache" in directives:
        return False
    age = now - _date(response)
    max_age = directives.get("max-age")
    if max_age:
        return age < int(max_age)
    expires = response.headers.get("Expires")
    if expires:
        try:
            return now < email.utils.parsedate_to_datetime(expires).timestamp()
        except (TypeError, ValueError):
            return False
    return False


def _date(response):
    """When the response was generated, from its Date header; now if absent."""
    value = response.headers.get("Date")
    if value:
        try:
            return email.utils.parsedate_to_datetime(value).timestamp()
        except (TypeError, ValueError):
            pass
    return time.time()


def cache_key(method, url):
    """The key a response to method and url is stored under."""
    return hashlib.sha256(f"{method} {url}".encode("utf-8")).hexdigest()
