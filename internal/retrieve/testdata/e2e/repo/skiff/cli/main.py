"""The skiff command: fetch a URL, or show the configuration in effect.

    skiff get https://api.example.org/v1/users/42 --json
    skiff get users/42 -H "Accept: application/json"
    skiff config
"""

import argparse
import sys

from skiff.cache import DiskCache
from skiff.cli.output import format_response, print_error, use_color
from skiff.client import Client
from skiff.config.loader import load
from skiff.errors import SkiffError


def build_parser():
    parser = argparse.ArgumentParser(prog="skiff", description="A small HTTP client.")
    parser.add_argument("--config", help="path to a skiff.toml (default: search upward)")
    sub = parser.add_subparsers(dest="command", required=True)

    get = sub.add_parser("get", help="send a GET request and print the response")
    get.add_argument("url")
    get.add_argument("-H", "--header", action="append", default=[], help='"Name: value", repeatable')
    get.add_argument("--json", action="store_true", help="pretty-print the body as JSON")
    get.add_argument("--no-cache", action="store_true", help="bypass the response cache")

    sub.add_parser("config", help="print the configuration in effect")
    return parser


def parse_header_args(values):
    """Turn repeated -H "Name: value" arguments into a dict."""
    headers = {}
    for item in values:
        name, sep, value = item.partition(":")
        if not sep:
            raise SystemExit(f"skiff: bad header {item!r}, want \"Name: value\"")
        headers[name.strip()] = value.strip()
    return headers


def _make_client(config, use_cache=True):
    """A Client set up from the configuration."""
    cache = DiskCache(config.cache_dir) if use_cache and config.cache_dir else None
    return Client(
        base_url=config.base_url,
        headers=config.headers,
        max_redirects=config.max_redirects,
        cache=cache,
    )


def cmd_get(args, config):
    with _make_client(config, use_cache=not args.no_cache) as client:
        response = client.get(args.url, headers=parse_header_args(args.header))
    print(format_response(response, as_json=args.json, color=use_color(sys.stdout)))
    return 0 if response.ok else 1


def cmd_config(args, config):
    for name, value in sorted(vars(config).items()):
        print(f"{name} = {value!r}")
    return 0


COMMANDS = {"get": cmd_get, "config": cmd_config}


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        config = load(args.config)
        return COMMANDS[args.command](args, config)
    except ValueError as exc:
        print_error(f"configuration: {exc}")
        return 2
    except SkiffError as exc:
        print_error(str(exc))
        return 1


if __name__ == "__main__":
    sys.exit(main())
