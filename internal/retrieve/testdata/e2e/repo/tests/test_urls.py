import pytest

from skiff.urls import encode_query, join, parse, with_query


def test_parse_default_port():
    u = parse("https://example.org/a?b=1")
    assert (u.host, u.port, u.path, u.query) == ("example.org", 443, "/a", "b=1")


def test_parse_rejects_other_schemes():
    with pytest.raises(ValueError):
        parse("ftp://example.org/")


def test_join_relative():
    assert join("https://api.example.org/v1/", "users") == "https://api.example.org/v1/users"


def test_join_absolute_url():
    assert join("https://a.example/", "http://b.example/x") == "http://b.example/x"


def test_encode_query_repeats_lists():
    assert encode_query({"tag": ["a", "b"], "skip": None}) == "tag=a&tag=b"


def test_with_query_appends():
    assert with_query("http://h/p?x=1", {"y": 2}) == "http://h/p?x=1&y=2"
