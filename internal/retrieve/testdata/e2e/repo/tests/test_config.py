import pytest

from skiff.config.loader import load, load_env, merge
from skiff.config.schema import parse_bool, parse_duration


def test_file_then_environment(tmp_path):
    path = tmp_path / "skiff.toml"
    path.write_text('[skiff]\nbase_url = "https://a.example/"\ntimeout = "5s"\n')
    config = load(str(path), environ={"SKIFF_TIMEOUT": "250ms"})
    assert config.base_url == "https://a.example/"
    assert config.timeout == 0.25


def test_env_headers():
    assert load_env({"SKIFF_HEADER_X_API_KEY": "k", "PATH": "/bin"}) == {"headers": {"X-Api-Key": "k"}}


def test_merge_nested():
    assert merge({"headers": {"A": "1"}}, {"headers": {"B": "2"}}) == {"headers": {"A": "1", "B": "2"}}


def test_unknown_setting(tmp_path):
    path = tmp_path / "skiff.toml"
    path.write_text("[skiff]\ntimout = 3\n")
    with pytest.raises(ValueError, match="timout"):
        load(str(path), environ={})


@pytest.mark.parametrize("text,seconds", [("250ms", 0.25), ("5s", 5), ("1m30s", 90), ("2.5", 2.5)])
def test_parse_duration(text, seconds):
    assert parse_duration(text) == seconds


def test_parse_bool():
    assert parse_bool("Yes") is True
    assert parse_bool("off") is False
