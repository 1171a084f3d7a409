"""How the skiff command prints responses and errors."""

import json
import os
import sys

RESET = "\033[0m"
COLORS = {"status_ok": "\033[32m", "status_bad": "\033[31m", "header": "\033[36m", "error": "\033[1;31m"}


def use_color(stream):
    """Whether to color output on stream: a terminal, and NO_COLOR unset."""
    if os.environ.get("FORCE_COLOR"):
        return True
    return "NO_COLOR" not in os.environ


def colorize(text, color, enabled=True):
    """Wrap text in the ANSI escape for color when enabled."""
    if not enabled:
        return text
    return COLORS[color] + text + RESET


def format_response(response, as_json=False, color=False):
    """The status line, the headers and the body of response, ready to print."""
    status = f"{response.status} {response.reason}"
    lines = [colorize(status, "status_ok" if response.ok else "status_bad", color)]
    for name, value in response.headers:
        lines.append(colorize(name, "header", color) + ": " + value)
    lines.append("")
    if as_json:
        lines.append(json.dumps(response.json(), indent=2, ensure_ascii=False))
    else:
        lines.append(response.text)
    return "\n".join(lines)


def print_error(message):
    """Print message to stderr as a skiff error."""
    print(colorize("skiff: " + message, "error", use_color(sys.stderr)), file=sys.stderr)
