"""The settings skiff reads, and how their text values are parsed."""

import re
from dataclasses import dataclass, field, fields

_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m)")
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0}


@dataclass
class Config:
    """Every setting, with its default."""

    base_url: str | None = None
    timeout: float = 10.0
    max_redirects: int = 10
    verify: bool = True
    cache_dir: str | None = None
    headers: dict = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data):
        """Build a Config from parsed file and environment values.

        Strings are converted to the type of each field; an unknown key is
        an error, so that a typo in a config file does not pass silently.
        """
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        values = dict(data)
        if isinstance(values.get("timeout"), str):
            values["timeout"] = parse_duration(values["timeout"])
        if isinstance(values.get("verify"), str):
            values["verify"] = parse_bool(values["verify"])
        if isinstance(values.get("max_redirects"), str):
            values["max_redirects"] = int(values["max_redirects"])
        return cls(**values)

    def validate(self):
        """Raise ValueError for settings that cannot work together."""
        if self.timeout <= 0:
            raise ValueError(f"timeout must be positive, not {self.timeout}")
        if self.max_redirects < 0:
            raise ValueError("max_redirects cannot be negative")
        if self.base_url is not None and not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http or https URL: {self.base_url!r}")


def parse_duration(text):
    """Parse a duration such as "250ms", "5s", "1m30s" or a bare "2.5" into seconds."""
    text = text.strip()
    try:
        return float(text)
    except ValueError:
        pass
    total, pos = 0.0, 0
    for m in _DURATION.finditer(text):
        if m.start() != pos:
            break
        total += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    if pos != len(text) or pos == 0:
        raise ValueError(f"invalid duration {text!r}")
    return total


def parse_bool(text):
    """Parse yes/no, true/false, on/off and 1/0, in any case."""
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"invalid boolean {text!r}")
