import pytest

from skiff import Client, HTTPError, TooManyRedirects
from skiff.auth import BasicAuth
from skiff.cache import MemoryCache


def test_get_returns_body(client, routes):
    routes.add("/hello", body=b"hi")
    response = client.get("hello")
    assert response.status == 200
    assert response.text == "hi"


def test_params_are_encoded(client, routes):
    routes.add("/search?q=a+b&page=2", body=b"ok")
    assert client.get("search", params={"q": "a b", "page": 2}).ok


def test_default_user_agent(client, routes):
    routes.add("/ua")
    client.get("ua")
    _, _, headers, _ = routes.received[-1]
    assert headers["User-Agent"].startswith("skiff/")


def test_basic_auth_header(server, routes):
    routes.add("/private")
    with Client(base_url=server + "/", auth=BasicAuth("ada", "secret")) as client:
        client.get("private")
    _, _, headers, _ = routes.received[-1]
    assert headers["Authorization"] == "Basic YWRhOnNlY3JldA=="


def test_post_json(client, routes):
    routes.add("/items", status=201)
    response = client.post("items", json={"name": "oar"})
    assert response.status == 201
    method, _, headers, body = routes.received[-1]
    assert method == "POST"
    assert headers["Content-Type"] == "application/json"
    assert body == b'{"name": "oar"}'


def test_follows_redirect(client, routes):
    routes.add("/old", status=301, headers={"Location": "/new"})
    routes.add("/new", body=b"moved")
    assert client.get("old").text == "moved"


def test_redirect_loop_is_an_error(server, routes):
    routes.add("/loop", status=302, headers={"Location": "/loop"})
    with Client(base_url=server + "/", max_redirects=3) as client:
        with pytest.raises(TooManyRedirects):
            client.get("loop")


def test_raise_for_status(client, routes):
    routes.add("/gone", status=410)
    with pytest.raises(HTTPError) as info:
        client.get("gone").raise_for_status()
    assert info.value.response.status == 410


def test_cache_serves_fresh_response(server, routes):
    routes.add("/cached", headers={"Cache-Control": "max-age=60"}, body=b"v1")
    with Client(base_url=server + "/", cache=MemoryCache()) as client:
        assert client.get("cached").text == "v1"
        routes.add("/cached", headers={"Cache-Control": "max-age=60"}, body=b"v2")
        assert client.get("cached").text == "v1"
    assert len(routes.received) == 1
