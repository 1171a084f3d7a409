"""URL parsing and building: a thin layer over urllib.parse that knows
the default ports and nothing but http and https."""

from collections import namedtuple
from urllib.parse import quote_plus, urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}

URL = namedtuple("URL", "scheme host port path query fragment")


def parse(url):
    """Split url into a URL tuple, filling in the default port.

    Raises ValueError for a URL without a scheme or a host, and for any
    scheme other than http and https.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise ValueError(f"unsupported URL scheme {parts.scheme!r} in {url!r}")
    if not parts.hostname:
        raise ValueError(f"no host in URL {url!r}")
    port = parts.port or DEFAULT_PORTS[scheme]
    return URL(scheme, parts.hostname, port, parts.path or "/", parts.query, parts.fragment)


def unparse(u):
    """Build the string form of a URL tuple, leaving out a default port."""
    netloc = u.host
    if u.port != DEFAULT_PORTS.get(u.scheme):
        netloc = f"{u.host}:{u.port}"
    s = f"{u.scheme}://{netloc}{u.path}"
    if u.query:
        s += "?" + u.query
    if u.fragment:
        s += "#" + u.fragment
    return s


def join(base, path):
    """Resolve path against base, the way a browser resolves a link.

    "https://api.example.org/v1/" joined with "users" gives
    "https://api.example.org/v1/users"; an absolute URL is returned as it is.
    """
    if "://" in path:
        return path
    b = parse(base)
    if path.startswith("/"):
        new_path = path
    else:
        directory = b.path.rsplit("/", 1)[0]
        new_path = directory + "/" + path
    new_path, _, query = new_path.partition("?")
    return unparse(b._replace(path=new_path, query=query, fragment=""))


def encode_query(params):
    """Encode a dict, or a list of pairs, as a query string.

    None values are left out, and a list value repeats its key:
    {"tag": ["a", "b"]} gives "tag=a&tag=b".
    """
    pairs = params.items() if hasattr(params, "items") else params
    out = []
    for key, value in pairs:
        if value is None:
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            out.append(quote_plus(str(key)) + "=" + quote_plus(str(v)))
    return "&".join(out)


def with_query(url, params):
    """Return url with params added to its query string."""
    u = parse(url)
    extra = encode_query(params)
    if not extra:
        return url
    query = u.query + "&" + extra if u.query else extra
    return unparse(u._replace(query=query))
