"""tools.pyodide_dist: served names of the project's wheel change with its content."""

from pathlib import Path

from packaging.utils import parse_wheel_filename

from tools.pyodide_dist import content_tagged_name


def _wheel(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_the_build_tag_follows_the_content(tmp_path):
    a = content_tagged_name(_wheel(tmp_path, "ruleslab-0.1.0-py3-none-any.whl", b"one"))
    b = content_tagged_name(_wheel(tmp_path, "ruleslab-0.1.0-py3-none-any.whl", b"two"))
    assert a != b
    for served in (a, b):
        name, version, build, tags = parse_wheel_filename(served)
        assert (name, str(version)) == ("ruleslab", "0.1.0")
        assert build  # a valid build tag (it must start with a digit)
        assert served.split("-")[2].startswith("0")
        assert {str(t) for t in tags} == {"py3-none-any"}


def test_a_wheel_with_a_build_tag_keeps_its_name(tmp_path):
    wheel = _wheel(tmp_path, "ruleslab-0.1.0-7-py3-none-any.whl", b"x")
    assert content_tagged_name(wheel) == wheel.name
