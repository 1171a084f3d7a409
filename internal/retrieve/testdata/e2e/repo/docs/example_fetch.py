"""Example: fetch a few pages through a disk cache and report what was cached.

Run it twice; the second run answers from the cache for pages that allow it.

    python docs/example_fetch.py https://example.org/ https://example.org/about
"""

import sys
import tempfile

from skiff import Client
from skiff.cache import DiskCache


def fetch_all(urls, cache_dir):
    """Fetch every URL with one Client and return (url, status, seconds) rows."""
    rows = []
    with Client(cache=DiskCache(cache_dir), timeout=5.0) as client:
        for url in urls:
            response = client.get(url)
            rows.append((url, response.status, response.elapsed))
    return rows


def main():
    cache_dir = tempfile.gettempdir() + "/skiff-example-cache"
    for url, status, seconds in fetch_all(sys.argv[1:], cache_dir):
        print(f"{status} {seconds * 1000:7.1f} ms  {url}")


if __name__ == "__main__":
    main()
