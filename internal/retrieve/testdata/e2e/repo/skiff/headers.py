"""Case-insensitive HTTP headers, and helpers that parse header values."""

import email.utils
import time


class Headers:
    """A multi-dict of HTTP headers whose names compare case-insensitively.

    Values keep the order they were added in, and a name keeps the
    spelling it was first added with, so that headers go out the way the
    caller wrote them.
    """

    def __init__(self, items=None):
        self._items = []  # (name, value) pairs in insertion order
        if items:
            pairs = items.items() if hasattr(items, "items") else items
            for name, value in pairs:
                self.add(name, value)

    def add(self, name, value):
        """Append a value for name, keeping any existing ones."""
        self._items.append((name, str(value)))

    def get(self, name, default=None):
        """Return the first value of name, or default if there is none."""
        for key, value in self._items:
            if key == name:
                return value
        return default

    def get_all(self, name):
        """Return every value of name, in the order they were added."""
        lower = name.lower()
        return [value for key, value in self._items if key.lower() == lower]

    def remove(self, name):
        """Drop every value of name."""
        lower = name.lower()
        self._items = [(k, v) for k, v in self._items if k.lower() != lower]

    def __getitem__(self, name):
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __setitem__(self, name, value):
        self.remove(name)
        self.add(name, value)

    def __contains__(self, name):
        return self.get(name) is not None

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __repr__(self):
        return f"Headers({self._items!r})"

    @classmethod
    def parse(cls, raw):
        """Parse a raw header block ("Name: value" lines) into Headers.

        Continuation lines, which start with a space or a tab, are folded
        into the previous value, as RFC 7230 still allows on input.
        """
        headers = cls()
        for line in raw.split("\r\n"):
            if not line:
                continue
            if line[0] in " \t" and headers._items:
                name, value = headers._items[-1]
                headers._items[-1] = (name, value + " " + line.strip())
                continue
            name, sep, value = line.partition(":")
            if not sep:
                raise ValueError(f"malformed header line: {line!r}")
            headers.add(name.strip(), value.strip())
        return headers


def parse_retry_after(value, now=None):
    """Return the number of seconds a Retry-After header asks us to wait.

    The header holds either a whole number of seconds or an HTTP date; a
    date in the past means no wait at all.
    """
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return 0
    if now is None:
        now = time.time()
    return max(0, when.timestamp() - now)


def format_header_name(name):
    """Return name in canonical form: "content-type" becomes "Content-Type"."""
    return "-".join(part.capitalize() for part in name.split("-"))


def parse_content_type(value):
    """Split a Content-Type value into the media type and its parameters.

    >>> parse_content_type('text/html; charset="UTF-8"')
    ('text/html', {'charset': 'UTF-8'})
    """
    media_type, _, rest = value.partition(";")
    params = {}
    for item in rest.split(";"):
        key, sep, val = item.partition("=")
        if sep:
            params[key.strip().lower()] = val.strip().strip('"')
    return media_type.strip().lower(), params
