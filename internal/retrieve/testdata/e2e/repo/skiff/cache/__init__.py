"""Response caches for Client(cache=...), and the HTTP rules they follow."""

from skiff.cache.policy import cache_key, cacheable, is_fresh, parse_cache_control
from skiff.cache.store import DiskCache, MemoryCache

__all__ = ["DiskCache", "MemoryCache", "cache_key", "cacheable", "is_fresh", "parse_cache_control"]
