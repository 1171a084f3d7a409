"""Configuration: defaults, then a skiff.toml file, then SKIFF_* variables."""

from skiff.config.loader import find_config_file, load
from skiff.config.schema import Config

__all__ = ["Config", "find_config_file", "load"]
