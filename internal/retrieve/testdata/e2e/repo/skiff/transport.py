"""Connections: opening them, pooling them, and sending requests over them."""

import http.client
import socket
import ssl
import time

from skiff.errors import ConnectTimeout
from skiff.headers import Headers
from skiff.response import Response
from skiff.urls import unparse


class ConnectionPool:
    """Idle connections, kept per (scheme, host, port) for reuse."""

    def __init__(self, max_per_host=4):
        self.max_per_host = max_per_host
        self._idle = {}

    def get(self, key):
        """Return an idle connection for key, or None if there is none."""
        conns = self._idle.get(key)
        if conns:
            return conns.pop()
        return None

    def put(self, key, conn):
        """Keep conn for reuse, or close it if the pool for key is full."""
        conns = self._idle.setdefault(key, [])
        if len(conns) >= self.max_per_host:
            conn.close()
            return
        conns.append(conn)

    def clear(self):
        """Close every idle connection."""
        for conns in self._idle.values():
            for conn in conns:
                conn.close()
        self._idle.clear()


class Transport:
    """Sends requests over pooled HTTP/1.1 connections."""

    def __init__(self, timeout=10.0, verify=True, pool=None):
        self.timeout = timeout
        self.verify = verify
        self.pool = pool or ConnectionPool()

    def send(self, method, url, headers, body=None):
        """Send one request to a parsed URL and read the whole response."""
        key = (url.scheme, url.host, url.port)
        conn = self.pool.get(key) or self._connect(url)
        target = url.path + ("?" + url.query if url.query else "")
        start = time.monotonic()
        conn.request(method, target, body=body, headers=dict(headers))
        raw = conn.getresponse()
        data = raw.read()
        elapsed = time.monotonic() - start
        if raw.getheader("Connection", "").lower() == "close":
            conn.close()
        else:
            self.pool.put(key, conn)
        return Response(raw.status, raw.reason, Headers(raw.getheaders()), data, unparse(url), elapsed)

    def _connect(self, url):
        """Open a new connection to the host of url within the timeout."""
        try:
            if url.scheme == "https":
                context = ssl.create_default_context()
                if not self.verify:
                    context.check_hostname = False
                    context.verify_mode = ssl.CERT_NONE
                conn = http.client.HTTPSConnection(url.host, url.port, timeout=self.timeout, context=context)
            else:
                conn = http.client.HTTPConnection(url.host, url.port, timeout=self.timeout)
            conn.connect()
        except socket.timeout:
            raise ConnectTimeout(url.host, self.timeout) from None
        return conn

    def close(self):
        """Close the pooled connections."""
        self.pool.clear()
