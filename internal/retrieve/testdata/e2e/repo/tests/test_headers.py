import email.utils

from skiff.headers import Headers, format_header_name, parse_content_type, parse_retry_after


def test_parse_folds_continuation_lines():
    headers = Headers.parse("X-Long: a\r\n  b\r\nHost: example.org\r\n")
    assert headers["X-Long"] == "a b"
    assert headers["Host"] == "example.org"


def test_get_all_keeps_order():
    headers = Headers([("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
    assert headers.get_all("set-cookie") == ["a=1", "b=2"]


def test_setitem_replaces():
    headers = Headers({"Accept": "text/html"})
    headers["accept"] = "application/json"
    assert list(headers) == [("accept", "application/json")]


def test_retry_after_seconds():
    assert parse_retry_after("120") == 120


def test_retry_after_date():
    now = 1_700_000_000
    later = email.utils.formatdate(now + 30, usegmt=True)
    assert parse_retry_after(later, now=now) == 30


def test_format_header_name():
    assert format_header_name("x-request-id") == "X-Request-Id"


def test_parse_content_type():
    assert parse_content_type("Text/HTML; charset=utf-8") == ("text/html", {"charset": "utf-8"})
