"""keras.utils.get_file (keras/utils/file_utils.py): the paths Keras 3.15 gives for files in its cache
folder (recorded from Keras on the same layout), extraction there, its argument errors, and eagerflow's
refusal to download (a FileNotFoundError naming the URL and the path to save it as)."""
import hashlib
import io
import os
import tarfile
import zipfile

import pytest

from eagerflow import keras


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "data.txt").write_text("hello")
    return tmp_path


def _rel(home, path):
    return os.path.relpath(path, home)


def test_cached_files_and_their_paths_as_keras(home):
    assert _rel(home, keras.utils.get_file("data.txt", origin="http://x/data.txt")) == "datasets/data.txt"
    assert _rel(home, keras.utils.get_file(origin="http://x/y/data.txt")) == "datasets/data.txt"
    digest = hashlib.sha256(b"hello").hexdigest()
    assert _rel(home, keras.utils.get_file("data.txt", origin="http://x/data.txt", file_hash=digest)) == \
        "datasets/data.txt"
    with pytest.raises(ValueError, match="sha256 file hash does not match"):
        keras.utils.get_file("data.txt", origin="http://x/data.txt", file_hash="0" * 64)


def test_absent_files_are_not_downloaded(home):
    with pytest.raises(FileNotFoundError) as info:
        keras.utils.get_file("other.npz", origin="https://example.com/other.npz")
    assert "https://example.com/other.npz" in str(info.value)
    assert os.path.join(str(home), "datasets", "other.npz") in str(info.value)


def test_archives_are_extracted_where_keras_puts_them(home):
    with tarfile.open(home / "datasets" / "arch.tar.gz", "w:gz") as archive:
        info = tarfile.TarInfo("inner/a.txt")
        info.size = 3
        archive.addfile(info, io.BytesIO(b"abc"))
    path = keras.utils.get_file("arch.tar.gz", origin="http://x/arch.tar.gz", extract=True)
    assert _rel(home, path) == "datasets/arch_extracted"  # Keras 3.15's answer
    assert sorted(os.listdir(path)) == ["inner"] and open(os.path.join(path, "inner", "a.txt")).read() == "abc"
    with zipfile.ZipFile(home / "datasets" / "z_archive", "w") as archive:
        archive.writestr("b.txt", "zip")
    path = keras.utils.get_file(origin="http://x/z", extract=True)
    assert _rel(home, path) == "datasets/z" and open(os.path.join(path, "b.txt")).read() == "zip"


def test_archive_members_outside_the_folder_are_refused(home):
    with tarfile.open(home / "datasets" / "evil.tar", "w") as archive:
        info = tarfile.TarInfo("../escaped.txt")
        info.size = 1
        archive.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(ValueError, match="Refusing to extract '../escaped.txt'"):
        keras.utils.get_file("evil.tar", origin="http://x/evil.tar", extract=True)
    assert not (home / "escaped.txt").exists() and not (home / "datasets" / "escaped.txt").exists()
    assert not (home / "datasets" / "evil_extracted").exists()


@pytest.mark.parametrize("kwargs, message", [
    ({"fname": "data.txt"}, 'Please specify the "origin" argument (URL of the file to download).'),
    ({"fname": "a/b.txt", "origin": "http://x"}, "Paths are no longer accepted as the `fname` argument. To specify "
     "the file's parent directory, use the `cache_dir` argument. Received: fname=a/b.txt"),
    ({"origin": "http://x/"}, "Can't parse the file name from the origin provided: 'http://x/'.Please specify the "
     "`fname` argument."),
])
def test_argument_errors_as_keras(home, kwargs, message):
    with pytest.raises(ValueError) as info:
        keras.utils.get_file(**kwargs)
    assert str(info.value) == message
