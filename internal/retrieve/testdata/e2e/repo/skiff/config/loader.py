"""Loading the configuration: defaults, then the file, then the environment.

Later sources win: a SKIFF_TIMEOUT variable overrides the timeout of the
file, which overrides the default.
"""

import os
import tomllib

from skiff.config.schema import Config

ENV_PREFIX = "SKIFF_"
CONFIG_NAMES = ("skiff.toml", ".skiff.toml")


def find_config_file(start=None):
    """Return the nearest skiff.toml at or above start (default: the working
    directory), or None."""
    directory = os.path.abspath(start or os.getcwd())
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def load(path=None, environ=None):
    """Return the Config from the defaults, the config file and the environment.

    path defaults to the nearest skiff.toml; environ to os.environ.
    """
    data = {}
    path = path or find_config_file()
    if path is not None:
        data = merge(data, _read_toml(path))
    data = merge(data, load_env(os.environ if environ is None else environ))
    config = Config.from_dict(data)
    config.validate()
    return config


def load_env(environ, prefix=ENV_PREFIX):
    """Collect the settings given as environment variables.

    SKIFF_BASE_URL sets base_url; SKIFF_HEADER_X_API_KEY sets the header
    X-Api-Key.
    """
    data = {}
    for key, value in environ.items():
        if not key.startswith(prefix):
            continue
        name = key[len(prefix):].lower()
        if name.startswith("header_"):
            header = "-".join(p.capitalize() for p in name[len("header_"):].split("_"))
            data.setdefault("headers", {})[header] = value
        else:
            data[name] = value
    return data


def merge(base, override):
    """Merge override into a copy of base; nested dicts merge key by key."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def _read_toml(path):
    with open(path, "rb") as f:
        return tomllib.load(f).get("skiff", {})
