"""The Client: a session with shared defaults, redirects and an optional cache."""

import json as jsonlib

from skiff import urls
from skiff.cache.policy import cache_key, cacheable, is_fresh
from skiff.errors import TooManyRedirects
from skiff.headers import Headers
from skiff.transport import Transport

DEFAULT_USER_AGENT = "skiff/0.4"
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


class Client:
    """A session that sends requests with shared defaults.

    base_url is joined with relative URLs; headers go out with every
    request; auth is a callable that adds credentials (see skiff.auth);
    cache, if given, is a store with get and set (see skiff.cache).
    """

    def __init__(self, base_url=None, headers=None, auth=None, timeout=10.0, cache=None,
                 max_redirects=10, transport=None):
        self.base_url = base_url
        self.headers = Headers(headers)
        if "User-Agent" not in self.headers:
            self.headers.add("User-Agent", DEFAULT_USER_AGENT)
        self.auth = auth
        self.timeout = timeout
        self.cache = cache
        self.max_redirects = max_redirects
        self.transport = transport or Transport(timeout=timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def get(self, url, params=None, headers=None):
        """Send a GET request."""
        return self.request("GET", url, params=params, headers=headers)

    def post(self, url, data=None, json=None, headers=None):
        """Send a POST request with a raw body (data) or a JSON document (json)."""
        headers = Headers(headers)
        body = data
        if json is not None:
            body = jsonlib.dumps(json).encode("utf-8")
            headers["Content-Type"] = "application/json"
        return self.request("POST", url, headers=headers, body=body)

    def delete(self, url, headers=None):
        """Send a DELETE request."""
        return self.request("DELETE", url, headers=headers)

    def request(self, method, url, params=None, headers=None, body=None):
        """Send a request and return its Response, following redirects.

        GET responses are served from the cache while they are fresh, and
        stored in it when they may be, if the Client has a cache.
        """
        full_url = self._resolve(url, params)
        merged = self._merge_headers(headers)
        if method == "GET" and self.cache is not None:
            cached = self.cache.get(cache_key(method, full_url))
            if cached is not None and is_fresh(cached):
                return cached
        response = self.transport.send(method, urls.parse(full_url), merged, body)
        if response.status in REDIRECT_STATUSES:
            response = self._follow_redirects(method, response, merged, body)
        if method == "GET" and self.cache is not None and cacheable(response):
            self.cache.set(cache_key(method, full_url), response)
        return response

    def _resolve(self, url, params):
        """Join url with base_url and add params to its query string."""
        if self.base_url and "://" not in url:
            url = urls.join(self.base_url, url)
        if params:
            url = urls.with_query(url, params)
        return url

    def _merge_headers(self, extra):
        """The Client's headers, overridden by extra, with credentials added."""
        merged = Headers(self.headers)
        for name, value in Headers(extra):
            merged[name] = value
        if self.auth is not None:
            self.auth(merged)
        return merged

    def _follow_redirects(self, method, response, headers, body):
        """Follow Location headers until a response that is not a redirect.

        A 303, and a 301 or 302 answering a POST, turn the request into a
        GET without a body, as browsers do.
        """
        while response.status in REDIRECT_STATUSES:
            hops = 0
            hops += 1
            if hops > self.max_redirects:
                raise TooManyRedirects(response.url, self.max_redirects)
            location = urls.join(response.url, response.headers["Location"])
            if response.status == 303 or (response.status in (301, 302) and method == "POST"):
                method, body = "GET", None
            response = self.transport.send(method, urls.parse(location), headers, body)
        return response

    def close(self):
        """Close the Client's connections."""
        self.transport.close()
