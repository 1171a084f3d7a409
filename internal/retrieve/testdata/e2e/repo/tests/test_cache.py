from skiff.cache import DiskCache, MemoryCache, cache_key, is_fresh
from skiff.headers import Headers
from skiff.response import Response


def make_response(headers=(), body=b"x"):
    return Response(200, "OK", Headers(list(headers)), body, "http://h/")


def test_memory_cache_roundtrip():
    cache = MemoryCache()
    cache.set("k", make_response())
    assert cache.get("k").body == b"x"


def test_disk_cache_roundtrip(tmp_path):
    cache = DiskCache(str(tmp_path))
    key = cache_key("GET", "http://h/")
    cache.set(key, make_response([("ETag", '"1"')], b"\xff\x00"))
    got = cache.get(key)
    assert got.body == b"\xff\x00"
    assert got.headers["ETag"] == '"1"'


def test_fresh_with_max_age():
    response = make_response([("Cache-Control", "max-age=60")])
    assert is_fresh(response)


def test_no_cache_is_never_fresh():
    response = make_response([("Cache-Control", "no-cache, max-age=60")])
    assert not is_fresh(response)
