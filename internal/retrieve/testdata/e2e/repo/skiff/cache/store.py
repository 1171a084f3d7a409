"""Where cached responses live: in memory, or in files on disk."""

import json
import os
import tempfile
from collections import OrderedDict

from skiff.headers import Headers
from skiff.response import Response


class MemoryCache:
    """A least-recently-used cache of responses, bounded by entry count."""

    def __init__(self, max_entries=256):
        self.max_entries = max_entries
        self._data = OrderedDict()

    def get(self, key):
        """Return the response stored under key, or None."""
        response = self._data.get(key)
        if response is not None:
            self._data.move_to_end(key)
        return response

    def set(self, key, response):
        """Store response under key, evicting the least recently used entry."""
        if key in self._data:
            self._data.move_to_end(key)
            if len(self._data) > self.max_entries:
                self._evict()
        self._data[key] = response

    def delete(self, key):
        self._data.pop(key, None)

    def _evict(self):
        """Drop the least recently used entry."""
        self._data.popitem(last=False)

    def __len__(self):
        return len(self._data)


class DiskCache:
    """Responses stored as JSON files in a directory, one file per key.

    Files are written to a temporary name and renamed into place, so that
    a reader never sees half a file.
    """

    def __init__(self, directory):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)

    def _path_for(self, key):
        return os.path.join(self.directory, key[:2], key + ".json")

    def get(self, key):
        """Return the response stored under key, or None."""
        path = self._path_for(key)
        if not os.path.exists(path):
            return None
        return self.load(path)

    def set(self, key, response):
        """Store response under key."""
        path = self._path_for(key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(_dump(response), f)
        os.replace(tmp, path)

    def load(self, path):
        """Read a stored response from path."""
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return Response(data["status"], data["reason"], Headers(data["headers"]),
                        data["body"].encode("latin-1"), data["url"])

    def delete(self, key):
        try:
            os.remove(self._path_for(key))
        except FileNotFoundError:
            pass

    def clear(self):
        """Remove every stored response."""
        for root, _, files in os.walk(self.directory):
            for name in files:
                if name.endswith(".json"):
                    os.remove(os.path.join(root, name))


def _dump(response):
    return {
        "status": response.status,
        "reason": response.reason,
        "headers": list(response.headers),
        "body": response.body.decode("latin-1"),
        "url": response.url,
    }
