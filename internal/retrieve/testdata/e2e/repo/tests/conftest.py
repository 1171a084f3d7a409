"""Fixtures: a real HTTP server on localhost that answers from a routing table."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from skiff import Client


class Routes:
    """Canned answers by path: (status, headers, body). Records what it received."""

    def __init__(self):
        self.answers = {}
        self.received = []

    def add(self, path, status=200, headers=None, body=b""):
        self.answers[path] = (status, headers or {}, body)


def _handler(routes):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self._answer()

        def do_POST(self):
            self._answer()

        def _answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            routes.received.append((self.command, self.path, dict(self.headers), self.rfile.read(length)))
            status, headers, body = routes.answers.get(self.path, (404, {}, b"not found"))
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Handler


@pytest.fixture
def routes():
    return Routes()


@pytest.fixture
def server(routes):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(routes))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture
def client(server):
    with Client(base_url=server + "/") as c:
        yield c
