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


def test_the_kernels_own_wheels_are_found_in_its_installed_extension():
    from tools.pyodide_dist import KERNEL_WHEELS, kernel_extension_wheels

    wheels = kernel_extension_wheels()
    assert [parse_wheel_filename(w.name)[0] for w in wheels] == list(KERNEL_WHEELS)
    assert all(w.parent.name == "pypi" and w.is_file() for w in wheels)


def test_a_missing_kernel_wheel_is_named(tmp_path):
    import pytest

    from tools.pyodide_dist import KERNEL_EXTENSION_PYPI, PyodideDistError, kernel_extension_wheels

    (tmp_path / KERNEL_EXTENSION_PYPI).mkdir(parents=True)
    with pytest.raises(PyodideDistError, match="expected one piplite wheel"):
        kernel_extension_wheels(tmp_path)


def test_only_the_kernels_own_wheels_may_stand_for_it(tmp_path):
    """A wheel that is not one of the kernel's own (here: widgetsnbextension) is refused
    as a kernel wheel: micropip would prefer it to the kernel's index."""
    import pytest

    from tools.pyodide_dist import PyodideDistError, build_pyodide_dist

    wheel = tmp_path / "widgetsnbextension-4.0.999-py3-none-any.whl"
    wheel.write_bytes(b"")
    with pytest.raises(PyodideDistError, match="not one of"):
        build_pyodide_dist(tmp_path / "dist", kernel_wheels=[wheel], packages=[])
